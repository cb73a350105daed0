"""`timeseries_dataset_from_array`: sliding windows over an array as a `tv.data.Dataset`."""
from __future__ import annotations

import numpy as np


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """Batches of windows `data[i : i + sequence_length·sampling_rate : sampling_rate]` for
    i = start_index, start_index + sequence_stride, ... (and `targets[i]` beside each window
    when given), as Keras makes them. With `shuffle=True` the windows' order is reproducible
    under `seed` but is not TensorFlow's."""
    from ...data import Dataset
    data = np.asarray(data)
    for name, value in (("sampling_rate", sampling_rate), ("sequence_stride", sequence_stride)):
        if not isinstance(value, (int, np.integer)) or not 0 < value < len(data):
            raise ValueError(f"`{name}` must be higher than 0 and lower than the length of the "
                             f"data. Received: {name}={value!r}, for data of length {len(data)}")
    start_index = 0 if start_index is None else int(start_index)
    end_index = len(data) if end_index is None else int(end_index)
    if not 0 <= start_index < len(data) or not start_index <= end_index <= len(data):
        raise ValueError(f"`start_index` and `end_index` must be within [0, {len(data)}]; "
                         f"received start_index={start_index}, end_index={end_index}")
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        targets = np.asarray(targets)
        num_seqs = min(num_seqs, len(targets))
    starts = np.arange(0, max(num_seqs, 0), sequence_stride)
    if shuffle:
        np.random.default_rng(seed).shuffle(starts)
    offsets = np.arange(sequence_length) * sampling_rate
    windows = data[start_index:end_index][starts[:, None] + offsets] if len(starts) else \
        np.zeros((0, sequence_length) + data.shape[1:], data.dtype)
    if targets is None:
        dataset = Dataset.from_tensor_slices(windows)
    else:
        dataset = Dataset.from_tensor_slices((windows, targets[start_index:][starts]))
    return dataset.batch(batch_size) if batch_size is not None else dataset
