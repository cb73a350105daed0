"""`tf.compat`: TensorFlow's compatibility names. `tf.compat.v2` is tapeviz itself,
`tf.compat.v1` what TensorFlow 2 code still calls eagerly from TensorFlow 1 (compat_v1.py),
and the text and shape helpers are TensorFlow's.

(Where tapeviz itself reaches into its dependencies' private APIs is private_apis.py.)
"""
from __future__ import annotations

import numbers
import os
import sys

import numpy as np

from . import compat_v1 as v1  # noqa: F401

# `import tensorflow.compat.v1 as tf` names v1 as a module path
sys.modules.setdefault(__name__ + ".v1", v1)

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)


def as_bytes(bytes_or_text, encoding="utf-8") -> bytes:
    """`bytes_or_text` as bytes (text encoded with `encoding`)."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8") -> str:
    """`bytes_or_text` as text (bytes decoded with `encoding`)."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding="utf-8") -> str:
    return as_str(value, encoding) if isinstance(value, bytes) else str(value)


def path_to_str(path):
    return os.fspath(path) if isinstance(path, os.PathLike) else path


def dimension_value(dimension):
    """A shape's dimension as an int (or None when unknown)."""
    return getattr(dimension, "value", dimension)


def dimension_at_index(shape, index):
    dims = list(shape) if shape is not None else None
    return None if dims is None else dims[index]


def __getattr__(name):
    if name == "v2":                    # (tapeviz is TensorFlow 2's API)
        import tapeviz
        return tapeviz
    raise AttributeError(f"module 'tapeviz.compat' has no attribute {name!r}")
