"""TensorFlow's exception classes (`tv.errors.InvalidArgumentError`, ...)."""
from __future__ import annotations

import numpy as np


class OpError(Exception):
    """Base of errors raised by an op; ``message`` holds the text."""

    def __init__(self, message: str, op: str | None = None):
        super().__init__(message)
        self.message = message
        self.op = op


class InvalidArgumentError(OpError, ValueError):
    """Incompatible shapes or dtypes, or an argument out of range."""


class UnimplementedError(OpError):
    pass


class NotFoundError(OpError):
    pass


class FailedPreconditionError(OpError):
    pass


class OutOfRangeError(OpError):
    """An index past the end (a TensorArray's read or write)."""


class ResourceExhaustedError(OpError, MemoryError):
    """An op's output does not fit in memory (TensorFlow's "OOM when allocating tensor");
    also a MemoryError, so `except MemoryError` catches it."""


class DataLossError(OpError):
    """Unrecoverable data corruption; tf.data raises it for an element larger than the
    padded shape `padded_batch` was asked for."""


# The rest of TensorFlow's classes, for `except tf.errors.X:` in user code (tapeviz raises
# none of them itself).
class CancelledError(OpError):
    pass


class UnknownError(OpError):
    pass


class DeadlineExceededError(OpError):
    pass


class AlreadyExistsError(OpError):
    pass


class PermissionDeniedError(OpError):
    pass


class UnauthenticatedError(OpError):
    pass


class AbortedError(OpError):
    pass


class InternalError(OpError):
    pass


class UnavailableError(OpError):
    pass


def out_of_memory(op_name: str, exc: MemoryError, inputs=()) -> ResourceExhaustedError:
    """The error for an op (or maker) whose array NumPy could not allocate: the op, the shape,
    dtype and size in bytes of the array asked for (NumPy's MemoryError carries them), and
    the shapes and dtypes of the input arrays."""
    from .dtypes import from_numpy

    def name(d):
        try:
            return from_numpy(np.dtype(d)).name
        except TypeError:     # a NumPy dtype tapeviz has no name for (complex, ...)
            return str(np.dtype(d))
    shape, dtype = getattr(exc, "shape", None), getattr(exc, "dtype", None)
    if shape is not None and dtype is not None:
        n_bytes = int(np.prod(shape, dtype=object)) * np.dtype(dtype).itemsize
        wanted = (f"tensor with shape {tuple(shape)} and type {name(dtype)}"
                  f" ({n_bytes:,} bytes, {n_bytes / 2**30:,.1f} GiB)")
    else:
        wanted = "its output"
    given = ", ".join(f"x{i}: shape={np.shape(v)} dtype={name(np.asarray(v).dtype)}"
                      for i, v in enumerate(inputs))
    given = f" from ({given})" if given else ""
    return ResourceExhaustedError(
        f"{op_name}: OOM when allocating {wanted}{given}. Fix: check the shapes (two vectors of "
        f"shapes (n, 1) and (1, m) broadcast to (n, m)), or work on smaller batches "
        f"[Op:{op_name}]", op_name)
