"""The autodiff engine: tensors, ops, tapes, backprop. Imports only NumPy.

Its modules, in the order they are loaded (each imports only those above it):

- threadstate, call_site, dtypes, errors: what belongs to a thread, the user's source line, the
  dtypes, TensorFlow's error classes
- node: lineage (`Node`), which op made a value, from what, where
- tensor: `Tensor`, `Variable`, `TensorShape`; their operators call the op functions
- convert, refs, emit: values to tensors, tensors in events, op events
- op: `Op`, `defop`, `apply` (compute, remember, record, tell)
- assign: `Variable.assign` and friends
- ops: the op functions, one module a family
- slice_assign: `v[0, 0].assign(x)`, a slice of a variable written into it
- backprop, stop_recording, tape: the backward pass, a paused tape, `GradientTape` (its
  explanations are in `tapeviz.explain`)

`Tensor`'s methods reach the modules above them through this package (`engine.ops.add`),
at call time; importing them here makes sure they are loaded.
"""
from . import tensor, convert, refs, emit, op, assign, ops, slice_assign  # noqa: F401,E401
