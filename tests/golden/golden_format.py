"""Normalise, record and compare the answers of golden programs.

This module is shared by two sides and must stay framework-free (standard
library + NumPy, duck typing only):

* ``generate.py`` runs each program under real TensorFlow and stores the
  normalised answers as JSON;
* ``tests/test_golden.py`` runs the same programs under ``import tapeviz as tf``
  and compares with the stored answers.

A tensor-like is any object with ``.numpy()`` and ``.dtype.name`` (a tensor, a
variable), any NumPy array or NumPy scalar, or an ``IndexedSlices``-like object
(``.values``, ``.indices``, ``.dense_shape``), which is densified.

Normalised JSON values::

    {"type": "tensor", "dtype": "float32", "shape": [2], "value": [1.0, "nan"]}
    {"type": "none"}
    {"type": "py", "pytype": "float", "value": 1.5}      # bool/int/float/str
    {"type": "list" | "tuple", "items": [...]}
    {"type": "dict", "items": {"key": ...}}
    {"type": "error", "class": "InvalidArgumentError", "message": "..."}
    {"type": "no_error", "value": ...}                    # expect_error did not raise

NaN / +Inf / -Inf are stored as the strings "nan", "inf", "-inf".  Bytes (string
tensors) are stored decoded as UTF-8.  ``message`` of an error is informational
only and is never compared.

Run as a script, ``python golden_format.py run MODULE PROGRAM.py OUT.json``
executes one program with ``tf`` bound to ``import MODULE`` and writes
``{"answers": ..., "crash": traceback-or-null}`` to OUT.json (used by the generator and the tests, so that each program runs in a
fresh process: layer-name counters, seeds and other global state start anew).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import traceback

import numpy as np

FORMAT_VERSION = 1


# --------------------------------------------------------------------------
# normalising
# --------------------------------------------------------------------------

def _float_json(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _array_items(arr, kind):
    """Nested lists of JSON scalars for a NumPy array of the given kind."""
    return _map_items(arr.tolist(), kind)


def _map_items(x, kind):
    if isinstance(x, list):
        return [_map_items(v, kind) for v in x]
    return _scalar_json(x, kind)


def _scalar_json(v, kind):
    if kind == "f":
        return _float_json(v)
    if kind == "c":
        return [_float_json(v.real), _float_json(v.imag)]
    if kind == "b":
        return bool(v)
    if kind in "iu":
        return int(v)
    if isinstance(v, bytes):
        return v.decode("utf-8", errors="replace")
    return str(v)


def _dtype_name(obj, arr):
    dt = getattr(obj, "dtype", None)
    name = getattr(dt, "name", None)
    if isinstance(name, str):
        return name
    if arr.dtype.kind in "OSU":
        return "string"
    return arr.dtype.name


def _tensor_json(obj, arr):
    arr = np.asarray(arr)
    dtype = _dtype_name(obj, arr)
    if dtype in ("str", "bytes", "object") or arr.dtype.kind in "OSU":
        dtype = "string" if dtype in ("str", "bytes", "object") else dtype
        kind = "s"
    else:
        kind = arr.dtype.kind
    return {
        "type": "tensor",
        "dtype": dtype,
        "shape": [int(s) for s in arr.shape],
        "value": _array_items(arr, kind),
    }


def _is_indexed_slices(obj):
    return all(hasattr(obj, a) for a in ("values", "indices", "dense_shape")) and not hasattr(
        obj, "numpy"
    )


def _densify(obj):
    values = np.asarray(obj.values.numpy() if hasattr(obj.values, "numpy") else obj.values)
    indices = np.asarray(obj.indices.numpy() if hasattr(obj.indices, "numpy") else obj.indices)
    shape = obj.dense_shape
    shape = np.asarray(shape.numpy() if hasattr(shape, "numpy") else shape)
    dense = np.zeros(tuple(int(s) for s in shape), dtype=values.dtype)
    np.add.at(dense, indices, values)
    return dense


def normalize(value):
    """Turn a reported value into its JSON-able normal form."""
    if value is None:
        return {"type": "none"}
    if isinstance(value, (bool, int, float, str)) and not isinstance(value, np.generic):
        if isinstance(value, bool):
            return {"type": "py", "pytype": "bool", "value": bool(value)}
        if isinstance(value, int):
            return {"type": "py", "pytype": "int", "value": int(value)}
        if isinstance(value, float):
            return {"type": "py", "pytype": "float", "value": _float_json(value)}
        return {"type": "py", "pytype": "str", "value": str(value)}
    if isinstance(value, bytes):
        return {"type": "py", "pytype": "str", "value": value.decode("utf-8", errors="replace")}
    if isinstance(value, (np.ndarray, np.generic)):
        return _tensor_json(value, value)
    if hasattr(value, "numpy") and callable(value.numpy) and hasattr(value, "dtype"):
        return _tensor_json(value, value.numpy())
    if _is_indexed_slices(value):
        return _tensor_json(value.values, _densify(value))
    if isinstance(value, dict):
        return {"type": "dict", "items": {str(k): normalize(v) for k, v in value.items()}}
    if isinstance(value, tuple):
        return {"type": "tuple", "items": [normalize(v) for v in value]}
    if isinstance(value, list):
        return {"type": "list", "items": [normalize(v) for v in value]}
    raise TypeError(
        "cannot normalise a reported value of type %s: report tensors, None, "
        "Python scalars/strings or lists/tuples/dicts of them" % type(value).__name__
    )


def error_json(exc):
    # (a traceback in the message names where the recording Python lives: not the repo's)
    msg = str(exc).replace(sys.prefix, "<python>")
    if len(msg) > 300:
        msg = msg[:300] + "..."
    return {"type": "error", "class": type(exc).__name__, "message": msg}


# --------------------------------------------------------------------------
# running a program
# --------------------------------------------------------------------------

def sha256_of(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class Recorder:
    """Collects what a program reports, in order."""

    def __init__(self):
        self.answers = {}

    def _put(self, name, value):
        if not isinstance(name, str):
            raise TypeError("report name must be a string, got %r" % (name,))
        if name in self.answers:
            raise ValueError("report name %r used twice" % name)
        self.answers[name] = value

    def report(self, name, value):
        self._put(name, normalize(value))

    def expect_error(self, name, fn):
        try:
            result = fn()
        except Exception as exc:  # noqa: BLE001 - the class is the answer
            self._put(name, error_json(exc))
        else:
            try:
                norm = normalize(result)
            except TypeError:
                norm = {"type": "py", "pytype": "str", "value": repr(result)}
            self._put(name, {"type": "no_error", "value": norm})


def run_program(path, tf_module):
    """Execute one program with ``tf`` bound to ``tf_module``.

    Returns ``(answers, crash)``: the answers reported (an ordered dict of
    normalised values) and, if the program raised outside ``expect_error``,
    the formatted traceback (else None).
    """
    with open(path, "r", encoding="utf-8") as f:
        source = f.read()
    rec = Recorder()
    namespace = {
        "__name__": "__golden__",
        "__file__": os.path.abspath(path),
        "tf": tf_module,
        "np": np,
        "report": rec.report,
        "expect_error": rec.expect_error,
    }
    crash = None
    try:
        code = compile(source, os.path.abspath(path), "exec")
        exec(code, namespace)
    except Exception:  # noqa: BLE001
        crash = traceback.format_exc()
    return rec.answers, crash


# --------------------------------------------------------------------------
# comparing
# --------------------------------------------------------------------------

# TF prints tf.Tensor / tf.Variable; tapeviz prints its own name there.  Both
# sides are rewritten to "tf." before strings are compared.
_PREFIX_RE = re.compile(r"(?<![\w.])(?:tf|tv|tapeviz)\.(Tensor|Variable)\b")


def canonical_str(s):
    return _PREFIX_RE.sub(lambda m: "tf." + m.group(1), s)


def _num(x):
    if isinstance(x, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(x, x)
    return x


def _close(e, a, rtol, atol):
    e, a = _num(e), _num(a)
    if isinstance(e, bool) or isinstance(a, bool):
        return e is a or (isinstance(e, bool) and isinstance(a, bool) and e == a)
    if isinstance(e, str) or isinstance(a, str):
        return isinstance(e, str) and isinstance(a, str) and e == a
    e, a = float(e), float(a)
    if math.isnan(e) or math.isnan(a):
        return math.isnan(e) and math.isnan(a)
    if math.isinf(e) or math.isinf(a):
        return e == a
    return abs(e - a) <= atol + rtol * abs(e)


def _short(v, limit=200):
    s = json.dumps(v)
    return s if len(s) <= limit else s[:limit] + "..."


def _compare_value(exp, act, where, rtol, atol, out):
    et, at = exp.get("type"), act.get("type")
    if et != at:
        out.append("%s: expected %s, got %s" % (where, _describe(exp), _describe(act)))
        return
    if et == "none":
        return
    if et == "error":
        if exp["class"] != act["class"]:
            out.append("%s: expected exception %s, got %s (%s)"
                       % (where, exp["class"], act["class"], act.get("message", "")))
        return
    if et == "no_error":
        _compare_value(exp["value"], act["value"], where + "<returned>", rtol, atol, out)
        return
    if et == "py":
        ep, ap = exp.get("pytype"), act.get("pytype")
        if ep != ap:
            out.append("%s: expected Python %s %r, got Python %s %r"
                       % (where, ep, exp["value"], ap, act["value"]))
            return
        if ep == "str":
            if canonical_str(exp["value"]) != canonical_str(act["value"]):
                out.append("%s: expected string %r, got %r" % (where, exp["value"], act["value"]))
        elif not _close(exp["value"], act["value"], rtol, atol):
            out.append("%s: expected %r, got %r" % (where, exp["value"], act["value"]))
        return
    if et == "tensor":
        if exp["dtype"] != act["dtype"]:
            out.append("%s: expected dtype %s, got %s" % (where, exp["dtype"], act["dtype"]))
        if list(exp["shape"]) != list(act["shape"]):
            out.append("%s: expected shape %s, got %s" % (where, exp["shape"], act["shape"]))
            return
        ev, av = exp["value"], act["value"]
        ef, af = _flat_items(ev), _flat_items(av)
        if len(ef) != len(af):
            out.append("%s: expected %d values, got %d" % (where, len(ef), len(af)))
            return
        bad = [i for i, (x, y) in enumerate(zip(ef, af)) if not _close(x, y, rtol, atol)]
        if bad:
            out.append("%s: %d of %d values differ (first at flat index %d: expected %r, got %r); "
                       "expected %s, got %s" % (where, len(bad), len(ef), bad[0], ef[bad[0]],
                                                af[bad[0]], _short(ev), _short(av)))
        return
    if et in ("list", "tuple"):
        ei, ai = exp["items"], act["items"]
        if len(ei) != len(ai):
            out.append("%s: expected %s of %d items, got %d" % (where, et, len(ei), len(ai)))
            return
        for i, (x, y) in enumerate(zip(ei, ai)):
            _compare_value(x, y, "%s[%d]" % (where, i), rtol, atol, out)
        return
    if et == "dict":
        ei, ai = exp["items"], act["items"]
        if set(ei) != set(ai):
            out.append("%s: expected keys %s, got %s" % (where, sorted(ei), sorted(ai)))
        for k in ei:
            if k in ai:
                _compare_value(ei[k], ai[k], "%s[%r]" % (where, k), rtol, atol, out)
        return
    out.append("%s: unknown answer type %r" % (where, et))


def _flat_items(v):
    """Flatten nested value lists (complex [re, im] pairs flatten too)."""
    out = []
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, list):
            stack.extend(reversed(x))
        else:
            out.append(x)
    return out


def _describe(v):
    t = v.get("type")
    if t == "none":
        return "None"
    if t == "error":
        return "exception %s (%s)" % (v["class"], v.get("message", ""))
    if t == "no_error":
        return "no exception (returned %s)" % _describe(v["value"])
    if t == "tensor":
        return "tensor %s%s %s" % (v["dtype"], v["shape"], _short(v["value"], 80))
    if t == "py":
        return "Python %s %r" % (v.get("pytype"), v.get("value"))
    return "%s %s" % (t, _short(v.get("items"), 80))


def compare(expected_json, actual_json, rtol=1e-4, atol=1e-6):
    """Compare two answers (whole answer files, answer dicts, or single values).

    Returns a list of human-readable mismatch strings; empty means equal.
    Tensors must agree in dtype, shape and values (within ``rtol``/``atol``;
    NaN equals NaN, infinities must match exactly); None must meet None;
    errors must have the same class name; strings are compared after the
    ``tf.``/``tapeviz.`` prefix of Tensor/Variable is canonicalised.
    """
    exp = expected_json.get("answers", expected_json) if isinstance(expected_json, dict) else expected_json
    act = actual_json.get("answers", actual_json) if isinstance(actual_json, dict) else actual_json
    out = []
    if isinstance(exp, dict) and "type" in exp and isinstance(act, dict) and "type" in act:
        _compare_value(exp, act, "value", rtol, atol, out)
        return out
    for name, e in exp.items():
        if name not in act:
            out.append("%s: not reported (expected %s)" % (name, _describe(e)))
            continue
        _compare_value(e, act[name], name, rtol, atol, out)
    for name in act:
        if name not in exp:
            out.append("%s: reported but not in the golden answers" % name)
    return out


# --------------------------------------------------------------------------
# command line: run one program, print its answers
# --------------------------------------------------------------------------

def _main(argv):
    if len(argv) != 4 or argv[0] != "run":
        sys.stderr.write("usage: golden_format.py run MODULE PROGRAM.py OUT.json\n")
        return 2
    module_name, path, out_path = argv[1], argv[2], argv[3]
    import importlib

    tf_module = importlib.import_module(module_name)
    answers, crash = run_program(path, tf_module)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"answers": answers, "crash": crash}, f)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
