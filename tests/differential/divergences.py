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
        "second derivative through a segment sum's gradient",
        "TensorFlow's gradient of SegmentSum and UnsortedSegmentSum is a gather of the upstream "
        "gradient, whose own gradient is IndexedSlices; a second derivative hands them to the "
        "upstream op's gradient of its gradient, which multiplies them with * (TanhGrad's, "
        "SigmoidGrad's, ...) and raises TypeError; tapeviz computes it. scatter_nd's gradient, "
        "a gather_nd with indices of shape [n, 1], has IndexedSlices for gradient too",
        frozenset({"grad2"}),
        lambda p, e, d: e.get("grad2") == {"error": "TypeError"} and (
            _calls(p, "math.segment_sum") or _calls(p, "math.unsorted_segment_sum")
            or _calls(p, "scatter_nd")),
        tensorflow_wrong=False),
    Divergence(
        "linalg.inv of a matrix that repeated values made singular",
        "a tie program plants repeated values, which can make a well-conditioned input "
        "singular: the inverse and its derivatives are then float32 rounding noise (2**24 in "
        "TensorFlow's LU, 0 or inf in tapeviz's), with no answer to side with",
        frozenset({"value", "grad", "grad2", "jacobian", "batch_jacobian"}),
        lambda p, e, d: p["tag"] == "tie" and _calls(p, "linalg.inv")
        and _inputs_hold(p, _singular),
        tensorflow_wrong=False),
]


def _singular(v):
    if v.ndim < 2 or v.shape[-1] != v.shape[-2]:
        return np.zeros(1, bool)
    return np.atleast_1d(np.abs(np.linalg.det(v)) < 1e-6)


def explained(program, expected, diffs):
    """The divergence that accounts for every differing check, or None."""
    for d in DIVERGENCES:
        if set(diffs) <= d.checks and d.applies(program, expected, diffs):
            return d
    return None
