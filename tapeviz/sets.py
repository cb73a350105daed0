"""`tv.sets`: set operations along the last axis of integer or string tensors, as TensorFlow's.

Each row of the last axis is a set: every element of a dense tensor, or the values present in
a row of a SparseTensor. `union`, `intersection` and `difference` return a SparseTensor of
each row's result in ascending order (dense shape: the batch shape and the longest result);
`size` counts each row's distinct values (SparseTensor input only, as TensorFlow).
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .sparse import SparseTensor

__all__ = ["difference", "intersection", "size", "union"]

_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "string")


def _checked(x, which):
    x = x if isinstance(x, SparseTensor) else convert_to_tensor(x)
    if x.dtype.name not in _DTYPES:
        raise TypeError(f"'{which}' has invalid dtype `{x.dtype!r}` not in supported dtypes: "
                        f"{', '.join(_DTYPES)}. Fix: cast to an integer dtype "
                        "(tf.cast(x, tf.int32)); sets of floats are not supported")
    return x


def _batch_shape(x, op):
    shape = [int(d) for d in (x.dense_shape._value if isinstance(x, SparseTensor)
                              else x._value.shape)]
    if len(shape) < 2:
        raise InvalidArgumentError(f"Shape [{','.join(map(str, shape))}] has rank "
                                   f"{len(shape)} < 2. Fix: sets are rows of the last axis: "
                                   f"give a batch axis, e.g. x[None] [Op:{op}]", op)
    return tuple(shape[:-1])


def _row_sets(x, batch):
    """One Python set per row (rows in C order over the batch shape)."""
    n = int(np.prod(batch))
    if not isinstance(x, SparseTensor):
        return [set(row.tolist()) for row in x._value.reshape(n, -1)]
    rows = [set() for _ in range(n)]
    flat = np.ravel_multi_index(x.indices._value[:, :-1].T, batch) if n else []
    for row, value in zip(flat, x.values._value.tolist()):
        rows[row].add(value)
    return rows


def _op_name(a, b):
    kinds = ["Sparse" if isinstance(t, SparseTensor) else "Dense" for t in (a, b)]
    return f"{kinds[0]}To{kinds[1]}SetOperation"


def _set_operation(a, b, combine):
    a, b = _checked(a, "a"), _checked(b, "b")
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {a.dtype!r} vs {b.dtype!r}.")
    op = _op_name(a, b)
    batch_a, batch_b = _batch_shape(a, op), _batch_shape(b, op)
    if batch_a != batch_b:
        raise InvalidArgumentError(f"Mismatched shapes [{','.join(map(str, batch_a))}] vs "
                                   f"[{','.join(map(str, batch_b))}]: the batch axes (all but "
                                   f"the last) of both operands must be equal [Op:{op}]", op)
    rows = [sorted(combine(x, y)) for x, y in zip(_row_sets(a, batch_a), _row_sets(b, batch_b))]
    width = max((len(r) for r in rows), default=0)
    indices = [np.unravel_index(i, batch_a) + (j,) for i, r in enumerate(rows)
               for j in range(len(r))]
    dtype = object if a.dtype.name == "string" else a.dtype.np
    values = np.array([v for r in rows for v in r], dtype=dtype)
    return SparseTensor(np.array(indices, np.int64).reshape(-1, len(batch_a) + 1),
                        convert_to_tensor(values, dtype=a.dtype),
                        list(batch_a) + [width])


def union(a, b, validate_indices=True):
    return _set_operation(a, b, set.union)


def intersection(a, b, validate_indices=True):
    return _set_operation(a, b, set.intersection)


def difference(a, b, aminusb=True, validate_indices=True):
    return _set_operation(a, b, set.difference if aminusb else lambda x, y: y - x)


def size(a, validate_indices=True):
    """The number of distinct values in each row of a SparseTensor, as int32."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a!r}. Fix: tf.sets.size counts the "
                        "values of a SparseTensor (e.g. the result of tf.sets.intersection)")
    a = _checked(a, "a")
    batch = _batch_shape(a, "SetSize")
    counts = [len(row) for row in _row_sets(a, batch)]
    return convert_to_tensor(np.array(counts, np.int32).reshape(batch))
