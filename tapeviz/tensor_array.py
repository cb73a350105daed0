"""`tv.TensorArray`: TensorFlow's eager TensorArray, a list of tensors of one dtype and shape.

Each written value is kept as the tensor it is, and `stack`/`gather`/`concat` join them with
the stack, gather and concat ops, so a tape records the joins and gradients flow back to
every written value, as in TensorFlow. `write`, `scatter` and `unstack` return the array
itself (in eager TensorFlow, the returned array is the same object's state).
"""
from __future__ import annotations

import numpy as np

from .engine import dtypes as _dt
from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError, OutOfRangeError
from .engine.ops.join import concat, stack, unstack
from .engine.ops.makers import zeros
from .engine.tensor import TensorShape


def _indices(indices) -> list:
    return [int(i) for i in np.asarray(convert_to_tensor(indices)._value).reshape(-1)]


class TensorArray:
    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape=True,
                 element_shape=None, colocate_with_first_write_call=True, name=None):
        self._dtype = _dt.as_dtype(dtype)
        n = 0 if size is None else int(convert_to_tensor(size)._value)
        self._values = [None] * n
        self._dynamic_size = bool(dynamic_size)
        # eager TensorFlow forgets a value once it is read (a later read gives zeros)
        self._clear_after_read = clear_after_read is None or bool(clear_after_read)
        self._infer_shape = bool(infer_shape)
        self._element_shape = None if element_shape is None else tuple(
            None if d is None else int(d) for d in element_shape)

    @property
    def dtype(self):
        return self._dtype

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    @property
    def element_shape(self) -> TensorShape:
        return TensorShape(None if self._element_shape is None else list(self._element_shape))

    def size(self, name=None):
        return convert_to_tensor(np.int32(len(self._values)))

    def _checked(self, value, what):
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.dtype != self._dtype:
            raise InvalidArgumentError(
                f"TensorArray{what}: the TensorArray dtype is {self._dtype.name} but the op "
                f"is trying to write dtype {value.dtype.name} (shape {tuple(value.shape)}). "
                f"Fix: tf.cast the value to {self._dtype.name}", "TensorArrayWrite")
        shape = tuple(value.shape)
        if not self._infer_shape:
            return value
        if self._element_shape is not None and (len(shape) != len(self._element_shape) or any(
                e is not None and e != d for e, d in zip(self._element_shape, shape))):
            raise ValueError(f"TensorArray{what}: Incompatible shape for value "
                             f"({shape}), expected ({self._element_shape}). Fix: write "
                             "values of one shape")
        self._element_shape = shape
        return value

    def write(self, index, value, name=None):
        index = int(convert_to_tensor(index)._value)
        value = self._checked(value, ".write")
        if index < 0:
            raise InvalidArgumentError(f"TensorArray.write: index {index} is negative. Fix: "
                                       "write at 0 .. size - 1", "TensorArrayWrite")
        if index >= len(self._values):
            if not self._dynamic_size:
                raise OutOfRangeError(
                    f"Tried to write to index {index} but array is not resizeable and size "
                    f"is: {len(self._values)}. Fix: tf.TensorArray(..., size=n) with n > "
                    f"{index}, or dynamic_size=True", "TensorArrayWrite")
            self._values.extend([None] * (index + 1 - len(self._values)))
        self._values[index] = value
        return self

    def read(self, index, name=None):
        index = int(convert_to_tensor(index)._value)
        value = self._value_at(index)
        if self._clear_after_read:
            self._values[index] = None
        return value

    def _value_at(self, index):
        """The value at `index` (zeros where nothing was written and the shape is known)."""
        if not 0 <= index < len(self._values):
            raise OutOfRangeError(
                f"Tried to read from index {index} but array size is: {len(self._values)}. "
                "Fix: read at 0 .. size - 1", "TensorArrayRead")
        value = self._values[index]
        if value is not None:
            return value
        if self._element_shape is None or None in self._element_shape or not self._infer_shape:
            raise InvalidArgumentError(
                f"Could not read from TensorArray index {index}: it has not been written "
                "to, and the element shape is not known. Fix: write it first, or give "
                "element_shape=", "TensorArrayRead")
        return zeros(self._element_shape, self._dtype)

    def gather(self, indices, name=None):
        rows = [self._value_at(i) for i in _indices(indices)]
        if not rows:
            return zeros((0,) + tuple(self._element_shape or ()), self._dtype)
        return stack(rows)

    def stack(self, name=None):
        return self.gather(list(range(len(self._values))))

    def concat(self, name=None):
        if not self._values:
            return zeros((0,) + tuple((self._element_shape or (None,))[1:]), self._dtype)
        return concat([self._value_at(i) for i in range(len(self._values))], 0)

    def scatter(self, indices, value, name=None):
        rows = unstack(convert_to_tensor(value, dtype_hint=self._dtype))
        positions = _indices(indices)
        if len(positions) != len(rows):
            raise InvalidArgumentError(
                f"TensorArray.scatter: {len(positions)} indices for a value of "
                f"{len(rows)} rows. Fix: give one index per row", "TensorArrayScatter")
        for i, row in zip(positions, rows):
            self.write(i, row)
        return self

    def unstack(self, value, name=None):
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        return self.scatter(list(range(int(value.shape[0]))), value)

    def close(self, name=None):
        return None

    def __repr__(self):
        return (f"<tv.TensorArray dtype={self._dtype.name} size={len(self._values)} "
                f"element_shape={self.element_shape}>")
