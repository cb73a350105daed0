"""`tv.image`: the image functions training code differentiates through."""
from __future__ import annotations

from .engine.ops import abs as _abs, reduce_sum
from .engine.ops._base import tensor


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels (down and across), per
    image: a scalar for one image (height, width, channels), shape (batch,) for a batch."""
    images = tensor(images)
    rank = images._value.ndim
    if rank == 3:
        down = images[1:, :, :] - images[:-1, :, :]
        across = images[:, 1:, :] - images[:, :-1, :]
        axes = None
    elif rank == 4:
        down = images[:, 1:, :, :] - images[:, :-1, :, :]
        across = images[:, :, 1:, :] - images[:, :, :-1, :]
        axes = [1, 2, 3]
    else:
        raise ValueError(f"total_variation: 'images' must be either 3 or 4-dimensional, got "
                         f"shape {tuple(images.shape)}. Fix: pass (height, width, channels) "
                         "or (batch, height, width, channels)")
    return reduce_sum(_abs(down), axis=axes) + reduce_sum(_abs(across), axis=axes)
