"""`tv.numpy_function` and `tv.py_function`: a Python function as an op, as eager TensorFlow
runs them.

`numpy_function` gives the function NumPy copies of its inputs and makes constants of what it
returns (converted as `tv.convert_to_tensor` would, whatever `Tout` says: eager TensorFlow
does not cast them either), so nothing is differentiated through it: gradients are None.
`py_function` gives the function tensors and runs it as one op whose gradient, as
TensorFlow's, goes to its inputs only (not to variables it reads: they get None); its outputs
are checked against `Tout`, and an exception inside it becomes TensorFlow's
`InvalidArgumentError`. Both work as decorators, `@tv.numpy_function(Tout=...)`.
"""
from __future__ import annotations

import functools

import numpy as np

from . import nest
from .engine import dtypes as _dt
from .engine.convert import constant, convert_to_tensor
from .engine.custom import custom_gradient
from .engine.tape import GradientTape
from .engine.errors import InvalidArgumentError


def _decorator_or_none(script_op, op_name, func, inp, Tout, **kwargs):
    """TensorFlow's argument checks; a decorator when ``func`` is None."""
    if Tout is None:
        raise TypeError(f"Missing required argument: 'Tout'. Fix: if using {op_name} as a "
                        f"decorator, set `Tout` by name above the function: "
                        f"`@{op_name}(Tout=tout)`")
    if func is None:
        if inp is not None:
            raise TypeError(f"Don't set the `inp` argument when using {op_name} as a "
                            "decorator (`func=None`).")

        def decorator(fun):
            @functools.wraps(fun)
            def wrapper(*args):
                return script_op(fun, inp=args, Tout=Tout, **kwargs)
            return wrapper
        return decorator
    if inp is None:
        raise TypeError(f"{op_name}: missing argument `inp`. Fix: pass the list of the "
                        f"function's arguments, e.g. {op_name}(f, [x, y], Tout=tf.float32), "
                        "unless you use it as a decorator (func=None)")
    return None


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """Calls ``func`` on NumPy copies of ``inp``; its results as constant tensors (one tensor
    for one result, else a list; None stays None). No gradient flows through it."""
    decorator = _decorator_or_none(numpy_function, "tf.numpy_function", func, inp, Tout,
                                   stateful=stateful, name=name)
    if decorator is not None:
        return decorator
    result = func(*[np.array(x) for x in inp])
    result = [x if x is None else convert_to_tensor(x) for x in nest.flatten(result)]
    return result[0] if len(result) == 1 else result


def py_function(func=None, inp=None, Tout=None, name=None):
    """Calls ``func`` on ``inp`` as tensors, on the tape (gradients flow through its ops); its
    results as tensors of the dtypes ``Tout`` names (a list for a list of dtypes)."""
    decorator = _decorator_or_none(py_function, "tf.py_function", func, inp, Tout, name=name)
    if decorator is not None:
        return decorator
    as_list = isinstance(Tout, (list, tuple))
    dtypes = [_dt.as_dtype(t) for t in (Tout if as_list else [Tout])]
    args = [convert_to_tensor(x) for x in inp]
    try:
        outputs = _py_function_op(func, dtypes, args)
    except Exception as exc:  # noqa: BLE001  (TensorFlow reports any error of func this way)
        raise InvalidArgumentError(
            f"EagerPyFunc: {getattr(func, '__name__', 'the function')} raised "
            f"{type(exc).__name__}: {exc}. Fix: the function must run on tensors of the "
            f"dtypes and shapes given and return values of the dtypes Tout names "
            f"({[d.name for d in dtypes]}) [Op:EagerPyFunc]", "EagerPyFunc") from exc
    if outputs is None:
        return None
    return outputs if as_list else outputs[0]


def _py_function_op(func, dtypes, args):
    """``func`` on ``args`` under a tape of its own, as one custom-gradient op whose gradient
    is that tape's, to the arguments only."""
    state = {}

    @custom_gradient
    def op(*xs):
        with GradientTape(persistent=True, watch_accessed_variables=False) as inner:
            inner.watch([x for x in xs if x.dtype.is_floating])
            ret = func(*xs)
            if ret is None:
                state["none"] = True
                return constant(0.0), lambda *_, variables=None: _no_gradients(xs, variables)
            ret = list(ret) if isinstance(ret, (list, tuple)) else [ret]
            outs = [convert_to_tensor(x, dtype=d) for x, d in zip(ret, dtypes)]

        def grad(*upstream, variables=None):
            grads = inner.gradient(outs, list(xs), output_gradients=list(upstream))
            return (grads, [None] * len(variables)) if variables else grads
        return outs, grad

    result = op(*args)
    return None if state else list(result)


def _no_gradients(xs, variables):
    grads = [None] * len(xs)
    return (grads, [None] * len(variables)) if variables else grads
