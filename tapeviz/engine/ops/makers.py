"""Tensors made from nothing: zeros, ones, fill, ranges, eye, random. They start no path."""
from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..op import leaf_node
from ..tensor import Tensor, _Operand
from ..errors import InvalidArgumentError
from ._base import tensor
from .shape import _shape_list, check_rank


def _make(array) -> Tensor:
    return Tensor(array, leaf_node("Const"))


def _dims(shape, op_name):
    """The dimensions of a made tensor: ints >= 0, at most 64 of them (NumPy's limit)."""
    raw = np.asarray(shape._value if hasattr(shape, "_value") else shape)
    if raw.ndim > 1:
        raise InvalidArgumentError(f"{op_name}: dims must represent a vector, got shape "
                                   f"{list(raw.shape)}. Fix: pass a list of ints, e.g. [2, 3] "
                                   f"[Op:{op_name}]", op_name)
    if raw.size and raw.dtype.kind not in "iu":
        raise TypeError(f"{op_name}: cannot convert the shape {shape!r} to int32 dimensions. "
                        f"Fix: use ints, e.g. tv.{op_name}([2, 3])")
    dims = _shape_list(shape)
    check_rank(len(dims), op_name)
    if any(d < 0 for d in dims):
        raise InvalidArgumentError(f"{op_name}: dimension {min(dims)} must be >= 0 (shape "
                                   f"{dims}). Fix: use non-negative sizes [Op:{op_name}]", op_name)
    return dims


def zeros(shape, dtype=dt.float32, name=None):
    return _make(np.zeros(_dims(shape, "zeros"), dt.as_dtype(dtype).np))


def ones(shape, dtype=dt.float32, name=None):
    return _make(np.ones(_dims(shape, "ones"), dt.as_dtype(dtype).np))


def zeros_like(input, dtype=None, name=None):
    x = input._read() if isinstance(input, _Operand) else np.asarray(tensor(input)._value)
    return _make(np.zeros(np.shape(x), dt.as_dtype(dtype).np if dtype else x.dtype))


def ones_like(input, dtype=None, name=None):
    x = input._read() if isinstance(input, _Operand) else np.asarray(tensor(input)._value)
    return _make(np.ones(np.shape(x), dt.as_dtype(dtype).np if dtype else x.dtype))


def fill(dims, value, name=None):
    v = tensor(value)
    if v._value.ndim:
        raise InvalidArgumentError(f"fill: value must represent a scalar, got shape "
                                   f"{tuple(v.shape)}. Fix: pass one number [Op:Fill]", "Fill")
    return _make(np.full(_dims(dims, "fill"), v._value, dtype=v._value.dtype))


def range(start, limit=None, delta=1, dtype=None, name=None):
    if limit is None:
        start, limit = 0, start
    values = [np.asarray(v._value if isinstance(v, _Operand) else v) for v in (start, limit, delta)]
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
    return _make(np.linspace(s._value, tensor(stop)._value, int(num), axis=axis).astype(out_dtype))


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
        out = np.broadcast_to(out, tuple(_shape_list(batch_shape)) + out.shape).copy()
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


def set_seed(seed):
    _Random.rng = np.random.default_rng(None if seed is None else int(seed))


def normal(shape, mean=0.0, stddev=1.0, dtype=dt.float32, seed=None, name=None):
    rng = np.random.default_rng(seed) if seed is not None else _Random.rng
    d = dt.as_dtype(dtype).np
    return _make((rng.standard_normal(_dims(shape, "normal")) * stddev + mean).astype(d))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dt.float32, seed=None, name=None):
    rng = np.random.default_rng(seed) if seed is not None else _Random.rng
    shape = _shape_list(shape)
    out = rng.standard_normal(shape)
    bad = np.abs(out) > 2
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return _make((out * stddev + mean).astype(dt.as_dtype(dtype).np))


def uniform(shape, minval=0, maxval=None, dtype=dt.float32, seed=None, name=None):
    rng = np.random.default_rng(seed) if seed is not None else _Random.rng
    d = dt.as_dtype(dtype)
    shape = _shape_list(shape)
    if d.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype")
        return _make(rng.integers(minval, maxval, size=shape).astype(d.np))
    maxval = 1.0 if maxval is None else maxval
    return _make(rng.uniform(minval, maxval, size=shape).astype(d.np))
