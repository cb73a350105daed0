"""`tv.keras.optimizers.schedules`: learning rates that change with the optimizer's step.
An optimizer given one calls it with its `iterations` before each update, as Keras does."""
from __future__ import annotations

import math

import numpy as np

from ..engine.tensor import Tensor


def _f32(x) -> Tensor:
    return Tensor(np.float32(x))


class LearningRateSchedule:
    """Base class: `__call__(step)` returns the learning rate at that step."""

    def __call__(self, step):
        raise NotImplementedError

    def get_config(self) -> dict:
        return dict(vars(self))


def _step(step) -> float:
    return float(getattr(step, "_value", step))


class _TimeDecay(LearningRateSchedule):
    """What the exponential and inverse-time decays share: their arguments, and the step as a
    fraction of decay_steps (floored when staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name=None):
        if decay_steps <= 0:
            raise ValueError(f"{type(self).__name__}: decay_steps must be positive, got "
                             f"{decay_steps}")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps, self.decay_rate, self.staircase = decay_steps, decay_rate, staircase
        self.name = name

    def _progress(self, step) -> np.float32:
        p = _step(step) / self.decay_steps
        return np.float32(math.floor(p) if self.staircase else p)


class ExponentialDecay(_TimeDecay):
    """initial_learning_rate * decay_rate ** (step / decay_steps) (floored when staircase)."""

    def __call__(self, step):
        return _f32(np.float32(self.initial_learning_rate) * np.float32(self.decay_rate) **
                    self._progress(step))


class InverseTimeDecay(_TimeDecay):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps)."""

    def __call__(self, step):
        return _f32(np.float32(self.initial_learning_rate) /
                    (np.float32(1) + np.float32(self.decay_rate) * self._progress(step)))


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[i] while step <= boundaries[i] (values[-1] after the last boundary)."""

    def __init__(self, boundaries, values, name=None):
        if len(values) != len(boundaries) + 1:
            raise ValueError(f"PiecewiseConstantDecay: the length of values ({len(values)}) "
                             f"must be one more than the length of boundaries "
                             f"({len(boundaries)})")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        s = _step(step)
        for boundary, value in zip(self.boundaries, self.values):
            if s <= boundary:
                return _f32(value)
        return _f32(self.values[-1])


class PolynomialDecay(LearningRateSchedule):
    """From initial_learning_rate to end_learning_rate over decay_steps, as (1 - t) ** power."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001,
                 power=1.0, cycle=False, name=None):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle = end_learning_rate, power, cycle
        self.name = name

    def __call__(self, step):
        s, steps = _step(step), float(self.decay_steps)
        if self.cycle:
            steps *= max(1.0, math.ceil(s / steps)) if s > 0 else 1.0
        else:
            s = min(s, steps)
        frac = np.float32(1.0 - s / steps)
        return _f32((np.float32(self.initial_learning_rate) - np.float32(self.end_learning_rate))
                    * frac ** np.float32(self.power) + np.float32(self.end_learning_rate))


class CosineDecay(LearningRateSchedule):
    """Half a cosine from initial_learning_rate down to alpha times it, over decay_steps
    (after an optional linear warm-up to warmup_target over warmup_steps)."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name=None,
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate, self.decay_steps, self.alpha = (initial_learning_rate,
                                                                    decay_steps, alpha)
        self.warmup_target, self.warmup_steps, self.name = warmup_target, warmup_steps, name

    def __call__(self, step):
        s = _step(step)
        start = self.initial_learning_rate
        if self.warmup_target is not None:
            if s < self.warmup_steps:
                return _f32(start + (self.warmup_target - start) * s / self.warmup_steps)
            start, s = self.warmup_target, s - self.warmup_steps
        s = min(s, self.decay_steps)
        cosine = 0.5 * (1.0 + math.cos(math.pi * s / self.decay_steps))
        return _f32(start * ((1 - self.alpha) * cosine + self.alpha))


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): each period is `t_mul` times longer than the
    one before, and starts from `m_mul` times the previous period's initial rate."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name=None):
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, \
            first_decay_steps
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def __call__(self, step):
        f32 = np.float32       # (TensorFlow computes in the initial rate's float32)
        t_mul, m_mul, alpha = f32(self._t_mul), f32(self._m_mul), f32(self.alpha)
        fraction = f32(_step(step)) / f32(self.first_decay_steps)
        if t_mul == 1.0:
            restart = np.floor(fraction)
            fraction = fraction - restart
        else:
            restart = np.floor(np.log(f32(1.0) - fraction * (f32(1.0) - t_mul)) / np.log(t_mul))
            done = (f32(1.0) - t_mul ** restart) / (f32(1.0) - t_mul)
            fraction = (fraction - done) / t_mul ** restart
        cosine = f32(0.5) * m_mul ** restart * (f32(1.0) + np.cos(f32(math.pi) * fraction))
        return _f32(f32(self.initial_learning_rate) * ((f32(1) - alpha) * cosine + alpha))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}
