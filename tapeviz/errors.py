"""`tv.errors`: TensorFlow's exception classes and error codes."""
from .engine.errors import (AbortedError, AlreadyExistsError, CancelledError,  # noqa: F401
                            DataLossError, DeadlineExceededError, FailedPreconditionError,
                            InternalError, InvalidArgumentError, NotFoundError, OpError,
                            OutOfRangeError, PermissionDeniedError, ResourceExhaustedError,
                            UnauthenticatedError, UnavailableError, UnimplementedError,
                            UnknownError)

# TensorFlow's error codes (`tf.errors.INVALID_ARGUMENT`, ...), as in its error_codes.proto
(OK, CANCELLED, UNKNOWN, INVALID_ARGUMENT, DEADLINE_EXCEEDED, NOT_FOUND, ALREADY_EXISTS,
 PERMISSION_DENIED, RESOURCE_EXHAUSTED, FAILED_PRECONDITION, ABORTED, OUT_OF_RANGE,
 UNIMPLEMENTED, INTERNAL, UNAVAILABLE, DATA_LOSS) = range(16)
UNAUTHENTICATED = 16
