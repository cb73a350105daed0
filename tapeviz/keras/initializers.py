"""`tv.keras.initializers`: initial values, drawn from tapeviz's seeded generator."""
from __future__ import annotations

import math
import random
import threading

import numpy as np

from ..engine import dtypes as _dt
from ..engine.errors import UnimplementedError
from ..engine.ops import makers as _makers


def _fans(shape):
    if len(shape) < 1:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


def _rng(seed):
    return np.random.default_rng(seed) if seed is not None else _makers._Random.rng


def _shape(shape, initializer):
    """The shape to fill, checked as TF's random ops check it (ints >= 0)."""
    return tuple(_makers._random_dims(shape, f"initializers.{type(initializer).__name__}"))


#: `.generator`: the `random.Random` that `tv.keras.utils.set_random_seed` made in this thread
#: (Keras's `backend._SEED_GENERATOR`); unset, Python's global generator serves
seed_generator = threading.local()


class Initializer:
    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}


class RandomInitializer(Initializer):
    """An initializer of random values; subclasses define `_sample(shape, dtype)`.

    TF-Keras gives an unseeded one a seed of its own at its first call, drawn with
    `random.randint(1, 10**9)` from the generator `set_random_seed` made, else from Python's
    global one. The values here come from tapeviz's generator, but that draw is made too, so
    that a program seeding Python's `random` for its own sampling (a replay buffer,
    epsilon-greedy exploration) draws the same numbers after building its model as under
    TensorFlow."""

    seed = None

    def __call__(self, shape, dtype=None, **kwargs):
        if self.seed is None and not self.__dict__.get("_seed_drawn"):
            self._seed_drawn = True
            (getattr(seed_generator, "generator", None) or random).randint(1, int(1e9))
        return self._sample(shape, dtype)

    def _sample(self, shape, dtype):
        raise NotImplementedError


class Zeros(Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return _makers.zeros(shape, dtype or _dt.float32)


class Ones(Initializer):
    def __call__(self, shape, dtype=None, **kwargs):
        return _makers.ones(shape, dtype or _dt.float32)


class Constant(Initializer):
    def __init__(self, value=0):
        self.value = value

    def get_config(self) -> dict:
        return {"value": self.value}

    def __call__(self, shape, dtype=None, **kwargs):
        d = _dt.as_dtype(dtype or _dt.float32)
        value = np.asarray(getattr(self.value, "_value", self.value))
        if value.dtype.kind in "USO" and not d.is_string:
            raise UnimplementedError(
                f"initializers.Constant: Cast string to {d.name} is not supported: value "
                f"{self.value!r} for shape {list(shape)}. Fix: pass a number, e.g. "
                "Constant(0.1) [Op:Cast]", "Cast")
        return _makers._make(np.full(_shape(shape, self), value, d.np))


class RandomUniform(RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}

    def _sample(self, shape, dtype):
        d = _dt.as_dtype(dtype or _dt.float32)
        values = _rng(self.seed).uniform(self.minval, self.maxval, size=_shape(shape, self))
        return _makers._make(values.astype(d.np))


class RandomNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}

    def _sample(self, shape, dtype):
        d = _dt.as_dtype(dtype or _dt.float32)
        values = _rng(self.seed).standard_normal(_shape(shape, self)) * self.stddev + self.mean
        return _makers._make(values.astype(d.np))


class TruncatedNormal(RandomNormal):
    def _sample(self, shape, dtype):
        d = _dt.as_dtype(dtype or _dt.float32)
        rng = _rng(self.seed)
        out = rng.standard_normal(_shape(shape, self))
        bad = np.abs(out) > 2
        while bad.any():
            out[bad] = rng.standard_normal(int(bad.sum()))
            bad = np.abs(out) > 2
        return _makers._make((out * self.stddev + self.mean).astype(d.np))


class VarianceScaling(RandomInitializer):
    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed

    def get_config(self) -> dict:
        if type(self).__init__ is not VarianceScaling.__init__:
            return {"seed": self.seed}        # (Glorot, He, Lecun: their seed is all they take)
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}

    def _sample(self, shape, dtype):
        fan_in, fan_out = _fans(tuple(shape))
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2}[self.mode]
        scale = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * scale)
            return RandomUniform(-limit, limit, self.seed)._sample(shape, dtype)
        if self.distribution == "untruncated_normal":
            return RandomNormal(0.0, math.sqrt(scale), self.seed)._sample(shape, dtype)
        # truncated at two standard deviations: this constant restores the variance
        return TruncatedNormal(0.0, math.sqrt(scale) / 0.87962566103423978,
                               self.seed)._sample(shape, dtype)


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "uniform", seed)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(2.0, "fan_in", "uniform", seed)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None):
        super().__init__(1.0, "fan_in", "uniform", seed)


class Identity(Initializer):
    """`gain` times the identity matrix (2-D shapes only; rectangular ones too, as tf.eye)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def __call__(self, shape, dtype=None, **kwargs):
        d = _dt.as_dtype(dtype or _dt.float32)
        if not d.is_floating:
            raise ValueError(f"Expected floating point type, got {d}.")
        if len(shape) != 2:
            raise ValueError("Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return _makers._make((self.gain * np.eye(*shape)).astype(d.np))

    def get_config(self) -> dict:
        return {"gain": self.gain}


_BY_NAME = {"zeros": Zeros, "ones": Ones, "constant": Constant, "random_uniform": RandomUniform,
            "random_normal": RandomNormal, "truncated_normal": TruncatedNormal,
            "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
            "he_normal": HeNormal, "he_uniform": HeUniform, "lecun_normal": LecunNormal,
            "lecun_uniform": LecunUniform, "variance_scaling": VarianceScaling,
            "identity": Identity,
            "uniform": RandomUniform, "normal": RandomNormal}   # (Keras's short names too)
# Keras's lowercase aliases of the classes (`tf.keras.initializers.truncated_normal(...)`)
zeros, ones, constant = Zeros, Ones, Constant
random_uniform, random_normal, truncated_normal = RandomUniform, RandomNormal, TruncatedNormal
glorot_uniform, glorot_normal, he_normal, he_uniform = GlorotUniform, GlorotNormal, HeNormal, \
    HeUniform
lecun_normal, lecun_uniform, variance_scaling, identity = LecunNormal, LecunUniform, \
    VarianceScaling, Identity


def get(identifier):
    """An initializer from its name ('glorot_uniform', 'zeros', ...), class, callable, or
    Keras's `{"class_name", "config"}` (what `serialize` and a saved config hold); None stays
    None, as in Keras (`add_weight` then picks glorot_uniform for floats, zeros else)."""
    if identifier is None:
        return None
    if isinstance(identifier, dict) and "class_name" in identifier:
        from .saving_config import find_class
        cls = find_class(identifier["class_name"], "initializer")
        return cls(**(identifier.get("config") or {}))
    if isinstance(identifier, str):
        from .saving_config import named_custom_object   # `get_custom_objects()["x"] = X`
        found = named_custom_object(identifier)
        if found is not None:
            return found
        key = identifier if identifier in _BY_NAME else \
            "".join("_" + c.lower() if c.isupper() else c for c in identifier).lstrip("_")
        if key not in _BY_NAME:
            raise ValueError(f"Unknown initializer: '{identifier}'. Known names: "
                             f"{sorted(_BY_NAME)}")
        return _BY_NAME[key]()
    if isinstance(identifier, type):
        return identifier()
    if callable(identifier):
        return identifier
    raise TypeError(f"Could not interpret initializer identifier: {identifier!r}")


def deserialize(config, custom_objects=None):
    """An initializer from a name or Keras's `{"class_name", "config"}`."""
    if isinstance(config, dict) and "class_name" in config:
        from .saving_config import find_class
        cls = find_class(config["class_name"], "initializer", custom_objects)
        return cls(**(config.get("config") or {}))
    return get(config)


def serialize(initializer) -> dict:
    """Keras's description of an initializer (what a layer's `get_config` stores)."""
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}
