"""`tv.test.compute_gradient`: TensorFlow's gradient checker (gradient_checker_v2).

For each argument x of `f`, two (y_size, x_size) Jacobians in x's dtype: the theoretical one
from the tape (one vectorized `jacobian`, unconnected parts zero; TensorFlow takes one
gradient per row, the same numbers) and the numeric one from central differences, moving one
element of x at a time by ±delta in x's dtype and dividing by 2·delta in y's dtype, as TF does.
"""
from __future__ import annotations

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.tape import GradientTape, UnconnectedGradients

_ALLOWED = ("float16", "bfloat16", "float32", "float64", "complex64", "complex128")


def _as_array(value):
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value)


def _check_dtype(dtype, what):
    # (TensorFlow asserts: its checker raises AssertionError for these)
    if dtype.name not in _ALLOWED:
        raise AssertionError(f"Cannot compute gradient for unsupported type {dtype.name} of "
                             f"{what}. Fix: pass float arguments (tv.cast(x, tv.float32))")


def _theoretical(f, xs, param, y_size):
    x = xs[param]
    with GradientTape() as tape:
        tape.watch(x)
        y = f(*xs)
    jac = tape.jacobian(y, x, unconnected_gradients=UnconnectedGradients.ZERO)
    return np.asarray(jac.numpy(), dtype=x.dtype.as_numpy_dtype).reshape(
        y_size, int(np.prod(x.shape, dtype=np.int64)))


def _numeric(f, arrays, param, y_dtype, y_size, delta):
    x = arrays[param]
    flat = x.reshape(-1)            # a view: moving flat[col] moves x
    jac = np.zeros((y_size, flat.size), dtype=x.dtype)
    scale = np.asarray(2 * delta, dtype=y_dtype)[()]
    for col in range(flat.size):    # f is a black box: one pair of calls per element
        original = flat[col]
        flat[col] += delta
        y_pos = _as_array(f(*map(convert_to_tensor, arrays)))
        flat[col] = original
        flat[col] -= delta
        y_neg = _as_array(f(*map(convert_to_tensor, arrays)))
        flat[col] = original
        jac[:, col] = ((y_pos - y_neg) / scale).reshape(-1)
    return jac


def compute_gradient(f, x, delta=None):
    """The theoretical and numeric Jacobians of y = f(*x) with respect to each argument:
    `(theoretical, numeric)`, each a tuple with one (y_size, x_size) array per argument."""
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x)}. Fix: compute_gradient(f, [x])")
    if delta is None:
        delta = 1.0 / 1024     # exactly representable: less rounding noise in the differences
    xs = [convert_to_tensor(v) for v in x]
    y = convert_to_tensor(f(*xs))
    y_size = int(np.prod(y.shape, dtype=np.int64))
    theoretical, numeric = [], []
    for param, arg in enumerate(xs):
        _check_dtype(arg.dtype, f"argument {param}")
        _check_dtype(y.dtype, "y")
        theoretical.append(_theoretical(f, xs, param, y_size))
        arrays = [np.array(_as_array(v)) for v in xs]       # copies, moved in place
        numeric.append(_numeric(f, arrays, param, y.dtype.as_numpy_dtype, y_size, delta))
    return tuple(theoretical), tuple(numeric)

