"""Tensors made from nothing: zeros, ones, fill, ranges, eye, random. They start no path."""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np

from .. import dtypes as dt
from ..convert import _to_array
from ..node import leaf_node
from ..op import apply, defop
from ..tensor import Tensor, _Operand
from ..errors import InvalidArgumentError, out_of_memory
from . import random_stateful
from ._base import check_rank, shape_list, tensor


def _make(array) -> Tensor:
    return Tensor(array, leaf_node("Const"))


@contextmanager
def _allocating(op_name):
    """Report an array too large for memory as TensorFlow does (ResourceExhaustedError, a
    MemoryError), naming the maker, the shape, the dtype and the bytes asked for."""
    try:
        yield
    except MemoryError as exc:
        raise out_of_memory(op_name, exc) from None


def _dims(shape, op_name, non_int=TypeError):
    """The dimensions of a made tensor: ints >= 0, at most 64 of them (NumPy's limit).
    `non_int`: the class for a shape of floats or strings (TF's random ops raise
    InvalidArgumentError there, its other makers TypeError)."""
    raw = np.asarray(shape._value if hasattr(shape, "_value") else shape)
    if raw.ndim > 1:
        raise InvalidArgumentError(f"{op_name}: dims must represent a vector, got shape "
                                   f"{list(raw.shape)}. Fix: pass a list of ints, e.g. [2, 3] "
                                   f"[Op:{op_name}]", op_name)
    if raw.size and raw.dtype.kind not in "iu" and shape is not None:   # (None: shape_list)
        raise non_int(f"{op_name}: cannot convert the shape {shape!r} to int32 dimensions. "
                      f"Fix: use ints, e.g. tv.{op_name}([2, 3])")
    dims = shape_list(shape)
    check_rank(len(dims), op_name)
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"{op_name}: dimension {min(dims)} must be >= 0 (shape "
                                   f"{dims}). Fix: use non-negative sizes [Op:{op_name}]", op_name)
    return dims


def zeros(shape, dtype=dt.float32, name=None):
    dims = _dims(shape, "zeros")
    with _allocating("zeros"):
        return _make(np.zeros(dims, dt.as_dtype(dtype).np))


def ones(shape, dtype=dt.float32, name=None):
    dims = _dims(shape, "ones")
    with _allocating("ones"):
        return _make(np.ones(dims, dt.as_dtype(dtype).np))


# TensorFlow's eager zeros_like and ones_like run the ZerosLike and OnesLike ops: a tape that
# watches their input records them and watches their output (a gradient with respect to it
# exists; none flows through to the input). Asked for another dtype, TensorFlow fills a
# constant of the input's shape instead: nothing is recorded.
_ZEROS_LIKE = defop("ZerosLike", np.zeros_like, None, "y = 0, in the shape of x")
_ONES_LIKE = defop("OnesLike", np.ones_like, None, "y = 1, in the shape of x")


def _like(op, fill, input, dtype):
    x = tensor(input)
    if dtype is None or dt.as_dtype(dtype).np == x._value.dtype:
        return apply(op, (x,))
    return _make(fill(np.shape(x._value), dt.as_dtype(dtype).np))


# (and tf.random.shuffle's RandomShuffle: recorded, watched, not differentiable; the order is
# drawn by its caller, from the seeded stream)
_SHUFFLE = defop("RandomShuffle", lambda x, permutation: x[permutation], None,
                 "y = x, its first axis in a random order")


def shuffled(x: Tensor, permutation) -> Tensor:
    """``x`` with its first axis in the order ``permutation``, as tf.random.shuffle."""
    return apply(_SHUFFLE, (x,), {"permutation": permutation})


def zeros_like(input, dtype=None, name=None):
    return _like(_ZEROS_LIKE, np.zeros, input, dtype)


def ones_like(input, dtype=None, name=None):
    return _like(_ONES_LIKE, np.ones, input, dtype)


def fill(dims, value, name=None):
    v = tensor(value)
    if v._value.ndim:
        raise InvalidArgumentError(f"fill: value must represent a scalar, got shape "
                                   f"{tuple(v.shape)}. Fix: pass one number [Op:Fill]", "Fill")
    shape = _dims(dims, "fill", non_int=InvalidArgumentError)   # (TF's Fill: index_type)
    with _allocating("fill"):
        return _make(np.full(shape, v._value, dtype=v._value.dtype))


def range(start, limit=None, delta=1, dtype=None, name=None):
    if limit is None:
        start, limit = 0, start
    if dtype is not None:    # a Python float never becomes an int silently (TF: TypeError)
        values = [np.asarray(v._value) if isinstance(v, _Operand)
                  else _to_array(v, dtype, strict=True, op="range") for v in (start, limit, delta)]
    else:
        values = [np.asarray(v._value if isinstance(v, _Operand) else v)
                  for v in (start, limit, delta)]
    if dtype is None:
        kinds = {v.dtype.kind for v in values}
        dtype = dt.float32 if "f" in kinds else dt.int32
    if values[2] == 0:
        raise InvalidArgumentError(f"Range: Requires delta != 0, got start={values[0]}, "
                                   f"limit={values[1]}, delta=0. Fix: use a non-zero delta "
                                   "[Op:Range]", "Range")
    return _make(np.arange(values[0], values[1], values[2]).astype(dt.as_dtype(dtype).np))


def linspace(start, stop, num, name=None, axis=0):
    s = tensor(start)
    out_dtype = s._value.dtype if s._value.dtype.kind == "f" else np.float64   # as TF
    raw = getattr(num, "_value", num)
    if isinstance(raw, (bool, np.bool_)) or not isinstance(raw, (int, np.integer)) and not (
            isinstance(raw, np.ndarray) and raw.ndim == 0 and raw.dtype.kind in "iu"):
        raise TypeError(f"linspace: Argument `num` must be of type integer, got {num!r} (start "
                        f"of shape {tuple(s.shape)}). Fix: pass the number of points as an int, "
                        "e.g. tv.linspace(0.0, 1.0, 5)")
    if raw < 0:
        raise InvalidArgumentError(f"LinSpace: Requires num >= 0, got num={int(raw)}. Fix: pass "
                                   "the number of points (0 or more) [Op:LinSpace]", "LinSpace")
    return _make(np.linspace(s._value, tensor(stop)._value, int(raw), axis=axis).astype(out_dtype))


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dt.float32, name=None):
    sizes = [num_rows] + ([] if num_columns is None else [num_columns])
    if not all(isinstance(n, (int, np.integer)) for n in sizes):
        raise TypeError(f"eye: Arguments `num_rows` and `num_columns` must be positive integer "
                        f"values. Received: num_rows={num_rows!r}, num_columns={num_columns!r}. "
                        "Fix: pass ints, e.g. tv.eye(3)")
    _dims(sizes, "eye")
    out = np.eye(int(num_rows), None if num_columns is None else int(num_columns),
                 dtype=dt.as_dtype(dtype).np)
    if batch_shape is not None:
        out = np.broadcast_to(out, tuple(shape_list(batch_shape)) + out.shape).copy()
    return _make(out)


# --- random -----------------------------------------------------------------------------------
class _FirstUse:
    """The process's generator, made on first use: `numpy.random` is not imported by
    `import numpy`, and `import tapeviz` need not pay for it either."""

    def __get__(self, obj, cls):
        cls.rng = np.random.default_rng()   # replaces this descriptor: later reads are plain
        return cls.rng


class _Random:
    """One generator for the process; `set_seed` makes every draw after it reproducible."""
    rng = _FirstUse()
    seed = None             # the global seed (a seeded op's pair, a Dataset.shuffle's)
    generation = 0          # how many times set_seed ran: TensorFlow's clears its kernels


def set_seed(seed):
    _Random.rng = np.random.default_rng(None if seed is None else int(seed))
    _Random.seed = None if seed is None else int(seed)
    _Random.generation += 1


def _random_dims(shape, op_name):
    return _dims(shape, op_name, non_int=InvalidArgumentError)


def _float_dtype(dtype, op_name, dims):
    d = dt.as_dtype(dtype)
    if not d.is_floating:
        raise TypeError(f"{op_name}: dtype must be floating-point (float16, float32 or "
                        f"float64), got {d.name} for shape {dims}. Fix: draw floats and "
                        f"tv.cast them, or use tv.random.uniform(shape, maxval=n, "
                        f"dtype=tv.{d.name}) for integers")
    return d


def _param(value, name, d, op_name):
    """`mean`, `stddev`, `minval` or `maxval` as a NumPy value of the draw's dtype."""
    return _to_array(value, d, op=f"{op_name} argument `{name}`")


class OpSeeds:
    """While a `DeterministicRandomTestTool` scope is open, `source()` gives each seeded
    random op its (global, operation) seed pair, whatever seed the op was given, as
    TensorFlow's tool patches `get_seed`."""
    source = None


def _rng(seed):
    if isinstance(seed, np.random.Generator):   # a tv.random.Generator's own stream
        return seed
    if OpSeeds.source is not None:
        from .philox import PhiloxDraws
        return PhiloxDraws(*OpSeeds.source())
    if seed is None:
        return _Random.rng
    _check_seed(seed)
    return np.random.default_rng(seed)


def _check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"random: seed must be an int or None, got {seed!r} "
                        f"({type(seed).__name__}). Fix: e.g. seed=42, or tv.random.set_seed(42) "
                        "for the whole run")


def _tf_pair(seed):
    """TensorFlow's (seed, seed2) for a seeded op (which then draws TensorFlow's own numbers,
    random_stateful.py), or None: unseeded, in a test tool's scope, or a Generator's stream."""
    if isinstance(seed, np.random.Generator) or OpSeeds.source is not None:
        return None
    if seed is not None:
        _check_seed(seed)   # (any int: TensorFlow folds a negative one modulo 2**31 - 1)
    return random_stateful.seed_pair(seed, _Random.seed, _Random.generation)


def normal(shape, mean=0.0, stddev=1.0, dtype=dt.float32, seed=None, name=None):
    dims = _random_dims(shape, "random.normal")
    d = _float_dtype(dtype, "random.normal", dims)
    mean, stddev = (_param(v, n, d, "random.normal") for v, n in ((mean, "mean"),
                                                                  (stddev, "stddev")))
    pair = _tf_pair(seed)
    with _allocating("random.normal"):
        if pair is not None and d.name in ("float16", "float32", "float64"):
            return _make(random_stateful.standard_normal(dims, d.np, pair) * stddev + mean)
        return _make((_rng(seed).standard_normal(dims) * stddev + mean).astype(d.np))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dt.float32, seed=None, name=None):
    dims = _random_dims(shape, "random.truncated_normal")
    d = _float_dtype(dtype, "random.truncated_normal", dims)
    mean, stddev = (_param(v, n, d, "random.truncated_normal")
                    for v, n in ((mean, "mean"), (stddev, "stddev")))
    pair = _tf_pair(seed)       # (NumPy's draws, but the op takes its op seed as in TF)
    rng = _rng(seed) if pair is None else np.random.default_rng(list(pair))
    with _allocating("random.truncated_normal"):
        out = rng.standard_normal(dims)
        bad = np.abs(out) > 2
        while bad.any():
            out[bad] = rng.standard_normal(int(bad.sum()))
            bad = np.abs(out) > 2
        return _make((out * stddev + mean).astype(d.np))


def dropout_keep(shape, dtype, rate, seed):
    """tf.nn.dropout's mask, drawn as TensorFlow draws it: uniform(noise_shape, seed=seed,
    dtype=x.dtype) >= rate (so a seeded dropout keeps TensorFlow's elements)."""
    if dtype.name in ("float16", "float32", "float64"):
        return uniform(list(shape), dtype=dtype, seed=seed)._value >= dtype.np.type(rate)
    return _rng(seed).uniform(size=shape) >= rate


_UNIFORM_DTYPES = ("float16", "float32", "float64", "int32", "int64")


def uniform(shape, minval=0, maxval=None, dtype=dt.float32, seed=None, name=None):
    """Floats in [minval, maxval) (`minval + (maxval - minval)·U`, as TF: minval > maxval
    flips the interval); ints in [minval, maxval), which must not be empty."""
    dims = _random_dims(shape, "random.uniform")
    if dtype is None:    # (NumPy would read None as float64)
        raise TypeError(f"random.uniform: Cannot convert the argument `type_value`: None to a "
                        f"tapeviz DType (shape {dims}). Fix: leave dtype out (float32) or pass "
                        "one, e.g. dtype=tv.float32")
    d = dt.as_dtype(dtype)
    if d.name not in _UNIFORM_DTYPES:
        raise ValueError(f"random.uniform: Argument `dtype` got invalid value {d.name}. "
                         f"Accepted dtypes are {', '.join(_UNIFORM_DTYPES)}. Fix: draw floats "
                         f"and compare or cast them, e.g. tv.random.uniform({dims}) < 0.5")
    if d.is_integer and maxval is None:
        raise ValueError(f"random.uniform: Must specify maxval for integer dtype {d.name}. "
                         f"Fix: pass the exclusive upper bound, e.g. maxval=10")
    lo = _param(minval, "minval", d, "random.uniform")
    hi = _param(1.0 if maxval is None else maxval, "maxval", d, "random.uniform")
    pair = _tf_pair(seed)
    rng = _rng(seed) if pair is None else None
    if d.is_integer:
        if np.any(np.asarray(lo) >= np.asarray(hi)):
            raise InvalidArgumentError(
                f"RandomUniformInt: Need minval < maxval, got {lo} >= {hi} (shape {dims}, "
                f"dtype {d.name}). Fix: maxval is exclusive: pass maxval > minval "
                "[Op:RandomUniformInt]", "RandomUniformInt")
        with _allocating("random.uniform"):
            if pair is not None:
                return _make(random_stateful.uniform_int(dims, lo, hi, d.np, pair))
            return _make(rng.integers(lo, hi, size=dims).astype(d.np))
    with _allocating("random.uniform"):
        if pair is not None:
            return _make(random_stateful.uniform_float(dims, lo, hi, d.np, pair))
        return _make((rng.random(dims) * (hi.astype(np.float64) - lo) + lo).astype(d.np))


__all__ = ["eye", "fill", "linspace", "normal", "ones", "ones_like", "range",
           "set_seed", "truncated_normal", "uniform", "zeros", "zeros_like"]
