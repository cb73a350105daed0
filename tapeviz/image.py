"""`tv.image`: the image functions training code differentiates through: total variation,
RGB/YUV conversion, `resize` (image_resize.py), and flips, crops, pads, dtype conversion and
brightness (image_ops.py)."""
from __future__ import annotations

from .engine.convert import convert_to_tensor
from .engine.ops import abs as _abs, reduce_sum, tensordot
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


# --- colour spaces ------------------------------------------------------------------------------
# TensorFlow's matrices (rows: R, G, B in; columns: Y, U, V out), applied with tensordot
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _last_axis_product(images, kernel):
    images = tensor(images)
    kernel = convert_to_tensor(kernel, dtype=images.dtype)   # (an int image: TF's TypeError)
    return tensordot(images, kernel, axes=[[images._value.ndim - 1], [0]])


def rgb_to_yuv(images, name=None):
    """RGB (last axis of size 3, floats in [0, 1]) to YUV, as TensorFlow's matrix gives it."""
    return _last_axis_product(images, _RGB_TO_YUV)


def yuv_to_rgb(images, name=None):
    """YUV (last axis of size 3) back to RGB: `rgb_to_yuv`'s inverse."""
    return _last_axis_product(images, _YUV_TO_RGB)


from .image_resize import ResizeMethod, resize  # noqa: E402,F401
from .image_ops import *  # noqa: E402,F401,F403
from .image_color import adjust_contrast, adjust_hue, adjust_saturation  # noqa: E402,F401
from .image_random import *  # noqa: E402,F401,F403
from .image_decode import decode_bmp, decode_image, decode_jpeg, decode_png  # noqa: E402,F401
from .image_stateless import *  # noqa: E402,F401,F403
from .image_nms import *  # noqa: E402,F401,F403
from .image_patches import extract_patches  # noqa: E402,F401
