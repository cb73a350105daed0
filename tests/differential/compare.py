"""Compare tapeviz's answers to a program with TensorFlow's (interpret.run's format).

Values agree within rtol 1e-4 for float32 and 1e-7 for float64 (answers keep 9 significant
digits), with an absolute floor of rtol times the largest expected magnitude of the tensor;
plus a floor for rounding noise near zero (1e-6 float32, 1e-10 float64);
dtypes, shapes, None-ness, NaN and infinities and exception classes must be equal.
"""
from __future__ import annotations

import re

import numpy as np

RTOL = {"float32": 1e-4, "float64": 1e-7, "float16": 1e-2}
# rounding noise where a value cancels to (almost) zero: TensorFlow 3.7e-09, tapeviz 0.0
ATOL = {"float32": 1e-6, "float64": 1e-10, "float16": 1e-3}
CHECKS = ("forward", "value", "grad", "grad2", "jacobian", "batch_jacobian")


def _array(enc):
    return np.array([float(v) for v in enc["v"]], dtype=np.float64)


def _tensor_diff(expected, actual):
    if expected["dtype"] != actual["dtype"]:
        return f"dtype {actual['dtype']}, TensorFlow {expected['dtype']}"
    if expected["shape"] != actual["shape"]:
        return f"shape {actual['shape']}, TensorFlow {expected['shape']}"
    if not expected["v"] or expected["dtype"] not in RTOL:
        return None if expected["v"] == actual["v"] else (
            f"values {actual['v'][:8]}, TensorFlow {expected['v'][:8]}")
    e, a = _array(expected), _array(actual)
    rtol = RTOL[expected["dtype"]]
    finite = np.isfinite(e)
    scale = float(np.max(np.abs(e[finite]))) if finite.any() else 0.0
    same_special = np.where(finite, np.isfinite(a), (np.isnan(e) & np.isnan(a)) | (e == a))
    with np.errstate(invalid="ignore"):      # inf - inf where both are infinite
        close = np.abs(a - e) <= rtol * np.abs(e) + rtol * scale + ATOL[expected["dtype"]]
    bad = ~np.where(finite, same_special & close, same_special)
    if not bad.any():
        return None
    k = int(np.argmax(bad))
    index = tuple(int(i) for i in np.unravel_index(k, expected["shape"])) \
        if expected["shape"] else ()
    return (f"{int(bad.sum())} of {e.size} values differ; at {list(index)}: "
            f"{a[k]!r}, TensorFlow {e[k]!r}")


def _describe(x):
    if x is None:
        return "None"
    if isinstance(x, dict) and "error" in x:
        return f"raises {x['error']}"
    if isinstance(x, dict):
        return f"a {x['dtype']} tensor"
    return repr(x)


def _diff(expected, actual):
    """A sentence saying how `actual` differs from `expected`, or None."""
    if isinstance(expected, dict) and "v" in expected and isinstance(actual, dict) \
            and "v" in actual:
        return _tensor_diff(expected, actual)
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{len(actual)} results, TensorFlow {len(expected)}"
        found = [f"[{k}] {d}" for k, d in enumerate(map(_diff, expected, actual)) if d]
        return "; ".join(found) or None
    if expected == actual:
        return None
    return f"{_describe(actual)}, TensorFlow {_describe(expected)}"


def differing_items(sentence):
    """The indices a list's difference names ("[0] ...; [2] ...")."""
    return [int(k) for k in re.findall(r"(?:^|; )\[(\d+)\] ", sentence)]


def differences(expected, actual):
    """{check: sentence} for every check where tapeviz disagrees with TensorFlow."""
    out = {}
    for check in CHECKS:
        if check in expected or check in actual:
            d = _diff(expected.get(check, "nothing"), actual.get(check, "nothing"))
            if d:
                out[check] = d
    return out
