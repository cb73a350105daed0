"""Keras's cached logits: a crossentropy of a softmax or a sigmoid is computed from the logits.

Keras's `softmax` and `sigmoid` activations (by name in a layer, `keras.activations`,
`keras.backend`, the `Softmax` layer) keep their input on their output as `_keras_logits`,
and `categorical_crossentropy`, `sparse_categorical_crossentropy` and `binary_crossentropy`
given such an output use those logits as if `from_logits=True`: no clipping of the
probabilities to [1e-7, 1 - 1e-7], so a saturated softmax gives a loss of thousands (not at
most 16.1) and a gradient that does not vanish. Any op on the output (a squeeze, a cast, a
slice) gives a tensor without them, as in TensorFlow.

In code TensorFlow runs as a graph (`fit`/`evaluate` steps unless `run_eagerly`, a
`tf.function`, unless `tf.config.run_functions_eagerly(True)`) Keras does the same for the
output of any Softmax (over the last axis) or Sigmoid op, `tf.nn.softmax` and `tf.sigmoid`
included: there it checks `output.op.type`, which only graph tensors have. tapeviz runs those
eagerly and marks them (`engine.threadstate.traced`, step_function.py); the ops then keep
their input.
"""
from __future__ import annotations

import warnings

from ..explain.notes import softmax_as_logits


def keep_logits(output, logits):
    """`output` (a softmax's or sigmoid's result) remembering the `logits` it came from."""
    output._keras_logits = logits
    return output


def logits_of(output, from_logits, op_name, fn_name):
    """`(output, from_logits)` as the crossentropy `fn_name` computes from: the logits behind
    a Keras `op_name` ("Softmax" or "Sigmoid") output, else `output` itself."""
    logits = getattr(output, "_keras_logits", None)
    if logits is None:
        return output, from_logits
    if from_logits:
        softmax_as_logits(fn_name, op_name)
        warnings.warn(f'"`{fn_name}` received `from_logits=True`, but the `output` argument was '
                      f"produced by a {op_name} activation and thus does not represent logits. "
                      "Was this intended?", stacklevel=3)
    return logits, True

