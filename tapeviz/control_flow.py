"""TensorFlow's control flow as it runs eagerly: `tf.cond`, `tf.while_loop`, `tf.map_fn`,
`tf.control_dependencies`, `tf.group`, `tf.no_op`, `tf.executing_eagerly`.

Eager TensorFlow runs these as plain Python: `cond` calls one branch, `while_loop` loops
while `cond(*loop_vars)` is true, `map_fn` calls `fn` once per row and stacks the results.
tapeviz does the same, so every op inside is recorded on the tapes as it runs and gradients
flow through the branch or iterations taken, as they do in TensorFlow's eager mode. Inside
`@tf.function` tapeviz keeps running eagerly (as under `tf.config.run_functions_eagerly(True)`),
so `executing_eagerly()` is True there too.
"""
from __future__ import annotations

import contextlib
import logging

import numpy as np

from . import nest
from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError
from .engine.tensor import Variable

__all__ = ["cond", "control_dependencies", "executing_eagerly", "get_logger", "group",
           "map_fn", "no_op", "while_loop"]


def executing_eagerly() -> bool:
    """Always True: tapeviz runs everything eagerly, `@tf.function` bodies included."""
    return True


def control_dependencies(control_inputs):
    """Eager TensorFlow runs ops in program order, so this is an empty context; callables
    among `control_inputs` are called, as TensorFlow calls them."""
    for control in control_inputs or ():
        if callable(control):
            control()
    return contextlib.nullcontext()


def group(*inputs, **kwargs):
    """Eager TensorFlow's `tf.group`: the inputs have already run; returns None."""
    return None


def no_op(name=None):
    """Eager TensorFlow's `tf.no_op`: returns None."""
    return None


def get_logger():
    """TensorFlow's logger (Python's logger named "tensorflow", at WARNING unless set)."""
    logger = logging.getLogger("tensorflow")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.WARNING)
    return logger


def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` else `false_fn()` (only the branch taken runs)."""
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    value = np.asarray(convert_to_tensor(pred)._value)
    return true_fn() if bool(value) else false_fn()


def _as_tensor(x):
    if isinstance(x, Variable):
        return convert_to_tensor(x)
    return x


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeat `loop_vars = body(*loop_vars)` while `cond(*loop_vars)`; the result has the
    structure of `loop_vars` (TensorFlow 2's `return_same_structure`), every leaf a tensor."""
    from .tensor_array import TensorArray
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = nest.map_structure(_as_tensor, loop_vars)
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    if maximum_iterations is not None:
        limit = convert_to_tensor(maximum_iterations)
        if limit._value.ndim != 0:
            raise ValueError("'maximum_iterations' must be a scalar. Received shape: "
                             f"{tuple(limit.shape)}")
        limit = int(limit._value)
        inner_cond, inner_body = cond, body
        loop_vars = (0, loop_vars)
        cond = lambda i, lv: i < limit and bool(inner_cond(*lv))   # noqa: E731
        body = lambda i, lv: (i + 1, inner_body(*lv))   # noqa: E731
    structure = list(loop_vars)
    while cond(*loop_vars):
        loop_vars = body(*loop_vars)
        nest.assert_same_structure(structure, list(loop_vars))
    loop_vars = nest.map_structure(
        lambda x: x if isinstance(x, TensorArray) else convert_to_tensor(x), loop_vars)
    return loop_vars[1] if maximum_iterations is not None else loop_vars


def _signature_dtypes(signature, elems):
    """The structure and dtypes `fn`'s results must have: `fn_output_signature`, else elems'."""
    from .engine.dtypes import DType, as_dtype
    if signature is None:
        return elems, [t.dtype for t in nest.flatten(elems)]
    leaves = [s if isinstance(s, DType) else (s.dtype if hasattr(s, "dtype") else as_dtype(s))
              for s in nest.flatten(signature)]
    return signature, [as_dtype(d) for d in leaves]


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """`fn` applied to each row (axis 0) of `elems`, results stacked along a new axis 0."""
    from .engine.ops import stack, zeros
    if not callable(fn):
        raise TypeError(f"fn must be callable. Received: {fn}")
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat or any(t._value.ndim == 0 for t in flat):
        raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    n = flat[0]._value.shape[0]
    for t in flat[1:]:
        if t._value.shape[0] != n:
            raise ValueError(f"Dimensions {n} and {t._value.shape[0]} are not compatible")
    elems = nest.pack_sequence_as(elems, flat)
    structure, dtypes = _signature_dtypes(
        fn_output_signature if fn_output_signature is not None else dtype, elems)
    rows = []
    for i in range(n):
        out = fn(nest.pack_sequence_as(elems, [t[i] for t in flat]))
        nest.assert_same_structure(structure, out, check_types=False)
        leaves = [convert_to_tensor(x) for x in nest.flatten(out)]
        for leaf, want in zip(leaves, dtypes):
            if leaf.dtype != want:
                raise InvalidArgumentError(
                    f"TensorArray dtype is {want.name} but Op is trying to write dtype "
                    f"{leaf.dtype.name}. Fix: pass fn_output_signature={leaf.dtype!r} when fn "
                    "returns another dtype than elems have")
        if rows and [x.shape for x in leaves] != [x.shape for x in rows[0]]:
            got, first = [tuple(x.shape) for x in leaves], [tuple(x.shape) for x in rows[0]]
            raise ValueError(f"Incompatible shape for value ({got}), expected ({first}): "
                             "map_fn stacks fn's results, so every call must return one shape")
        rows.append(leaves)
    if not rows:
        return nest.pack_sequence_as(structure, [zeros([0], d) for d in dtypes])
    stacked = [stack([row[j] for row in rows]) for j in range(len(dtypes))]
    return nest.pack_sequence_as(structure, stacked)

