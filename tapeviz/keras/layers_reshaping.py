"""Layers that resize images: `UpSampling2D` (nearest neighbour), `ZeroPadding2D` and
`Cropping2D`, channels last; and `RepeatVector`; written with other ops (reshape and broadcast, concat with
zeros, slicing), so their gradients are those ops' gradients."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.ops import broadcast_to, concat, expand_dims, reshape, tile, zeros
from .layers_base import Layer
from .layers_conv import channels_last, check_rank, int_tuple


def _pairs(value, what: str, layer: str) -> tuple:
    """Keras's `1`, `(1, 2)` or `((top, bottom), (left, right))` as ((t, b), (l, r))."""
    if isinstance(value, (int, np.integer)):
        value = (value, value)
    rows = tuple((v, v) if isinstance(v, (int, np.integer)) else tuple(v) for v in value)
    if len(rows) != 2 or any(len(r) != 2 or min(r) < 0 for r in rows):
        raise ValueError(f"{layer}: `{what}` should have two elements, each an int or a pair "
                         f"of non-negative ints. Received: {what}={value!r}. Fix: e.g. "
                         f"{what}=1 or {what}=((1, 1), (2, 2))")
    return tuple(tuple(int(v) for v in r) for r in rows)


class _Resizing(Layer):
    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        channels_last(data_format, type(self).__name__)
        self.data_format = "channels_last"

    def _input(self, inputs):
        x = convert_to_tensor(inputs)
        check_rank(self, tuple(x.shape), 4)
        return x


_INTERPOLATIONS = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5",
                   "mitchellcubic", "nearest")


class UpSampling2D(_Resizing):
    """Each pixel repeated `size` times along height and width (nearest neighbour), or with
    another `interpolation` the images resized by `tf.image.resize`, as Keras does.

    >>> import tapeviz as tv
    >>> x = tv.reshape(tv.range(4.0), (1, 2, 2, 1))
    >>> tv.keras.layers.UpSampling2D()(x)[0, :, :, 0].numpy().tolist()[0]
    [0.0, 0.0, 1.0, 1.0]
    """

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(data_format, **kwargs)
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"UpSampling2D: interpolation={interpolation!r} is not "
                                      f"supported. Fix: one of {list(_INTERPOLATIONS)}")
        self.size = int_tuple(size, "size", "UpSampling2D")
        self.interpolation = interpolation

    def call(self, inputs):
        x = self._input(inputs)
        n, h, w, c = x._value.shape
        sh, sw = self.size
        if self.interpolation != "nearest":
            from ..image_resize import resize
            return resize(x, (h * sh, w * sw), method=self.interpolation)
        spread = broadcast_to(reshape(x, (n, h, 1, w, 1, c)), (n, h, sh, w, sw, c))
        return reshape(spread, (n, h * sh, w * sw, c))

    def compute_output_shape(self, input_shape):
        b, h, w, c = input_shape
        return (b, None if h is None else h * self.size[0],
                None if w is None else w * self.size[1], c)


class ZeroPadding2D(_Resizing):
    """Rows and columns of zeros around each image: `padding` = 1, (rows, cols) or
    ((top, bottom), (left, right))."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(data_format, **kwargs)
        self.padding = _pairs(padding, "padding", "ZeroPadding2D")

    def call(self, inputs):
        x = self._input(inputs)
        for axis, (before, after) in zip((1, 2), self.padding):
            shape = list(x._value.shape)
            parts = []
            for size in (before, after):
                shape[axis] = size
                parts.append(zeros(tuple(shape), x.dtype) if size else None)
            x = concat([p for p in (parts[0], x, parts[1]) if p is not None], axis=axis)
        return x

    def compute_output_shape(self, input_shape):
        b, h, w, c = input_shape
        (t, bo), (le, r) = self.padding
        return (b, None if h is None else h + t + bo, None if w is None else w + le + r, c)


class Cropping2D(_Resizing):
    """Rows and columns cut from each image's edges: `cropping` = 1, (rows, cols) or
    ((top, bottom), (left, right))."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(data_format, **kwargs)
        self.cropping = _pairs(cropping, "cropping", "Cropping2D")

    def call(self, inputs):
        x = self._input(inputs)
        (t, b), (le, r) = self.cropping
        h, w = x._value.shape[1:3]
        if t + b >= h or le + r >= w:
            raise ValueError(f"Argument `cropping` must be greater than the input shape. "
                             f"Received: inputs.shape={tuple(x.shape)}, and cropping="
                             f"{self.cropping}. Fix: crop less than the height and width "
                             "(layer Cropping2D)")
        return x[:, t:h - b, le:w - r, :]

    def compute_output_shape(self, input_shape):
        b, h, w, c = input_shape
        (t, bo), (le, r) = self.cropping
        return (b, None if h is None else h - t - bo, None if w is None else w - le - r, c)


class RepeatVector(Layer):
    """`RepeatVector(n)`: (batch, features) -> (batch, n, features), each row repeated n times
    (the decoder input of Keras's sequence-to-sequence examples)."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, (int, np.integer)):
            raise TypeError(f"Expected an integer value for `n`, got {type(n).__name__} "
                            f"(RepeatVector {self.name!r})")
        self.n = int(n)

    def call(self, inputs):
        x = convert_to_tensor(inputs)
        if x._value.ndim != 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim=2, found ndim={x._value.ndim}. Full shape "
                             f"received: {tuple(x.shape)}. Fix: flatten it to (batch, features)")
        return tile(expand_dims(x, 1), [1, self.n, 1])

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])


class Permute(Layer):
    """`Permute(dims)`: the non-batch axes reordered, `dims` counting them from 1 (as Keras:
    `Permute((2, 1))` swaps the two axes after the batch axis)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set "
                             f"of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={dims}")

    def call(self, inputs):
        from ..engine.ops import transpose
        x = convert_to_tensor(inputs)
        if x._value.ndim != len(self.dims) + 1:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim={len(self.dims) + 1}, found ndim={x._value.ndim}. "
                             f"Full shape received: {tuple(x.shape)}. Fix: dims names every "
                             "axis but the batch axis once")
        return transpose(x, perm=(0,) + self.dims)

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def get_config(self) -> dict:
        return {**super().get_config(), "dims": self.dims}
