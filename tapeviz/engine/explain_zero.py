"""Why a gradient is zero (a dead ReLU, an activation stuck in its tail, a clip that holds,
or values that cancel), and whether a small one went through a saturated activation.
Loaded by `explain.py` only for a zero gradient, or a tape holding a Sigmoid or Tanh."""
from __future__ import annotations

import numpy as np

from .explain import SATURABLE, _on_path, _op_name


#: the ops (besides Relu) whose saved values can show why a gradient through them is zero
_ZERO_SUSPECTS = frozenset({"Sigmoid", "Tanh", "ClipByValue", "Maximum", "Minimum"})


def why_zero(ctx, source):
    on = _on_path(ctx.lineage, source._id)
    for node, inputs, outputs in ctx.entries:
        if node.id not in on:
            continue
        name = _op_name(node)
        if name == "Relu":   # (a tape keeps a ReLU's output, not its input: all 0 <=> x <= 0)
            if not np.any(outputs[0]._value):
                return "dead_relu", node, {}
            continue
        if name not in _ZERO_SUSPECTS:
            continue
        if name in SATURABLE:
            local = _saturation(ctx, node, name, outputs)
            if local is not None:
                return "saturated", node, {"local": local}
            continue
        x = [np.asarray(t._value) for t in inputs]
        if name == "ClipByValue" and 0 in on[node.id]:
            if np.all((x[0] < x[1]) | (x[0] > x[2])):
                return "clipped", node, {}
        if name in ("Maximum", "Minimum"):
            idx = on[node.id]
            first_wins = x[0] >= x[1] if name == "Maximum" else x[0] <= x[1]
            if idx == [0] and not np.any(first_wins):
                return "clipped", node, {}
            if idx == [1] and np.all(first_wins):
                return "clipped", node, {}
    return "cancelled", None, {}


def saturated_on_path(ctx, source):
    """``(node, extra)`` of the first Sigmoid or Tanh between the source and a target that is
    stuck in its tail, else None. Only those: a dead ReLU on one path does not hide a
    saturated activation on another (the gradient is not zero, so the ReLU explains none
    of it)."""
    on = _on_path(ctx.lineage, source._id)
    for node, inputs, outputs in ctx.entries:
        if node.id in on:
            name = _op_name(node)
            if name in SATURABLE:
                local = _saturation(ctx, node, name, outputs)
                if local is not None:
                    return node, {"local": local}
    return None


def _saturation(ctx, node, name, outputs):
    """The largest local derivative of a Sigmoid or Tanh over its output (y(1-y), 1-y^2) when
    below 1e-6 (the activation is stuck in its tail), else None. Worked out once per node
    for all of a gradient call's sources."""
    memo = ctx.saturation
    if node.id not in memo:
        y = np.asarray(outputs[0]._value, np.float64)
        local = float(np.max(y * (1 - y) if name == "Sigmoid" else 1 - y * y)) if y.size else 1.0
        memo[node.id] = local if local < 1e-6 else None
    return memo[node.id]
