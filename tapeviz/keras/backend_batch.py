"""`tf.keras.backend` helpers over a batch or a list: `batch_dot` (one dot product per batch
row, Keras's axis rules), `batch_get_value`, `batch_set_value` and `moving_average_update`,
as tf-keras defines them on TensorFlow ops."""
from __future__ import annotations

from ..engine import ops as _ops
from ..engine.convert import convert_to_tensor as _convert


def _move_axis(x, source, dest):
    """Transpose moving axis `source` to position `dest`, the others kept in order."""
    pattern = list(range(x.shape.rank))
    pattern.insert(dest, pattern.pop(source))
    return _ops.transpose(x, perm=pattern)


def batch_dot(x, y, axes=None):
    """For each batch row i, the dot product of x[i] and y[i] over `axes` (one axis of each,
    never the batch axis; by default the last of x with the last of a rank-2 y, else the
    second-to-last of y). Rank-2 operands give a (batch, 1) result, as in Keras."""
    x, y = _convert(x), _convert(y)
    x_shape, y_shape = tuple(x.shape.as_list()), tuple(y.shape.as_list())
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {x_shape} and {y_shape}.")
    if None not in (x_shape[0], y_shape[0]) and x_shape[0] != y_shape[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. "
                         f"Received inputs with shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError("Multiple target dimensions are not supported. Expected: None, int, "
                         f"(int, int), Provided: {axes}")
    a0, a1 = [a + n if a < 0 else a for a, n in zip(axes, (x_ndim, y_ndim))]
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "K.expand_dims(x, 0)")
    d1, d2 = x_shape[a0], y_shape[a1]
    if None not in (d1, d2) and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} "
                         f"with axes={[a0, a1]}. x.shape[{a0}] != y.shape[{a1}] "
                         f"({d1} != {d2}).")
    # as (batch, rows, k) @ (batch, k, cols): x's axis last, y's axis second, the rest flat
    if x_ndim == 2:
        x, a0 = _ops.expand_dims(x, 1), a0 + 1
    if y_ndim == 2:
        y = _ops.expand_dims(y, 2)
    x, y = _move_axis(x, a0, x.shape.rank - 1), _move_axis(y, a1, 1)
    x_mid, y_trail = x.shape.as_list()[1:-1], y.shape.as_list()[2:]
    batch = _ops.shape(x)[0]
    result = _ops.matmul(_ops.reshape(x, [batch, -1, x.shape[-1]]),
                         _ops.reshape(y, [batch, y.shape[1], -1]))
    result = _ops.reshape(result, [batch] + x_mid + y_trail)
    if x_ndim == 2:
        return _ops.squeeze(result, 1)
    if y_ndim == 2:
        return _ops.squeeze(result, -1)
    return result


def batch_get_value(tensors):
    """The NumPy values of a list of variables or tensors."""
    return [x.numpy() for x in tensors]


def batch_set_value(tuples):
    """Assign each `(variable, value)` pair's value."""
    for variable, value in tuples:
        variable.assign(value)


def moving_average_update(x, value, momentum):
    """`x -= (x - value) * (1 - momentum)`: Keras's moving average step, on the variable."""
    momentum = _ops.cast(momentum, x.dtype)
    value = _ops.cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))


NAMES = ("batch_dot", "batch_get_value", "batch_set_value", "moving_average_update")
