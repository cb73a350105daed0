"""Seeded random straight-line programs over the op registry (see program.py for the format).

Tags: `smooth` programs keep values finite (domains of program.DOMAINS); `kink`, `tie`, `zero`
and `nonfinite` plant special values into the inputs (the ops' kink points, repeated values,
exact zeros, NaN and infinities); `error` programs end in a step TensorFlow refuses.
`generate(count, seed)` gives the same programs for the same arguments on every machine.
"""
from __future__ import annotations

import numpy as np

from ops import ENTRIES, EXTRA
from program import Builder, ref

TAGS = (("smooth", 0.58), ("kink", 0.12), ("tie", 0.08), ("zero", 0.08),
        ("nonfinite", 0.07), ("error", 0.07))
ALL_ENTRIES = {**ENTRIES, **EXTRA}
MAX_JACOBIAN_CELLS = 256


def _bad_step(b):
    """A step with operands TensorFlow refuses; the program's answer is the error's class."""
    x = b.operand(min_rank=1)
    shape = b.shapes[x]
    kind = int(b.rng.integers(0, 6))
    if kind == 0:       # shapes that do not broadcast
        y = b.fresh((shape[-1] + 1,))
        return b.step("add", [ref(x), ref(y)])
    if kind == 1:       # inner dimensions of a product differ
        y = b.fresh((shape[-1] + 1, 2))
        return b.step("matmul", [ref(x), ref(y)])
    if kind == 2:       # an axis past the rank
        return b.step("reduce_sum", [ref(x)], {"axis": len(shape) + 1})
    if kind == 3:       # a new shape of another size
        return b.step("reshape", [ref(x), [int(np.prod(shape)) + 1]])
    if kind == 4:       # float32 with float64
        other = "float64" if b.dtype == "float32" else "float32"
        y = b.fresh(shape, dtype=other)
        return b.step("multiply", [ref(x), ref(y)])
    return b.step("gather", [ref(x), [shape[0] + 2]], {"axis": 0})   # index out of range


def _checks(b, out):
    checks = ["value", "grad", "grad2"]
    size = int(np.prod(b.shapes[out])) if b.shapes[out] else 1
    watched = [i for i in b.inputs if i["watch"]]
    if watched and all(size * max(1, int(np.prod(i["shape"]))) <= MAX_JACOBIAN_CELLS
                       for i in watched):
        checks.append("jacobian")
        lead = b.shapes[out][:1]
        if lead and any(i["shape"][:1] == list(lead) for i in watched):
            checks.append("batch_jacobian")
    return checks


def one_program(seed, index, names=None):
    """Program number `index` of the stream `seed`; its first op cycles through every entry,
    so each op is covered once per len(ALL_ENTRIES) programs."""
    rng = np.random.default_rng([seed, index])
    names = names or sorted(ALL_ENTRIES)
    r, tag = rng.random(), "smooth"
    for tag, p in TAGS:
        if r < p:
            break
        r -= p
    dtype = "float32" if rng.random() < 0.6 else "float64"
    b = Builder(rng, dtype, tag)
    ops = [names[index % len(names)]] + [names[int(k)] for k in
                                         rng.integers(0, len(names), size=rng.integers(0, 4))]
    out = None
    for name in ops:
        out = ALL_ENTRIES[name](b)
    if tag == "error":
        out = _bad_step(b)
    if not any(i["watch"] for i in b.inputs):
        b.inputs[0]["watch"] = True
    if b.dtypes[out] not in ("float32", "float64"):
        out = b.step("cast", [ref(out), dtype], shape=b.shapes[out])
    program = {"id": f"{tag}-{seed}-{index}", "tag": tag, "dtype": dtype, "ops": ops,
               "inputs": b.inputs, "steps": b.steps}
    program["checks"] = ["value"] if tag == "error" else _checks(b, out)
    return program


def generate(count, seed=0):
    return [one_program(seed, i) for i in range(count)]
