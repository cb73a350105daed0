"""`model.compile(steps_per_execution=N)` as tf-keras runs it: N batches per execution, the
same training (each batch is still its own step), and the batch hooks once per execution:
`on_*_batch_begin` with the execution's first step, `on_*_batch_end` with its last step and
the logs after it (predict: the execution's outputs joined). A last execution may be
shorter. `"auto"` (tf-keras then tunes N as it trains) starts at, and here stays at, 1.
"""
from __future__ import annotations

import itertools


from ..engine import dtypes as dt
from ..engine import nest
from ..engine.tensor import Variable


def configure(model, steps_per_execution):
    """The model's `steps_per_execution` variable (int64; None, 0 and "auto" are 1); not one
    of its weights, as in tf-keras."""
    auto = isinstance(steps_per_execution, str) and steps_per_execution == "auto"
    value = 1 if auto else (steps_per_execution or 1)
    object.__setattr__(model, "_steps_per_execution", Variable(value, dtype=dt.int64))


def per_execution(model, batches) -> int:
    """How many batches one execution runs; refuses data of unknown size, as tf-keras."""
    var = getattr(model, "_steps_per_execution", None)
    n = max(int(var.numpy()), 1) if var is not None else 1
    if n > 1 and batches.steps is None:
        raise ValueError("Could not infer the size of the data. With `steps_per_execution > "
                         "1`, you must specify the number of steps to run. Fix: pass "
                         "steps_per_epoch= (or steps=), or compile with steps_per_execution=1")
    return n


def executions(numbered, n):
    """(step, batch) pairs in lists of up to `n`, one list per execution."""
    numbered = iter(numbered)
    while True:
        group = list(itertools.islice(numbered, n))
        if not group:
            return
        yield group


def joined_outputs(outputs):
    """One execution's predictions: its batches' outputs joined along the batch axis."""
    if len(outputs) == 1:
        return outputs[0]
    from ..engine.ops import concat
    flat = [nest.flatten(o) for o in outputs]
    return nest.pack_sequence_as(outputs[0], [concat([f[i] for f in flat], 0)
                                              for i in range(len(flat[0]))])


__all__ = ["configure", "executions", "joined_outputs", "per_execution"]
