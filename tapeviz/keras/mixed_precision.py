"""`tv.keras.mixed_precision`: Keras's dtype policies and loss scaling, as tf-keras's.

A layer made under `Policy('mixed_float16')` keeps its variables in float32 and computes in
float16: its floating inputs are cast to float16, and its variables (`AutoCastVariable`s)
read as float16 inside its own call and as float32 everywhere else (the optimizer updates
the float32 values). `LossScaleOptimizer` multiplies the loss by a scale before the
gradient, so that small float16 gradients do not flush to zero, divides the gradients by it
after, and, when the scale is dynamic, halves it and skips the step on an Inf or NaN
gradient and doubles it after `dynamic_growth_steps` finite steps in a row.
"""
from __future__ import annotations

import threading

from ..engine import dtypes as _dt
from ..engine.tensor import Tensor, Variable

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


class Policy:
    """A dtype policy: the dtype a layer computes in and the dtype of its variables."""

    def __init__(self, name):
        if isinstance(name, _dt.DType):
            raise TypeError(f"'name' must be a string, not a DType. Instead, pass "
                            f"DType.name. Got: {name.name}")
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, but got: {name!r}")
        self._name = name
        if name in _MIXED:
            self._compute_dtype, self._variable_dtype = _MIXED[name], "float32"
            return
        if name == "_infer":
            self._compute_dtype = self._variable_dtype = None
            return
        try:
            dtype = _dt.as_dtype(name).name
        except (TypeError, ValueError):
            raise ValueError(f"Cannot convert value {name} to a mixed precision Policy. Valid "
                             "policies include 'mixed_float16', 'mixed_bfloat16', and the name "
                             "of any dtype such as 'float32'.") from None
        self._compute_dtype = self._variable_dtype = dtype

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self):
        return self._compute_dtype

    @property
    def variable_dtype(self):
        return self._variable_dtype

    def get_config(self) -> dict:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        return cls(**config)

    def __repr__(self):
        return f'<Policy "{self._name}">'


_global_policy = None      # None: Policy(floatx()), as Keras's default


def global_policy() -> Policy:
    """The policy of layers made without `dtype=`: the one `set_global_policy` set, else
    `Policy(tf.keras.backend.floatx())`."""
    if _global_policy is not None:
        return _global_policy
    from .backend import floatx
    return Policy(floatx())


def set_global_policy(policy) -> None:
    """The policy of the layers made from now on (None: back to floatx())."""
    global _global_policy
    if policy is not None and not isinstance(policy, Policy):
        policy = Policy(policy)
    if policy is not None:
        dtype = _dt.as_dtype(policy.compute_dtype or "float32")
        if not dtype.is_floating:
            raise ValueError("set_global_policy can only be used to set the global policy to "
                             'floating-point policies, such as "float32" and "mixed_float16", '
                             f"but got policy: {policy.name}")
    _global_policy = policy


def get_policy(dtype) -> Policy:
    """A layer's policy from its `dtype=` argument: a Policy, a policy or dtype name, a
    DType, or None (the global policy)."""
    if isinstance(dtype, Policy):
        return dtype
    if dtype is None:
        return global_policy()
    if isinstance(dtype, dict):     # a saved layer config's {"class_name": "Policy", ...}
        return Policy(dtype.get("config", dtype).get("name"))
    return Policy(dtype if isinstance(dtype, str) and dtype in _MIXED
                  else _dt.as_dtype(dtype).name)


def serialize(policy):
    """A layer config's "dtype": the name of a one-dtype policy, else Keras's dict."""
    if policy.compute_dtype == policy.variable_dtype:
        return policy.name
    return {"module": "keras.mixed_precision", "class_name": "Policy",
            "config": policy.get_config(), "registered_name": None}


# --- autocast variables ---------------------------------------------------------------------
class _Autocast(threading.local):
    dtype = None      # the compute dtype of the innermost layer call running in this thread


_AUTOCAST = _Autocast()
#: whether any AutoCastVariable was made (until then a layer call needs no autocast scope)
AUTOCASTING = False


class AutoCastVariable(Variable):
    """A float32 variable of a mixed-precision layer: read inside a layer's call, it is cast
    to that layer's compute dtype (the Cast is on the tape, so its gradient reaches the float32
    variable); its `dtype` stays the variable's."""

    __slots__ = ()

    def __init__(self, *args, **kwargs):
        global AUTOCASTING
        AUTOCASTING = True
        super().__init__(*args, **kwargs)

    def _read_as(self, read: Tensor) -> Tensor:
        dtype = _AUTOCAST.dtype
        if dtype is None or dtype.np == self._value.dtype:
            return read
        from ..engine.ops import cast
        return cast(read, dtype)


class autocast_to:
    """Within it, AutoCastVariables read as `dtype` (a floating DType, or None: no cast)."""

    def __init__(self, dtype):
        self._dtype = dtype if dtype is not None and dtype.is_floating else None

    def __enter__(self):
        self._outer, _AUTOCAST.dtype = _AUTOCAST.dtype, self._dtype

    def __exit__(self, *exc):
        _AUTOCAST.dtype = self._outer
        return False


def cast_inputs(inputs, dtype):
    """Keras's autocast of a layer's inputs: each floating tensor of the structure to the
    layer's floating compute dtype; integers, strings and non-tensors are left alone."""
    from ..engine.ops import cast
    if isinstance(inputs, (list, tuple)):
        items = [cast_inputs(x, dtype) for x in inputs]
        return type(inputs)(*items) if hasattr(inputs, "_fields") else type(inputs)(items)
    if isinstance(inputs, dict):
        return {k: cast_inputs(v, dtype) for k, v in inputs.items()}
    if type(inputs) is Tensor and inputs.dtype.is_floating and inputs.dtype != dtype:
        return cast(inputs, dtype)
    return inputs


from .loss_scale_optimizer import LossScaleOptimizer  # noqa: E402,F401  (its public name here)

__all__ = ["Policy", "global_policy", "set_global_policy", "LossScaleOptimizer"]
