"""Keras's image preprocessing layers that draw nothing at random: `Resizing` (`tv.image.resize`
with the layer's `interpolation`, `crop_to_aspect_ratio` cropping the centre to the target's
aspect ratio first, as `smart_resize`) and `CenterCrop` (the centre window, or a
`smart_resize` up to the target when the image is smaller). Images are (batch, height, width,
channels) or one (height, width, channels); outputs in the layer's dtype."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.ops import cast
from .layers_base import Layer


def _image(inputs, dtype):
    x = convert_to_tensor(inputs)
    if x.shape.rank not in (3, 4):
        raise ValueError(f"Expected an image of rank 3 (height, width, channels) or a batch of "
                         f"rank 4, got shape {tuple(x.shape)}. Fix: add the channel axis, e.g. "
                         "tf.expand_dims(images, -1)")
    return x if x.dtype == dtype else cast(x, dtype)


def smart_resize(x, size, interpolation="bilinear"):
    """The centre of `x` at the aspect ratio of `size`, resized to `size` (Keras's rule)."""
    from ..image_resize import resize
    height, width = int(x.shape[-3]), int(x.shape[-2])
    target_height, target_width = size
    f32 = np.float32                       # (Keras computes the box in float32)
    crop_height = min(height, int(f32(width * target_height) / f32(target_width)))
    crop_width = min(width, int(f32(height * target_width) / f32(target_height)))
    top, left = int(f32(height - crop_height) / f32(2)), int(f32(width - crop_width) / f32(2))
    x = x[..., top:top + crop_height, left:left + crop_width, :]
    return resize(x, size, method=interpolation)


class Resizing(Layer):
    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)
        self.interpolation, self.crop_to_aspect_ratio = interpolation, bool(crop_to_aspect_ratio)

    def call(self, inputs):
        from ..image_resize import resize
        x = _image(inputs, self._dtype)
        size = [self.height, self.width]
        out = smart_resize(x, size, self.interpolation) if self.crop_to_aspect_ratio else \
            resize(x, size, method=self.interpolation)
        return out if out.dtype == self._dtype else cast(out, self._dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width,
                "interpolation": self.interpolation,
                "crop_to_aspect_ratio": self.crop_to_aspect_ratio}


class CenterCrop(Layer):
    def __init__(self, height, width, **kwargs):
        super().__init__(**kwargs)
        self.height, self.width = int(height), int(width)

    def call(self, inputs):
        x = _image(inputs, self._dtype)
        h_diff, w_diff = int(x.shape[-3]) - self.height, int(x.shape[-2]) - self.width
        if h_diff >= 0 and w_diff >= 0:
            top, left = h_diff // 2, w_diff // 2
            return x[..., top:top + self.height, left:left + self.width, :]
        out = smart_resize(x, [self.height, self.width])
        return out if out.dtype == self._dtype else cast(out, self._dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-3]) + (self.height, self.width, input_shape[-1])

    def get_config(self) -> dict:
        return {**super().get_config(), "height": self.height, "width": self.width}
