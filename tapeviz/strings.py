"""`tv.strings`: TensorFlow's common string functions on string tensors (bytes, UTF-8), with
its kernels' rules: lengths and substrings in bytes or UTF-8 characters, `to_number` refusing
what does not parse, `as_string` with printf's formats, `format` writing tensors as `tf.print`
does. String tensors carry no gradient, as in TensorFlow. Functions that give ragged results
(`unicode_decode`, `bytes_split`, `split` of more than one string) are not here: tapeviz has
no RaggedTensor.
"""
from __future__ import annotations

import re

import numpy as np

from .engine import dtypes as dt
from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.ops.makers import _make

__all__ = ["as_string", "format", "join", "length", "lower", "reduce_join",
           "regex_full_match", "regex_replace", "split", "strip", "substr", "to_hash_bucket_fast",
           "to_hash_bucket_strong", "to_number",
           "upper"]


def _strings(x):
    t = convert_to_tensor(x, dtype=dt.string)
    return np.asarray(t._value, dtype=object)


def _each(fn, array, otype=object):
    """fn on every element of an object array, keeping its shape."""
    out = np.frompyfunc(fn, 1, 1)(array) if array.ndim else fn(array[()])
    return np.asarray(out, dtype=otype)


def _text(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def length(input, unit="BYTE", name=None):
    """int32 lengths in bytes, or in UTF-8 characters with unit="UTF8_CHAR"."""
    s = _strings(input)
    count = len if unit == "BYTE" else (lambda b: len(_text(b)))
    return _make(_each(count, s, np.int32))


def substr(input, pos, len, unit="BYTE", name=None):   # noqa: A002  (TensorFlow's names)
    """`len` bytes (or characters) from `pos` (negative: from the end) of each string."""
    s = _strings(input)
    pos, size = int(np.asarray(getattr(pos, "_value", pos))), int(np.asarray(
        getattr(len, "_value", len)))
    flat = s.reshape(-1)
    out = []
    for i, b in enumerate(flat):
        seq = b if unit == "BYTE" else _text(b)
        n = seq.__len__()
        start = pos + n if pos < 0 else pos
        if not 0 <= start <= n or (pos < 0 and start < 0):
            shown = repr(b) if unit == "BYTE" else ""
            raise InvalidArgumentError(f"pos {pos} out of range for string {shown}".rstrip()
                                       + f" at index {i} [Op:Substr]", "Substr")
        part = seq[start:start + size]
        out.append(part if unit == "BYTE" else part.encode("utf-8"))
    return _make(np.asarray(out, dtype=object).reshape(s.shape))


def to_number(string_tensor, out_type=dt.float32, name=None):
    """Each string parsed as a number of `out_type`; one that does not parse is an error."""
    s = _strings(string_tensor)
    d = dt.as_dtype(out_type)

    def parse(b):
        text = _text(b).strip()
        try:
            return int(text) if d.is_integer else float(text)
        except ValueError:
            raise InvalidArgumentError(f"StringToNumberOp could not correctly convert string: "
                                       f"{_text(b)} [Op:StringToNumber]",
                                       "StringToNumber") from None
    return _make(_each(parse, s).astype(d.np))


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):
    """Matches of `pattern` replaced by `rewrite` (all of them, or the first)."""
    rx = re.compile(_text(_strings(pattern)[()]).encode("utf-8"))
    new = re.sub(rb"\\(\d)", rb"\\g<\1>", _strings(rewrite)[()])   # RE2's \1 is Python's too
    return _make(_each(lambda b: rx.sub(new, b, count=0 if replace_global else 1),
                       _strings(input)))


def regex_full_match(input, pattern, name=None):
    rx = re.compile(_strings(pattern)[()])
    return _make(_each(lambda b: rx.fullmatch(b) is not None, _strings(input), bool))


def split(input, sep=None, maxsplit=-1, name=None):   # noqa: A002  (TensorFlow's names)
    """The pieces of one string as a 1-D string tensor (`sep=None` or "": runs of whitespace,
    empty pieces dropped; else every `sep`, empty pieces kept), at most `maxsplit` splits.
    TensorFlow gives a RaggedTensor for a batch of strings, which tapeviz does not have."""
    s = _strings(input)
    if s.ndim != 0:
        raise NotImplementedError(f"tf.strings.split of a string tensor of shape "
                                  f"{list(s.shape)} gives a RaggedTensor, which tapeviz does not "
                                  "have. Fix: split one string at a time (e.g. inside "
                                  "Dataset.map), or tf.strings.regex_replace")
    separator = _strings(sep)[()] if sep is not None else b""
    text = s[()]
    limit = -1 if maxsplit is None or int(maxsplit) < 0 else int(maxsplit)
    pieces = text.split(None, limit) if separator == b"" else text.split(separator, limit)
    return _make(np.asarray(pieces, dtype=object).reshape(-1))


def join(inputs, separator="", name=None):
    """Elementwise concatenation of string tensors (broadcast), with `separator` between."""
    parts = np.broadcast_arrays(*[_strings(x) for x in inputs])
    sep = separator.encode() if isinstance(separator, str) else separator
    joined = np.frompyfunc(lambda *bs: sep.join(bs), len(parts), 1)(*parts)
    return _make(np.asarray(joined, dtype=object))


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """The strings along `axis` (all axes when None) joined with `separator`."""
    s = _strings(inputs)
    sep = separator.encode() if isinstance(separator, str) else separator
    if axis is None:
        out = np.asarray(sep.join(s.reshape(-1).tolist()), dtype=object)
        return _make(out.reshape([1] * s.ndim) if keepdims else out)
    out = np.apply_along_axis(lambda row: sep.join(row.tolist()), int(axis), s)
    out = np.asarray(out, dtype=object)
    return _make(np.expand_dims(out, int(axis)) if keepdims else out)


def lower(input, encoding="", name=None):
    return _make(_each(lambda b: b.lower() if not encoding else _text(b).lower().encode(),
                       _strings(input)))


def upper(input, encoding="", name=None):
    return _make(_each(lambda b: b.upper() if not encoding else _text(b).upper().encode(),
                       _strings(input)))


def strip(input, name=None):
    """Leading and trailing whitespace removed."""
    return _make(_each(lambda b: b.strip(), _strings(input)))


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",
              name=None):
    """Numbers as strings with printf's formats (floats "%f", 6 decimals by default)."""
    t = convert_to_tensor(input)
    a = np.asarray(t._value)
    if a.dtype.kind == "b":
        fmt = lambda v: "true" if v else "false"   # noqa: E731
    elif a.dtype.kind in "iu":
        fmt = lambda v: "%d" % v   # noqa: E731
    else:
        code = "g" if shortest else ("e" if scientific else "f")
        spec = "%" + (fill or "") + (str(width) if width > -1 else "") + (
            f".{precision}" if precision > -1 else "") + code
        fmt = lambda v: spec % float(v)   # noqa: E731
    if a.dtype.kind in "biu" and width > -1:
        inner = fmt
        fmt = lambda v: ("%" + (fill or "") + str(width) + "s") % inner(v)   # noqa: E731
    return _make(_each(lambda v: fmt(v).encode(), a.astype(object)))


def format(template, inputs, placeholder="{}", summarize=3, name=None):   # noqa: A001
    """`template` with each `placeholder` replaced by a tensor written as `tf.print` writes it."""
    from .printing import format_tensor
    tensors = [convert_to_tensor(x) for x in (inputs if isinstance(inputs, (list, tuple))
                                              else [inputs])]
    pieces = template.split(placeholder)
    if len(pieces) - 1 != len(tensors):
        raise ValueError(f"The template expects {len(pieces) - 1} tensors, but the inputs only "
                         f"has {len(tensors)}. Template: {template!r}")
    text = pieces[0] + "".join(format_tensor(t, summarize) + p
                               for t, p in zip(tensors, pieces[1:]))
    return _make(np.asarray(text.encode(), dtype=object))


def _buckets(input, num_buckets, hash_fn):
    if num_buckets < 1:
        raise InvalidArgumentError(f"Number of buckets must be at least 1 (got {num_buckets})",
                                   "StringToHashBucketFast")
    x = convert_to_tensor(input)
    if not x.dtype.is_string:
        raise InvalidArgumentError(f"cannot compute StringToHashBucketFast as input #0"
                                   f"(zero-based) was expected to be a string tensor but is a "
                                   f"{x.dtype.name} tensor", "StringToHashBucketFast")
    return _make(_each(lambda b: hash_fn(b) % num_buckets, _strings(x), np.int64))


def to_hash_bucket_fast(input, num_buckets, name=None):
    """int64 bins: FarmHash Fingerprint64 of each string modulo `num_buckets`."""
    from .strings_hash import fingerprint64
    return _buckets(input, int(num_buckets), fingerprint64)


def to_hash_bucket_strong(input, num_buckets, key, name=None):
    """int64 bins: SipHash-2-4 under `key` (two integers) of each string modulo
    `num_buckets`."""
    from .strings_hash import siphash24
    if len(key) != 2:
        raise InvalidArgumentError(f"Key must have 2 elements (got {len(key)})",
                                   "StringToHashBucketStrong")
    k0, k1 = (int(k) for k in key)
    return _buckets(input, int(num_buckets), lambda b: siphash24(k0, k1, b))
