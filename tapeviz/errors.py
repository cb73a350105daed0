"""`tv.errors`: TensorFlow's exception classes."""
from .engine.errors import (FailedPreconditionError, InvalidArgumentError, NotFoundError,  # noqa: F401
                            OpError, OutOfRangeError, ResourceExhaustedError,
                            UnimplementedError)
