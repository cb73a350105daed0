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

__all__ = ["case", "cond", "control_dependencies", "ensure_shape", "executing_eagerly",
           "foldl", "foldr", "get_logger", "gradients", "group", "identity_n", "init_scope",
           "map_fn", "no_op", "scan", "switch_case", "vectorized_map", "while_loop"]


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


def init_scope():
    """Eager TensorFlow's `tf.init_scope`: an empty context (everything is already eager)."""
    return contextlib.nullcontext()


def gradients(ys, xs, *args, **kwargs):
    """Graph-mode only in TensorFlow 2: eager TensorFlow refuses it, and so does tapeviz."""
    raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use "
                       "tf.GradientTape instead.")


def identity_n(input, name=None):
    """Each input as a tensor (TensorFlow's IdentityN: a list of identities)."""
    from .engine.ops import identity
    return [identity(convert_to_tensor(x)) for x in input]


def ensure_shape(x, shape, name=None):
    """`x` if its shape fits `shape` (None: any size), else InvalidArgumentError."""
    from .engine.ops import identity
    t = convert_to_tensor(x)
    if shape is not None:
        want = [None if d is None or d == -1 else int(d) for d in shape]
        got = list(t._value.shape)
        if len(want) != len(got) or any(w is not None and w != g for w, g in zip(want, got)):
            shown = ",".join("?" if w is None else str(w) for w in want)
            raise InvalidArgumentError(
                f"Shape of tensor input [{','.join(map(str, got))}] is not compatible with "
                f"expected shape [{shown}]. [Op:EnsureShape]", "EnsureShape")
    return identity(t)


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



def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The function paired with the first true predicate, else `default()`; without a
    default, TensorFlow's InvalidArgumentError listing the predicates."""
    from .debugging import Assert
    from .engine.tensor import _Operand
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. "
                        f"Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, dict):
        if not exclusive:
            raise ValueError("Unordered dictionaries are not supported for the 'pred_fn_pairs' "
                             "argument when `exclusive=False` and eager mode is enabled.")
        pred_fn_pairs = list(pred_fn_pairs.items())
    pairs = list(pred_fn_pairs)
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if not isinstance(pred, _Operand):
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if convert_to_tensor(pred).dtype.name != "bool":
            raise TypeError(f"pred must be Tensor of type bool: {pred!r}")
        if not callable(fn):
            raise TypeError(f"fn for pred {pred!r} must be callable.")
    for pred, fn in pairs:
        if bool(np.asarray(convert_to_tensor(pred)._value)):
            return fn()
    if default is not None:
        return default()
    from .engine.ops import stack
    Assert(False, ["Input error: None of conditions evaluated as True:",
                   stack([convert_to_tensor(p) for p, _ in pairs])])


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`branch_fns[branch_index]()`; an index out of range runs `default`, or the last branch
    when there is none (TensorFlow's eager switch_case, checks included)."""
    from .engine.tensor import _Operand
    if not isinstance(branch_index, _Operand):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    index = convert_to_tensor(branch_index)
    if not index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {index.dtype!r}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(fn) for fn in pairs):
        pairs = list(enumerate(pairs))
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        if not isinstance(pair[0], int):
            raise TypeError(f"key must be a Python `int`, got {type(pair[0])}")
        if not callable(pair[1]):
            raise TypeError(f"fn for key {pair[0]} must be callable.")
    keys = [k for k, _ in pairs]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to "
                         f"{len(keys)}) but found {{{','.join(map(str, sorted(keys)))}}}")
    actions = [fn for _, fn in sorted(pairs, key=lambda p: p[0])]
    if default is not None:
        actions.append(default)
    i = int(index._value)
    return actions[i if 0 <= i < len(actions) else len(actions) - 1]()


def _rows(elems):
    """elems flattened to tensors, and a function giving the structure of row i."""
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    return flat, lambda i: nest.pack_sequence_as(elems, [t[i] for t in flat])


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`fn` on each row of `elems`, results stacked (eagerly, row by row: the values of
    TensorFlow's vectorized version; each output keeps the dtype fn gives it)."""
    from .engine.ops import stack
    flat, row = _rows(elems)
    if not flat or any(t._value.ndim == 0 for t in flat):
        raise IndexError("list index out of range")
    outs = [fn(row(i)) for i in range(flat[0]._value.shape[0])]
    leaves = [[convert_to_tensor(x) for x in nest.flatten(o)] for o in outs]
    return nest.pack_sequence_as(outs[0], [stack(list(col)) for col in zip(*leaves)])


def _empty(flat):
    from .engine.errors import OutOfRangeError
    if not flat or flat[0]._value.shape[0] == 0:
        raise OutOfRangeError("Tried to read from index 0 but array size is: 0 "
                              "(scan and fold without an initializer need a first element)")


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """`a = fn(a, row)` over the rows of `elems` (from the end if `reverse`); every `a`,
    stacked. Without `initializer` the first row starts `a` and is the first output."""
    from .engine.ops import stack
    flat, row = _rows(elems)
    n = flat[0]._value.shape[0] if flat else 0
    order = list(range(n))[::-1] if reverse else list(range(n))
    if initializer is None:
        _empty(flat)
        acc, order = row(order[0]), order[1:]
        outs = [acc]
    else:   # (converted first, as TensorFlow: a Python number becomes a tensor of its own)
        acc, outs = nest.map_structure(convert_to_tensor, initializer), []
    for i in order:
        acc = fn(acc, row(i))
        outs.append(acc)
    if reverse:
        outs = outs[::-1]
    leaves = [[convert_to_tensor(x) for x in nest.flatten(o)] for o in outs]
    return nest.pack_sequence_as(outs[0], [stack(list(col)) for col in zip(*leaves)])


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """`a = fn(a, row)` over the rows of `elems`; the last `a`."""
    flat, row = _rows(elems)
    order = list(range(flat[0]._value.shape[0] if flat else 0))
    return _fold(fn, flat, row, order, initializer)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """`foldl` from the last row to the first."""
    flat, row = _rows(elems)
    order = list(range(flat[0]._value.shape[0] if flat else 0))[::-1]
    return _fold(fn, flat, row, order, initializer)


def _fold(fn, flat, row, order, initializer):
    if initializer is None:
        _empty(flat)
        acc, order = row(order[0]), order[1:]
    else:
        acc = nest.map_structure(convert_to_tensor, initializer)
    for i in order:
        acc = fn(acc, row(i))
    return nest.map_structure(convert_to_tensor, acc)
