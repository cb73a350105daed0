"""`tv.Variable`'s constructor arguments as TensorFlow checks them, and the enums
`tv.VariableAggregation` / `tv.VariableSynchronization` (with compat.v1's
`VariableAggregation`), which a one-device run keeps only as the variable's properties.

TensorFlow's order of positional arguments is kept (`Variable(value, trainable,
validate_shape, caching_device, name, ...)`); arguments with no meaning in eager tapeviz
(validate_shape, caching_device, import_scope, experimental_enable_variable_lifting, and
unknown keywords, which TensorFlow's `tf.Variable` also ignores) are accepted and ignored.
"""
from __future__ import annotations

import enum

import numpy as np


class VariableSynchronization(enum.Enum):
    """When a distributed variable is synced; tapeviz has one device and one copy."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregationV2(enum.Enum):
    """How a distributed variable's updates are aggregated (`tf.VariableAggregation`)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):       # (TensorFlow: equal to compat.v1's member of that value)
        if self is other:
            return True
        if isinstance(other, VariableAggregation):
            return int(self.value) == int(other.value)
        return False


class VariableAggregation(enum.Enum):
    """compat.v1's `VariableAggregation` (the default of a variable's `aggregation`)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3  # (an alias, deprecated in TensorFlow)

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        if self is other:
            return True
        if isinstance(other, VariableAggregationV2):
            return int(self.value) == int(other.value)
        return False


def constructor_args(initial_value, trainable, name, variable_def, constraint,
                     synchronization, aggregation):
    """(trainable, synchronization, aggregation) as TensorFlow's constructor and its
    validate_synchronization_aggregation_trainable make them, after its checks."""
    if variable_def is not None:
        raise ValueError("Creating a `tf.Variable` with a `variable_def` arg is not supported "
                         f"when eager execution is enabled. Got: variable_def={variable_def}")
    if initial_value is None:
        raise ValueError("The `initial_value` arg to `tf.Variable` must be specified except "
                         "when you are not providing a `variable_def`. You provided neither. "
                         "Fix: pass the starting value, e.g. tv.Variable(0.0)")
    if constraint is not None and not callable(constraint):
        raise ValueError(f"Argument `constraint` must be None or a callable. Got a "
                         f"{type(constraint)}: {constraint}. Fix: a function of the variable's "
                         "value, or a tf.keras.constraints object")
    if aggregation is None:
        aggregation = VariableAggregation.NONE
    elif not isinstance(aggregation, (VariableAggregation, VariableAggregationV2)):
        try:
            aggregation = VariableAggregationV2(aggregation)
        except ValueError:
            raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable: "
                             f"{name}. Fix: a tv.VariableAggregation member, e.g. "
                             "tv.VariableAggregation.MEAN") from None
    try:
        synchronization = VariableSynchronization(
            VariableSynchronization.AUTO if synchronization is None else synchronization)
    except ValueError:
        raise ValueError(f"Invalid variable synchronization mode: {synchronization} for "
                         f"variable: {name}. Fix: a tv.VariableSynchronization member, e.g. "
                         "tv.VariableSynchronization.AUTO") from None
    if trainable is None:
        trainable = synchronization != VariableSynchronization.ON_READ
    return trainable, synchronization, aggregation


def check_shape(value, shape):
    """A Variable's `shape=` must describe its initial value (None dimensions match any size,
    but tapeviz keeps the value's own shape: it has no variable-sized tensors)."""
    from .tensor import TensorShape
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    elif isinstance(shape, (int, np.integer)):
        shape = [shape]
    if isinstance(shape, (str, bytes)) or not isinstance(shape, (list, tuple)) or not all(
            d is None or isinstance(d, (int, np.integer)) for d in shape):
        raise TypeError(f"Variable: failed to convert {shape!r} to a shape: a shape is a list "
                        "of ints (None for any size). Fix: e.g. shape=[2, 3]")
    if len(shape) != value.ndim or any(d is not None and d != n
                                       for d, n in zip(shape, value.shape)):
        raise ValueError(f"In this `tv.Variable` creation, the initial value's shape "
                         f"({tuple(value.shape)}) is not compatible with the explicitly supplied "
                         f"`shape` argument ({list(shape)}). Fix: give an initial value of that "
                         f"shape (e.g. tv.zeros({list(shape)})), or leave out `shape`")
