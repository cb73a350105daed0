"""Long-run soak: a training loop of many steps with recording on; memory must stay flat.

    .venv/bin/python benchmarks/soak.py [--steps 10000] [--out /tmp/soak.tvz] [--keep]

Prints resident memory (from /proc) and the recording's size every tenth of the run, and the
growth between the first and the last tenth. Nothing is asserted: this is a measurement.
Without --out the recording goes to a temporary folder, deleted at the end (about 27 KiB a
step: 80 MB at 3,000 steps) unless --keep is given; --out files are always kept.
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapeviz as tv  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--out", default=None, help="recording path (default: a temp file)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary recording (default: deleted at the end)")
    args = parser.parse_args(argv)
    temp = None if args.out else tempfile.mkdtemp(prefix="tapeviz-soak-")
    try:
        run(args, args.out or os.path.join(temp, "soak.tvz"))
    finally:
        if temp and args.keep:
            print(f"soak: kept the recording in {temp}")
        elif temp:
            shutil.rmtree(temp, ignore_errors=True)
            print(f"soak: deleted the temporary folder {temp} (--keep keeps it)")


def run(args, out):

    rng = np.random.default_rng(0)
    x = tv.constant(rng.normal(size=(32, 16)).astype(np.float32))
    labels = tv.constant(rng.integers(0, 4, size=32).astype(np.int32))
    model = tv.keras.Sequential([tv.keras.layers.Dense(16, activation="relu"),
                                 tv.keras.layers.Dense(4)])
    opt = tv.keras.optimizers.SGD(learning_rate=0.05)
    every = max(args.steps // 10, 1)
    rows = []
    t0 = time.perf_counter()
    with tv.record(out, full=True):
        for step in range(args.steps):
            with tv.GradientTape() as tape:
                logits = model(x)
                loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(
                    labels=labels, logits=logits))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            tv.events.log_scalar("loss", loss, step)
            if (step + 1) % every == 0:
                gc.collect()
                rows.append((step + 1, rss_mib(), os.path.getsize(out) / 2**20,
                             time.perf_counter() - t0))
    print(f"soak: {args.steps} training steps recorded to {out}")
    print(f"{'step':>8} {'RSS MiB':>9} {'file MiB':>9} {'seconds':>8}")
    for step, rss, size, secs in rows:
        print(f"{step:>8} {rss:>9.1f} {size:>9.1f} {secs:>8.1f}")
    growth = rows[-1][1] - rows[0][1]
    print(f"RSS growth from the first to the last tenth: {growth:+.1f} MiB "
          f"({rows[-1][2] / args.steps * 1024:.1f} KiB of recording per step)")


if __name__ == "__main__":
    main()
