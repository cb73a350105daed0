"""`pad_sequences`: lists of sequences of different lengths into one array, as Keras pads them."""
from __future__ import annotations

import numpy as np


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """An array of shape `(len(sequences), maxlen) + item shape`: each sequence cut to its last
    (`truncating="pre"`) or first (`"post"`) `maxlen` items and filled with `value` before
    (`padding="pre"`) or after (`"post"`) it. `maxlen` defaults to the longest sequence.

    >>> pad_sequences([[1, 2, 3], [4]], maxlen=2).tolist()
    [[2, 3], [0, 4]]
    """
    lengths, sample_shape, found = [], (), False
    for x in sequences:
        try:
            lengths.append(len(x))
        except TypeError as e:
            raise ValueError("pad_sequences: `sequences` must be a list of iterables. Found "
                             f"non-iterable: {x!r}. Fix: wrap each sequence in a list") from e
        if not found and len(x):
            sample_shape, found = np.asarray(x).shape[1:], True
    if maxlen is None:
        maxlen = int(np.max(lengths)) if lengths else 0
    if isinstance(value, str) and dtype is not object and not np.issubdtype(dtype, np.str_):
        raise ValueError(f"pad_sequences: `dtype` {dtype} is not compatible with `value`'s "
                         f"type {type(value)}. Fix: pass dtype=object for a string value")
    out = np.full((len(lengths), maxlen) + sample_shape, value, dtype=dtype)
    for i, seq in enumerate(sequences):
        if not len(seq):
            continue
        if truncating == "pre":
            kept = seq[-maxlen:] if maxlen else seq[:0]
        elif truncating == "post":
            kept = seq[:maxlen]
        else:
            raise ValueError(f'pad_sequences: truncating type "{truncating}" not understood. '
                             'Fix: pass "pre" or "post"')
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"pad_sequences: shape of sample {kept.shape[1:]} of sequence at "
                             f"position {i} is different from expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        elif padding == "pre":
            out[i, maxlen - len(kept):] = kept
        else:
            raise ValueError(f'pad_sequences: padding type "{padding}" not understood. '
                             'Fix: pass "pre" or "post"')
    return out
