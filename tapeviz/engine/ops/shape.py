"""Shape ops: reshape, broadcast, transpose, joining, splitting, tiling. VJPs move `g` back.

`g` may carry extra leading (Jacobian batch) dimensions; `lead(g, y)` counts them and each
rule keeps them in front.
"""
from __future__ import annotations

from math import prod as _prod

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import lead, norm_axis, same_dtype, tensor


def _shape_list(shape):
    if hasattr(shape, "_value"):
        shape = np.asarray(shape._value).tolist()
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    if shape is None:
        raise ValueError("Attempt to convert a value (None) to a shape. Fix: pass a list of ints, "
                         "e.g. [2, -1]")
    if isinstance(shape, (str, bytes)) or any(isinstance(s, (str, bytes, list, tuple))
                                              for s in shape):
        raise InvalidArgumentError(f"a shape (or perm, multiples) must be a vector of int32 or "
                                   f"int64, got {shape!r}. Fix: pass a list of ints, e.g. [2, -1]",
                                   "shape")
    return [int(s) if s is not None else -1 for s in shape]


# --- reshape, broadcast ---------------------------------------------------------------------
_reshape = defop("Reshape", lambda x, shape: np.reshape(x, shape),
                 [lambda g, y, x, shape: reshape(g, g.shape[:lead(g, y)] + x.shape)],
                 "y = reshape(x)", ["∂x = reshape(g, x.shape)"])


def reshape(tensor_, shape, name=None):
    x = tensor(tensor_)
    if type(shape) is tuple and len(shape) <= 64 and \
            all(type(s) is int and s >= 0 for s in shape) and _prod(shape) == x._value.size:
        return apply(_reshape, (x,), {"shape": shape})   # valid as given (the engine's calls)
    requested = np.asarray(shape._value if hasattr(shape, "_value") else shape)
    if requested.size and requested.dtype.kind == "f":   # () is a valid (scalar) shape
        raise InvalidArgumentError(
            f"Reshape: the shape must hold integers (int32 or int64), got {shape!r} for a tensor "
            f"of shape {tuple(x.shape)}. Fix: use ints, e.g. tv.reshape(x, [2, -1]) "
            "[Op:Reshape]", "Reshape")
    shape = tuple(_shape_list(shape))
    check_rank(len(shape), "Reshape")
    known = int(np.prod([s for s in shape if s != -1]))
    size = x._value.size
    if (shape.count(-1) > 1 or any(s < -1 for s in shape)
            or (-1 not in shape and known != size)
            or (-1 in shape and (known == 0 or size % known))):
        why = (f"has {known}" if -1 not in shape else
               "has more than one -1" if shape.count(-1) > 1 else
               "has a negative dimension other than -1" if any(s < -1 for s in shape) else
               f"cannot be completed: the known dimensions multiply to {known}, which does not "
               f"divide {size}")
        raise InvalidArgumentError(
            f"Reshape: input to reshape is a tensor with {size} values (shape "
            f"{tuple(x.shape)}, dtype {x.dtype.name}), but the requested shape {list(shape)} "
            f"{why}. Fix: the element counts must match; use -1 for one axis [Op:Reshape]",
            "Reshape")
    return apply(_reshape, (x,), {"shape": shape})


def check_rank(rank: int, op_name: str):
    """NumPy (hence tapeviz) arrays have at most 64 dimensions; TensorFlow allows 254."""
    if rank > 64:
        raise InvalidArgumentError(
            f"{op_name}: the requested shape has {rank} dimensions, but tapeviz tensors are NumPy "
            f"arrays, which have at most 64. Fix: use fewer dimensions (reshape some together) "
            f"[Op:{op_name}]", op_name)


def _broadcast_to_vjp(g, y, x, shape):
    # the k Jacobian-batch axes stay in front: sum the axes broadcasting added behind them
    k = lead(g, y)
    added = y.ndim - x.ndim
    if added:
        g = reduce_sum(g, axis=list(range(k, k + added)))
    return sum_to(g, g.shape[:k] + x.shape)


_NDITER_FLAGS, _READONLY = ["multi_index", "refs_ok", "zerosize_ok"], ["readonly"]


def _broadcast_forward(x, shape):
    if shape and min(shape) >= 0 and type(x) is np.ndarray:
        # np.broadcast_to's own nditer, without the Python checks around it (half its cost):
        # the same read-only view
        return np.nditer((x,), flags=_NDITER_FLAGS, op_flags=_READONLY, itershape=shape,
                         order="C").itviews[0]
    return np.broadcast_to(x, shape)


_broadcast_to = defop("BroadcastTo", _broadcast_forward,
                      [_broadcast_to_vjp],
                      "y = broadcast_to(x, shape)", ["∂x = sum of g over the broadcast axes"])


def broadcast_to(input, shape, name=None):
    x = tensor(input)
    shape = tuple(_shape_list(shape))
    if tuple(x.shape) == shape:
        return x
    return apply(_broadcast_to, (x,), {"shape": shape})


def spread_to(x, shape: tuple):
    """`broadcast_to` for a VJP (``shape`` a tuple of ints): `sum_to`'s counterpart (a
    reduction's VJP spreads its upstream gradient)."""
    if x._value.shape == shape:
        return x
    return apply(_broadcast_to, (x,), {"shape": shape})


#: the all-ones vectors `_sum_to_forward` multiplies by, by (length, dtype): a bias's
#: gradient is summed to the same shape every step (a few entries; cleared past 32)
_ONES: dict = {}
_BLAS_SUM = (np.dtype(np.float32), np.dtype(np.float64))


def _sum_leading(x, k):
    """`x` summed over its first `k` axes, as `ones @ x` (BLAS gemv), or None when that does
    not apply. A bias's gradient is such a sum (the batch axis); NumPy sums a leading axis
    row after row at 5-20 ns an element when rows are short, gemv at about 1 ns, with the
    same float32 accumulation (in measurements about 3x closer to the float64 sum) and the
    same NaN/Inf results (only the sign of an all-(-0.0) sum differs: +0.0)."""
    if x.dtype not in _BLAS_SUM or not x.flags.c_contiguous or x.size == 0:
        return None
    rows = _prod(x.shape[:k])
    key = (rows, x.dtype)
    ones = _ONES.get(key)
    if ones is None:
        if len(_ONES) >= 32:
            _ONES.clear()
        ones = _ONES[key] = np.ones(rows, x.dtype)
    return ones.dot(x.reshape(rows, -1))   # (the method: np.dot adds its dispatcher's call)


def _sum_to_forward(x, shape):
    extra = x.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(i + extra for i, n in enumerate(shape)
                                       if n == 1 and x.shape[i + extra] != 1)
    if not axes:
        return x.reshape(shape)
    if axes[-1] == len(axes) - 1 and len(axes) < x.ndim:    # a leading block of axes
        out = _sum_leading(x, len(axes))
        if out is not None:
            return out.reshape(shape)
    return np.add.reduce(x, axis=axes, keepdims=True, dtype=x.dtype).reshape(shape)


def _sum_to_vjp(g, y, x, shape):
    # put back (as 1s) the axes the sum removed, behind the k Jacobian-batch axes
    k = lead(g, y)
    if x.ndim > len(shape):
        g = reshape(g, g.shape[:k] + (1,) * (x.ndim - len(shape)) + tuple(shape))
    return spread_to(g, g._value.shape[:k] + x._value.shape)


_sum_to = defop("SumToShape", _sum_to_forward, [_sum_to_vjp],
                "y = x summed to shape", ["∂x = broadcast_to(g, x.shape)"], saves=((), False))


def sum_to(x, shape):
    """Sum `x` over the axes broadcasting added, giving `shape` (the engine's unbroadcast)."""
    shape = tuple(shape)
    if tuple(x._value.shape) == shape:
        return x
    return apply(_sum_to, (x,), {"shape": shape})


# --- transpose --------------------------------------------------------------------------------
def _transpose_vjp(g, y, x, perm):
    k = lead(g, y)
    inverse = np.argsort(perm)
    return transpose(g, list(range(k)) + [int(p) + k for p in inverse])


_transpose = defop("Transpose", lambda x, perm: np.transpose(x, perm), [_transpose_vjp],
                   "y = transpose(x, perm)", ["∂x = transpose(g, inverse perm)"])


def transpose(a, perm=None, conjugate=False, name=None):
    x = tensor(a)
    n = x._value.ndim
    if perm is None:
        perm = tuple(range(n - 1, -1, -1))
    else:
        raw = np.asarray(perm._value if hasattr(perm, "_value") else perm)
        if raw.size and raw.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"Transpose: perm must hold int32 or int64 axes, got {perm!r} for a tensor with "
                f"shape {tuple(x.shape)}. Fix: pass ints, e.g. perm={list(range(n - 1, -1, -1))}"
                " [Op:Transpose]", "Transpose")
        perm = tuple(_shape_list(perm))
        outside = [p for p in perm if not -n <= p < n]
        if outside:
            raise InvalidArgumentError(
                f"Transpose: {outside[0]} is out of range [0 .. {n}) in perm {list(perm)} for a "
                f"tensor with shape {tuple(x.shape)}. Fix: list each axis 0..{n - 1} exactly "
                f"once, e.g. perm={list(range(n - 1, -1, -1))} [Op:Transpose]", "Transpose")
    if sorted(p % max(n, 1) for p in perm) != list(range(n)):
        raise InvalidArgumentError(
            f"Transpose: perm {list(perm)} is not a permutation of the {n} axes of a tensor "
            f"with shape {tuple(x.shape)}. Fix: list each axis 0..{n - 1} exactly once, e.g. "
            f"perm={list(range(n - 1, -1, -1))} [Op:Transpose]", "Transpose")
    return apply(_transpose, (x,), {"perm": tuple(p % n for p in perm)})


def matrix_transpose(a, name=None):
    x = tensor(a)
    n = x._value.ndim
    return transpose(x, list(range(n - 2)) + [n - 1, n - 2])


# --- squeeze, expand_dims ----------------------------------------------------------------------
def squeeze(input, axis=None, name=None):
    x = tensor(input)
    if axis is None:
        shape = [s for s in x.shape if s != 1]
    else:
        axes = norm_axis(axis, x._value.ndim, "Squeeze", x.shape)
        for a in axes:
            if x.shape[a] != 1:
                raise InvalidArgumentError(
                    f"Squeeze: can not squeeze dim[{a}], expected a dimension of 1, got "
                    f"{x.shape[a]} (shape {tuple(x.shape)}). Fix: squeeze only axes of size 1 "
                    f"(or use tv.reshape) [Op:Squeeze]", "Squeeze")
        shape = [s for i, s in enumerate(x.shape) if i not in axes]
    return reshape(x, shape)


def expand_dims(input, axis, name=None):
    x = tensor(input)
    n = x._value.ndim + 1
    if isinstance(axis, (list, tuple)) and len(axis) == 1:    # TF accepts a 1-element axis
        axis = axis[0]
    if not isinstance(axis, (int, np.integer)):
        raise (ValueError if axis is None else TypeError)(   # (TF: None makes no tensor)
            f"ExpandDims: axis must be an int, got {axis!r} (input shape "
            f"{tuple(x.shape)}). Fix: use an integer axis in [-{n}, {n})")
    a = int(axis)
    if not -n <= a < n:
        raise InvalidArgumentError(f"ExpandDims: axis {a} is out of range for a result of rank "
                                   f"{n} (input shape {tuple(x.shape)}). Fix: use an axis in "
                                   f"[-{n}, {n}) [Op:ExpandDims]", "ExpandDims")
    shape = list(x.shape)
    shape.insert(a % n, 1)
    return reshape(x, shape)


# --- concat, stack, split, unstack --------------------------------------------------------------
def _concat_vjp(i):
    def vjp(g, y, *xs, axis):
        k = lead(g, y)
        start = sum(x._value.shape[axis] for x in xs[:i])
        key = (slice(None),) * (axis + k) + (slice(start, start + xs[i]._value.shape[axis]),)
        return getitem(g, key)
    return vjp


class _VariadicConcat:
    """Concat takes any number of inputs: its VJPs are made per arity and cached."""
    ops: dict = {}

    @classmethod
    def get(cls, n):
        op = cls.ops.get(n)
        if op is None:
            op = cls.ops[n] = defop(f"ConcatV2/{n}" if n != 2 else "ConcatV2",
                                    lambda *xs, axis: np.concatenate(xs, axis=axis),
                                    [_concat_vjp(i) for i in range(n)],
                                    "y = concat(x₀, x₁, …, axis)",
                                    ["∂xᵢ = the slice of g where xᵢ went"] * n)
        return op


def concat(values, axis, name=None):
    if not isinstance(values, (list, tuple)):     # as TF: one tensor is a list of one
        values = [values]
    xs = same_dtype(list(values), "ConcatV2")
    if not xs:
        raise InvalidArgumentError("ConcatV2: needs at least one tensor, got an empty list. Fix: "
                                   "pass the tensors to join, e.g. tv.concat([a, b], 0) "
                                   "[Op:ConcatV2]", "ConcatV2")
    nd = xs[0]._value.ndim
    if nd == 0:
        raise InvalidArgumentError("ConcatV2: can not concatenate scalars (rank 0); "
                                   "use tv.stack [Op:ConcatV2]", "ConcatV2")
    axis = norm_axis(axis, nd, "ConcatV2", xs[0].shape)[0]
    if len(xs) == 1:
        return xs[0]
    for x in xs[1:]:
        if x._value.ndim != nd or any(a != b for i, (a, b) in
                                      enumerate(zip(x.shape, xs[0].shape)) if i != axis):
            raise InvalidArgumentError(_concat_mismatch(xs, axis), "ConcatV2")
    return apply(_VariadicConcat.get(len(xs)), tuple(xs), {"axis": axis})


def _concat_mismatch(xs, axis) -> str:
    """The message for inputs whose shapes differ off the concat axis (built only then)."""
    shapes = [tuple(t.shape) for t in xs]
    head = (f"ConcatV2: dimensions of inputs should match except on axis {axis}: shapes "
            f"{shapes}, dtype {xs[0].dtype.name}")
    ranks = [len(s) for s in shapes]
    if len(set(ranks)) > 1:
        i = next(i for i, r in enumerate(ranks) if r != ranks[0])
        return (f"{head}; input #{i} has rank {ranks[i]} but input #0 has rank {ranks[0]}. "
                f"Fix: give every input the same rank (tv.reshape or tv.expand_dims), so that "
                f"every axis but {axis} matches [Op:ConcatV2]")
    differ = [d for d in range(ranks[0]) if len({s[d] for s in shapes}) > 1]
    off = [d for d in differ if d != axis]
    i = next(i for i, s in enumerate(shapes) if s[off[0]] != shapes[0][off[0]])
    what = (f"input #{i} has {shapes[i][off[0]]} on axis {off[0]} where input #0 has "
            f"{shapes[0][off[0]]}")
    if differ == off and len(off) == 1:
        fix = (f"concatenate along axis {off[0]} (tv.concat(values, axis={off[0]})), or "
               f"reshape/slice the inputs so that every axis but {axis} matches")
    else:
        fix = f"reshape/slice the inputs so that every axis but {axis} matches"
    return f"{head}; {what}. Fix: {fix} [Op:ConcatV2]"


def stack(values, axis=0, name=None):
    xs = same_dtype(list(values), "Pack")
    if not xs:      # TensorFlow: stacking nothing gives an empty float32 vector
        from .makers import zeros
        return zeros((0,))
    shape = tuple(xs[0].shape)
    for i, x in enumerate(xs[1:], 1):
        if tuple(x.shape) != shape:
            raise InvalidArgumentError(
                f"Pack: shapes of all inputs must match: values[0].shape = {list(shape)} != "
                f"values[{i}].shape = {list(x.shape)}. Fix: give every tensor the same shape "
                f"(tv.concat joins tensors of different lengths) [Op:Pack]", "Pack")
    n = len(shape) + 1
    a = int(axis)
    if not -n <= a < n:
        raise ValueError(f"stack: Argument `axis` = {a} not in range [-{n}, {n}) for tensors of "
                         f"shape {shape}. Fix: use an axis in that range")
    return concat([expand_dims(x, a % n) for x in xs], a % n) if len(xs) > 1 else \
        expand_dims(xs[0], a % n)


def _split_vjp(gs, ys, x, sizes, axis):
    if not isinstance(gs, tuple):     # split into one piece: backprop passes a lone tensor
        gs, ys = (gs,), (ys,)
    return concat(list(gs), axis + lead(gs[0], ys[0]))


_split = defop("SplitV", lambda x, sizes, axis: np.split(x, np.cumsum(sizes)[:-1], axis=axis),
               [_split_vjp],
               "y₀, y₁, … = split(x)", ["∂x = concat(g₀, g₁, …)"], n_out=-1)


def split(value, num_or_size_splits, axis=0, num=None, name=None):
    x = tensor(value)
    if x._value.ndim == 0:
        raise InvalidArgumentError(f"Split: cannot split a scalar (shape (), dtype "
                                   f"{x.dtype.name}). Fix: split a tensor of rank >= 1 "
                                   "[Op:Split]", "Split")
    axis = norm_axis(axis, x._value.ndim, "Split", x.shape)[0]
    dim = x._value.shape[axis]
    if isinstance(num_or_size_splits, (int, np.integer)):
        n = int(num_or_size_splits)
        if n <= 0 or dim % n:
            raise InvalidArgumentError(
                f"Split: number of ways to split should evenly divide the split dimension, but "
                f"got split_dim {axis} (size = {dim}) and num_split {n} (shape "
                f"{tuple(x.shape)}). Fix: use a divisor of {dim}, or a list of sizes "
                "[Op:Split]", "Split")
        sizes = (dim // n,) * n
    else:
        sizes = list(_shape_list(num_or_size_splits))
        bad = [s for s in sizes if s < -1] or ([-1, -1] if sizes.count(-1) > 1 else [])
        if bad:
            raise InvalidArgumentError(
                f"SplitV: size {bad[0]} in {sizes} is not allowed: sizes are >= 0, with at most "
                f"one -1 (the rest of the dimension) (input shape {tuple(x.shape)}, axis "
                f"{axis}). Fix: e.g. [1, -1] [Op:SplitV]", "SplitV")
        if -1 in sizes:
            rest = dim - (sum(sizes) + 1)
            if rest < 0:
                raise InvalidArgumentError(
                    f"SplitV: the sizes {sizes} take more than the {dim} elements of axis "
                    f"{axis} (input shape {tuple(x.shape)}), leaving {rest} for -1. Fix: the "
                    f"known sizes must sum to at most {dim} [Op:SplitV]", "SplitV")
            sizes[sizes.index(-1)] = rest
        sizes = tuple(sizes)
        if sum(sizes) != dim:
            raise InvalidArgumentError(
                f"SplitV: determined shape must either match input shape along split_dim "
                f"exactly if fully specified, or be less than the size of the input along "
                f"split_dim if not fully specified. Got sizes {list(sizes)} for dimension "
                f"{dim} [Op:SplitV]", "SplitV")
    return list(apply(_split, (x,), {"sizes": sizes, "axis": axis}))


def unstack(value, num=None, axis=0, name=None):
    x = tensor(value)
    if x._value.ndim == 0:
        raise ValueError("Input shape must have rank at least 1 to unstack; got a scalar")
    r = x._value.ndim
    if not -r <= int(axis) < r:
        raise ValueError(f"unstack: Argument `axis` = {axis} not in range [-{r}, {r}) for a "
                         f"tensor of shape {tuple(x.shape)}. Fix: use an axis in that range")
    axis = norm_axis(axis, r)[0]
    n = x._value.shape[axis]
    parts = split(x, n, axis) if n else []
    shape = [s for i, s in enumerate(x.shape) if i != axis]
    return [reshape(p, shape) for p in parts]


# --- tile ---------------------------------------------------------------------------------
def _tile_vjp(g, y, x, multiples):
    k = lead(g, y)
    inter = []
    for m, s in zip(multiples, x._value.shape):
        inter += [m, s]
    gr = reshape(g, g.shape[:k] + tuple(inter))
    return reduce_sum(gr, axis=[k + 2 * i for i in range(len(multiples))])


_tile = defop("Tile", lambda x, multiples: np.tile(x, multiples), [_tile_vjp],
              "y = tile(x, multiples)", ["∂x = g summed over the copies"])


def tile(input, multiples, name=None):
    x = tensor(input)
    raw = np.asarray(getattr(multiples, "_value", multiples))
    if raw.size and raw.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"Tile: multiples must be int32 or int64, got {multiples!r} (input shape "
            f"{tuple(x.shape)}). Fix: pass ints, e.g. {[2] * x._value.ndim} [Op:Tile]", "Tile")
    m = tuple(_shape_list(multiples))
    if len(m) != x._value.ndim:
        raise InvalidArgumentError(
            f"Tile: expected multiples argument to be a vector of length {x._value.ndim} but "
            f"got length {len(m)} (input shape {tuple(x.shape)}). Fix: give one multiple per "
            f"axis, e.g. {[1] * x._value.ndim} [Op:Tile]", "Tile")
    if any(k < 0 for k in m):
        raise InvalidArgumentError(f"Tile: expected multiples >= 0, got {list(m)} (input shape "
                                   f"{tuple(x.shape)}). Fix: use non-negative multiples "
                                   "[Op:Tile]", "Tile")
    return apply(_tile, (x,), {"multiples": m})


from .reduce import reduce_sum  # noqa: E402
from .indexing import getitem  # noqa: E402
