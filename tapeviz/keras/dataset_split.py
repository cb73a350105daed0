"""`tf.keras.utils.split_dataset`: a dataset (arrays, a tuple or list of arrays, or a
tf.data.Dataset) split into two Datasets, in order or shuffled by Python's `random` seeded
with `seed`, sizes as counts or fractions (rounded), as TF-Keras splits it."""
from __future__ import annotations

import random

import numpy as np


def _samples(dataset):
    from ..data import Dataset
    if isinstance(dataset, (list, tuple)):
        kind = "list" if isinstance(dataset, list) else "tuple"
        if len(dataset) == 0:
            raise ValueError(f"Received an empty {kind} dataset. Please provide a non-empty "
                             f"{kind} of arrays.")
        if not isinstance(dataset[0], np.ndarray):
            raise ValueError(f"Expected a {kind} of `numpy.ndarray` objects, Received: "
                             f"{type(dataset[0])}")
        for i, element in enumerate(dataset):
            if np.array(element).shape[0] != dataset[0].shape[0]:
                raise ValueError(f"Received a {kind} of NumPy arrays with different lengths. "
                                 f"Mismatch found at index {i}, Expected shape="
                                 f"{dataset[0].shape} Received shape={np.array(element).shape}.")
        out = []
        for sample in zip(*dataset):
            try:
                out.append(np.array(sample))
            except ValueError:        # (parts of different shapes: an object array, as Keras)
                out.append(np.array(sample, dtype=object))
        return out
    if isinstance(dataset, Dataset):
        source = dataset.unbatch() if hasattr(dataset, "_batch_size") else dataset
        return [_numpy(e) for e in source]
    return list(dataset)


def _numpy(element):
    if isinstance(element, dict):
        return {k: _numpy(v) for k, v in element.items()}
    if isinstance(element, tuple):
        return tuple(_numpy(v) for v in element)
    return np.asarray(element.numpy() if hasattr(element, "numpy") else element)


def _sizes(left_size, right_size, total):
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is not None and type(size) not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, "
                            f"Received: type({name})={type(size)}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the "
                         "split sizes must be non-zero.")
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if (type(size) is int and not 0 < size < total) or \
                (type(size) is float and not 0 < size < 1):
            raise ValueError(f"`{name}` should be either a positive integer smaller than "
                             f"{total}, or a float within the range `[0, 1]`. Received: "
                             f"{name}={size}")
    if type(left_size) is type(right_size) is float and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must "
                         "be less than or equal to 1.")
    left = round(left_size * total) if type(left_size) is float else left_size
    right = round(right_size * total) if type(right_size) is float else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the "
                         f"{total}. Received: left_size + right_size = {left + right}")
    for split, side in ((left, "left"), (right, "right")):
        if split == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={left} and "
                             f"`right_size`={right}.Resulting {side} side dataset split will "
                             "be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def _restore(samples, dataset):
    from ..data import Dataset
    if isinstance(dataset, (list, tuple)) or (
            isinstance(dataset, Dataset) and not (samples and isinstance(samples[0], dict))):
        return tuple(np.array(part) for part in zip(*samples))
    if isinstance(dataset, Dataset):
        return {k: np.array([s[k] for s in samples]) for k in samples[0]}
    return samples


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None):
    from ..data import AUTOTUNE, Dataset
    if not isinstance(dataset, (Dataset, list, tuple, np.ndarray)):
        raise TypeError("The `dataset` argument must be either a `tf.data.Dataset` object or a "
                        f"list/tuple of arrays. Received: dataset={dataset} of type "
                        f"{type(dataset)}")
    if left_size is None and right_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         "Received: left_size=None and right_size=None")
    samples = _samples(dataset)
    if not samples:
        raise ValueError("Received an empty Dataset. `dataset` must be a non-empty list/tuple "
                         "of `numpy.ndarray` objects or `tf.data.Dataset` objects.")
    if shuffle:
        random.seed(random.randint(0, int(1e6)) if seed is None else seed)
        random.shuffle(samples)
    left, right = _sizes(left_size, right_size, len(samples))
    splits = [Dataset.from_tensor_slices(_restore(list(part), dataset))
              for part in (samples[:left], samples[-right:])]
    size = getattr(dataset, "_batch_size", None)
    if size is not None:
        splits = [s.batch(size) for s in splits]
    return tuple(s.prefetch(AUTOTUNE) for s in splits)
