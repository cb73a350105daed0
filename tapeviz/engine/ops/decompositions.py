"""Matrix decompositions with TensorFlow's gradients: `svd` (`Svd`) and `eigh`/`eigvalsh`
(`SelfAdjointEigV2`).

The forward passes are LAPACK's (NumPy), in the input's dtype. Singular vectors and
eigenvectors are defined up to sign (and, for repeated values, up to a rotation), and
TensorFlow's Eigen kernels may pick other signs than LAPACK: values, singular values, and
anything sign-free (a reconstruction, `u * u`) agree; the sign of a column may not. The VJPs
are TensorFlow's (linalg_grad.py), written with registered ops so that second derivatives
work; like TensorFlow's, they assume distinct singular values / eigenvalues.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError, NotFoundError
from ..op import apply, defop
from ._base import require, tensor
from .axes import expand_dims, matrix_transpose
from .elementwise import reciprocal, square
from .linalg import matmul
from .makers import eye


def _safe_reciprocal(x, epsilon=1e-20):
    """1/x, but 0 where x is 0 (TensorFlow's `_SafeReciprocal`)."""
    return x * reciprocal(x * x + epsilon)


def _diag(d):
    """The diagonal matrices of the vectors `d` (..., k)."""
    return expand_dims(d, -2) * eye(d.shape[-1], dtype=d.dtype)


def _off_diagonal_inverse_gaps(values):
    """F[i, j] = 1 / (values[j] - values[i]) off the diagonal, 0 on it."""
    gaps = expand_dims(values, -2) - expand_dims(values, -1)
    return _safe_reciprocal(gaps) * (1 - eye(values.shape[-1], dtype=values.dtype))


def _matrix_input(x, op, what):
    """`x` as a float32/float64 tensor of rank >= 2, or TensorFlow's error for it."""
    x = require(tensor(x), op, "f", "a floating-point")
    if x.dtype.name == "float16":    # TensorFlow has no CPU kernel for half precision here
        raise NotFoundError(f"Could not find device for node: {op}[T=DT_HALF]: {op} has no "
                            f"float16 kernel on a CPU (input shape {tuple(x.shape)}). Fix: "
                            f"tf.cast(x, tf.float32) first [Op:{op}]", op)
    if x._value.ndim < 2:
        raise InvalidArgumentError(f"{op}: Input tensor 0 must have rank >= 2, got "
                                   f"{x._value.ndim} (shape {tuple(x.shape)}). Fix: pass "
                                   f"{what} [Op:{op}]", op)
    return x


# --- SVD ---------------------------------------------------------------------------------------
def _svd_forward(a, full_matrices, compute_uv):
    # a matrix with a NaN or an infinity gets NaN values and vectors, as TensorFlow's SVD
    # (NumPy's would raise)
    finite = np.isfinite(a).all(axis=(-2, -1))
    a = np.where(finite[..., None, None], a, 0)
    if not compute_uv:
        s = np.linalg.svd(a, compute_uv=False)
        s[~finite] = np.nan
        return (s,)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    u[~finite], s[~finite], vh[~finite] = np.nan, np.nan, np.nan
    return s, u, np.swapaxes(vh, -1, -2)     # TensorFlow returns v, not vᵀ


def _svd_vjp(g, y, a, full_matrices, compute_uv):
    if not compute_uv:       # TensorFlow's rule: u diag(g_s) vᵀ from a fresh decomposition
        g_s = g[0] if isinstance(g, tuple) else g
        _, u, v = svd(a)
        return matmul(u, matmul(_diag(g_s), v, adjoint_b=True))
    (g_s, g_u, g_v), (s, u, v) = g, y
    m, n = a.shape[-2], a.shape[-1]
    use_adjoint = m > n
    if use_adjoint:          # the formula below is for m <= n: work on aᵀ
        m, n, u, v, g_u, g_v = n, m, v, u, g_v, g_u
    if full_matrices and abs(m - n) > 1:
        raise NotImplementedError(
            f"svd gradient is not implemented for abs(m - n) > 1 when full_matrices is True. "
            f"Received: m={m} and n={n} from op input with shape={tuple(a.shape)}. Fix: "
            "decompose with full_matrices=False (the default) to differentiate")
    s_mat = _diag(s)
    f = _off_diagonal_inverse_gaps(square(s))
    v1, g_v1 = v[..., :, :m], g_v[..., :, :m]
    f_u = f * matmul(u, g_u, adjoint_a=True)
    f_v = f * matmul(v1, g_v1, adjoint_a=True)
    inner = (_diag(g_s) + matmul(f_u + matrix_transpose(f_u), s_mat)
             + matmul(s_mat, f_v + matrix_transpose(f_v)))
    grad = matmul(u, matmul(inner, v1, adjoint_b=True))
    if m != n:
        gv1t = matrix_transpose(g_v1)
        outside = gv1t - matmul(matmul(gv1t, v1), v1, adjoint_b=True)
        if full_matrices:
            v2, g_v2 = v[..., :, m:n], g_v[..., :, m:n]
            outside = outside - matmul(matmul(v1, g_v2, adjoint_a=True), v2, adjoint_b=True)
        grad = grad + matmul(matmul(u, _diag(_safe_reciprocal(s))), outside)
    return matrix_transpose(grad) if use_adjoint else grad


_svd = defop("Svd", _svd_forward, [_svd_vjp], "s, u, v = svd(a): a = u diag(s) vᵀ",
             ["∂a = u (diag(g_s) + (F∘(uᵀg_u) + …) s + s (F∘(vᵀg_v) + …)) vᵀ + (m ≠ n terms)"],
             n_out=-1)


def svd(tensor_, full_matrices=False, compute_uv=True, name=None):
    """The singular values `s` (descending) of each matrix, and with `compute_uv` the
    vectors: `(s, u, v)` with `a = u @ diag(s) @ vᵀ` (v, not vᵀ, as TensorFlow)."""
    a = _matrix_input(tensor_, "Svd", "a matrix, e.g. tf.reshape(x, [rows, columns])")
    out = apply(_svd, (a,), {"full_matrices": bool(full_matrices),
                             "compute_uv": bool(compute_uv)})
    return out if compute_uv else out[0]


# --- symmetric eigendecomposition --------------------------------------------------------------
def _eigh_forward(a, compute_v):
    if not np.isfinite(a).all():
        raise np.linalg.LinAlgError("Self-adjoint eigen decomposition was not successful. "
                                    "The input might not be valid.")
    if not compute_v:
        return (np.linalg.eigvalsh(a, UPLO="L"),)
    return tuple(np.linalg.eigh(a, UPLO="L"))      # the lower triangle, as TensorFlow's kernel


def _eigh_vjp(g, y, a, compute_v):
    if compute_v:
        (g_e, g_v), (e, v) = g, y
        inner = _diag(g_e) + _off_diagonal_inverse_gaps(e) * matmul(v, g_v, adjoint_a=True)
    else:
        g_e = g[0] if isinstance(g, tuple) else g
        _, v = eigh(a)
        inner = _diag(g_e)
    grad = matmul(v, matmul(inner, v, adjoint_b=True))
    # only the lower triangle is read: fold the upper part onto it, halve the diagonal
    n = a.shape[-1]
    lower = np.tril(np.ones((n, n), a._value.dtype), -1)
    return (grad + matrix_transpose(grad)) * lower + grad * np.eye(n, dtype=a._value.dtype)


_eigh = defop("SelfAdjointEigV2", _eigh_forward, [_eigh_vjp],
              "e, v = eigh(a) (lower triangle of a symmetric a = v diag(e) vᵀ)",
              ["∂a = lower(v (diag(g_e) + F∘(vᵀg_v)) vᵀ, symmetrized)"], n_out=-1)


def _eigh_input(tensor_, op):
    a = _matrix_input(tensor_, op, "a square matrix")
    if a.shape[-1] != a.shape[-2]:
        raise InvalidArgumentError(f"{op}: Input matrix must be square, got shape "
                                   f"{tuple(a.shape)}. Fix: pass a symmetric matrix, e.g. "
                                   f"x @ tf.transpose(x) [Op:{op}]", op)
    return a


def eigh(tensor_, name=None):
    """Eigenvalues (ascending) and eigenvectors (columns) of each self-adjoint matrix, from
    its lower triangle."""
    return apply(_eigh, (_eigh_input(tensor_, "SelfAdjointEigV2"),), {"compute_v": True})


def eigvalsh(tensor_, name=None):
    """The eigenvalues (ascending) of each self-adjoint matrix, from its lower triangle."""
    return apply(_eigh, (_eigh_input(tensor_, "SelfAdjointEigV2"),), {"compute_v": False})[0]


__all__ = ["svd", "eigh", "eigvalsh"]
