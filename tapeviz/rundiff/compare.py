"""Comparing two tensors from what a recording keeps of them: a summary.

A small tensor's summary carries its ``value`` (at most the recording's ``value_limit``
elements, 64 by default): the two are compared element by element, as ``numpy.allclose``
does (``|a - b| <= atol + rtol * |b|``, NaN equal to NaN, an infinity to the same infinity),
and the relative difference is ``max |a - b| / max(|a|, |b|)`` over all elements.

A larger tensor is known by its statistics only, so it is compared by them: its norm, mean,
min and max each as above, and its counts of NaN, Inf and zeros exactly. The relative
difference is the largest of ``|s_a - s_b| / max(|s_a|, |s_b|)`` over those statistics. It
is a lower bound of the true one: ``| ||a|| - ||b|| | <= ||a - b||`` and a mean, min or max
moves by at most ``max |a - b|``, so two tensors whose summaries differ certainly differ,
while equal summaries (a permutation, a sign flip that keeps the norm) do not prove equal
values.
"""
from __future__ import annotations

import math

STATS = ("norm", "mean", "min", "max")
_NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


class Difference:
    """How two summaries differ: ``rel`` (relative difference, ``inf`` when they cannot be
    compared: shapes, NaN counts), ``differs`` (beyond tolerance), ``why`` (a few words, ``""``
    when they agree) and ``by`` (``"value"`` or ``"summary"``: what was compared)."""

    __slots__ = ("rel", "differs", "why", "by")

    def __init__(self, rel=0.0, differs=False, why="", by="value"):
        self.rel, self.differs, self.why, self.by = rel, differs, why, by


SAME = Difference()
_ABSENT = object()


def compare_summaries(a, b, rtol: float, atol: float) -> Difference:
    if a == b:                  # the usual case where runs agree: one comparison in C
        return SAME
    if not isinstance(a, dict) or not isinstance(b, dict):
        if a is None and b is None:
            return SAME
        return Difference(math.inf, True, "a value on one side only", "summary")
    shape_a, shape_b = a.get("shape"), b.get("shape")
    if shape_a != shape_b:
        return Difference(math.inf, True, f"shape {_shape(shape_a)} vs {_shape(shape_b)}",
                          "summary")
    va, vb = a.get("value", _ABSENT), b.get("value", _ABSENT)
    if va is not _ABSENT and vb is not _ABSENT:      # NaN and Inf are compared in place
        diff = _compare_values(va, vb, rtol, atol)
    else:
        for count in ("nan", "inf"):
            if (a.get(count) or 0) != (b.get(count) or 0):
                return Difference(math.inf, True, f"{count} count {a.get(count) or 0} vs "
                                                  f"{b.get(count) or 0}", "summary")
        diff = _compare_stats(a, b, rtol, atol)
    if a.get("dtype") != b.get("dtype"):
        note = f"dtype {a.get('dtype')} vs {b.get('dtype')}"
        diff = Difference(diff.rel, True, note + (f", {diff.why}" if diff.why else ""), diff.by)
    return diff


def _compare_values(va, vb, rtol, atol) -> Difference:
    if type(va) is float and type(vb) is float:       # a scalar: no lists to walk
        xs, ys = [va], [vb]
    else:
        xs, ys = _flat(va), _flat(vb)
    if xs is None or ys is None or len(xs) != len(ys):
        return Difference(math.inf if va != vb else 0.0, va != vb,
                          "values differ" if va != vb else "")
    worst = scale = 0.0
    beyond = False
    for x, y in zip(xs, ys):
        if x == y or (x != x and y != y):
            scale = max(scale, abs(x) if x == x and abs(x) != math.inf else 0.0)
            continue
        d = abs(x - y)
        if d != d or d == math.inf:
            return Difference(math.inf, True, "non-finite values in different places")
        worst = max(worst, d)
        scale = max(scale, abs(x), abs(y))
        beyond = beyond or d > atol + rtol * abs(y)
    rel = worst / scale if scale else 0.0
    return Difference(rel, beyond, "values differ" if beyond else "")


def _compare_stats(a, b, rtol, atol) -> Difference:
    worst, beyond = 0.0, []
    for stat in STATS:
        x, y = _number(a.get(stat)), _number(b.get(stat))
        if x is None and y is None:
            continue
        if x is None or y is None or (x != x) != (y != y):
            return Difference(math.inf, True, f"{stat} on one side only", "summary")
        if x == y or x != x:
            continue
        d, scale = abs(x - y), max(abs(x), abs(y))
        if d == math.inf or d != d:
            return Difference(math.inf, True, f"{stat} {x:.6g} vs {y:.6g}", "summary")
        worst = max(worst, d / scale)
        if d > atol + rtol * abs(y):
            beyond.append(stat)
    size = a.get("size") or 0
    za, zb = a.get("zeros") or 0, b.get("zeros") or 0
    if za != zb and size:
        worst = max(worst, abs(za - zb) / size)
        if abs(za - zb) / size > rtol:
            beyond.append("zero count")
    why = (", ".join(beyond) + " differ") if beyond else ""
    return Difference(worst, bool(beyond), why, "summary")


def _number(v):
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    return _NON_FINITE.get(v) if isinstance(v, str) else None


def _flat(value):
    """A nested list of numbers (or ``"nan"``/``"inf"`` strings) as a flat list of floats;
    None for anything else (strings, complex numbers)."""
    out = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(reversed(v))
            continue
        x = _number(v)
        if x is None:
            return None
        out.append(x)
    return out


def _shape(shape) -> str:
    if not isinstance(shape, list):
        return str(shape)[:40]
    return "(" + ", ".join(map(str, shape[:8])) + ("," if len(shape) == 1 else "") + \
        (", ..." if len(shape) > 8 else "") + ")"


def compare_refs(refs_a, refs_b, rtol, atol) -> Difference:
    """The largest difference among tensors paired by position (outputs of an op)."""
    if len(refs_a) == 1 == len(refs_b):          # most ops: one output
        return compare_summaries(refs_a[0].get("summary"), refs_b[0].get("summary"), rtol, atol)
    if len(refs_a) != len(refs_b):
        return Difference(math.inf, True, f"{len(refs_a)} vs {len(refs_b)} tensors", "summary")
    worst = SAME
    for ra, rb in zip(refs_a, refs_b):
        d = compare_summaries(ra.get("summary"), rb.get("summary"), rtol, atol)
        if (d.differs, d.rel) > (worst.differs, worst.rel):
            worst = d
    return worst
