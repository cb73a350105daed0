"""`Dataset.from_generator`, `interleave`, `padded_batch`, `apply`, `take_while`, `scan` and
`get_single_element`, as TensorFlow's (a mixin of `tv.data.Dataset`).

`interleave` follows TensorFlow's kernel: `cycle_length` open inner datasets, `block_length`
elements from each in turn; an exhausted one is dropped and its slot takes the next input
element's dataset when the cycle comes back to it. Its default `cycle_length` is, as
TensorFlow's AUTOTUNE, the number of CPU cores this process may use, so the order of an
interleave without `cycle_length` depends on the machine, as in TensorFlow.
"""
from __future__ import annotations

import os

import numpy as np

from . import data_sources
from .engine import nest
from .engine.errors import DataLossError, InvalidArgumentError
from .engine.tensor import Tensor

UNKNOWN_CARDINALITY = -2


def _cores() -> int:
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def _spec_leaves(output_signature, output_types, output_shapes):
    """(structure, [(dtype, shape or None)]) of a generator's elements."""
    from .engine.dtypes import as_dtype
    if output_signature is not None:
        flat = nest.flatten(output_signature)
        return output_signature, [(as_dtype(s.dtype), s.shape) for s in flat]
    if output_types is None:
        raise TypeError("To specify the output signature you need to provide either the "
                        "`output_signature` argument or the `output_types` argument.")
    types = nest.flatten(output_types)
    shapes = ([None] * len(types) if output_shapes is None else
              [None if s is None else tuple(s) for s in _shape_leaves(output_shapes, len(types))])
    return output_types, [(as_dtype(t), s) for t, s in zip(types, shapes)]


def _shape_leaves(shapes, n):
    """`output_shapes` flattened to n shapes (a shape is a list of ints, not a structure)."""
    if n == 1:
        return [shapes]
    return list(shapes.values()) if isinstance(shapes, dict) else list(shapes)


def _generated(value, structure, leaves):
    """One yielded element as tensors of the declared dtypes and shapes, or TensorFlow's
    InvalidArgumentError (its TypeError from inside the generator's py_func)."""
    try:
        items = _flatten_up_to(structure, value)
    except (TypeError, ValueError, KeyError):
        raise InvalidArgumentError(
            "TypeError: `generator` yielded an element that did not match the expected "
            f"structure. The expected structure was {structure}, but the yielded element "
            f"was {value}.") from None
    out = []
    for item, (dtype, shape) in zip(items, leaves):
        try:
            array = np.asarray(item).astype(dtype.np)
        except (TypeError, ValueError):
            raise InvalidArgumentError(
                "TypeError: `generator` yielded an element that could not be converted to the "
                f"expected type. The expected type was {dtype.name}, but the yielded element "
                f"was {item}.") from None
        if shape is not None and (len(shape) != array.ndim or any(
                d is not None and d != n for d, n in zip(shape, array.shape))):
            raise InvalidArgumentError(
                f"TypeError: `generator` yielded an element of shape {array.shape} where an "
                f"element of shape {tuple(shape)} was expected.")
        out.append(Tensor(array))
    return nest.pack_sequence_as(structure, out) if nest.is_nested(structure) else out[0]


def _flatten_up_to(structure, value):
    """`value`'s parts where `structure` has leaves (a list in `value` under a leaf of
    `structure` is one element, as TensorFlow reads it)."""
    if isinstance(structure, dict):
        if not isinstance(value, dict) or set(value) != set(structure):
            raise ValueError("the keys differ")
        return [x for k in sorted(structure) for x in _flatten_up_to(structure[k], value[k])]
    if isinstance(structure, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            raise ValueError("the lengths differ")
        return [x for s, v in zip(structure, value) for x in _flatten_up_to(s, v)]
    return [value]


def from_generator(generator, output_types=None, output_shapes=None, args=None,
                   output_signature=None, name=None):
    """The elements `generator(*args)` yields, called afresh for each iteration."""
    from .data import Dataset
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    structure, leaves = _spec_leaves(output_signature, output_types, output_shapes)
    arguments = [np.asarray(getattr(a, "_value", a)) for a in (args or ())]

    def elements():
        for value in generator(*arguments):
            yield _generated(value, structure, leaves)
    return Dataset(elements, UNKNOWN_CARDINALITY)


def _interleaved(outer, map_func, cycle_length, block_length):
    """TensorFlow's InterleaveDataset iterator, step for step."""
    from .data import _call
    inputs = iter(outer)
    slots = [None] * cycle_length
    index = block = 0
    open_, end_of_input = 0, False
    while not end_of_input or open_ > 0:
        if slots[index] is not None:
            element = next(slots[index], StopIteration)
            if element is not StopIteration:
                yield element
                block += 1
                if block == block_length:
                    block, index = 0, (index + 1) % cycle_length
                continue
            slots[index] = None
            open_ -= 1
            block, index = 0, (index + 1) % cycle_length
        elif not end_of_input:
            element = next(inputs, StopIteration)
            if element is StopIteration:
                end_of_input = True
            else:
                slots[index] = iter(_call(map_func, element))
                open_ += 1
        else:
            block, index = 0, (index + 1) % cycle_length


def _padded(rows, shapes, values):
    """One padded batch of a component: rows padded to `shapes` (None: the longest)."""
    arrays = [np.asarray(r._value) for r in rows]
    longest = np.max([a.shape for a in arrays], axis=0) if arrays[0].ndim else ()
    target = [int(m) if s is None or s == -1 else int(s)
              for s, m in zip(shapes if shapes is not None else [None] * len(longest), longest)]
    if any(t < m for t, m in zip(target, longest)):
        longest = [int(m) for m in longest]
        raise DataLossError("Attempted to pad to a smaller size than the input element (an "
                            f"element of shape {longest} and padded shape {target}). Fix: "
                            "padded_shapes at least as large as every element, or None for "
                            "the longest [Op:IteratorGetNext]", "IteratorGetNext")
    out = np.full([len(arrays)] + target, values, dtype=arrays[0].dtype)
    for i, a in enumerate(arrays):
        out[(i,) + tuple(slice(0, n) for n in a.shape)] = a
    return Tensor(out)


class TransformMethods:
    """Transformations that nest, pad, stop early or carry a state."""

    from_generator = staticmethod(from_generator)
    list_files = staticmethod(data_sources.list_files)
    counter = staticmethod(data_sources.counter)

    def with_options(self, options, name=None):
        """The same elements, with `options` kept for `options()` (they change nothing)."""
        dataset = type(self)(self._make_iterator, self._cardinality, self._rows)
        dataset._options = options
        return dataset

    def options(self):
        return getattr(self, "_options", None) or data_sources.Options()

    def apply(self, transformation_func, name=None):
        return transformation_func(self)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        cycle = _cores() if cycle_length in (None, -1) else int(cycle_length)
        block = 1 if block_length is None else int(block_length)
        if cycle <= 0 or block <= 0:
            raise InvalidArgumentError(
                f"InterleaveDataset: cycle_length ({cycle}) and block_length ({block}) must be "
                "greater than zero. Fix: pass positive ints [Op:InterleaveDataset]",
                "InterleaveDataset")
        return type(self)(lambda: _interleaved(self, map_func, cycle, block),
                          UNKNOWN_CARDINALITY)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """Batches whose components are padded (with 0, or `padding_values`) to
        `padded_shapes`, or to the longest element of the batch along each None dimension."""
        size = int(batch_size)
        if size <= 0:
            raise InvalidArgumentError(f"PaddedBatchDataset: batch_size must be greater than "
                                       f"zero, got {size} [Op:PaddedBatchDatasetV2]",
                                       "PaddedBatchDatasetV2")
        batched = self.batch(size, drop_remainder)

        def padded():
            for rows in (list(b) for b in _row_groups(self, size, drop_remainder)):
                first = rows[0]
                flat = [nest.flatten(r) for r in rows]
                leaves = len(flat[0])
                shapes = (_shapes_like(first, padded_shapes) if padded_shapes is not None
                          else [None] * leaves)
                values = ([padding_values] * leaves if not nest.is_nested(padding_values)
                          else nest.flatten(padding_values))
                yield nest.pack_sequence_as(first, [
                    _padded([f[j] for f in flat], shapes[j], _value(values[j]))
                    for j in range(leaves)])
        return type(self)(padded, batched._cardinality)

    def take_while(self, predicate, name=None):
        from .data import _call

        def taken():
            for element in self:
                if not bool(_call(predicate, element)):
                    return
                yield element
        return type(self)(taken, UNKNOWN_CARDINALITY)

    def scan(self, initial_state, scan_func, name=None):
        """`state, out = scan_func(state, element)` for each element; yields each `out`."""
        def scanned():
            state = initial_state
            for element in self:
                state, out = (scan_func(state, *element) if isinstance(element, tuple)
                              else scan_func(state, element))
                yield out
        return type(self)(scanned, self._cardinality)

    def get_single_element(self, name=None):
        it = iter(self)
        first = next(it, StopIteration)
        if first is StopIteration:
            raise InvalidArgumentError("Dataset was empty. [Op:DatasetToSingleElement]",
                                       "DatasetToSingleElement")
        if next(it, StopIteration) is not StopIteration:
            raise InvalidArgumentError("Dataset had more than one element. "
                                       "[Op:DatasetToSingleElement]", "DatasetToSingleElement")
        return first


def _shapes_like(element, shapes):
    """`padded_shapes` flattened as `element` is (a shape is a leaf, though it is a list)."""
    if isinstance(element, dict):
        return [s for k in sorted(element) for s in _shapes_like(element[k], shapes[k])]
    if isinstance(element, tuple):
        return [s for e, sh in zip(element, shapes) for s in _shapes_like(e, sh)]
    shape = getattr(shapes, "_value", shapes)
    return [None if shape is None else [None if d is None else int(d) for d in shape]]


def _value(v):
    return 0 if v is None else np.asarray(getattr(v, "_value", v))


def _row_groups(dataset, size, drop_remainder):
    group = []
    for element in dataset:
        group.append(element)
        if len(group) == size:
            yield group
            group = []
    if group and not drop_remainder:
        yield group
