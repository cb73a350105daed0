"""The 3-4-1 regression that makes a NaN at one step: what tests/test_flight_recorder.py
records and benchmarks/flight_recording.py times."""
from __future__ import annotations

import time

import numpy as np

import tapeviz as tv

#: the line where the NaN is made at ``bad_step``
LOG_LINE = "logs = tv.math.log(xb * scale)"


def train(steps=300, bad_step=217, scale_at=None, guard=False, ticks=None):
    """A 3-4-1 regression, one gradient call per step (steps count from 1). At ``bad_step``
    the batch holds a negative number: its log is NaN, so are the gradients of that call and,
    through the update, of every later one (with ``guard``, that step updates nothing, as a
    loop that skips non-finite gradients: the NaN stays in one call). At ``scale_at`` the
    loss is 10,000 times larger (a jump in the gradient norm, every number finite), and that
    step updates nothing. ``ticks``, a list, gets the CPU time at the end of each step."""
    rng = np.random.default_rng(0)
    w1 = tv.Variable(rng.normal(size=(3, 4)).astype(np.float32) * 0.5, name="w1")
    b1 = tv.Variable(np.full(4, 0.5, np.float32), name="b1")
    w2 = tv.Variable(rng.normal(size=(4, 1)).astype(np.float32) * 0.5, name="w2")
    scale = tv.Variable(np.ones(3, np.float32), name="scale")
    for step in range(1, steps + 1):
        xb = rng.uniform(0.5, 2.0, size=(8, 3)).astype(np.float32)
        if step == bad_step:
            xb[3, 1] = -1.0
        yb = xb.sum(axis=1, keepdims=True)
        with tv.GradientTape() as tape:
            logs = tv.math.log(xb * scale)
            h = tv.nn.relu(tv.matmul(logs, w1) + b1)
            loss = tv.reduce_mean(tv.square(tv.matmul(h, w2) - yb))
            if step == scale_at:
                loss = loss * 10000.0
        grads = tape.gradient(loss, [w1, b1, w2, scale])
        for v, g in zip((w1, b1, w2, scale), grads):
            if step != scale_at and not (guard and step == bad_step):
                v.assign_sub(0.01 * g)
        tv.events.log_scalar("loss", loss, step)
        if ticks is not None:
            ticks.append(time.process_time())
    return steps
