"""`tf.keras.layers.Discretization`: each value replaced by the index of its bucket among
`bin_boundaries` (TensorFlow's Bucketize: the number of boundaries at or below it), or
encoded as one-hot / multi-hot / counts of those indices.

With `num_bins`, `adapt` finds the boundaries as tf-keras does: each batch of 32 rows (or
each element of a dataset) is summarized by every (n·epsilon)-th of its sorted values,
merged into a running summary compressed by linear interpolation of cumulative weights, and
the boundaries are that summary compressed to `num_bins` quantiles.
"""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from .layers_base import Layer
from .layers_preprocessing import CategoryEncoding

_MODES = ("int", "one_hot", "multi_hot", "count")


def _summarize(values, epsilon):
    values = np.sort(values.reshape(-1).astype(np.float32))
    increment = int(np.float32(values.size) / np.float32(1.0 / epsilon))
    step = max(increment, 1)
    boundaries = values[increment::step]
    return np.stack([boundaries, np.full(boundaries.shape, np.float32(step))])


def _compress(summary, epsilon):
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_percents, summary[0])
    cum_weights = np.interp(percents, cum_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype(np.float32)


def _merge(previous, new, epsilon):
    merged = np.concatenate((previous, new), axis=1)
    return _compress(merged[:, np.argsort(merged[0], kind="stable")], epsilon)


class Discretization(Layer):
    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode not in _MODES:
            raise ValueError(f"Unkown value for `output_mode` argument of layer Discretization."
                             f" Allowed values are: {_MODES}. Received: {output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, "
                             f"`'multi_hot'`, or `'count'`. Received: sparse={sparse} and "
                             f"output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError("`num_bins` must be greater than or equal to 0. You passed "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. You "
                             f"passed `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        given = None if bin_boundaries is None else [float(b) for b in np.asarray(
            getattr(bin_boundaries, "_value", bin_boundaries)).reshape(-1)]
        self.input_bin_boundaries = given
        self.bin_boundaries = given if given is not None else []
        self.num_bins, self.epsilon = num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self._summary = np.zeros((2, 0), np.float32)

    def adapt(self, data, batch_size=None, steps=None):
        """Find `num_bins` boundaries from `data` (an array, a tensor or a Dataset)."""
        from ..data import Dataset
        if self.input_bin_boundaries is not None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead. You passed "
                             f"`bin_boundaries={self.input_bin_boundaries}`.")
        if isinstance(data, Dataset):
            batches = [np.asarray(convert_to_tensor(b).numpy()) for b in data]
        else:
            values = np.asarray(convert_to_tensor(data).numpy())
            size = batch_size or 32           # (Keras's batches when adapting on an array)
            batches = [values[i:i + size] for i in range(0, len(values), size)] \
                if values.ndim else [values]
        self._summary = np.zeros((2, 0), np.float32)
        for batch in batches:
            self._summary = _merge(_summarize(batch, self.epsilon), self._summary,
                                   self.epsilon)
        bins = _compress(self._summary, 1.0 / self.num_bins)[0, :-1]
        self.bin_boundaries = [float(b) for b in np.asarray(bins, np.float32)]
        self.built = True

    def call(self, inputs):
        x = np.asarray(convert_to_tensor(inputs).numpy())
        ids = np.searchsorted(np.asarray(self.bin_boundaries, np.float32),
                              x.astype(np.float32), side="right").astype(np.int64)
        if self.output_mode == "int":
            return convert_to_tensor(ids)
        return CategoryEncoding(len(self.bin_boundaries) + 1, self.output_mode)(ids)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "bin_boundaries": self.input_bin_boundaries,
                "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse}
