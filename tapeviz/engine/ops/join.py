"""Ops that join and split tensors: concat, stack, split, unstack, tile. VJPs cut or sum `g`.

`g` may carry extra leading (Jacobian batch) dimensions; `lead(g, y)` counts them and each
rule keeps them in front.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import lead, norm_axis, same_dtype, shape_list, tensor
from .axes import expand_dims, reshape
from .indexing import getitem
from .makers import zeros
from .reduce import reduce_sum


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
        sizes = list(shape_list(num_or_size_splits))
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
                f"{dim} (input shape {tuple(x.shape)}, axis {axis}). Fix: sizes that sum to "
                f"{dim}, or -1 for one of them (the rest of the axis) [Op:SplitV]", "SplitV")
    return list(apply(_split, (x,), {"sizes": sizes, "axis": axis}))


def unstack(value, num=None, axis=0, name=None):
    x = tensor(value)
    if x._value.ndim == 0:
        raise ValueError(f"unstack: Input shape must have rank at least 1 to unstack; got a "
                         f"scalar of dtype {x.dtype.name}. Fix: unstack a tensor of rank 1 or "
                         f"more (a scalar is already one element)")
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
    m = tuple(shape_list(multiples))
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


__all__ = ["concat", "split", "stack", "tile", "unstack"]
