"""Value summaries (the dicts :func:`tapeviz.events.summary.summarize` makes) as the views
read them: one line of text, and whether one holds a NaN/Inf or only zeros; shapes and numbers
as text. Pure functions, shared by the store, the cards, the player and the exported page.

>>> summary_text({"shape": [2], "dtype": "float32", "size": 2, "value": [1.0, 2.5]})
'[1, 2.5]'
"""
from __future__ import annotations

import math

from .limits import clip_name, clip_summary


def shape_str(shape) -> str:
    if shape is None:
        return "?"
    return "(" + ", ".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def fmt_num(v) -> str:
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    try:
        f = float(v)
    except (TypeError, ValueError, OverflowError):
        return str(v)
    if not math.isfinite(f):        # as the recordings write them (int() would raise)
        return "nan" if f != f else ("inf" if f > 0 else "-inf")
    if f == int(f) and abs(f) < 1e6:
        return str(int(f)) if isinstance(v, int) else f"{f:g}"
    return f"{f:.4g}"


def summary_text(summary) -> str:
    """One line for a value summary: the value when small, else stats (fields of the wrong
    type, and a value too large to draw, left out: see :func:`.limits.clip_summary`)."""
    if summary is None:
        return "None"
    if not isinstance(summary, dict):
        return clip_name(summary)
    summary = clip_summary(summary)
    if "value" in summary and summary.get("size", 2) <= 8:
        return _value_text(summary["value"])
    parts = []
    for k in ("min", "max", "mean", "norm"):
        if k in summary:
            parts.append(f"{k}={fmt_num(summary[k])}")
    for k in ("nan", "inf"):
        if summary.get(k):
            parts.append(f"{k}={summary[k]}")
    if summary.get("zeros") and summary.get("zeros") == summary.get("size"):
        parts.append("all zero")
    return " ".join(parts) or f"{summary.get('dtype', '?')}{shape_str(summary.get('shape'))}"


def _value_text(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return fmt_num(value)


def is_bad(summary) -> bool:
    return bool(summary) and isinstance(summary, dict) and bool(summary.get("nan") or summary.get("inf"))


def is_zero(summary) -> bool:
    if not isinstance(summary, dict):
        return False
    size = summary.get("size")
    return type(size) is int and size > 0 and summary.get("zeros") == size
