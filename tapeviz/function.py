"""`tv.function`: TensorFlow's `@tf.function`, run as TensorFlow runs it under
`tf.config.run_functions_eagerly(True)`: the decorated Python function runs eagerly on every
call, so its ops are recorded, explained and shown like any other code.

Inside, Keras's crossentropies read the logits of any softmax's or sigmoid's output, as in
TensorFlow's graph (keras/cached_logits.py), and what a trace fixes in tf-keras's Nadam is
imitated: while a function runs, `engine.threadstate.current_trace()` names the trace
TensorFlow would run (the function and its arguments' signature), and
keras/optimizers_nadam.py updates as that trace would. What is not imitated: there is no tracing, so a Python side effect (a `print`,
appending to a list) runs on every call rather than once per trace, and `input_signature` is
checked for the number of arguments only.
"""
from __future__ import annotations

import functools
import inspect

from . import config as _config
from .engine import nest
from .engine.threadstate import traced

def _retrace_key(value):
    """What TensorFlow retraces on: a tensor's or array's shape and dtype, a number's or
    string's value, a structure's parts, any other object's identity."""
    if isinstance(value, (list, tuple)):
        return tuple(_retrace_key(v) for v in value)
    if isinstance(value, dict):
        return tuple((k, _retrace_key(v)) for k, v in sorted(value.items(), key=repr))
    if isinstance(value, (bool, int, float, str, type(None))):
        return value
    shape = getattr(value, "shape", None)
    if shape is not None and hasattr(value, "dtype"):
        return ("tensor", tuple(shape), str(getattr(value.dtype, "name", value.dtype)))
    return ("object", id(value))


def _run(function, args, kwargs):
    """Call the function as TensorFlow's graph of it runs: a Keras crossentropy inside reads
    the logits of a softmax's or sigmoid's output (keras/cached_logits.py), Nadam updates as
    the trace would (`traced`); the tensors it returns are new eager tensors, which carry no
    logits. Under `tf.config.run_functions_eagerly(True)` it is a plain call."""
    if _config.functions_run_eagerly():
        return function.python_function(*args, **kwargs)
    with traced(lambda: (id(function), _retrace_key(args), _retrace_key(kwargs))):
        out = function.python_function(*args, **kwargs)
    given = {id(x) for x in nest.flatten((args, kwargs))}
    for t in nest.flatten(out):
        if id(t) not in given and getattr(t, "_keras_logits", None) is not None:
            del t._keras_logits
    return out


class Function:
    """What `@tv.function` returns: calls the Python function, eagerly."""

    def __init__(self, python_function, input_signature=None, jit_compile=None,
                 reduce_retracing=False, autograph=True, name=None, **experimental):
        unknown = [k for k in experimental if not k.startswith("experimental_")]
        if unknown:
            raise TypeError(f"function() got an unexpected keyword argument {unknown[0]!r}")
        self.python_function = python_function
        self.input_signature = None if input_signature is None else list(input_signature)
        self.jit_compile = jit_compile
        self.reduce_retracing = reduce_retracing
        self.autograph = autograph
        self.__name__ = name or getattr(python_function, "__name__", "function")
        functools.update_wrapper(self, python_function)

    def __call__(self, *args, **kwargs):
        self._check(args)
        return _run(self, args, kwargs)

    def __get__(self, instance, owner=None):
        # a decorated method: bound to the instance, which input_signature does not list
        if instance is None:
            return self

        def bound(*args, **kwargs):
            self._check(args)
            return _run(self, (instance,) + args, kwargs)
        functools.update_wrapper(bound, self.python_function)
        bound.__signature__ = self._bound_signature()
        return bound

    def _bound_signature(self):
        """The method's signature without its instance, as a bound method's (what Keras reads
        to see which arguments `call` requires)."""
        if "_method_signature" not in self.__dict__:
            try:
                sig = inspect.signature(self.python_function)
                sig = sig.replace(parameters=list(sig.parameters.values())[1:])
            except (TypeError, ValueError):      # (a callable without one)
                sig = None
            self._method_signature = sig
        return self._method_signature

    def _check(self, args):
        if self.input_signature is not None and len(args) > len(self.input_signature):
            raise TypeError(f"{self.__name__}: input_signature holds "
                            f"{len(self.input_signature)} TensorSpec(s) but the call passes "
                            f"{len(args)} positional arguments. Fix: pass one argument per "
                            "TensorSpec")

    def get_concrete_function(self, *args, **kwargs):
        return self

    def experimental_get_tracing_count(self) -> int:
        return 0

    def __repr__(self):
        return f"<tapeviz.function {self.__name__} (runs eagerly)>"


def function(func=None, input_signature=None, autograph=True, jit_compile=None,
             reduce_retracing=False, experimental_implements=None,
             experimental_autograph_options=None, experimental_attributes=None,
             experimental_relax_shapes=None, experimental_compile=None,
             experimental_follow_type_hints=None, name=None):
    """`@tv.function` or `@tv.function(input_signature=..., jit_compile=...)`."""
    def wrap(f):
        if not callable(f):
            raise TypeError(f"function() takes a callable, not {type(f).__name__}")
        return Function(f, input_signature=input_signature, jit_compile=jit_compile,
                        reduce_retracing=reduce_retracing, autograph=autograph, name=name)
    return wrap if func is None else wrap(func)


class TensorSpec:
    """`tv.TensorSpec(shape, dtype, name)`: the description `input_signature` lists."""

    def __init__(self, shape, dtype="float32", name=None):
        from .engine.dtypes import as_dtype
        self.shape = None if shape is None else tuple(shape)
        self.dtype = as_dtype(dtype)
        self.name = name

    def __repr__(self):
        return f"TensorSpec(shape={self.shape}, dtype=tf.{self.dtype.name}, name={self.name!r})"
