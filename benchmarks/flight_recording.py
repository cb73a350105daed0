"""What recording costs a training loop, with the default (flight) policy, with every event
(``full=True``) and with none, side by side in one process, and the file it writes a step.

    .venv/bin/python benchmarks/flight_recording.py [--rounds 5] [--w3-steps 100]

Three loops: the Dense 16-16-4 loop (``tv.keras``, SGD, 300 steps: the small loop), the W3
step (784-256-256-10 MLP, batch 256, SGD by hand) and the 300-step 3-4-1 regression of
``nan_regression.py`` (a NaN made at step 217 that stays: calls 212-217 are kept in full).
Modes: off, ``tv.record(path)`` (the flight policy's defaults), ``tv.record(path,
full=True)`` and ``flight={"before": 0}`` (no ring buffer), taking turns round after round
(the order rotating), one BLAS thread. Per loop and mode: the median CPU time of one step
over all rounds' steps (what a training step costs, the few calls kept in full aside) and
the mean over the run (those included), each as a ratio to off, and the recording's bytes a
step. The last lines put the two targets beside their measures: the W3 step and the Dense
loop with the defaults at most 1.05x and 1.5x their unrecorded time. Nothing is asserted:
this is a measurement.

``--holding`` adds three modes that record nothing, to tell what holding a call's events
costs from what making them costs: ``listen``, a subscriber that drops every event unread;
``hold-call``, one that keeps the events of the call under way until its
``gradient_finished`` (what the flight policy holds until it decides a call); ``hold``, one
that keeps those of the five calls before it too (the policy's ring, whose payloads are built
only if written, so their tensors stay alive). All get the same events, made the same way;
only the references differ.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import time

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")       # one BLAS thread: CPU time is the step's own

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapeviz as tv  # noqa: E402

import nan_regression  # noqa: E402  (shared with tests/test_flight_recorder.py)

_clock = time.process_time


def dense(steps=300, ticks=None):
    rng = np.random.default_rng(0)
    x = tv.constant(rng.normal(size=(32, 16)).astype(np.float32))
    labels = tv.constant(rng.integers(0, 4, size=32).astype(np.int32))
    model = tv.keras.Sequential([tv.keras.layers.Dense(16, activation="relu"),
                                 tv.keras.layers.Dense(4)])
    opt = tv.keras.optimizers.SGD(learning_rate=0.05)
    for step in range(steps):
        with tv.GradientTape() as tape:
            logits = model(x)
            loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        tv.events.log_scalar("loss", loss, step)
        if ticks is not None:
            ticks.append(_clock())
    return steps


def w3(steps, ticks=None):
    rng = np.random.default_rng(0)
    x = tv.constant(rng.normal(size=(256, 784)).astype(np.float32))
    y = tv.constant(rng.integers(0, 10, size=256).astype(np.int32))
    params = []
    for fan_in, fan_out in ((784, 256), (256, 256), (256, 10)):
        params += [tv.Variable(rng.normal(size=(fan_in, fan_out)).astype(np.float32)
                               * np.float32(np.sqrt(2 / fan_in))),
                   tv.Variable(np.zeros(fan_out, np.float32))]
    for _ in range(steps):
        with tv.GradientTape() as tape:
            h = x
            for i in range(0, 6, 2):
                h = tv.matmul(h, params[i]) + params[i + 1]
                if i < 4:
                    h = tv.nn.relu(h)
            loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(
                labels=y, logits=h))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(0.01 * g)
        if ticks is not None:
            ticks.append(_clock())
    return steps


MODES = {"off": None, "default": {}, "full": {"full": True},
         "no-ring": {"flight": {"before": 0}}}


class Holder:
    """A subscriber that keeps the events of the call under way and of the ``calls`` before
    it, unread (a call ends at its ``gradient_finished``); ``Holder(None)`` keeps none."""

    def __init__(self, calls):
        self.keeps = calls is not None
        self.calls = collections.deque(maxlen=calls or 0)
        self.current = []

    def __call__(self, event):
        if self.keeps:
            self.current.append(event)
            if type(event) is tv.events.GradientFinished:
                self.calls.append(self.current)
                self.current = []


HOLDING = {"listen": None, "hold-call": 0, "hold": 5}


def one(loop, mode, folder):
    """(CPU seconds of each step, bytes a step) of one run of ``loop`` in ``mode``."""
    path = os.path.join(folder, f"{mode}.tvz")
    ticks = [_clock()]
    if mode in HOLDING:
        # (holds_unbuilt=False: the events stay unbuilt however many it keeps, as the ring's)
        with tv.events.subscribe(Holder(HOLDING[mode]), holds_unbuilt=False):
            steps = loop(ticks)
        size = 0
    elif MODES[mode] is None:
        steps = loop(ticks)
        size = 0
    else:
        with tv.record(path, **MODES[mode]):
            steps = loop(ticks)
        size = os.path.getsize(path)
        ticks[-1] = _clock()        # (closing the recording counts in the last step)
    return [b - a for a, b in zip(ticks, ticks[1:])], size / steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--w3-steps", type=int, default=100)
    parser.add_argument("--holding", action="store_true",
                        help="add the modes listen, hold-call and hold (see the module's doc)")
    parser.add_argument("--json", default=None, help="also write the numbers to this file")
    args = parser.parse_args(argv)
    loops = {"dense": ("Dense 16-16-4, SGD, 300 steps", lambda t: dense(300, t)),
             "w3": (f"W3 784-256-256-10, batch 256, SGD, {args.w3_steps} steps",
                    lambda t: w3(args.w3_steps, t)),
             "regression": ("3-4-1 regression, 300 steps, NaN at step 217",
                            lambda t: nan_regression.train(300, 217, ticks=t))}
    modes = list(MODES) + (list(HOLDING) if args.holding else [])
    ratios, numbers = {}, {}
    with tempfile.TemporaryDirectory(prefix="tapeviz-flight-") as folder:
        for key, (name, loop) in loops.items():
            one(loop, "off", folder)                     # warm-up: imports, op definitions
            steps = {m: [] for m in modes}
            means = {m: [] for m in modes}
            sizes = {}
            for r in range(args.rounds):
                for m in modes[r % len(modes):] + modes[:r % len(modes)]:
                    times, sizes[m] = one(loop, m, folder)
                    steps[m] += times
                    means[m].append(sum(times) / len(times))
            off_median = statistics.median(steps["off"])
            off_mean = statistics.median(means["off"])
            print(f"\n{name}")
            print(f"  {'mode':8s} {'median step':>12s} {'ratio':>6s} {'mean step':>11s} "
                  f"{'ratio':>6s} {'KiB a step':>11s}")
            for m in modes:
                med, mean = statistics.median(steps[m]), statistics.median(means[m])
                ratios[key, m] = (med / off_median, mean / off_mean)
                numbers[f"{key} {m}"] = {"median_us": med * 1e6, "ratio": med / off_median,
                                         "mean_ratio": mean / off_mean,
                                         "kib_per_step": sizes[m] / 1024}
                print(f"  {m:8s} {med * 1e6:9.0f} us {med / off_median:5.2f}x "
                      f"{mean * 1e6:8.0f} us {mean / off_mean:5.2f}x "
                      f"{sizes[m] / 1024:10.2f}")
    print("\ntargets, default policy (median step / mean step, to off):")
    for key, target in (("w3", 1.05), ("dense", 1.5)):
        med, mean = ratios[key, "default"]
        print(f"  {loops[key][0]:40s} target <= {target:.2f}x: {med:.2f}x / {mean:.2f}x")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(numbers, fh, indent=1)


if __name__ == "__main__":
    main()
