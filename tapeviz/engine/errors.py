"""TensorFlow's exception classes (`tv.errors.InvalidArgumentError`, ...)."""


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


class ResourceExhaustedError(OpError, MemoryError):
    """An op's output does not fit in memory (TensorFlow's "OOM when allocating tensor");
    also a MemoryError, so `except MemoryError` catches it."""
