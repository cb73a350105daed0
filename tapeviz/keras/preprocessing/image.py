"""`tf.keras.utils.load_img`, `img_to_array`, `array_to_img`, `save_img` and `smart_resize`
(also under `keras.preprocessing.image`), as tf-keras 2 writes them: Keras itself reads and
resizes with Pillow here, so the pixels are Keras's by construction."""
from __future__ import annotations

import io
import os
import pathlib

import numpy as np

_PIL_RESAMPLING = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil():
    from ...image_decode import _pillow
    return _pillow()


def smart_resize(x, size, interpolation="bilinear"):
    """The centre of `x` at the aspect ratio of `size`, resized to `size`; a NumPy array
    in gives a NumPy array out, as in Keras."""
    from ..layers_image_preprocessing import smart_resize as resize_tensor
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    from ...engine.convert import convert_to_tensor
    image = convert_to_tensor(x)
    if image.shape.rank not in (3, 4):
        raise ValueError(f"Expected an image array with shape `(height, width, channels)`, or "
                         f"`(batch_size, height, width, channels)`, but got input with "
                         f"incorrect rank, of shape {tuple(image.shape)}.")
    out = resize_tensor(image, list(size), interpolation)
    return out.numpy() if isinstance(x, np.ndarray) else out


def load_img(path, grayscale=False, color_mode="rgb", target_size=None,
             interpolation="nearest", keep_aspect_ratio=False):
    """A Pillow image of the file, converted to `color_mode` and resized by Pillow."""
    image_module = _pil()
    if grayscale:
        color_mode = "grayscale"
    if isinstance(path, io.BytesIO):
        img = image_module.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str, os.PathLike)):
        with open(os.fspath(path), "rb") as f:
            img = image_module.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    if color_mode == "grayscale":
        if img.mode not in ("L", "I;16", "I"):
            img = img.convert("L")
    elif color_mode in ("rgba", "rgb"):
        if img.mode != color_mode.upper():
            img = img.convert(color_mode.upper())
    else:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if target_size is not None:
        size = (int(target_size[1]), int(target_size[0]))
        if img.size != size:
            if interpolation not in _PIL_RESAMPLING:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. "
                                 f"Supported methods are {', '.join(_PIL_RESAMPLING)}")
            resample = getattr(image_module.Resampling, interpolation.upper())
            box = None
            if keep_aspect_ratio:
                width, height = img.size
                crop_height = min(height, (width * size[1]) // size[0])
                crop_width = min(width, (height * size[0]) // size[1])
                top, left = (height - crop_height) // 2, (width - crop_width) // 2
                box = [left, top, left + crop_width, top + crop_height]
            img = img.resize(size, resample, box=box)
    return img


def img_to_array(img, data_format=None, dtype=None):
    """A Pillow image (or array) as a (height, width, channels) NumPy array of `dtype`
    (floatx by default)."""
    from .. import backend
    data_format = data_format or backend.image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 2:
        x = x.reshape((1,) + x.shape if data_format == "channels_first" else x.shape + (1,))
    elif x.ndim == 3:
        x = x.transpose(2, 0, 1) if data_format == "channels_first" else x
    else:
        raise ValueError(f"Unsupported image shape: {x.shape}")
    return x


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A (height, width, channels) array as a Pillow image, scaled to 0-255 by its range
    unless `scale=False`."""
    from .. import backend
    image_module = _pil()
    data_format = data_format or backend.image_data_format()
    x = np.asarray(getattr(x, "_value", x), dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with "
                         f"shape: {x.shape}")
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Invalid data_format: {data_format}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        return image_module.fromarray(x.astype("uint8"), "RGBA" if channels == 4 else "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return image_module.fromarray(x[:, :, 0].astype("int32"), "I")
        return image_module.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)
