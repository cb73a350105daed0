"""`Dataset.group_by_window` and `Dataset.bucket_by_sequence_length` (also as
`tf.data.experimental` transformations for `Dataset.apply`), as TensorFlow groups elements.

Elements go to the group of their key; a group that reaches its window size is handed to
`reduce_func` at once and its output comes next; at the end of the input the unfinished
groups are handed over in ascending key order (TensorFlow keeps them in an ordered map).
"""
from __future__ import annotations

import numpy as np

from .engine.errors import InvalidArgumentError


def _int(value):
    return int(np.asarray(getattr(value, "_value", value)))


def group_by_window(dataset, key_func, reduce_func, window_size=None, window_size_func=None,
                    name=None):
    from .data import UNKNOWN_CARDINALITY, Dataset, _call
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument "
                         "must be specified.")
    size_of = (lambda key: window_size) if window_size_func is None else window_size_func

    def reduced(key, rows):
        out = reduce_func(np.int64(key), Dataset(lambda: iter(rows), len(rows)))
        return iter(out)

    def grouped():
        groups = {}
        for element in dataset:
            key = _int(_call(key_func, element))
            groups.setdefault(key, []).append(element)
            size = _int(size_of(np.int64(key)))
            if size <= 0:
                raise InvalidArgumentError(f"Window size must be greater than zero, but got "
                                           f"{size}. [Op:IteratorGetNext]", "IteratorGetNext")
            if len(groups[key]) == size:
                yield from reduced(key, groups.pop(key))
        for key in sorted(groups):
            yield from reduced(key, groups[key])
    return Dataset(grouped, UNKNOWN_CARDINALITY)


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False, name=None):
    """Batches of elements of similar length: an element of length L goes to the first
    bucket i with boundaries[i-1] <= L < boundaries[i], batched by bucket_batch_sizes[i] and
    padded to its batch's longest element."""
    from .data import _call
    boundaries = [int(b) for b in bucket_boundaries]
    sizes = [int(s) for s in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError("len(bucket_batch_sizes) must equal len(bucket_boundaries) + 1")
    if pad_to_bucket_boundary:
        raise NotImplementedError("bucket_by_sequence_length: pad_to_bucket_boundary=True is "
                                  "not supported by tapeviz. Fix: padded_shapes with the "
                                  "bucket's length, or the default padding to each batch")

    def bucket(*element):
        length = _int(_call(element_length_func, element[0] if len(element) == 1
                            else element))
        return sum(1 for b in boundaries if b <= length)

    def batch(key, window):
        size = sizes[int(key)]
        if no_padding:
            return window.batch(size, drop_remainder=drop_remainder)
        return window.padded_batch(size, padded_shapes, padding_values,
                                   drop_remainder=drop_remainder)
    return group_by_window(dataset, lambda *e: bucket(*e), batch,
                           window_size_func=lambda key: sizes[int(key)])


def install(dataset_class, experimental):
    dataset_class.group_by_window = group_by_window
    dataset_class.bucket_by_sequence_length = bucket_by_sequence_length
    experimental.group_by_window = lambda key_func, reduce_func, window_size=None, \
        window_size_func=None: (lambda ds: group_by_window(ds, key_func, reduce_func,
                                                           window_size, window_size_func))
    experimental.bucket_by_sequence_length = lambda *args, **kwargs: (
        lambda ds: bucket_by_sequence_length(ds, *args, **kwargs))
