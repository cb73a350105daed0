"""A flight recording against a full one and none: step time and file size, side by side.

    .venv/bin/python benchmarks/flight_recording.py [--rounds 5] [--w3-steps 20]

Three loops, each run with recording off, ``tv.record(path)`` (every event) and
``tv.record(path, flight=True)`` (and ``flight={"before": 0}``: no ring buffer), the modes taking turns round after round (the order
rotating) in one process: the 300-step 3-4-1 regression of ``tests/test_flight_recorder.py``
(a NaN made at step 217, so calls 217-300 are kept in full), a ``tv.keras`` Dense 16-16-4
loop of 300 steps with SGD, and the W3 step (784-256-256-10 MLP, batch 256, SGD by hand).
Per loop and mode: the median CPU time a step over the rounds, its ratio to off, and the
recording's bytes a step. Nothing is asserted: this is a measurement.
"""
from __future__ import annotations

import argparse
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


def regression(steps=300, bad_step=217):
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
        grads = tape.gradient(loss, [w1, b1, w2, scale])
        for v, g in zip((w1, b1, w2, scale), grads):
            v.assign_sub(0.01 * g)
        tv.events.log_scalar("loss", loss, step)
    return steps


def dense(steps=300):
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
    return steps


def w3(steps):
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
    return steps


def one(loop, mode, folder):
    path = os.path.join(folder, f"{mode}.tvz")
    start = time.process_time()
    if mode == "off":
        steps = loop()
        size = 0
    else:
        flight = {"off": None, "full": False, "flight": True,
                  "no-ring": {"before": 0}}[mode]
        with tv.record(path, flight=flight):
            steps = loop()
        size = os.path.getsize(path)
    return (time.process_time() - start) / steps, size / steps


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--w3-steps", type=int, default=20)
    args = parser.parse_args(argv)
    loops = {"300-step regression, NaN at step 217": regression,
             "Dense 16-16-4, 300 steps": dense,
             f"W3 784-256-256-10, batch 256, {args.w3_steps} steps": lambda: w3(args.w3_steps)}
    modes = ["off", "full", "flight", "no-ring"]
    with tempfile.TemporaryDirectory(prefix="tapeviz-flight-") as folder:
        for name, loop in loops.items():
            one(loop, "off", folder)                     # warm-up: imports, op definitions
            times = {m: [] for m in modes}
            sizes = {}
            for r in range(args.rounds):
                for m in modes[r % 4:] + modes[:r % 4]:
                    t, size = one(loop, m, folder)
                    times[m].append(t)
                    sizes[m] = size
            off = statistics.median(times["off"])
            print(f"\n{name}")
            for m in modes:
                med = statistics.median(times[m])
                ratios = sorted(t / o for t, o in zip(times[m], times["off"]))
                print(f"  {m:7s} {med * 1e6:9.0f} us a step  {med / off:5.2f}x off "
                      f"(per round {ratios[0]:.2f}-{ratios[-1]:.2f})  "
                      f"{sizes[m] / 1024:7.2f} KiB a step")


if __name__ == "__main__":
    main()
