"""One compiled `fit`/`evaluate` step, run as TensorFlow runs it: in a traced function.

Keras runs `train_step` and `test_step` inside a `tf.function` unless the model was compiled
with `run_eagerly=True` (or `tf.config.run_functions_eagerly(True)` is set). tapeviz runs them
eagerly, so that each step's tape is recorded, and imitates what the graph changes: Nadam's
trace-time counter (optimizers_nadam.py) and the logits Keras's crossentropies read from any
softmax or sigmoid output (cached_logits.py).
"""
from __future__ import annotations

from .. import config as _config
from ..engine.threadstate import traced


def run_step(model, step, data, entry=None):
    """`step(data)` for `model`; `entry` (`"fit"` or `"train_on_batch"`) names the traced
    training function a `train_step` runs in (one per `compile`)."""
    graph = not getattr(model, "_run_eagerly", None) and not _config.functions_run_eagerly()
    token = getattr(model, "_compile_token", None)
    with traced((lambda: (token, entry)) if graph else None):
        return step(data)
