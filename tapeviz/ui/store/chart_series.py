"""What the training charts draw, worked out from the store's rows alone (no Bokeh here).

A gradient norm or a reported scalar is either a number the plot can draw or one of the
states a plot cannot: ``nan`` and ``inf`` (a gradient with any NaN/Inf element: its recorded
norm covers the finite elements only, and would look healthy), ``none`` (no gradient at all)
and ``zero`` (an all-zero gradient: a log axis has no place for it). The charts draw those in
a band of their own, one marker shape per state, instead of leaving a gap.
"""
from __future__ import annotations

import math
import re

from .limits import number

#: the states drawn in the band, top row first: (state, label, Bokeh marker)
BAND_KINDS = (("nan", "NaN", "x"), ("inf", "Inf", "triangle"), ("none", "None", "square"),
              ("zero", "zero", "circle"))
BAND_LABEL = {k: label for k, label, _ in BAND_KINDS}


#: every state a gradient can be in (the engine's verdicts)
STATES = frozenset(("none", "nan", "inf", "zero", "value"))


def gradient_state(result: dict) -> str:
    """``none``, ``nan``, ``inf``, ``zero`` or ``value`` for one result of a gradient call:
    the engine's ``verdict``; read from the gradient's summary (``{"grad": summary | None,
    "norm": ...}``) only for a result without one (a hand-made event)."""
    verdict = result.get("verdict")
    if verdict in STATES:
        return verdict
    grad = result.get("grad")
    if not isinstance(grad, dict):
        return "none"
    if (number(grad.get("nan")) or 0) > 0:
        return "nan"
    if (number(grad.get("inf")) or 0) > 0:
        return "inf"
    norm = number(result.get("norm"))
    if norm is not None and not math.isfinite(norm):
        return "nan" if math.isnan(norm) else "inf"
    if norm == 0 or (grad.get("size") and grad.get("zeros") == grad.get("size")):
        return "zero"
    return "value" if norm is not None else "none"


def value_state(value) -> str:
    """The state of a reported scalar (zero is a value on the scalars' linear axes)."""
    v = number(value)
    if v is None:
        return "none"
    if math.isnan(v):
        return "nan"
    return "inf" if math.isinf(v) else "value"


def ema(values, weight: float) -> list:
    """Exponential moving average with TensorBoard's start-up correction (the first points
    are not pulled toward 0): ``weight`` 0 gives the values back, 0.9 averages over about ten
    points. NaN in, NaN out at that point, and the average runs on over the others."""
    out, last, n = [], 0.0, 0
    for v in values:
        if v is None or not math.isfinite(v):
            out.append(math.nan)
            continue
        last = last * weight + (1.0 - weight) * v
        n += 1
        out.append(last / (1.0 - weight ** n) if weight else v)
    return out


def variable_name(name: str) -> str:
    """A variable's name as a user wrote it: ``dense/kernel:0`` -> ``dense/kernel``."""
    return re.sub(r":\d+$", "", name)


def variable_group(name: str) -> str:
    """The layer or name scope a variable belongs to: what comes before its last ``/``
    (``sequential/dense_2/kernel`` -> ``sequential/dense_2``), else its own name."""
    name = variable_name(name)
    return name.rsplit("/", 1)[0] if "/" in name else name


def ordered_by_group(names: list) -> list:
    """``names`` with each layer's variables together, groups in order of first appearance."""
    groups: dict = {}
    for n in names:
        groups.setdefault(variable_group(n), []).append(n)
    return [n for members in groups.values() for n in members]


def scalar_group(name: str) -> str:
    """Scalars that share the last word of their name share a plot (``loss``, ``val_loss``
    and ``train/loss`` are one quantity on one scale); any other is plotted on its own."""
    words = [w for w in re.split(r"[^0-9A-Za-z]+", name) if w]
    return words[-1].lower() if words else name


def norm_rows(history) -> tuple:
    """``(calls, per_variable)`` from the store's history rows: the gradient calls in order
    and, per variable name (first-seen order), its rows as ``(x, call, tape, state, norm)``
    (x is the call's id, as the gradient-call selector names it)."""
    calls = sorted({h["call"] for h in history if isinstance(h.get("call"), int)})
    per: dict = {}
    for h in history:
        call = h.get("call")
        if not isinstance(call, int):
            continue
        state = h.get("state") or gradient_state({"grad": {}, "norm": h.get("norm")})
        per.setdefault(str(h["name"]), []).append(
            (call, call, h.get("tape"), state, number(h.get("norm"))))
    return calls, per
