"""Second derivatives by float64 central differences of the first derivatives, the independent
judge of a documented divergence: `grad2` (interpret.run) is the gradient of
d(x) = sum_k <g_k(x), v_k>, where g = d sum(y * w) / dx; here d is differenced directly.
"""
from __future__ import annotations

import json

import numpy as np

from interpret import forward, upstream
from program import decode_value


def in_float64(program):
    """The same program computing in float64 (inputs and casts)."""
    return json.loads(json.dumps(program).replace('"float32"', '"float64"'))


def _dot(program, tf, values):
    xs = {i["name"]: tf.constant(values[i["name"]]) for i in program["inputs"]}
    watched = [xs[i["name"]] for i in program["inputs"] if i["watch"]]
    with tf.GradientTape() as tape:
        for x in watched:
            tape.watch(x)
        y = forward(program, tf, dict(xs))
    grads = tape.gradient(y, watched, output_gradients=tf.constant(
        upstream(y.shape, "float64", 0.0)))
    # (a gather's gradient is an IndexedSlices: made dense, as TensorFlow's would be)
    dense = [None if g is None else tf.convert_to_tensor(g) for g in grads]
    return sum(float(np.sum(g.numpy() * upstream(g.shape, "float64", 1.0 + k)))
               for k, g in enumerate(dense) if g is not None)


def second_derivatives(program, tf, h=1e-6):
    """[array per watched input]: central differences of d, in float64."""
    program = in_float64(program)
    values = {i["name"]: decode_value(i["value"], "float64") for i in program["inputs"]}
    out = []
    for i in program["inputs"]:
        if not i["watch"]:
            continue
        x, grad = values[i["name"]], np.zeros(values[i["name"]].shape)
        for idx in np.ndindex(x.shape):
            moved = []
            for sign in (1, -1):
                shifted = dict(values, **{i["name"]: x.copy()})
                shifted[i["name"]][idx] += sign * h
                moved.append(_dot(program, tf, shifted))
            grad[idx] = (moved[0] - moved[1]) / (2 * h)
        out.append(grad)
    return out
