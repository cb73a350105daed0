"""`tv.image.resize`, TensorFlow 2's `resize_images_v2`: the argument checks and which kernel
each method runs (the weights themselves are in engine/ops/resize.py).

Every method but nearest returns float32, whatever the input dtype, as TensorFlow's kernels
do; nearest keeps the dtype (it gathers pixels). Gradients: every method but area is a
linear map (two einsums, or gathers) differentiated to any order; area has none in
TensorFlow, so differentiating it raises LookupError here too.
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops import expand_dims, squeeze
from .engine.ops._base import tensor
from .engine.ops.resize import SPAN_KERNELS, resample, resize_area


class ResizeMethod:
    """The names `tv.image.resize(method=...)` takes."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_KERNEL_NAMES = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
                 "bicubic": "ResizeBicubic", "area": "ResizeArea"}


def _size(size):
    try:
        value = convert_to_tensor(size, dtype="int32")._value
    except (TypeError, ValueError):
        raise ValueError(f"'size' must be a 1-D int32 Tensor, got {size!r}. Fix: pass "
                         "[new_height, new_width] as integers") from None
    if value.shape != (2,):
        raise ValueError(f"'size' must be a 1-D Tensor of 2 elements: new_height, new_width; "
                         f"got shape {list(value.shape)}. Fix: size=[new_height, new_width]")
    return int(value[0]), int(value[1])


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None):
    """Resize (height, width, channels) or (batch, height, width, channels) images to
    `size` = [new_height, new_width], with TensorFlow's numbers for every method."""
    images = tensor(images)
    rank = images._value.ndim
    if rank not in (3, 4):
        raise ValueError(f"'images' must have either 3 or 4 dimensions; got shape "
                         f"{list(images.shape)}. Fix: pass (height, width, channels) or "
                         "(batch, height, width, channels)")
    batch = images if rank == 4 else expand_dims(images, 0)
    in_hw = tuple(int(d) for d in batch._value.shape[1:3])
    out_hw = _size(size)
    if preserve_aspect_ratio:
        factor = min(np.float32(out_hw[0]) / np.float32(in_hw[0]),
                     np.float32(out_hw[1]) / np.float32(in_hw[1]))
        out_hw = tuple(int(np.round(factor * np.float32(d))) for d in in_hw)
    method = getattr(method, "value", method)
    if method not in _KERNEL_NAMES and method not in SPAN_KERNELS:
        raise ValueError(f"Resize method is not implemented: {method}. Fix: one of "
                         f"{sorted(set(_KERNEL_NAMES) | set(SPAN_KERNELS))} "
                         "(tf.image.ResizeMethod)")
    spans = antialias and method in SPAN_KERNELS or method not in _KERNEL_NAMES
    kernel = "ScaleAndTranslate" if spans else _KERNEL_NAMES[method]
    if min(out_hw) <= 0:
        raise InvalidArgumentError(f"{kernel}: output dimensions must be positive, got size "
                                   f"{list(out_hw)} for images of shape {list(images.shape)}. "
                                   f"Fix: a new height and width of at least 1 [Op:{kernel}]",
                                   kernel)
    if method == "area":
        out = resize_area(batch, in_hw, out_hw)
    else:
        out = resample(batch, method, bool(spans and antialias), in_hw, out_hw)
    return out if rank == 4 else squeeze(out, [0])
