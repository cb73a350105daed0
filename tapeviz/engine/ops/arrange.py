"""Ops that move elements around: pad, slice, reverse, roll, sort, argsort, top_k, unique,
meshgrid, sequence_mask.

Each reordering is one `GatherV2` of the flattened input with a NumPy index array of the output's
shape, so its gradient is gather's (the upstream added back at the gathered positions) and
second derivatives come for free; the index arrays are computed vectorized from the input's
shape and values. Errors are TensorFlow's classes with its messages' facts.
"""
from __future__ import annotations

import builtins
from collections import namedtuple

import numpy as np

from .. import dtypes as dt
from ..errors import InvalidArgumentError
from ..tensor import Tensor, _Operand
from ._base import same_dtype, tensor
from .axes import reshape
from .elementwise import cast, less
from .gradient_ops import stop_gradient
from .indexing import gather, getitem
from .join import concat
from .makers import _make

TopKV2 = namedtuple("TopKV2", ["values", "indices"])
Unique = namedtuple("Unique", ["y", "idx"])


def _take(x: Tensor, flat_index) -> Tensor:
    """x's elements at `flat_index` (positions in row-major order), in its shape."""
    return gather(reshape(x, [-1]), _make(np.asarray(flat_index, dtype=np.int64)))


def _ints(value, what, op):
    """An int argument (list, tensor) as a NumPy int64 array; TF refuses floats there."""
    raw = np.asarray(value._value if isinstance(value, _Operand) else value)
    if raw.size and raw.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"{op}: {what} must be int32 or int64, got {raw.dtype} values {raw.tolist()}. Fix: "
            f"pass ints [Op:{op}]", op)
    return raw.astype(np.int64)


def _axes(axis, ndim, op, shape):
    axes = np.atleast_1d(_ints(axis, "axis", op)).tolist()
    for a in axes:
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(f"{op}: axis {a} is out of range for a tensor of shape "
                                       f"{tuple(shape)}. Fix: pick an axis in [{-ndim}, {ndim}) "
                                       f"[Op:{op}]", op)
    return [a % ndim for a in axes]


# --- pad -------------------------------------------------------------------------------------
def _mirror(n, before, after, symmetric):
    """Source positions along one axis of size n for a REFLECT or SYMMETRIC pad."""
    period = 2 * n if symmetric else max(2 * n - 2, 1)
    j = np.mod(np.arange(-before, n + after), period)
    return np.where(j < n, j, period - j - (1 if symmetric else 0))


def pad(tensor_, paddings, mode="CONSTANT", constant_values=0, name=None):
    """TensorFlow's `tf.pad`: CONSTANT (with `constant_values`), REFLECT or SYMMETRIC."""
    x = tensor(tensor_)
    if str(mode).upper() not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", '
                         f'or "SYMMETRIC". Received `mode` = {mode}')
    mode = str(mode).upper()
    op = "Pad" if mode == "CONSTANT" else "MirrorPad"
    p = _ints(paddings, "paddings (attr 'Tpaddings')", op)
    shape = x._value.shape
    if p.shape != (len(shape), 2):
        raise InvalidArgumentError(
            f"{op}: The first dimension of paddings must be the rank of inputs: paddings has "
            f"shape {list(p.shape)}, the input shape {list(shape)}. Fix: one [before, after] "
            f"pair per axis, {len(shape)} pairs [Op:{op}]", op)
    if (p < 0).any():
        raise InvalidArgumentError(f"{op}: Paddings must be non-negative: {p.tolist()}. Fix: use "
                                   f"sizes >= 0 [Op:{op}]", op)
    limit = np.asarray(shape) + (mode == "SYMMETRIC")
    if mode != "CONSTANT" and (p >= limit[:, None]).any():
        raise InvalidArgumentError(
            f"{op}: paddings must be less than the dimension size{' + 1' * (mode == 'SYMMETRIC')}"
            f" in {mode} mode: paddings {p.tolist()} for shape {list(shape)}. Fix: pad less "
            f"[Op:{op}]", op)
    strides = np.cumprod((1,) + shape[::-1])[::-1][1:]
    index = np.zeros([int(n + b + a) for n, (b, a) in zip(shape, p)], dtype=np.int64)
    inside = np.ones(index.shape, dtype=bool)
    for k, (n, (b, a)) in enumerate(zip(shape, p)):
        view = [1] * len(shape)
        view[k] = -1
        if mode == "CONSTANT":
            j = np.arange(-b, n + a)
            inside &= ((j >= 0) & (j < n)).reshape(view)
            j = np.clip(j, 0, max(n - 1, 0))
        else:
            j = _mirror(n, b, a, mode == "SYMMETRIC")
        index = index + (j * strides[k]).reshape(view)
    if mode == "CONSTANT":
        fill = constant_values
        fill = tensor(fill) if isinstance(fill, _Operand) else Tensor(_fill_value(fill, x))
        # the padding value gets no gradient, as in TensorFlow (PadV2's is None)
        flat = concat([reshape(x, [-1]), reshape(stop_gradient(cast(fill, x.dtype)), [1])], 0)
        index = np.where(inside, index, x._value.size)
        return reshape(gather(flat, _make(index)), list(index.shape))
    return reshape(_take(x, index), list(index.shape))


def _fill_value(value, x):
    array = np.asarray(value)
    if array.dtype.kind == "f" and x._value.dtype.kind in "iub" and array != np.round(array):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {x.dtype.name}")
    return array.astype(x._value.dtype)


# --- slice, reverse, roll ----------------------------------------------------------------------
def slice(input_, begin, size, name=None):   # noqa: A001  (TensorFlow's name)
    """`tf.slice`: `size[k]` elements from `begin[k]` on each axis (-1: to the end)."""
    x = tensor(input_)
    shape = x._value.shape
    b, s = np.atleast_1d(_ints(begin, "begin", "Slice")), np.atleast_1d(_ints(size, "size",
                                                                               "Slice"))
    if b.shape != (len(shape),) or s.shape != (len(shape),):
        raise InvalidArgumentError(
            f"Slice: Expected begin and size arguments to be 1-D tensors of size {len(shape)}, but "
            f"got shapes {list(b.shape)} and {list(s.shape)} instead (input shape {list(shape)}). "
            "Fix: one begin and one size per axis [Op:Slice]", "Slice")
    key = []
    for k, (n, start, length) in enumerate(zip(shape, b, s)):
        if not 0 <= start <= n:
            raise InvalidArgumentError(f"Slice: Expected begin[{k}] in [0, {n}], but got {start} "
                                       f"(input shape {list(shape)}) [Op:Slice]", "Slice")
        length = n - start if length == -1 else length
        if not 0 <= length <= n - start:
            raise InvalidArgumentError(f"Slice: Expected size[{k}] in [0, {n - start}], but got "
                                       f"{length} (input shape {list(shape)}) [Op:Slice]", "Slice")
        key.append(builtins.slice(int(start), int(start + length)))
    return getitem(x, tuple(key))


def _positions(shape):
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)


def reverse(tensor_, axis, name=None):
    """`tf.reverse`: reverse the listed axes."""
    x = tensor(tensor_)
    axes = _axes(axis, x._value.ndim, "ReverseV2", x.shape)
    if len(set(axes)) != len(axes):
        raise InvalidArgumentError(f"ReverseV2: axis {axes} lists an axis more than once "
                                   "[Op:ReverseV2]", "ReverseV2")
    return reshape(_take(x, np.flip(_positions(x._value.shape), axes)), list(x._value.shape))


def roll(input, shift, axis, name=None):
    """`tf.roll`: shift elements along axes, wrapping around (shifts on one axis add up)."""
    x = tensor(input)
    shifts = np.atleast_1d(_ints(shift, "shift", "Roll"))
    axes = _axes(axis, x._value.ndim, "Roll", x.shape)
    if len(shifts) != len(axes):
        raise InvalidArgumentError(f"Roll: shift and axis must have the same size, got shift "
                                   f"{shifts.tolist()} and axis {axes} [Op:Roll]", "Roll")
    index = np.roll(_positions(x._value.shape), shifts.tolist(), axes)
    return reshape(_take(x, index), list(x._value.shape))


# --- sorting -----------------------------------------------------------------------------------
def _order(values, axis, descending):
    """Stable argsort along `axis`; descending keeps ties in index order, as TensorFlow."""
    if descending:
        values = ~values if values.dtype.kind in "iu" else -values
    return np.argsort(values, axis=axis, kind="stable")


def _direction(direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    return direction == "DESCENDING"


def _sortable(x, op):
    if x._value.dtype.kind not in "fiu":
        raise InvalidArgumentError(f"{op}: needs a numeric tensor, got dtype {x.dtype.name} with "
                                   f"shape {tuple(x.shape)} [Op:{op}]", op)
    if x._value.ndim == 0:
        raise InvalidArgumentError(f"{op}: input must be >= 1-D, got shape [] (a scalar). Fix: "
                                   "sort a vector, e.g. tv.reshape(x, [-1]) [Op:StridedSlice]",
                                   "StridedSlice")


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """`tf.argsort`: int32 positions that sort `values` along `axis`."""
    x = tensor(values)
    descending = _direction(direction)
    _sortable(x, "argsort")
    axis = _axes(axis, x._value.ndim, "argsort", x.shape)[0]
    return _make(_order(x._value, axis, descending).astype(np.int32))


def sort(values, axis=-1, direction="ASCENDING", name=None):
    """`tf.sort`: `values` sorted along `axis`; differentiable (a gather)."""
    x = tensor(values)
    descending = _direction(direction)
    _sortable(x, "sort")
    axis = _axes(axis, x._value.ndim, "sort", x.shape)[0]
    order = _order(x._value, axis, descending)
    index = np.take_along_axis(_positions(x._value.shape), order, axis)
    return reshape(_take(x, index), list(x._value.shape))


def top_k(input, k=1, sorted=True, index_type=dt.int32, name=None):
    """`tf.math.top_k`: the k largest entries of the last axis and their indices."""
    x = tensor(input)
    k = int(np.asarray(k._value if isinstance(k, _Operand) else k))
    if x._value.dtype.kind not in "fiu":
        raise InvalidArgumentError(f"TopKV2: needs a numeric tensor, got dtype {x.dtype.name} "
                                   f"[Op:TopKV2]", "TopKV2")
    if x._value.ndim == 0:
        raise InvalidArgumentError("TopKV2: input must be >= 1-D, got shape [] [Op:TopKV2]",
                                   "TopKV2")
    n = x._value.shape[-1]
    if k < 0:
        raise InvalidArgumentError(f"TopKV2: Need k >= 0, got {k} [Op:TopKV2]", "TopKV2")
    if k > n:
        raise InvalidArgumentError(f"TopKV2: input must have at least k columns. Had {n}, needed "
                                   f"{k} (input shape {list(x._value.shape)}) [Op:TopKV2]",
                                   "TopKV2")
    order = _order(x._value, -1, True)[..., :k]
    index = np.take_along_axis(_positions(x._value.shape), order, -1)
    values = reshape(_take(x, index), list(order.shape))
    return TopKV2(values, _make(order.astype(dt.as_dtype(index_type).as_numpy_dtype)))


def unique(x, out_idx=dt.int32, name=None):
    """`tf.unique`: the distinct values of a vector in order of first appearance, and where
    each element went."""
    t = tensor(x)
    if t._value.ndim != 1:
        raise InvalidArgumentError(f"Unique: unique expects a 1D vector, got shape "
                                   f"{list(t._value.shape)}. Fix: tv.reshape(x, [-1]) [Op:Unique]",
                                   "Unique")
    _, first, inverse = np.unique(t._value, return_index=True, return_inverse=True)
    rank = np.empty_like(first)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    idx_dtype = dt.as_dtype(out_idx).as_numpy_dtype
    return Unique(_make(t._value[np.sort(first)]),
                  _make(rank[inverse.reshape(-1)].astype(idx_dtype)))


# --- partitions -------------------------------------------------------------------------------
def dynamic_partition(data, partitions, num_partitions, name=None):
    """`data`'s rows (over the axes of `partitions`) sorted into `num_partitions` lists."""
    x, p = tensor(data), np.asarray(tensor(partitions)._value)
    n = int(num_partitions)
    if p.shape != x._value.shape[:p.ndim]:
        raise InvalidArgumentError(f"DynamicPartition: partitions of shape {list(p.shape)} must "
                                   f"be a prefix of data's shape {list(x._value.shape)} "
                                   "[Op:DynamicPartition]", "DynamicPartition")
    bad = (p < 0) | (p >= n)
    if bad.any():
        k = int(np.argmax(bad.reshape(-1)))
        raise InvalidArgumentError(f"DynamicPartition: partitions[{k}] = {p.reshape(-1)[k]} is "
                                   f"not in [0, {n}) [Op:DynamicPartition]", "DynamicPartition")
    rows = reshape(x, [-1] + list(x._value.shape[p.ndim:]))
    flat = p.reshape(-1)
    return [gather(rows, _make(np.flatnonzero(flat == i).astype(np.int64))) for i in range(n)]


def dynamic_stitch(indices, data, name=None):
    """`merged[indices[m][i]] = data[m][i]` (a later position wins a repeated index)."""
    idx = [np.asarray(tensor(i)._value).reshape(-1) for i in indices]
    parts = [tensor(d) for d in data]
    tail = list(parts[0]._value.shape[np.asarray(tensor(indices[0])._value).ndim:])
    rows = concat([reshape(d, [-1] + tail) for d in parts], 0)
    every = np.concatenate(idx).astype(np.int64)
    size = int(every.max()) + 1 if every.size else 0
    last = np.full(size, -1, dtype=np.int64)
    last[every] = np.arange(every.size)        # (NumPy keeps the last write of a repeat)
    # an index no input names gets zeros, as in TensorFlow (a row appended for it)
    zero = _make(np.zeros([1] + tail, dtype=rows._value.dtype))
    return gather(concat([rows, zero], 0), _make(np.where(last < 0, every.size, last)))


# --- grids and masks ---------------------------------------------------------------------------
def meshgrid(*args, **kwargs):
    """`tf.meshgrid`: N-D coordinate grids ('xy': the first two axes swapped, as NumPy)."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"Invalid keywords for meshgrid: {', '.join(kwargs)}")
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', got "
                         f"'{indexing}'")
    xs = [reshape(t, [-1]) for t in same_dtype(list(args), "Mul")]
    sizes = [int(t._value.shape[0]) for t in xs]
    if indexing == "xy" and len(xs) > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(xs):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and len(xs) > 1 else i
        view = [1] * len(xs)
        view[axis] = -1
        index = np.broadcast_to(np.arange(t._value.shape[0]).reshape(view), sizes)
        out.append(reshape(_take(t, index), sizes))
    return out


def sequence_mask(lengths, maxlen=None, dtype=dt.bool_, name=None):
    """`tf.sequence_mask`: `mask[..., j] = j < lengths[...]`."""
    n = tensor(lengths)
    if maxlen is None:
        maxlen = int(np.max(n._value)) if n._value.size else 0
    elif np.ndim(maxlen._value if isinstance(maxlen, _Operand) else maxlen) != 0:
        m = np.asarray(maxlen._value if isinstance(maxlen, _Operand) else maxlen)
        raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` "
                         f"= {m.tolist()} with shape '{m.shape}' instead")
    steps = _make(np.arange(int(np.asarray(getattr(maxlen, "_value", maxlen))),
                            dtype=n._value.dtype))
    mask = less(steps, reshape(n, list(n._value.shape) + [1]))
    return mask if dt.as_dtype(dtype) == dt.bool_ else cast(mask, dtype)


__all__ = ["argsort", "dynamic_partition", "dynamic_stitch", "meshgrid", "pad", "reverse",
           "roll", "sequence_mask", "slice", "sort", "unique"]
