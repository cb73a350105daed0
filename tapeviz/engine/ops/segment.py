"""Segment reductions (`tf.math.segment_*`, `tf.math.unsorted_segment_*`): rows of `data`
combined by the segment id of each row.

The sorted forms take increasing ids and make `ids[-1] + 1` segments, an empty one 0; the
unsorted forms take `num_segments`, drop rows with a negative id, and fill an empty segment
with the reduction's identity (0 for a sum, the dtype's lowest value for a max). A max or
min runs through the rows in order as TensorFlow's CPU kernels do (from -inf in the sorted
forms), so a NaN is dropped when a later row follows it. Sums and maxima/minima are ops
with TensorFlow's gradients (a max's gradient is split among ties); means and `sqrt_n` are
sums divided by counts, as TensorFlow's Python defines the unsorted ones.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import NUMERIC, require, tensor
from .elementwise import cast, equal, maximum, sqrt, where
from .indexing import gather
from .makers import zeros_like


def _reduce(data, ids, num_segments, ufunc, empty):
    flat_ids = np.asarray(ids).reshape(-1)
    rows = data.reshape((flat_ids.size,) + data.shape[np.ndim(ids):])
    keep = flat_ids >= 0
    out = np.full((num_segments,) + rows.shape[1:], empty, data.dtype)
    ufunc.at(out, flat_ids[keep], rows[keep])
    return out


def _lowest(dtype):
    return np.finfo(dtype).min if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if dtype.kind == "f" else np.iinfo(dtype).max


def _sum_forward(data, ids, num_segments):
    return _reduce(data, ids, num_segments, np.add, 0)


def _sum_vjp(g, y, data, ids, num_segments):
    # each row gets its segment's upstream gradient; a dropped row (negative id) gets 0
    picked = gather(g, maximum(ids, 0))
    return where(_rows_kept(ids, picked), picked, zeros_like(picked))


def _rows_kept(ids, like):
    """`ids >= 0`, broadcast over the trailing axes of `like` (a row's values)."""
    kept = ids._value >= 0
    return np.broadcast_to(kept.reshape(kept.shape + (1,) * (like._value.ndim - kept.ndim)),
                           like._value.shape)


def _running_extremum(data, ids, num_segments, ufunc, start):
    """TensorFlow's CPU kernels: from `start`, each row in order replaces its segment's
    running extremum unless it is beyond it (smaller, for a max), so a NaN row makes it NaN
    and the next row replaces the NaN: only the rows after an entry's last NaN count."""
    flat_ids = np.asarray(ids).reshape(-1)
    rows = data.reshape((flat_ids.size,) + data.shape[np.ndim(ids):])
    keep = flat_ids >= 0
    rows, flat_ids = rows[keep], flat_ids[keep]
    out = np.full((num_segments,) + rows.shape[1:], start, data.dtype)
    ufunc.at(out, flat_ids, rows)
    if data.dtype.kind != "f" or not np.isnan(rows).any():
        return out
    order = np.arange(len(rows)).reshape((-1,) + (1,) * (rows.ndim - 1))
    last_nan = np.full(out.shape, -1)
    np.maximum.at(last_nan, flat_ids, np.where(np.isnan(rows), order, -1))
    after = order > last_nan[flat_ids]
    identity = -np.inf if ufunc is np.maximum else np.inf
    tail = np.full(out.shape, identity, data.dtype)
    ufunc.at(tail, flat_ids, np.where(after, rows, identity))
    followed = np.zeros(out.shape, bool)        # some row comes after the last NaN
    np.logical_or.at(followed, flat_ids, np.broadcast_to(after, rows.shape))
    return np.where(last_nan < 0, out, np.where(followed, tail, np.nan))


def _extremum_forward(ufunc, sorted_ids):
    def forward(data, ids, num_segments):
        is_max = ufunc is np.maximum
        if sorted_ids:     # starts from -inf (a segment of -inf is -inf); an empty one is 0
            start = (-np.inf if is_max else np.inf) if data.dtype.kind == "f" else \
                (_lowest(data.dtype) if is_max else _highest(data.dtype))
            out = _running_extremum(data, ids, num_segments, ufunc, start)
            counts = np.bincount(np.asarray(ids).reshape(-1), minlength=num_segments)
            out[counts == 0] = 0
            return out
        return _running_extremum(data, ids, num_segments, ufunc,
                                 _lowest(data.dtype) if is_max else _highest(data.dtype))
    return forward


def _extremum_vjp(g, y, data, ids, num_segments):
    # TensorFlow's rule: the rows equal to their segment's extremum share its gradient
    chosen = where(_rows_kept(ids, data), equal(data, gather(y, maximum(ids, 0))),
                     np.zeros(data._value.shape, bool))
    ones = where(chosen, np.ones(data._value.shape, g._value.dtype),
                   np.zeros(data._value.shape, g._value.dtype))
    share = g / unsorted_segment_sum(ones, ids, num_segments)
    return where(chosen, gather(share, maximum(ids, 0)), zeros_like(data))


def _op(name, forward, vjp, formula, grad):
    return defop(name, forward, [vjp, None], formula, [grad, "(none: segment ids)"],
                 batchable=False)


_sum_grad = "∂data[i] = g[ids[i]]"
_extremum_grad = "∂data[i] = g[ids[i]] / ties, for the rows equal to their segment's extremum"
_OPS = {
    ("sum", True): _op("SegmentSum", _sum_forward, _sum_vjp, "y[s] = Σ data[ids == s]",
                       _sum_grad),
    ("sum", False): _op("UnsortedSegmentSum", _sum_forward, _sum_vjp,
                        "y[s] = Σ data[ids == s]", _sum_grad),
    ("max", True): _op("SegmentMax", _extremum_forward(np.maximum, True), _extremum_vjp,
                       "y[s] = max data[ids == s]", _extremum_grad),
    ("max", False): _op("UnsortedSegmentMax", _extremum_forward(np.maximum, False),
                        _extremum_vjp, "y[s] = max data[ids == s]", _extremum_grad),
    ("min", True): _op("SegmentMin", _extremum_forward(np.minimum, True), _extremum_vjp,
                       "y[s] = min data[ids == s]", _extremum_grad),
    ("min", False): _op("UnsortedSegmentMin", _extremum_forward(np.minimum, False),
                        _extremum_vjp, "y[s] = min data[ids == s]", _extremum_grad),
}


def _inputs(data, segment_ids, op):
    x = require(tensor(data), op, NUMERIC, "a numeric")
    ids = tensor(segment_ids)
    if ids._value.dtype.kind not in "iu":
        raise InvalidArgumentError(f"{op}: segment_ids must be int32 or int64, got "
                                   f"{ids.dtype.name} (shape {tuple(ids.shape)}). Fix: "
                                   f"tf.cast(segment_ids, tf.int32) [Op:{op}]", op)
    if x._value.ndim < max(ids._value.ndim, 1) or \
            x._value.shape[:ids._value.ndim] != ids._value.shape:
        raise InvalidArgumentError(f"{op}: segment_ids should be the same size as the first "
                                   f"dimension(s) of data: data shape {tuple(x.shape)}, "
                                   f"segment_ids shape {tuple(ids.shape)}. Fix: one id per "
                                   f"row of data [Op:{op}]", op)
    return x, ids


def _sorted(kind, data, segment_ids):
    op = "Segment" + kind.capitalize()
    x, ids = _inputs(data, segment_ids, op)
    values = ids._value
    if values.ndim != 1:
        raise InvalidArgumentError(f"{op}: segment_ids should be a vector, got shape "
                                   f"{tuple(ids.shape)}. Fix: use tf.math.unsorted_segment_"
                                   f"{kind} for ids of higher rank [Op:{op}]", op)
    num = int(values[-1]) + 1 if values.size else 0
    if values.size and (values < 0).any():
        raise InvalidArgumentError(f"{op}: Segment id {int(values.min())} out of range [0, "
                                   f"{num}), possibly because 'segment_ids' input is not "
                                   f"sorted. Fix: ids must be sorted and >= 0 [Op:{op}]", op)
    if (np.diff(values) < 0).any():
        raise InvalidArgumentError(f"{op}: segment ids are not increasing ({values.tolist()})."
                                   f" Fix: sort the rows by id, or use tf.math.unsorted_segment_"
                                   f"{kind} [Op:{op}]", op)
    return apply(_OPS[kind, True], (x, ids), {"num_segments": num})


def _unsorted(kind, data, segment_ids, num_segments):
    op = "UnsortedSegment" + kind.capitalize()
    x, ids = _inputs(data, segment_ids, op)
    num = int(getattr(num_segments, "_value", num_segments))
    too_big = np.flatnonzero(ids._value.reshape(-1) >= num)
    if too_big.size:
        i = int(too_big[0])
        raise InvalidArgumentError(f"{op}: segment_ids[{i}] = {int(ids._value.reshape(-1)[i])}"
                                   f" is out of range [0, {num}). Fix: num_segments must be "
                                   f"larger than every id [Op:{op}]", op)
    return apply(_OPS[kind, False], (x, ids), {"num_segments": num})


def _counts(ids, num, like):
    """How many rows each segment has (at least 1), shaped to divide `like`."""
    flat = np.asarray(ids._value).reshape(-1)
    counts = np.bincount(flat[flat >= 0], minlength=num)[:num]
    counts = np.maximum(counts, 1).astype(like._value.dtype)
    return counts.reshape((num,) + (1,) * (like._value.ndim - 1))


def segment_sum(data, segment_ids, name=None):
    return _sorted("sum", data, segment_ids)


def segment_max(data, segment_ids, name=None):
    return _sorted("max", data, segment_ids)


def segment_min(data, segment_ids, name=None):
    return _sorted("min", data, segment_ids)


def segment_mean(data, segment_ids, name=None):
    total = _sorted("sum", data, segment_ids)
    return total / _counts(tensor(segment_ids), total.shape[0], total)


def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    return _unsorted("sum", data, segment_ids, num_segments)


def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    return _unsorted("max", data, segment_ids, num_segments)


def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    return _unsorted("min", data, segment_ids, num_segments)


def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    total = _unsorted("sum", data, segment_ids, num_segments)
    return total / _counts(tensor(segment_ids), total.shape[0], total)


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    total = _unsorted("sum", data, segment_ids, num_segments)
    counts = _counts(tensor(segment_ids), total.shape[0], total)
    return total / sqrt(cast(counts, total.dtype))


__all__ = ["segment_sum", "segment_max", "segment_min", "segment_mean", "unsorted_segment_sum",
           "unsorted_segment_max", "unsorted_segment_min", "unsorted_segment_mean",
           "unsorted_segment_sqrt_n"]
