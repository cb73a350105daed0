"""Image resampling for `tv.image.resize`: every method is separable, one weight matrix per
spatial axis (out_size, in_size), computed in float32 as TensorFlow's CPU kernels compute
their interpolation tables:

- bilinear and bicubic (`antialias=False`): ResizeBilinear / ResizeBicubic with half-pixel
  centers; bicubic reads Keys' cubic (a = -0.5) from a 1024-entry table, as TF does, and drops
  and renormalises the taps that fall outside the image;
- `antialias=True`, and lanczos3/5, gaussian, mitchellcubic: ScaleAndTranslate's spans, the
  kernel widened by in/out when shrinking with antialias, each span's weights normalised;
- area: ResizeArea's box weights (the part of each input cell that an output cell covers);
- nearest: ResizeNearestNeighbor's pixel choice (half-pixel centers, floor).

`resample` applies two matrices with two einsums, so its gradient (the transposed matrices)
and every higher derivative come from Einsum's VJPs; nearest gathers (GatherV2's VJPs).
ResizeArea is an op of its own: TensorFlow defines no gradient for it, and differentiating it
raises TF's LookupError here too.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..op import apply, defop
from .einstein import einsum
from .elementwise import cast
from .indexing import gather

_F = np.float32
TABLE_SIZE = 1024
#: the methods TensorFlow runs through ScaleAndTranslate, with their kernels' radii
SPAN_KERNELS = {"bilinear": 1.0, "bicubic": 2.0, "lanczos3": 3.0, "lanczos5": 5.0,
                "gaussian": 1.5, "mitchellcubic": 2.0}


def _keys_table():
    x = np.arange(TABLE_SIZE + 1, dtype=np.float64) / TABLE_SIZE
    a = -0.5
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((a * (x + 1) - 5 * a) * (x + 1) + 8 * a) * (x + 1) - 4 * a
    return near.astype(_F), far.astype(_F)


_KEYS_NEAR, _KEYS_FAR = _keys_table()


def _half_pixel(out_size, scale):
    return (np.arange(out_size, dtype=_F) + _F(0.5)) * scale - _F(0.5)


def _bilinear(in_size, out_size):
    scale = _F(in_size) / _F(out_size)
    where = _half_pixel(out_size, scale)
    floor = np.floor(where)
    lower = np.maximum(floor, 0).astype(np.int64)
    upper = np.minimum(np.ceil(where), in_size - 1).astype(np.int64)
    lerp = where - floor
    w = np.zeros((out_size, in_size), _F)
    rows = np.arange(out_size)
    np.add.at(w, (rows, lower), _F(1) - lerp)
    np.add.at(w, (rows, upper), lerp)
    return w


def _bicubic(in_size, out_size):
    scale = _F(in_size) / _F(out_size)
    where = _half_pixel(out_size, scale)
    start = np.floor(where).astype(np.int64)
    offset = np.rint((where - start) * _F(TABLE_SIZE)).astype(np.int64)
    taps = start[:, None] + np.arange(-1, 3)                      # (out, 4)
    weights = np.stack([_KEYS_FAR[offset], _KEYS_NEAR[offset],
                        _KEYS_NEAR[TABLE_SIZE - offset], _KEYS_FAR[TABLE_SIZE - offset]], 1)
    inside = (taps >= 0) & (taps < in_size)
    weights = np.where(inside, weights, _F(0))
    total = weights.sum(axis=1, dtype=_F)
    weights = np.where(np.abs(total)[:, None] >= 1000 * np.finfo(_F).tiny,
                       weights * (_F(1) / total)[:, None], weights)
    w = np.zeros((out_size, in_size), _F)
    np.add.at(w, (np.repeat(np.arange(out_size), 4), np.clip(taps, 0, in_size - 1).ravel()),
              weights.ravel())
    return w


def _kernel(method, x):
    """ScaleAndTranslate's sampling kernels, at distances x >= 0."""
    if method == "bilinear":
        return np.maximum(_F(1) - x, _F(0))
    if method == "bicubic":
        return np.where(x >= 2, 0, np.where(x >= 1, ((-0.5 * x + 2.5) * x - 4) * x + 2,
                                            (1.5 * x - 2.5) * x * x + 1)).astype(_F)
    if method == "mitchellcubic":
        return np.where(x >= 2, 0, np.where(
            x >= 1, ((-7.0 / 18.0 * x + 2.0) * x - 10.0 / 3.0) * x + 16.0 / 9.0,
            (7.0 / 6.0 * x - 2.0) * x * x + 8.0 / 9.0)).astype(_F)
    if method == "gaussian":
        sigma = 1.5 / 3.0
        return np.where(x >= 1.5, 0, np.exp(-x * x / (2 * sigma * sigma))).astype(_F)
    radius = SPAN_KERNELS[method]                                  # lanczos3, lanczos5
    with np.errstate(divide="ignore", invalid="ignore"):
        value = radius * np.sin(np.pi * x) * np.sin(np.pi * x / radius) / (np.pi ** 2 * x * x)
    return np.where(x > radius, 0, np.where(x <= 1e-3, 1, value)).astype(_F)


def _spans(method, antialias, in_size, out_size):
    scale = _F(out_size) / _F(in_size)
    inv_scale = _F(1) / scale
    kernel_scale = max(inv_scale, _F(1)) if antialias else _F(1)
    reach = _F(SPAN_KERNELS[method]) * kernel_scale
    sample = (np.arange(out_size, dtype=_F) + _F(0.5)) * inv_scale
    start = np.clip(np.ceil(sample - reach - _F(0.5)), 0, in_size - 1).astype(np.int64)
    end = np.clip(np.floor(sample + reach - _F(0.5)), 0, in_size - 1).astype(np.int64) + 1
    source = np.arange(in_size)
    inside = (source >= start[:, None]) & (source < end[:, None])
    distance = np.abs((source.astype(_F) + _F(0.5) - sample[:, None]) * (_F(1) / kernel_scale))
    w = np.where(inside, _kernel(method, distance), _F(0)).astype(_F)
    total = w.sum(axis=1, dtype=_F)
    keep = np.abs(total) >= 1000 * np.finfo(_F).tiny
    return np.where(keep[:, None], w * (_F(1) / np.where(keep, total, 1))[:, None], _F(0))


def _area(in_size, out_size):
    scale = _F(in_size) / _F(out_size)
    out = np.arange(out_size, dtype=_F)
    low, high = out * scale, (out + 1) * scale
    cells = np.arange(int(np.ceil(_F(in_size) + scale)) + 1, dtype=_F)   # every cell touched
    first, last = np.floor(low), np.ceil(high)
    c = cells[None, :]
    covered = np.where(c < low[:, None],
                       np.where(c + 1 > high[:, None], scale, c + 1 - low[:, None]),
                       np.where(c + 1 > high[:, None], high[:, None] - c, _F(1))).astype(_F)
    covered = np.where((c >= first[:, None]) & (c < last[:, None]), covered, _F(0))
    # (TensorFlow multiplies each sum by 1 / (height_scale * width_scale): one factor an axis)
    covered = covered * (_F(1) / scale)
    w = np.zeros((out_size, in_size), _F)
    np.add.at(w, (slice(None), np.minimum(cells.astype(np.int64), in_size - 1)), covered)
    return w


def nearest_indices(in_size, out_size):
    scale = _F(in_size) / _F(out_size)
    where = np.floor((np.arange(out_size, dtype=_F) + _F(0.5)) * scale)
    return np.clip(where, 0, in_size - 1).astype(np.int64)


@lru_cache(maxsize=256)
def weights(method: str, antialias: bool, in_size: int, out_size: int) -> np.ndarray:
    """The (out_size, in_size) float32 matrix that resamples one axis, as TensorFlow."""
    if method == "area":
        return _area(in_size, out_size)
    if method in ("bilinear", "bicubic") and not antialias:
        return _bilinear(in_size, out_size) if method == "bilinear" else \
            _bicubic(in_size, out_size)
    return _spans(method, antialias, in_size, out_size)


def _area_forward(x, in_hw, out_hw):
    rows, cols = weights("area", False, in_hw[0], out_hw[0]), weights("area", False, in_hw[1],
                                                                     out_hw[1])
    return np.einsum("yh,...hwc,xw->...yxc", rows, x.astype(_F, copy=False), cols,
                     optimize=True)


def _no_gradient(g, y, x, **attrs):
    raise LookupError("gradient registry has no entry for: ResizeArea (TensorFlow defines no "
                      f"gradient for tf.image.resize(method='area'); input shape "
                      f"{tuple(x.shape)}). Fix: resize with method='bilinear' or 'bicubic' "
                      "where a gradient must flow, or wrap the resize in tf.stop_gradient")


_AREA = defop("ResizeArea", _area_forward, [_no_gradient],
              "y = R·x·Cᵀ with box weights: the mean over the input cells an output cell covers",
              saves=((), False))


def resample(x, method, antialias, in_hw, out_hw):
    """`x` (batch, height, width, channels) resized by the method's two weight matrices."""
    if method == "nearest":    # a gather along each axis: the dtype stays
        rows = gather(x, nearest_indices(in_hw[0], out_hw[0]), axis=1)
        return gather(rows, nearest_indices(in_hw[1], out_hw[1]), axis=2)
    rows = weights(method, antialias, in_hw[0], out_hw[0])
    cols = weights(method, antialias, in_hw[1], out_hw[1])
    if x._value.dtype != _F:    # TensorFlow's kernels compute and answer in float32
        x = cast(x, "float32")
    return einsum("xw,bywc->byxc", cols, einsum("yh,bhwc->bywc", rows, x))


def resize_area(x, in_hw, out_hw):
    return apply(_AREA, (x,), {"in_hw": tuple(in_hw), "out_hw": tuple(out_hw)})
