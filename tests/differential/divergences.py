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
        "SigmoidGrad's, ...) and raises TypeError; tapeviz computes it",
        frozenset({"grad2"}),
        lambda p, e, d: e.get("grad2") == {"error": "TypeError"} and (
            _calls(p, "math.segment_sum") or _calls(p, "math.unsorted_segment_sum")),
        tensorflow_wrong=False),
    Divergence(
        "erf of an infinite float64",
        "TensorFlow's float64 erf is NaN at +-inf; tapeviz gives the limit, +-1 (both give it "
        "in float32); what follows the erf differs with it",
        frozenset({"value", "grad", "grad2", "jacobian", "batch_jacobian"}),
        # (an infinity reaches the erf from an infinite input, or from a zero through log,
        # reciprocal, ...; finite differences have nothing to stand on there)
        lambda p, e, d: p["dtype"] == "float64" and _calls(p, "math.erf")
        and _inputs_hold(p, lambda v: np.isinf(v) | (v == 0)),
        tensorflow_wrong=False),
    Divergence(
        "softmax_cross_entropy_with_logits: second derivative at infinite labels or logits",
        "TensorFlow's gradient of the fused loss multiplies the loss's upstream gradient, 0 in "
        "a second derivative, by softmax(logits) - labels: 0*inf is NaN where that is "
        "infinite; tapeviz differentiates softmax(logits) - labels, finite at finite logits",
        frozenset({"grad2"}),
        lambda p, e, d: _calls(p, "nn.softmax_cross_entropy_with_logits")
        and _inputs_hold(p, np.isinf),
        tensorflow_wrong=False),
    Divergence(
        "depthwise_conv2d's input gradient with infinite values",
        "TensorFlow's CPU kernel for the input's gradient (a padded copy of the filter, "
        "combined in its own order) makes NaN of some entries where infinite filter values "
        "meet, which are +-inf in tapeviz, the sum of the taps' products inside the image; "
        "finite inputs agree",
        frozenset({"grad", "grad2", "jacobian", "batch_jacobian"}),
        lambda p, e, d: _calls(p, "nn.depthwise_conv2d") and _inputs_hold(p, np.isinf),
        tensorflow_wrong=False),
]


def explained(program, expected, diffs):
    """The divergence that accounts for every differing check, or None."""
    for d in DIVERGENCES:
        if set(diffs) <= d.checks and d.applies(program, expected, diffs):
            return d
    return None
