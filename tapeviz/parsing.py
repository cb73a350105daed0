"""`tf.io.parse_single_example` / `parse_example` with `FixedLenFeature` and
`VarLenFeature`: serialized `tf.train.Example`s to tensors, as TensorFlow parses them.

A fixed-length feature gives a dense tensor of its shape (its default when the example lacks
it, else TensorFlow's error); a variable-length one a SparseTensor of the values. Only
float32, int64 and string features exist, matching the float, int64 and bytes lists.
"""
from __future__ import annotations

import collections

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.dtypes import as_dtype
from .engine.errors import InvalidArgumentError
from .sparse import SparseTensor
from .train_example import DecodeError
from .train_example_messages import Example

__all__ = ["FixedLenFeature", "VarLenFeature", "parse_example", "parse_single_example"]

_OP = "ParseExampleV2"
_LISTS = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TYPE_NAMES = {"float32": "float", "int64": "int64", "string": "string"}


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of a known shape; `default_value` fills it when an example lacks it."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any length, parsed into a SparseTensor."""


def _kind(spec, key):
    name = as_dtype(spec.dtype).name
    if name not in _LISTS:
        raise InvalidArgumentError(f"Value for attr 'Tdense' of {name} is not in the list of "
                                   f"allowed values: float, int64, string (feature {key!r}). "
                                   "Fix: tf.float32, tf.int64 or tf.string, and tf.cast after "
                                   f"parsing [Op:{_OP}]", _OP)
    return name


def _values(example, key, name, index):
    """The values of feature `key` (None if absent), checked against the dtype wanted."""
    if key not in example.features.feature:
        return None
    feature = example.features.feature[key]
    kind = feature.WhichOneof("kind")
    if kind is None:
        return []
    if kind != _LISTS[name]:
        found = {v: k for k, v in _LISTS.items()}[kind]
        raise InvalidArgumentError(f"Name: <unknown>, Key: {key}, Index: {index}.  Data types "
                                   f"don't match. Data type: {_TYPE_NAMES[found]} but expected "
                                   f"type: {_TYPE_NAMES[name]} [Op:{_OP}]", _OP)
    return list(getattr(feature, kind).value)


def _array(values, name):
    dtype = as_dtype(name)
    return np.array(values, dtype=object if name == "string" else dtype.np)


def _dense(values, spec, key, name, index):
    shape = [int(d) for d in spec.shape]
    if values is None:
        if spec.default_value is None:
            raise InvalidArgumentError(f"Feature: {key} (data type: {_TYPE_NAMES[name]}) is "
                                       f"required but could not be found. Fix: give the "
                                       f"FixedLenFeature a default_value [Op:{_OP}]", _OP)
        default = getattr(spec.default_value, "_value", spec.default_value)
        return np.broadcast_to(_array(np.asarray(default, dtype=object if name == "string"
                                                 else None).tolist(), name), shape).copy()
    if len(values) != int(np.prod(shape)):
        raise InvalidArgumentError(f"Key: {key}, Index: {index}.  Number of {_TYPE_NAMES[name]} "
                                   f"values != expected.  Values size: {len(values)} but output "
                                   f"shape: {shape} [Op:{_OP}]", _OP)
    return _array(values, name).reshape(shape)


def _examples(serialized):
    raw = getattr(serialized, "_value", serialized)
    items = np.asarray(raw, dtype=object)
    shape = items.shape
    try:
        return shape, [Example.FromString(s if isinstance(s, bytes) else s.encode())
                       for s in items.reshape(-1).tolist()]
    except DecodeError:
        raise InvalidArgumentError(f"Could not parse example input, value: {items!r} "
                                   f"[Op:{_OP}]", _OP) from None


def _parse(shape, examples, features):
    out = {}
    for key, spec in features.items():
        name = _kind(spec, key)
        per_example = [_values(ex, key, name, i) for i, ex in enumerate(examples)]
        if isinstance(spec, FixedLenFeature):
            dense = [_dense(v, spec, key, name, i) for i, v in enumerate(per_example)]
            stacked = np.stack(dense) if dense else np.zeros((0,) + tuple(spec.shape))
            out[key] = convert_to_tensor(stacked.reshape(shape + stacked.shape[1:]),
                                         dtype=as_dtype(name))
        else:
            lists = [v or [] for v in per_example]
            width = max((len(v) for v in lists), default=0)
            indices = [[b, i] for b, v in enumerate(lists) for i in range(len(v))]
            indices = np.array(indices, np.int64).reshape(-1, 2)
            if not shape:                     # one example: a rank-1 SparseTensor
                indices, dense_shape = indices[:, 1:], [width]
            else:
                dense_shape = [len(lists), width]
            out[key] = SparseTensor(indices, convert_to_tensor(
                _array([x for v in lists for x in v], name), dtype=as_dtype(name)), dense_shape)
    return out


def parse_single_example(serialized, features, name=None, example_names=None):
    """One serialized Example (a bytes or string scalar) -> {key: tensor or SparseTensor}."""
    shape, examples = _examples(serialized)
    if shape:
        raise ValueError(f"parse_single_example: serialized must be a scalar, got shape "
                         f"{shape}. Fix: use tf.io.parse_example for a batch")
    return _parse((), examples, features)


def parse_example(serialized, features, name=None, example_names=None):
    """A vector of serialized Examples -> {key: batched tensor or 2-D SparseTensor}."""
    shape, examples = _examples(serialized)
    return _parse(tuple(shape), examples, features)
