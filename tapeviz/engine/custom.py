"""`@custom_gradient`: a function that supplies its own gradient."""
from __future__ import annotations

import functools

from . import nest
from . import op as _op
from .tensor import Tensor, _Operand
from .threadstate import tapes


def custom_gradient(f):
    """Decorate `f(*x) -> (y, grad_fn)`; `grad_fn(upstream)` returns one gradient per input,
    or `(input_grads, variable_grads)` when it accepts `variables=`."""

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        from .ops._base import tensor
        inputs = [tensor(a) if isinstance(a, _Operand) else a for a in args]
        state = _op.here()
        recording = list(state.recording)
        # run f without recording: its inside is replaced by grad_fn
        state.recording.clear()
        accessed = _VariableReads(state)
        try:
            with accessed:
                result = f(*inputs, **kwargs)
        finally:
            state.recording[:] = recording
        if not (isinstance(result, (tuple, list)) and len(result) == 2 and callable(result[1])):
            raise TypeError(f"custom_gradient: {getattr(f, '__name__', 'f')} must return a tuple "
                            f"(y, grad_fn), got {type(result).__name__}. Fix: end the function "
                            "with `return y, grad` where grad(upstream) returns the gradients")
        y, grad_fn = result
        tensors = [t for t in inputs if isinstance(t, Tensor)]
        variables = accessed.variables
        from .ops._base import tensor as as_tensor
        flat_y = [as_tensor(v) for v in nest.flatten(y)]
        op = _make_op(f, grad_fn, len(tensors), variables, flat_y)
        outs = _op.apply(op, tuple(tensors) + tuple(_op_read(v) for v in variables))
        outs = outs if isinstance(outs, tuple) else (outs,)
        node = outs[0]._node
        if node is not None and node.tapes:   # their backward runs grad_fn: the user's code
            for tape in tapes(state.recording):
                if tape._id in node.tapes:
                    tape._user_vjps = True
        return nest.pack_sequence_as(y, list(outs))
    return wrapper


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
            self._outer.extend(v for v in self.variables if v not in self._outer)


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
    upstream = list(g) if isinstance(g, tuple) else g
    if variables:
        out = grad_fn(upstream, variables=list(variables))
        input_grads, var_grads = out
        input_grads = list(input_grads) if isinstance(input_grads, (list, tuple)) else [input_grads]
        var_grads = list(var_grads)
        if len(var_grads) != len(variables):
            raise ValueError(f"custom_gradient: grad_fn returned {len(var_grads)} variable "
                             f"gradients for {len(variables)} variables")
    else:
        out = grad_fn(upstream)
        input_grads = list(out) if isinstance(out, (list, tuple)) else [out]
        var_grads = []
    if len(input_grads) != n_inputs:
        raise ValueError(f"custom_gradient: grad_fn returned {len(input_grads)} gradients but "
                         f"the function has {n_inputs} tensor inputs. Fix: return one gradient "
                         "per input (None for an input without a gradient)")
    from .ops._base import tensor
    result = [None if v is None else tensor(v) for v in input_grads + var_grads]
    for r, x in zip(result, inputs):
        if r is not None and _broadcast(r._value.shape, x._value.shape) != x._value.shape:
            from .errors import InvalidArgumentError
            raise InvalidArgumentError(
                f"custom_gradient: {getattr(grad_fn, '__qualname__', 'grad_fn')} returned a "
                f"gradient of shape {tuple(r._value.shape)} for an input of shape "
                f"{tuple(x._value.shape)}. Fix: return one gradient per input, shaped like "
                "that input", "custom_gradient")
    state.grad_cache = (g, result)
    return result


def _broadcast(a, b):
    import numpy as np
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None
