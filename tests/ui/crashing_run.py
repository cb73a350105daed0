"""The training script that crashes, shared by the crash tests (the recording's footer, the
served page): its fourth step calls the gradient of a non-persistent tape twice, which raises
RuntimeError in TensorFlow too. Truth: the line marked ``CRASH``."""
from __future__ import annotations

CRASHING = """\
import tapeviz as tv
w = tv.Variable(2.0, name="w")
for step in range(4):
    with tv.GradientTape() as tape:
        loss = w * w
    if step == 3:
        tape.gradient(loss, w)          # a debug call first
    g = tape.gradient(loss, w)          # CRASH
    w.assign_sub(0.1 * g)
"""
#: the line (from 1) that raises
CRASH_LINE = next(i for i, l in enumerate(CRASHING.splitlines(), 1) if "CRASH" in l)
#: the same script with the debug call never made: a clean exit
CLEAN = CRASHING.replace("if step == 3:", "if False:")
assert CLEAN != CRASHING
