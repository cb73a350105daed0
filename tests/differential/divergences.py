"""Where tapeviz and TensorFlow disagree on purpose, each with its reason (see
docs/tensorflow-differences.md). `tensorflow_wrong` entries are checked against float64 finite
differences by tests/test_differential.py: tapeviz's answer must match them, TensorFlow's not.
A program whose disagreement is not fully covered by one entry is a failure.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from compare import differing_items
from program import decode_value


@dataclass(frozen=True)
class Divergence:
    name: str
    reason: str
    checks: frozenset
    applies: Callable            # applies(program, expected answers, differences) -> bool
    tensorflow_wrong: bool       # True: finite differences side with tapeviz


def _calls(program, fn, **kwargs):
    return any(s["fn"] == fn and all(s["kwargs"].get(k) == v for k, v in kwargs.items())
               for s in program["steps"])


def _inputs_hold(program, test):
    return any(test(decode_value(i["value"], "float64")).any() for i in program["inputs"])


def _differing_inputs(program, diffs):
    """Names of the watched inputs whose second derivative differs."""
    watched = [i["name"] for i in program["inputs"] if i["watch"]]
    return {watched[k] for k in differing_items(diffs.get("grad2", ""))}


def _labels(program):
    return {s["kwargs"]["labels"]["ref"] for s in program["steps"]
            if s["fn"] == "nn.softmax_cross_entropy_with_logits"}


def _tiles_rank3(program):
    """Does the program tile a tensor of rank 3 or more?"""
    ranks = {i["name"]: len(i["shape"]) for i in program["inputs"]}
    return any(s["fn"] == "tile" and ranks.get(s["args"][0].get("ref"), 0) >= 3
               for s in program["steps"] if s["args"] and isinstance(s["args"][0], dict))


DIVERGENCES = [
    Divergence(
        "reduce_prod's second derivative at a zero or infinite factor",
        "TensorFlow's product gradient avoids dividing by zero and so drops the terms of the "
        "other factors' derivatives at a zero entry, and divides inf by inf (NaN) beside an "
        "infinite one; tapeviz sums the products of the other factors exactly",
        frozenset({"grad2"}),
        lambda p, e, d: _calls(p, "reduce_prod") and _inputs_hold(
            p, lambda v: (v == 0) | np.isinf(v)),
        tensorflow_wrong=True),
    Divergence(
        "softmax_cross_entropy_with_logits: second derivative through the labels",
        "TensorFlow's gradient of the loss's backprop output reaches only the logits, so "
        "d(dL/dlogits)/dlabels is 0 there instead of -1 per class",
        frozenset({"grad2"}),
        lambda p, e, d: bool(_differing_inputs(p, d)) and _differing_inputs(p, d) <= _labels(p),
        tensorflow_wrong=True),
    Divergence(
        "softsign's second derivative",
        "TensorFlow registers no gradient for SoftsignGrad and raises LookupError; tapeviz "
        "differentiates it",
        frozenset({"grad2"}),
        lambda p, e, d: _calls(p, "nn.softsign") and e.get("grad2") == {"error": "LookupError"},
        tensorflow_wrong=True),
    Divergence(
        "tile's second derivative of a tensor of rank 3 or more",
        "TensorFlow's gradient of Tile's gradient broadcasts to rank 2n, and its CPU BroadcastTo "
        "kernel refuses rank 6 ('Broadcast between [1,3,1,3,1,3] and [2,3,2,3,2,3] is not "
        "supported yet', UnimplementedError); tapeviz computes it",
        frozenset({"grad2"}),
        lambda p, e, d: _tiles_rank3(p) and e.get("grad2") == {"error": "UnimplementedError"},
        tensorflow_wrong=False),
    Divergence(
        "exact gelu in float64: TensorFlow's 1/sqrt(2) is a float32 constant",
        "TensorFlow's gelu multiplies by math_ops.cast(0.7071067811865476, dtype), a float32 "
        "constant widened to float64, so its float64 gelu is off by about 1e-8 relative and "
        "its gradient by up to about 1e-6; tapeviz computes with the float64 constant",
        frozenset({"forward", "value", "grad", "grad2", "jacobian", "batch_jacobian"}),
        lambda p, e, d: p["dtype"] == "float64" and _calls(p, "nn.gelu", approximate=False),
        tensorflow_wrong=False),
]


def explained(program, expected, diffs):
    """The divergence that accounts for every differing check, or None."""
    for d in DIVERGENCES:
        if set(diffs) <= d.checks and d.applies(program, expected, diffs):
            return d
    return None
