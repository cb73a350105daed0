"""A broken training script recorded with a flight policy that keeps every call in full (as
a full recording or a live follow fills a view: more tapes than it holds), and the truth about it that does not come from tapeviz's store: the script's own
finiteness check says where NaN began, the file's ``call_summary`` lines say what the
recorder chose to keep, and the dead layer is dead by construction."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from conftest import env_with_repo

#: A regression MLP whose learning rate grows 10% a step, so it diverges: its gradients turn
#: NaN after more calls than a view keeps tapes (50), and stay NaN for more than 50 calls. Its
#: side branch is dead from the first step: b2 = -40 while |x @ w2| stays far below 40 for
#: these inputs, so every ReLU of h2 is inactive and w2, b2 and wd get zero gradients.
SCRIPT = """\
import sys
import numpy as np
import tapeviz as tf

recording = tf.record(sys.argv[1], flight=dict(every=1))
tf.random.set_seed(3)
x = tf.random.normal([64, 4])
y = x @ tf.constant([[1.0], [-2.0], [0.5], [3.0]]) + 1.0
w1 = tf.Variable(tf.random.normal([4, 8]) * 0.5, name="w1")
b1 = tf.Variable(tf.zeros([8]), name="b1")
w2 = tf.Variable(tf.random.normal([4, 8]) * 0.5, name="w2")
b2 = tf.Variable(tf.fill([8], -40.0), name="b2")
wd = tf.Variable(tf.random.normal([8, 1]) * 0.5, name="wd")
w3 = tf.Variable(tf.random.normal([8, 1]) * 0.5, name="w3")
b3 = tf.Variable(tf.zeros([1]), name="b3")
params = [w1, b1, w2, b2, wd, w3, b3]
print("MAX_PRE", float(np.abs((x @ w2).numpy()).max()))
lr, first_nan = 0.002, None
for step in range(130):
    with tf.GradientTape() as tape:
        h1 = tf.nn.relu(x @ w1 + b1)
        h2 = tf.nn.relu(x @ w2 + b2)
        loss = tf.reduce_mean(tf.square(h1 @ w3 + b3 + h2 @ wd - y))
    grads = tape.gradient(loss, params)
    if first_nan is None and not all(np.isfinite(g.numpy()).all() for g in grads):
        first_nan = step + 1
        print("FIRST_NAN_CALL", first_nan)
    for v, g in zip(params, grads):
        v.assign_sub(lr * g)
    lr *= 1.1
"""
DEAD = {"w2", "b2", "wd"}


def record(directory):
    """Run the script with recording on; (recording path, truth dict)."""
    script = directory / "diverging.py"
    script.write_text(textwrap.dedent(SCRIPT))
    out = directory / "diverging.tvz"
    proc = subprocess.run([sys.executable, str(script), str(out)], cwd=directory,
                          capture_output=True, text=True, timeout=300, env=env_with_repo())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    printed = dict(line.split() for line in proc.stdout.splitlines() if line.count(" ") == 1)
    assert float(printed["MAX_PRE"]) < 40.0          # the dead branch is dead on every row
    summaries = {}
    with open(out, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if isinstance(row, dict) and row.get("kind") == "call_summary":
                summaries[row["index"]] = row
    first_nan = int(printed["FIRST_NAN_CALL"])
    # written in full: as the summary says, or later as an anomalous call's lead-up
    full = {i for i, s in summaries.items() if s.get("full")}
    for s in summaries.values():
        full |= set(s.get("lead_up", ()))
    return out, {"full": len(full), "summaries": summaries, "first_nan": first_nan,
                 "tape": {i: s["tape"] for i, s in summaries.items()},
                 "call": {i: s["call"] for i, s in summaries.items()}}


def story_calls(truth) -> set:
    """The call indices a view must hold: the first three calls, the first NaN, and every
    call the recorder kept as a jump or a jump's lead-up."""
    chosen = set()
    for i, s in truth["summaries"].items():
        if s.get("why") == "jump":
            chosen |= {i, *s.get("lead_up", ())}
    return {1, 2, 3, truth["first_nan"]} | chosen
