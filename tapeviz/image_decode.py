"""Image decoding with TensorFlow's pixels: `decode_jpeg`, `decode_png`, `decode_bmp`,
`decode_image` (also under `tv.io`), read with Pillow (which Bokeh already installs).

PNG and BMP are lossless, so Pillow's pixels are TensorFlow's. A JPEG is not: TensorFlow's
default decoding (libjpeg-turbo, dct_method "" = INTEGER_FAST, fancy upsampling) is a
combination Pillow does not offer (its default is INTEGER_ACCURATE; its draft mode is
INTEGER_FAST with plain upsampling). So the YCbCr planes are taken from Pillow in draft mode
(the fast IDCT; chroma only replicated, so the stored samples are recovered exactly), and
libjpeg-turbo's fancy upsampling and YCbCr->RGB tables are applied here in NumPy.
`dct_method="INTEGER_ACCURATE"` is Pillow's own decoding. Reaching the draft flag needs
Pillow's `decoderconfig` attribute, which Pillow does not document.
"""
from __future__ import annotations

import io

import numpy as np

from .engine.errors import InvalidArgumentError
from .engine.ops.makers import _make

_SCALE = 16
_HALF = 1 << (_SCALE - 1)


def _fix(x):
    return int(x * (1 << _SCALE) + 0.5)


_X = np.arange(256, dtype=np.int64) - 128
_CR_R = (_fix(1.40200) * _X + _HALF) >> _SCALE      # libjpeg's jdcolor.c tables
_CB_B = (_fix(1.77200) * _X + _HALF) >> _SCALE
_CR_G = -_fix(0.71414) * _X
_CB_G = -_fix(0.34414) * _X + _HALF


def _pillow():
    try:
        import PIL.Image
    except ImportError:                      # pragma: no cover (Bokeh depends on Pillow)
        raise ImportError("Decoding images needs Pillow. Fix: pip install pillow") from None
    return PIL.Image


def _bytes(contents, op):
    value = np.asarray(getattr(contents, "_value", contents), dtype=object)
    if value.ndim != 0:
        raise InvalidArgumentError(f"{op}: contents must be scalar, got shape "
                                   f"{list(value.shape)}. Fix: decode one image at a time, "
                                   f"e.g. inside Dataset.map [Op:{op}]", op)
    data = value[()]
    return data.encode() if isinstance(data, str) else bytes(data)


def _open(data, op, what):
    try:
        image = _pillow().open(io.BytesIO(data))
    except Exception:
        raise InvalidArgumentError(f"{op}: Unknown image file format. One of JPEG, PNG, GIF, "
                                   f"BMP required. (Not a {what}: {len(data)} bytes starting "
                                   f"{data[:8]!r}) [Op:{op}]", op) from None
    return image


def _upsample_columns(plane, factor):
    """libjpeg-turbo's fancy horizontal 2x upsampling (h2v1): 3/4 nearer, 1/4 further."""
    if factor == 1:
        return plane
    left = np.concatenate([plane[:, :1], plane[:, :-1]], axis=1)
    right = np.concatenate([plane[:, 1:], plane[:, -1:]], axis=1)
    out = np.empty((plane.shape[0], 2 * plane.shape[1]), np.int64)
    out[:, 0::2] = (3 * plane + left + 1) >> 2
    out[:, 1::2] = (3 * plane + right + 2) >> 2
    out[:, 0], out[:, -1] = plane[:, 0], plane[:, -1]
    return out


def _upsample_h2v2(plane):
    """libjpeg-turbo's h2v2_fancy_upsample: a triangle filter, rows then columns, with its
    rounding biases (8 and 7 of 16) and edge rows and columns repeated."""
    above = np.concatenate([plane[:1], plane[:-1]], axis=0)
    below = np.concatenate([plane[1:], plane[-1:]], axis=0)
    out = np.empty((2 * plane.shape[0], 2 * plane.shape[1]), np.int64)
    for row, near in ((0, above), (1, below)):
        colsum = 3 * plane + near
        last = np.concatenate([colsum[:, :1], colsum[:, :-1]], axis=1)
        nxt = np.concatenate([colsum[:, 1:], colsum[:, -1:]], axis=1)
        out[row::2, 0::2] = (3 * colsum + last + 8) >> 4
        out[row::2, 1::2] = (3 * colsum + nxt + 7) >> 4
    return out


def _upsample_h1v2(plane):
    """libjpeg-turbo's h1v2_fancy_upsample: vertical only, biases 1 and 2 of 4."""
    above = np.concatenate([plane[:1], plane[:-1]], axis=0)
    below = np.concatenate([plane[1:], plane[-1:]], axis=0)
    out = np.empty((2 * plane.shape[0], plane.shape[1]), np.int64)
    out[0::2] = (3 * plane + above + 1) >> 2
    out[1::2] = (3 * plane + below + 2) >> 2
    return out


def _fast_ycc(image):
    """(height, width, 3) int64 Y, Cb, Cr as libjpeg-turbo gives them to its colour
    converter with INTEGER_FAST and fancy upsampling."""
    sampling = [(h, v) for _, h, v, _ in getattr(image, "layer", [])]
    image.draft("YCbCr", None)
    image.decoderconfig = (1, 1)             # (scale 1, draft: the fast IDCT, no fancy upsampling)
    ycc = np.asarray(image, dtype=np.int64)
    height, width = ycc.shape[:2]
    if len(sampling) != 3:
        return ycc
    max_h, max_v = max(h for h, _ in sampling), max(v for _, v in sampling)
    planes = [ycc[..., 0]]
    for (h, v), channel in zip(sampling[1:], (1, 2)):
        fh, fv = max_h // h, max_v // v
        rows, cols = -(-height * v // max_v), -(-width * h // max_h)
        plane = ycc[::fv, ::fh, channel][:rows, :cols]     # the stored samples
        if (fh, fv) == (2, 2) and cols > 2:
            plane = _upsample_h2v2(plane)
        elif (fh, fv) == (2, 1) and cols > 2:
            plane = _upsample_columns(plane, 2)
        elif (fh, fv) == (1, 2):
            plane = _upsample_h1v2(plane)
        else:                                # libjpeg replicates: what draft mode gave
            plane = ycc[..., channel]
        planes.append(plane[:height, :width])
    return np.stack(planes, axis=-1)


def _ycc_to_rgb(ycc):
    y, cb, cr = ycc[..., 0], ycc[..., 1], ycc[..., 2]
    rgb = np.stack([y + _CR_R[cr], y + ((_CB_G[cb] + _CR_G[cr]) >> _SCALE), y + _CB_B[cb]],
                   axis=-1)
    return np.clip(rgb, 0, 255).astype(np.uint8)


def _jpeg_pixels(data, op, dct_method, channels):
    image = _open(data, op, "JPEG")
    if image.format != "JPEG":
        return None
    if dct_method == "INTEGER_ACCURATE":
        if channels == 1 and image.mode == "RGB":       # (libjpeg's gray output: the Y plane)
            image.draft("YCbCr", None)
            return np.asarray(image)[..., :1]
        return _pillow_pixels(image)
    ycc_coded = image.mode == "RGB" and getattr(image, "layer", None) is not None and \
        image.info.get("adobe_transform") != 0
    if image.mode == "L" or (channels == 1 and ycc_coded):
        image.draft(image.mode if image.mode == "L" else "YCbCr", None)
        image.decoderconfig = (1, 1)
        pixels = np.asarray(image, dtype=np.uint8)
        return pixels[..., None] if pixels.ndim == 2 else pixels[..., :1]
    if not ycc_coded:
        return _pillow_pixels(image)          # (CMYK and the like: Pillow's decoding)
    return _ycc_to_rgb(_fast_ycc(image))


def _pillow_pixels(image):
    if image.mode in ("P", "PA"):
        image = image.convert("RGBA" if "transparency" in image.info or image.mode == "PA"
                              else "RGB")
    elif image.mode in ("1", "CMYK", "YCbCr", "LAB", "HSV"):
        image = image.convert("L" if image.mode == "1" else "RGB")
    elif image.mode.startswith("I;16") or image.mode == "I":
        return np.asarray(image, dtype=np.uint16)[..., None]
    pixels = np.asarray(image)
    return pixels[..., None] if pixels.ndim == 2 else pixels


def _libpng_gray(rgb):
    """libpng's rgb_to_gray as TensorFlow sets it (weights 0.299 and 0.587 as fractions of
    32768: 9797, 19234, 3737, the sum truncated); gray pixels stay as they are."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    gray = np.where((r == g) & (g == b), r, (9797 * r + 19234 * g + 3737 * b) >> 15)
    return gray.astype(rgb.dtype)[..., None]


def _channels(pixels, channels, op):
    """TensorFlow's channel conversions: gray -> RGB repeats, RGB -> gray by libpng's weights
    (a JPEG's gray is its Y plane, see _jpeg_pixels), alpha dropped or added opaque."""
    have = pixels.shape[-1]
    if channels in (0, None) or channels == have:
        return pixels
    if channels not in (1, 3, 4):
        raise InvalidArgumentError(f"{op}: channels must be 0, 1, 3 or 4, got {channels} "
                                   f"[Op:{op}]", op)
    gray = pixels[..., :1] if have in (1, 2) else None
    if channels == 3:
        return np.repeat(gray, 3, axis=-1) if gray is not None else pixels[..., :3]
    if channels == 4:
        color = np.repeat(gray, 3, axis=-1) if gray is not None else pixels[..., :3]
        alpha = pixels[..., -1:] if have in (2, 4) else \
            np.full(pixels.shape[:-1] + (1,), np.iinfo(pixels.dtype).max
                    if pixels.dtype.kind in "iu" else 1.0, pixels.dtype)
        return np.concatenate([color, alpha], axis=-1)
    return gray if gray is not None else _libpng_gray(pixels)


def _format(data):
    if data[:3] == b"\xff\xd8\xff":
        return "JPEG"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "PNG"
    if data[:2] == b"BM":
        return "BMP"
    if data[:3] == b"GIF":
        return "GIF"
    return None


def _pixels(data, op, channels, dct_method="", scaled16=False):
    """The pixels of JPEG, PNG or BMP `data` whatever the decoder asked (TensorFlow's
    decoders each read all three), with `channels` as TensorFlow converts them. A 16-bit
    PNG gives its high byte, or floats in [0, 1] with `scaled16`."""
    kind = _format(data)
    if kind is None:
        raise InvalidArgumentError(f"{op}: Unknown image file format. One of JPEG, PNG, GIF, "
                                   f"BMP required. (got {len(data)} bytes starting "
                                   f"{data[:8]!r}) [Op:{op}]", op)
    if kind == "GIF":
        raise NotImplementedError(f"{op}: GIF decoding is not imitated (TensorFlow composes "
                                  "its frames its own way). Fix: convert the files to PNG")
    if (kind == "BMP") != (op == "DecodeBmp") and op != "DecodeImage":
        raise InvalidArgumentError(
            f"{op}: Trying to decode {kind} format using a wrong op. Use `decode_"
            f"{kind.lower()}` or `decode_image` instead. [Op:{op}]", op)
    if kind == "BMP" and channels not in (None, 0, 3, 4):
        raise InvalidArgumentError(f"{op}: `channels` must be 0, 3 or 4 for BMP, but got "
                                   f"{channels} [Op:{op}]", op)
    try:
        if kind == "JPEG":
            pixels = _jpeg_pixels(data, op, dct_method, channels)
        else:
            pixels = _pillow_pixels(_open(data, op, kind))
    except (OSError, SyntaxError, ValueError) as exc:     # (Pillow's truncated or bad data)
        what = "jpeg::Uncompress failed. Invalid JPEG data or crop window." \
            if kind == "JPEG" else f"Invalid {kind} data: {exc}"
        raise InvalidArgumentError(f"{op}: {what} Fix: check the file is whole "
                                   f"[Op:{op}]", op) from None
    if pixels.dtype == np.uint16:
        pixels = pixels.astype(np.float32) * np.float32(1.0 / 65535) if scaled16 else \
            (pixels >> 8).astype(np.uint8)
    return _channels(pixels, channels or 0, op)


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True,
                try_recover_truncated=False, acceptable_fraction=1, dct_method="",
                name=None):
    """A JPEG's uint8 pixels (height, width, channels), TensorFlow's default decoding."""
    if int(ratio) != 1 or not fancy_upscaling:
        raise NotImplementedError("decode_jpeg: only ratio=1 with fancy_upscaling=True is "
                                  "imitated. Fix: decode at full size, then tf.image.resize")
    if channels not in (0, 1, 3, None):
        raise InvalidArgumentError(f"DecodeJpeg: JPEG does not support {channels} channels. "
                                   "Fix: channels=0 (as stored), 1 or 3 [Op:DecodeJpeg]",
                                   "DecodeJpeg")
    return _make(_pixels(_bytes(contents, "DecodeJpeg"), "DecodeJpeg", channels, dct_method))


def decode_png(contents, channels=0, dtype="uint8", name=None):
    """A PNG's uint8 pixels (16-bit images reduced to their high byte, as libpng's strip).
    dtype=uint16 is not imitated: tapeviz has no uint16 dtype."""
    if getattr(dtype, "name", dtype) != "uint8":
        raise TypeError(f"decode_png: dtype {getattr(dtype, 'name', dtype)!r} is not "
                        "imitated: tapeviz has only uint8 images. Fix: dtype=tf.uint8")
    return _make(_pixels(_bytes(contents, "DecodePng"), "DecodePng", channels))


def decode_bmp(contents, channels=0, name=None):
    return _make(_pixels(_bytes(contents, "DecodeBmp"), "DecodeBmp", channels))


def decode_image(contents, channels=None, dtype="uint8", name=None, expand_animations=True):
    """JPEG, PNG or BMP by the file's own signature, in `dtype` (a float dtype scales to
    [0, 1] as convert_image_dtype; a 16-bit PNG from its 16 bits). GIF is not imitated."""
    from .engine import dtypes as dt
    from .image_ops import convert_image_dtype
    out = dt.as_dtype(dtype)
    if channels not in (None, 0, 1, 3, 4):
        raise ValueError("channels must be in (None, 0, 1, 3, 4)")
    pixels = _pixels(_bytes(contents, "DecodeImage"), "DecodeImage", channels,
                     scaled16=out.is_floating)
    if pixels.dtype == np.float32:
        return _make(pixels.astype(out.np))
    return convert_image_dtype(_make(pixels), out)
