"""`v[key].assign(x)`: a slice of a `Variable` (a strided one, as TensorFlow's) remembers
the variable, and its `assign` writes the value into it (through `assign.py`'s `_assign`)."""
from __future__ import annotations

import numpy as np

from .assign import _assign
from .convert import convert_to_tensor
from .errors import InvalidArgumentError
from .ops.indexing import getitem
from .tensor import Tensor, Variable, _Operand


def slice_of(var: Variable, key) -> Tensor:
    """`var[key]`: a read's slice, which remembers the variable if ``key`` is a strided slice
    (not a boolean mask), for its `assign`."""
    out = getitem(var, key)
    if is_slice_key(key):
        out._sliced_from = (var, key)
    return out


def slice_assigner(t: Tensor):
    """`t.assign`: as TensorFlow's, only a slice of a variable (`v[0, 0]`) has one, which
    writes into the variable; any other tensor has no such attribute (`hasattr` is False)."""
    try:
        var, key = t._sliced_from
    except AttributeError:
        raise AttributeError("'Tensor' object has no attribute 'assign'. Fix: tensors are "
                             "immutable; assign to a tv.Variable (or to a slice of one, "
                             "v[i].assign(x))") from None
    return lambda value, name=None: assign_slice(var, key, value)


def is_slice_key(key) -> bool:
    """Whether ``key`` is a strided slice (ints, slices, `...`, `None`, integer scalars): the
    keys whose slice of a variable TensorFlow can assign to."""
    for k in key if isinstance(key, tuple) else (key,):
        if isinstance(k, _Operand):
            k = k._read()
        if not (k is None or k is Ellipsis or isinstance(k, (slice, int, np.integer)) or (
                isinstance(k, np.ndarray) and k.ndim == 0 and k.dtype.kind in "iu")):
            return False
    return not isinstance(key, bool)


def assign_slice(var: Variable, key, value):
    """`var[key].assign(value)`: the value (converted to the variable's dtype, as TF, and
    broadcast to the slice) written into a copy of the variable's value, which is assigned."""
    value = convert_to_tensor(value, dtype=var.dtype)._value
    index = tuple(np.asarray(k._read()) if isinstance(k, _Operand) else k
                  for k in (key if isinstance(key, tuple) else (key,)))
    full = var._value.copy()
    target = full[index]
    try:
        full[index] = np.broadcast_to(value, np.shape(target))
    except ValueError:
        raise InvalidArgumentError(
            f"ResourceStridedSliceAssign: cannot broadcast input shape {list(np.shape(value))} "
            f"into final shape {list(np.shape(target))}: the slice {key!r} of variable "
            f"{var.name!r} (shape {tuple(var.shape)}, dtype {var.dtype.name}). Fix: give a "
            f"value of shape {list(np.shape(target))} (or one that broadcasts to it)",
            "ResourceStridedSliceAssign") from None
    return _assign(var, Tensor(full, None), "assign")
