"""Matrix ops and norms. `matmul`'s VJPs are matmuls, so nested tapes and Jacobians reuse them."""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import dtype_mismatch, flag, norm_axis, pair, require, tensor
from .axes import reshape, transpose
from .elementwise import abs, sqrt
from .lu import lu_determinant, lu_factor, lu_inverse, lu_solve
from .reduce import _spread, reduce_max, reduce_sum
from .spectral import svd as _svd, top_singular_outer as _top_singular_outer


def _mt(x):
    return x.swapaxes(-1, -2)   # (the method: np.swapaxes adds a Python wrapper around it)


def _matmul_forward(a, b, ta, tb):
    return np.matmul(_mt(a) if ta else a, _mt(b) if tb else b)


def _matmul_da(g, y, a, b, ta, tb):
    if ta:
        return _vjp_product(b, g, tb, True)
    return _vjp_product(g, b, False, not tb)


def _matmul_db(g, y, a, b, ta, tb):
    if tb:
        return _vjp_product(g, a, True, ta)
    return _vjp_product(a, g, not ta, False)


def _vjp_product(x, y, ta, tb):
    # the op itself, not `matmul`: a recorded product's operand and the upstream gradient
    # fit together, but for an `output_gradients` of another dtype, refused as TensorFlow's
    if x._value.dtype is not y._value.dtype and x._value.dtype != y._value.dtype:
        raise dtype_mismatch("MatMul", x, y)
    return apply(_matmul, (x, y), {"ta": ta, "tb": tb})


_matmul = defop("MatMul", _matmul_forward, [_matmul_da, _matmul_db], "y = a @ b",
                ["∂a = g @ bᵀ", "∂b = aᵀ @ g"], saves=((0, 1), False))


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           name=None):
    """Matrix product over the last two axes (leading axes broadcast)."""
    x, y = pair(a, b, "MatMul")
    if transpose_a.__class__ is not bool or transpose_b.__class__ is not bool:
        transpose_a = flag(transpose_a, "transpose_a", "MatMul", x.shape)
        transpose_b = flag(transpose_b, "transpose_b", "MatMul", y.shape)
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    if x._value.ndim < 2 or y._value.ndim < 2:
        raise InvalidArgumentError(
            f"MatMul: in[0] and in[1] must be at least rank 2, got shapes {tuple(x.shape)} and "
            f"{tuple(y.shape)} ({x.dtype.name}). Fix: tv.reshape a vector to (1, n) or (n, 1), "
            "or use tv.tensordot / multiply [Op:MatMul]", "MatMul")
    k1 = x._value.shape[-2 if ta else -1]
    k2 = y._value.shape[-1 if tb else -2]
    if k1 != k2:
        raise InvalidArgumentError(
            f"Matrix size-incompatible: In[0]: {list(x.shape)}, In[1]: {list(y.shape)} "
            f"(dtype {x.dtype.name}): the inner dimensions {k1} and {k2} differ. Fix: "
            "(..., n, k) @ (..., k, m); transpose an operand (transpose_b=True) or check the "
            "layer sizes [Op:MatMul]", "MatMul")
    require(x, "MatMul", "fiu", "a numeric")
    try:
        if x._value.ndim > 2 or y._value.ndim > 2:
            np.broadcast_shapes(x._value.shape[:-2], y._value.shape[:-2])
    except ValueError:
        raise InvalidArgumentError(
            f"MatMul: batch dimensions do not broadcast: In[0]: {list(x.shape)}, In[1]: "
            f"{list(y.shape)} (dtype {x.dtype.name}). Fix: the leading (batch) axes must be "
            "equal or 1; tv.reshape or tv.expand_dims one operand [Op:MatMul]", "MatMul") from None
    return apply(_matmul, (x, y), {"ta": ta, "tb": tb})


def _inv_forward(x, adjoint):
    # TensorFlow inverts through the same LU as solve and refuses a matrix with a zero pivot
    lu, perm, singular = lu_factor(_mt(x).conj() if adjoint else x)
    if singular:
        raise ValueError("Input is not invertible (its LU factorization has a zero pivot)")
    return lu_inverse(lu, perm)


def _inv_vjp(g, y, x, adjoint):
    if adjoint:   # y = x⁻ᴴ
        return -matmul(y, matmul(g, y, transpose_a=True))
    return -matmul(y, matmul(g, y, transpose_b=True), transpose_a=True)


_inv = defop("MatrixInverse", _inv_forward, [_inv_vjp], "y = x⁻¹", ["∂x = -yᵀ g yᵀ"])


def inv(input, adjoint=False, name=None):
    """The inverse of a square matrix (or of each in a batch); `adjoint=True`: of its
    (conjugate) transpose."""
    x = require(tensor(input), "MatrixInverse", "f", "a floating-point")
    _square(x, "MatrixInverse")
    return apply(_inv, (x,), {"adjoint": bool(adjoint)})


def _det_vjp(g, y, x):
    # TensorFlow's gradient: g · det(x) · inv(x, adjoint=True), the LU of xᵀ deciding whether
    # x is invertible
    scale = reshape(g * y, g.shape + (1, 1))
    return scale * inv(x, adjoint=True)


_det = defop("MatrixDeterminant", lambda x: lu_determinant(*lu_factor(x)[:2]), [_det_vjp],
             "y = det(x)", ["∂x = g · det(x) · x⁻ᵀ"])


def det(input, name=None):
    x = require(tensor(input), "MatrixDeterminant", "f", "a floating-point")
    _square(x, "MatrixDeterminant")
    return apply(_det, (x,))


def _solve_forward(a, b, adjoint):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(_mt(a).conj() if adjoint else a, batch + a.shape[-2:])
    lu, perm, singular = lu_factor(a)
    if singular:       # TensorFlow's test: a pivot of its LU is exactly 0
        raise ValueError("Input matrix is not invertible (its LU factorization has a zero "
                         "pivot)")
    return lu_solve(lu, perm, np.broadcast_to(b, batch + b.shape[-2:]))


def _solve_dmatrix(g, y, a, b, adjoint):
    db = _solve_db(g, y, a, b, adjoint)
    if adjoint:   # y = a⁻ᴴ b
        return -matmul(y, db, transpose_b=True)
    return -matmul(db, y, transpose_b=True)


def _solve_db(g, y, a, b, adjoint):
    return apply(_solve, (a, g), {"adjoint": not adjoint})


_solve = defop("MatrixSolve", _solve_forward, [_solve_dmatrix, _solve_db], "y = a⁻¹ b",
               ["∂a = -(a⁻ᵀ g) yᵀ", "∂b = a⁻ᵀ g"])


def solve(matrix, rhs, adjoint=False, name=None):
    """The solution x of `matrix @ x = rhs` (`adjoint=True`: of `matrixᴴ @ x = rhs`)."""
    a = require(tensor(matrix), "MatrixSolve", "f", "a floating-point")
    b = tensor(rhs, a.dtype)
    if b._value.dtype != a._value.dtype:
        from ._base import dtype_mismatch
        raise dtype_mismatch("MatrixSolve", a, b)
    _square(a, "MatrixSolve")
    if b._value.ndim != a._value.ndim or b._value.shape[-2] != a._value.shape[-1]:
        raise InvalidArgumentError(
            f"MatrixSolve: All input tensors must have the same rank, and the rows of rhs must "
            f"match the matrix: matrix shape {tuple(a.shape)}, rhs shape {tuple(b.shape)}. "
            "Fix: give rhs shape (..., n, k), e.g. tv.reshape(b, [-1, 1]) for one vector "
            "[Op:MatrixSolve]", "MatrixSolve")
    return apply(_solve, (a, b), {"adjoint": bool(adjoint)})


def _square(x, name):
    if x._value.ndim < 2 or x._value.shape[-1] != x._value.shape[-2]:
        raise InvalidArgumentError(f"{name}: input must be a square matrix (or a batch of them), "
                                   f"got shape {tuple(x.shape)} dtype {x.dtype.name}. Fix: pass "
                                   f"a tensor of shape (..., n, n), its last two axes the "
                                   f"matrix's [Op:{name}]", name)


def _set_diag_forward(g, shape):
    out = np.zeros(g.shape[:-1] + tuple(shape), dtype=g.dtype)
    k = min(shape)
    out[..., np.arange(k), np.arange(k)] = g
    return out


_set_diag = defop("MatrixSetDiagGrad", _set_diag_forward,
                  [lambda g, y, d, shape: diag_part(g)], "y = zeros with d on the diagonal",
                  ["∂d = diag(g)"])
_diag_part = defop("MatrixDiagPart", lambda x: np.diagonal(x, axis1=-2, axis2=-1).copy(),
                   [lambda g, y, x: apply(_set_diag, (g,), {"shape": x._value.shape[-2:]})],
                   "y = diag(x)", ["∂x = g on the diagonal"])


def diag_part(input, name=None):
    x = tensor(input)
    if x._value.ndim < 2:
        raise InvalidArgumentError(f"MatrixDiagPart: input must be at least rank 2, got shape "
                                   f"{tuple(x.shape)} dtype {x.dtype.name}. Fix: pass a matrix "
                                   f"(..., m, n); a vector is already its own diagonal "
                                   f"[Op:MatrixDiagPart]", "MatrixDiagPart")
    return apply(_diag_part, (x,))


def trace(x, name=None):
    return reduce_sum(diag_part(x), axis=-1)


def _tensordot_axes(axes, x, y):
    """`axes` of tv.tensordot as two lists of axes (of `x`, of `y`), checked as TF does."""
    na, nb = x._value.ndim, y._value.ndim
    where = f"tensordot of shapes {tuple(x.shape)} and {tuple(y.shape)}"
    if hasattr(axes, "_value"):       # a tensor of axes
        axes = np.asarray(axes._value).tolist()
    if isinstance(axes, (int, np.integer)) and not isinstance(axes, bool):
        n = int(axes)
        if n < 0:
            raise ValueError(f"{where}: `axes` must be at least 0. Received: {n}. Fix: pass "
                             "the number of trailing axes of a to contract with the leading "
                             "axes of b, e.g. axes=1 for a matrix product")
        if n > na or n > nb:
            raise ValueError(f"{where}: `axes` must not be larger than the number of "
                             f"dimensions of either tensor. Received {n}, vs tensor dimensions "
                             f"{na} and {nb}. Fix: use axes <= {min(na, nb)}")
        return list(range(na - n, na)), list(range(n))
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise TypeError(f"{where}: `axes` must be an int or a pair of axis lists, got "
                        f"{axes!r}. Fix: e.g. axes=1 or axes=[[1], [0]]")
    lists = []
    for name, v, n in (("a", axes[0], na), ("b", axes[1], nb)):
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        for a in v:
            if not isinstance(a, (int, np.integer)) or isinstance(a, bool):
                raise TypeError(f"{where}: the axes of {name} must be ints, got {a!r}. "
                                "Fix: e.g. axes=[[1], [0]]")
            if not -n <= a < n:
                raise IndexError(f"{where}: axis {a} of {name} is out of range for its {n} "
                                 f"dimensions. Fix: use axes in [-{n}, {n})")
        lists.append([int(a) % n for a in v])
    if len(lists[0]) != len(lists[1]):
        raise ValueError(f"{where}: Different number of contraction axes `a` and `b`, "
                         f"{len(lists[0])} != {len(lists[1])}. Fix: list as many axes of a "
                         "as of b, e.g. axes=[[1], [0]]")
    return lists


def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """`tf.linalg.matvec`: matrix (..., m, n) times vector (..., n), as TensorFlow: a matmul
    with the vector as a one-column matrix (so its errors are MatMul's)."""
    x, v = pair(a, b, "MatMul")
    if v._value.ndim < 1:
        raise InvalidArgumentError(
            f"matvec: the vector must have rank at least 1, got shape {tuple(v.shape)} "
            f"({v.dtype.name}). Fix: pass a (..., n) tensor, e.g. tv.reshape(b, [-1])",
            "MatMul")
    product = matmul(x, reshape(v, v._value.shape + (1,)), transpose_a=transpose_a,
                     adjoint_a=adjoint_a)
    return reshape(product, product._value.shape[:-1])


def tensordot(a, b, axes, name=None):
    x, y = pair(a, b, "TensorDot")
    ax, by = _tensordot_axes(axes, x, y)
    sa, sb = [x._value.shape[i] for i in ax], [y._value.shape[i] for i in by]
    if sa != sb:
        raise InvalidArgumentError(
            f"TensorDot (MatMul): Matrix size-incompatible: In[0]: {list(x.shape)}, In[1]: "
            f"{list(y.shape)} (dtype {x.dtype.name}): contracted axes {ax} and {by} have sizes "
            f"{sa} and {sb}. Fix: contract axes of equal size (check `axes`) [Op:MatMul]",
            "MatMul")
    free_a = [i for i in range(x._value.ndim) if i not in ax]
    free_b = [i for i in range(y._value.ndim) if i not in by]
    n = int(np.prod([x._value.shape[i] for i in ax]))
    a2 = reshape(transpose(x, free_a + ax), [-1, n])
    b2 = reshape(transpose(y, by + free_b), [n, -1])
    out_shape = [x._value.shape[i] for i in free_a] + [y._value.shape[i] for i in free_b]
    return reshape(matmul(a2, b2), out_shape)


# --- norms ---------------------------------------------------------------------------------------
def _spectral_forward(x, axes, keepdims):
    top = _svd(x, axes)[1][..., 0]
    if keepdims:
        top = np.expand_dims(top, tuple(sorted(a % x.ndim for a in axes)))
    return np.asarray(top).astype(x.dtype)


def _spectral_vjp(g, y, x, axes, keepdims):
    # d sigma_1 / dX = u_1 v_1^T (the top singular pair, unique when sigma_1 is simple), an op
    # whose own VJP makes second derivatives exact
    return _spread(g, y, x, axes) * apply(_top_singular_outer, (x,), {"axes": axes})


_spectral_norm = defop("SpectralNorm", _spectral_forward, [_spectral_vjp],
                       "y = σ₁(x), the largest singular value over two axes",
                       ["∂x = g · u₁ v₁ᵀ (the top singular vectors)"])

def norm(tensor_, ord="euclidean", axis=None, keepdims=None, name=None):
    """TensorFlow's `tf.norm`. With `axis` a pair of axes, a matrix norm: 'fro'/'euclidean'
    (Frobenius), 1 (largest column sum of |x|), inf (largest row sum), 2 (largest singular
    value). Otherwise a vector norm over `axis` (all axes when None): 'euclidean' or 2, 1,
    inf, or any p > 0 as (Σ|x|^p)^(1/p). Like TF, the Euclidean norm of zero has a NaN
    gradient (sqrt at 0)."""
    x = tensor(tensor_)
    require(x, "norm", "f", "a floating-point")
    keep = bool(keepdims)
    ndim = x._value.ndim
    if isinstance(axis, (list, tuple)) and len(axis) == 1:
        axis = axis[0]
    if isinstance(axis, (list, tuple)):
        axes = norm_axis(axis, ndim, "norm", x.shape)
        if len(axis) != 2 or len(axes) != 2:
            raise ValueError(f"norm: 'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {list(axis)} (input shape {tuple(x.shape)}). Fix: "
                             "norm over all axes with axis=None, or reduce the others first")
        if not (ord in ("euclidean", "fro") if isinstance(ord, str) else
                not isinstance(ord, bool) and ord in (1, 2, np.inf)):
            raise ValueError(f"'ord' must be a supported matrix norm in ['euclidean', 'fro', 1, "
                             f"2, inf], got {ord!r}. Fix: use one of those, or a vector norm "
                             "(one axis) for other orders")
        rows, cols = (int(a) % ndim for a in axis)
        if ord in ("euclidean", "fro"):
            return sqrt(reduce_sum(x * x, axis=[rows, cols], keepdims=keep))
        if ord == 2:
            return apply(_spectral_norm, (x,), {"axes": (rows, cols), "keepdims": keep})
        over, then = (rows, cols) if ord == 1 else (cols, rows)   # column sums, or row sums
        out = reduce_max(reduce_sum(abs(x), axis=over, keepdims=True), axis=then,
                         keepdims=True)
        return out if keep else reshape(out, [s for i, s in enumerate(x.shape)
                                              if i not in (rows, cols)])
    if isinstance(ord, str) and ord != "euclidean" or isinstance(ord, bool) or \
            not isinstance(ord, (str, int, float, np.integer, np.floating)) or \
            not isinstance(ord, str) and not ord > 0:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord!r}. Fix: use "
                         "'euclidean', 1, 2, np.inf or any number > 0 (for 'fro', pass two "
                         "axes)")
    if ord in ("euclidean", 2, 2.0):
        return sqrt(reduce_sum(x * x, axis=axis, keepdims=keep))
    if ord == 1:
        return reduce_sum(abs(x), axis=axis, keepdims=keep)
    if ord == np.inf:
        return reduce_max(abs(x), axis=axis, keepdims=keep)
    p = float(ord)
    return reduce_sum(abs(x) ** p, axis=axis, keepdims=keep) ** (1.0 / p)


__all__ = ["det", "diag_part", "inv", "matmul", "norm", "tensordot", "trace"]
