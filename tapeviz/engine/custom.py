"""`@custom_gradient`: a function that supplies its own gradient."""
from __future__ import annotations

import functools

from . import nest
from . import op as _op
from .threadstate import tapes


def custom_gradient(f):
    """Decorate `f(*x) -> (y, grad_fn)`, as TensorFlow's eager `tf.custom_gradient`:

    * every positional argument (nested lists flattened) is an input, tensor or not: `grad_fn`
      returns one gradient per input, `None` for a Python number such as a clipping norm;
      keyword arguments are passed to `f` and get no gradient;
    * `grad_fn` takes one upstream gradient per output of `f` (outputs flattened);
    * trainable variables `f` reads that are not arguments receive gradients through
      `grad_fn(*upstream, variables=[...])`, which returns `(input_grads, variable_grads)`.

    On a method, `self` is bound, not an input (as TensorFlow's decorator binds it)."""
    return _WithCustomGradient(f)


class _WithCustomGradient:
    """The decorated function; as a class attribute it binds like a method."""

    def __init__(self, f):
        self._f = f
        functools.update_wrapper(self, f)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return _WithCustomGradient(self._f.__get__(instance, owner))

    def __call__(self, *args, **kwargs):
        return _call(self._f, args, kwargs)


def _call(f, args, kwargs):
    state = _op.here()
    recording = list(state.recording)
    # run f without recording: its inside is replaced by grad_fn
    state.recording.clear()
    accessed = _VariableReads(state)
    try:
        with accessed:
            result = f(*args, **kwargs)     # f sees its arguments as they were passed
    finally:
        state.recording[:] = recording
    name = getattr(f, "__name__", "f")
    if not (isinstance(result, (tuple, list)) and len(result) == 2 and callable(result[1])):
        raise TypeError(f"custom_gradient: {name} must return a tuple "
                        f"(y, grad_fn), got {type(result).__name__}. Fix: end the function "
                        "with `return y, grad` where grad(upstream) returns the gradients")
    y, grad_fn = result
    flat_args = nest.flatten(args)
    given = flat_args + nest.flatten(kwargs)
    # (identity, not `in`: a variable's == is elementwise)
    variables = [v for v in accessed.variables if not any(v is a for a in given)]
    if variables and not _takes_variables(grad_fn):
        raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}. Fix: "
                        f"define `def grad(upstream, variables=None)` in {name} and return "
                        "(input_gradients, [one gradient per variable])")
    inputs = [_as_input(a, i, name) for i, a in enumerate(flat_args)]
    from .ops._base import tensor as as_tensor
    flat_y = [as_tensor(v) for v in nest.flatten(y)]
    op = _make_op(f, grad_fn, len(inputs), variables, flat_y)
    outs = _op.apply(op, tuple(inputs) + tuple(_op_read(v) for v in variables))
    outs = outs if isinstance(outs, tuple) else (outs,)
    node = outs[0]._node
    if node is not None and node.tapes:   # their backward runs grad_fn: the user's code
        for tape in tapes(state.recording):
            if tape._id in node.tapes:
                tape._user_vjps = True
    return nest.pack_sequence_as(y, list(outs))


def _as_input(arg, index, name):
    """A positional argument as the tensor the op records (a Variable gives a read)."""
    from .ops._base import tensor
    try:
        return tensor(arg)
    except (TypeError, ValueError):
        raise ValueError(
            f"Attempt to convert a value ({arg!r}) with an unsupported type "
            f"({type(arg)}) to a Tensor: custom_gradient function {name} takes it as "
            f"positional argument {index}, and every positional argument is an input that "
            "grad_fn returns a gradient for. Fix: pass it as a keyword argument "
            f"({name}(x, fn=...)), or let {name} close over it") from None


def _takes_variables(grad_fn) -> bool:
    import inspect
    try:
        spec = inspect.getfullargspec(grad_fn)
    except TypeError:       # (a builtin: nothing to inspect)
        return False
    return "variables" in spec.args or "variables" in spec.kwonlyargs or bool(spec.varkw)


class _VariableReads:
    """Collects the trainable variables this thread reads inside `f` (they may receive
    gradients via `variables=`): `tensor.watch_on_read` adds them to `variable_reads`."""

    def __init__(self, state):
        self.state = state
        self.variables = []

    def __enter__(self):
        self._outer = self.state.variable_reads
        self.state.variable_reads = self.variables
        return self

    def __exit__(self, *exc):
        self.state.variable_reads = self._outer
        if self._outer is not None:   # a nested function's reads are the outer one's too
            self._outer.extend(v for v in self.variables
                               if not any(v is o for o in self._outer))


def _op_read(var):
    from .tensor import _read_variable
    return _read_variable(var)


def _make_op(f, grad_fn, n_inputs, variables, flat_y):
    values = [t._value for t in flat_y]
    n_out = len(values)

    def forward(*arrays):
        return values[0] if n_out == 1 else tuple(values)

    def vjp_for(i):
        def vjp(g, y, *inputs):
            return _call_grad(grad_fn, g, n_inputs, variables, inputs)[i]
        return vjp

    name = f"CustomGradient/{getattr(f, '__name__', 'f')}"
    op = _op.Op(name, forward, [vjp_for(i) for i in range(n_inputs + len(variables))],
                f"y = {getattr(f, '__name__', 'f')}(x) with a custom gradient",
                ["∂x = grad_fn(g)"] * (n_inputs + len(variables)), n_out=n_out,
                batchable=False)
    return op


def _call_grad(grad_fn, g, n_inputs, variables, inputs):
    """Call grad_fn once per backward step and cache its answer for every input's VJP."""
    state = _op.here()    # (per thread: another thread's backward pass calls its own grad_fn)
    cache = state.grad_cache
    if cache is not None and cache[0] is g:
        return cache[1]
    upstream = g if isinstance(g, tuple) else (g,)     # one per output
    if variables:
        input_grads, var_grads = grad_fn(*upstream, variables=list(variables))
        var_grads = list(var_grads)
        if len(var_grads) != len(variables):
            raise ValueError(f"Must return gradient for each variable from @custom_gradient "
                             f"grad_fn: {_fn_name(grad_fn)} returned {len(var_grads)} variable "
                             f"gradients for {len(variables)} variables. Fix: return "
                             "(input_gradients, [one gradient per variable])")
    else:
        input_grads = grad_fn(*upstream)
        var_grads = []
    input_grads = nest.flatten(input_grads)
    if len(input_grads) != n_inputs:
        raise ValueError(f"custom_gradient function expected to return {n_inputs} gradients, "
                         f"but returned {len(input_grads)} instead: {_fn_name(grad_fn)} returns "
                         "one gradient per positional argument of the function, tensor or not. "
                         "Fix: return one gradient per argument (None for an argument without "
                         "a gradient, such as a Python number)")
    from .ops._base import tensor
    result = [None if v is None else tensor(v) for v in input_grads + var_grads]
    for r, x in zip(result, inputs):
        if r is not None and _broadcast(r._value.shape, x._value.shape) != x._value.shape:
            from .errors import InvalidArgumentError
            raise InvalidArgumentError(
                f"custom_gradient: {_fn_name(grad_fn)} returned a "
                f"gradient of shape {tuple(r._value.shape)} for an input of shape "
                f"{tuple(x._value.shape)}. Fix: return one gradient per input, shaped like "
                "that input", "custom_gradient")
    state.grad_cache = (g, result)
    return result


def _fn_name(fn) -> str:
    return getattr(fn, "__qualname__", "grad_fn")


def _broadcast(a, b):
    import numpy as np
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def grad_pass_through(f):
    """`f` whose gradient is the identity: the upstream gradient passes to its inputs as if
    `f` were not there (a straight-through `round`, an `assign` in a training graph);
    variables `f` reads get no gradient."""

    @custom_gradient
    def passed_through(*args, **kwargs):
        def grad(*upstream, variables=None):
            if variables:
                return upstream, [None] * len(variables)
            return upstream
        return f(*args, **kwargs), grad

    return functools.wraps(f)(passed_through) if callable(f) else passed_through


def recompute_grad(f):
    """`f` that keeps nothing on the tape but its inputs and outputs; its backward pass runs
    `f` again under a tape of its own (gradient checkpointing: memory traded for compute).
    Gradients equal those of `f` itself, for its float arguments and the trainable
    variables it reads."""

    @custom_gradient
    def recomputed(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad(*upstream, variables=None):
            from .ops import identity
            from .tape import GradientTape
            # (as TensorFlow, a copy of each argument: f(x, x) has two inputs to tell apart)
            inputs = [identity(a) for a in nest.flatten(args)]
            floats = [t for t in inputs if t._value.dtype.kind == "f"]
            variables = list(variables or [])
            with GradientTape() as tape:
                tape.watch(floats + variables)
                out = f(*nest.pack_sequence_as(args, inputs), **kwargs)
            grads = tape.gradient(nest.flatten(out), floats + variables,
                                  output_gradients=list(upstream),
                                  unconnected_gradients="zero")   # (as TensorFlow's)
            by_input = iter(grads[:len(floats)])
            input_grads = [next(by_input) if t._value.dtype.kind == "f" else None
                           for t in inputs]
            return (input_grads, grads[len(floats):]) if variables else input_grads

        return result, grad

    return functools.wraps(f)(recomputed)
