"""Keras's rule for lining a `sample_weight` up with the values it weighs (per-example
losses, a metric's values, a confusion matrix's predictions), shared by the losses, the
metrics and the masks of `fit`, as Keras's `squeeze_or_expand_dimensions` is."""
from __future__ import annotations

import numpy as np

from ..engine.ops import expand_dims, squeeze


def align_sample_weight(weight, values_rank: int):
    """``weight`` (a NumPy array or a tensor) shaped to multiply values of rank
    ``values_rank``: a (batch, 1) weight beside (batch,) values loses its last axis; a
    weight of lower rank gains trailing axes of 1, so that a (batch,) weight weighs every
    step of (batch, steps) values rather than broadcasting along the steps; a scalar stays
    a scalar."""
    drop, add = (np.squeeze, np.expand_dims) if isinstance(weight, np.ndarray) else \
        (squeeze, expand_dims)
    rank = len(weight.shape)
    if rank and rank == values_rank + 1 and weight.shape[-1] == 1:
        return drop(weight, -1)
    for _ in range(values_rank - rank if rank else 0):
        weight = add(weight, -1)
    return weight
