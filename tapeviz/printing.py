"""`tf.print`: TensorFlow's printing of tensors and Python values, as eager TensorFlow prints.

Tensors are written as TensorFlow's `PrintV2` kernel writes them (not as NumPy would): a
float with 6 significant digits when that reads back to the same float32, else 9 (15 or 17
for float64), bools as 1 and 0, strings in double quotes, and only the first and last
`summarize` entries of each axis, with "..." between. Python values inside the arguments are
laid out with `pprint.pformat`, as TensorFlow lays out its template. `tf.timestamp`, which
logging code prints beside, is here too.
"""
from __future__ import annotations

import logging
import pprint
import sys
import time

import numpy as np

from .engine import nest
from .engine.tensor import _Operand

__all__ = ["format_tensor", "print_", "timestamp"]


def _number(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (bytes, np.bytes_)):
        return '"' + v.decode("utf-8", "backslashreplace") + '"'
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, np.floating):
        if np.isnan(v):
            return "nan"
        # half and bfloat16 print as the float32 they widen to, as TensorFlow's kernel does
        kind, short, long_ = ((np.float64, 15, 17) if v.dtype == np.float64 else
                              (np.float32, 6, 9))
        text = "%.*g" % (short, float(v))
        if kind(float(text)) != kind(v):
            text = "%.*g" % (long_, float(v))
        return text
    return str(v)


def _spacing(dim, ndim) -> str:
    if dim == ndim - 1:
        return " "
    return "\n" * (ndim - dim - 1) + " " * (dim + 1)


def _summarize(a: np.ndarray, ends: int, dim: int, ndim: int) -> str:
    """TensorFlow's PrintOneDimV2: `a` is the sub-array at depth `dim` of an `ndim` tensor."""
    if dim == ndim:
        return _number(a[()] if isinstance(a, np.ndarray) else a)
    n = a.shape[0]
    space = _spacing(dim, ndim)
    text = space.join(_summarize(a[i], ends, dim + 1, ndim) for i in range(min(ends, n)))
    if n > 2 * ends:
        text += space + "..."
    for i in range(max(ends, n - ends), n):
        text += space + _summarize(a[i], ends, dim + 1, ndim)
    return "[" + text + "]"


def format_tensor(t, summarize=3) -> str:
    """One tensor as `tf.print` writes it."""
    a = np.asarray(t._read() if hasattr(t, "_read") else t._value)
    ends = a.size if summarize is None or summarize < 0 else min(summarize, a.size)
    return _summarize(a, ends, 0, a.ndim)


#: a string that appears in no Python value's layout, standing for a tensor in the template
_SLOT = "\x00tensor\x00"


def _streams():
    return {sys.stdout: lambda text: sys.stdout.write(text),
            sys.stderr: lambda text: sys.stderr.write(text),
            logging.INFO: logging.getLogger("tensorflow").info,
            logging.info: logging.getLogger("tensorflow").info,
            logging.WARNING: logging.getLogger("tensorflow").warning,
            logging.warning: logging.getLogger("tensorflow").warning,
            logging.ERROR: logging.getLogger("tensorflow").error,
            logging.error: logging.getLogger("tensorflow").error}


def _writer(output_stream):
    if isinstance(output_stream, str) and output_stream.startswith("file://"):
        path = output_stream[len("file://"):]

        def append(text):
            with open(path, "a", encoding="utf-8") as f:
                f.write(text)
        return append
    try:
        return _streams()[output_stream]
    except (KeyError, TypeError):
        raise ValueError(f"Unsupported output stream, logging level, or file.{output_stream}. "
                         "Supported streams are sys.stdout, sys.stderr, tf.logging.info, "
                         "tf.logging.warning, tf.logging.error. File needs to be in the form "
                         "of 'file://<filepath>'.") from None


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """`tf.print(*inputs, output_stream=sys.stderr, summarize=3, sep=" ", end="\n")`."""
    write = _writer(sys.stderr if output_stream is None else output_stream)
    if (len(inputs) == 1 and isinstance(inputs[0], _Operand) and inputs[0]._value.ndim == 0
            and inputs[0]._value.dtype.kind in "SUO"):
        value = inputs[0]._value[()]
        write((value.decode() if isinstance(value, bytes) else str(value)) + end)
        return None
    pieces = []
    for item in inputs:
        leaves = nest.flatten(item)
        if isinstance(item, str):
            pieces.append(item)
            continue
        slots = [_SLOT if isinstance(x, _Operand) else x for x in leaves]
        template = pprint.pformat(nest.pack_sequence_as(item, slots))
        texts = iter(format_tensor(x, summarize) for x in leaves if isinstance(x, _Operand))
        template = template.replace(repr(_SLOT), _SLOT)
        pieces.append("".join(part if k == 0 else next(texts) + part
                              for k, part in enumerate(template.split(_SLOT))))
    write(sep.join(pieces) + end)
    return None


def timestamp(name=None):
    """The time in seconds since the epoch, as a float64 scalar tensor (`tf.timestamp()`)."""
    from .engine.convert import constant
    return constant(time.time(), "float64")

