"""`tv.keras.mixed_precision.LossScaleOptimizer`, as tf-keras's (its numbers: a dynamic scale
starting at 2**15, doubled after 2000 finite steps in a row, halved, never below 1, on a
step with an Inf or NaN gradient, which is then skipped)."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.indexed_slices import IndexedSlices
from ..engine.tensor import Variable, _Operand
from .optimizers import Optimizer

_DEFAULT_INITIAL_SCALE = 2 ** 15
_DEFAULT_GROWTH_STEPS = 2000


class LossScaleOptimizer:
    """Wraps `inner_optimizer`: `get_scaled_loss` before the gradient, `get_unscaled_gradients`
    after it, then `apply_gradients` (or all three in `minimize`, as `fit` does). Everything
    else (`learning_rate`, `iterations`, ...) is the inner optimizer's."""

    def __init__(self, inner_optimizer, dynamic=True, initial_scale=None,
                 dynamic_growth_steps=None):
        if isinstance(inner_optimizer, LossScaleOptimizer):
            raise TypeError("LossScaleOptimizer cannot wrap another LossScaleOptimizer, but "
                            f"got: {inner_optimizer!r}. Fix: wrap its inner_optimizer")
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError('"inner_optimizer" must be an instance of Optimizer, but got: '
                            f"{inner_optimizer!r}. Fix: LossScaleOptimizer(tf.keras.optimizers."
                            "RMSprop()) (a LossScaleOptimizer cannot wrap another)")
        if not isinstance(dynamic, bool):
            raise TypeError('"dynamic" argument to LossScaleOptimizer.__init__ must be a bool, '
                            f"but got: {dynamic!r}")
        if getattr(inner_optimizer, "_is_wrapped_by_loss_scale_optimizer", False):
            raise ValueError('"inner_optimizer" is already wrapped by a LossScaleOptimizer. An '
                             "optimizer can only be wrapped by a single LossScaleOptimizer")
        inner_optimizer._is_wrapped_by_loss_scale_optimizer = True
        self._optimizer = inner_optimizer
        if dynamic:
            initial_scale = _DEFAULT_INITIAL_SCALE if initial_scale is None else initial_scale
            growth = _DEFAULT_GROWTH_STEPS if dynamic_growth_steps is None \
                else dynamic_growth_steps
            self._initial_scale, self._growth_steps = float(initial_scale), int(growth)
            self._scale = Variable(np.float32(initial_scale), trainable=False,
                                   name="current_loss_scale")
            self._counter = Variable(np.int64(0), trainable=False, name="good_steps")
        else:
            if initial_scale is None:
                raise ValueError('"initial_scale" must be specified if "dynamic" is False')
            if dynamic_growth_steps is not None:
                raise ValueError('"dynamic_growth_steps" must be None if "dynamic" is False, '
                                 f"but got: {dynamic_growth_steps}")
            self._initial_scale, self._growth_steps = float(initial_scale), None
            self._scale, self._counter = np.float32(initial_scale), None

    # --- what it is ----------------------------------------------------------------------------
    @property
    def inner_optimizer(self):
        return self._optimizer

    @property
    def dynamic(self) -> bool:
        return self._counter is not None

    @property
    def loss_scale(self):
        """The current loss scale, a float32 scalar tensor."""
        return convert_to_tensor(self._scale)

    @property
    def dynamic_counter(self):
        """The finite steps in a row since the scale last changed (None if not dynamic)."""
        return self._counter

    @property
    def initial_scale(self) -> float:
        return self._initial_scale

    @property
    def dynamic_growth_steps(self):
        return self._growth_steps

    def __getattr__(self, name):      # (only for names this class does not define)
        if name.startswith("__") or name == "_optimizer":
            raise AttributeError(name)
        return getattr(self._optimizer, name)

    # --- scaling -------------------------------------------------------------------------------
    def get_scaled_loss(self, loss):
        """`loss * loss_scale` in the loss's dtype (a callable loss: a callable of it)."""
        if callable(loss) and not isinstance(loss, _Operand):
            return lambda: self.get_scaled_loss(loss())
        from ..engine.ops import cast
        loss = convert_to_tensor(loss)
        return loss * cast(self.loss_scale, loss.dtype)

    def get_unscaled_gradients(self, grads):
        """Each gradient times `1 / loss_scale` (in its dtype); None stays None."""
        from ..engine.ops import cast
        reciprocal = 1.0 / self.loss_scale
        out = []
        for g in grads:
            if g is None:
                out.append(None)
            elif isinstance(g, IndexedSlices):
                out.append(IndexedSlices(g.values * cast(reciprocal, g.values.dtype), g.indices,
                                         g.dense_shape))
            else:
                g = convert_to_tensor(g)
                out.append(g * cast(reciprocal, g.dtype))
        return out

    # --- steps ---------------------------------------------------------------------------------
    def minimize(self, loss, var_list, tape=None):
        """Keras's `minimize` with the loss scaled under the tape and the gradients unscaled."""
        from ..engine.tape import GradientTape
        if callable(var_list) and not isinstance(var_list, (list, tuple)):
            var_list = var_list()
        if tape is None:
            if not callable(loss):
                raise ValueError("`tape` is required when a `Tensor` loss is passed. Received: "
                                 f"loss={loss!r}, tape=None.")
            tape = GradientTape()
        with tape:           # (re-entered: the scaling is recorded on the same tape)
            value = loss() if callable(loss) else loss
            scaled = self.get_scaled_loss(value)
        grads = self.get_unscaled_gradients(tape.gradient(scaled, list(var_list)))
        return self.apply_gradients(zip(grads, var_list))

    def apply_gradients(self, grads_and_vars, name=None, **kwargs):
        """The inner optimizer's step if every gradient is finite; else the step is skipped
        (only `iterations` counts it). A dynamic scale is updated either way."""
        pairs = list(grads_and_vars)
        if self.dynamic and not self._update_scale([g for g, _ in pairs]):
            self._optimizer.iterations.assign_add(np.int64(1))
            return self._optimizer.iterations
        return self._optimizer.apply_gradients(pairs)

    def _update_scale(self, grads) -> bool:
        finite = all(bool(np.all(np.isfinite(_values(g)))) for g in grads if g is not None)
        scale = self._scale._value
        if finite:
            if int(self._counter._value) + 1 >= self._growth_steps:
                doubled = scale * np.float32(2)
                if np.isfinite(doubled):
                    self._scale.assign(doubled)
                self._counter.assign(np.int64(0))
            else:
                self._counter.assign_add(np.int64(1))
        else:
            self._counter.assign(np.int64(0))
            self._scale.assign(np.maximum(scale / np.float32(2), np.float32(1)))
        return finite

    def variables(self) -> list:
        return self._optimizer.variables()

    def __repr__(self):
        return f"<LossScaleOptimizer wrapping {self._optimizer!r}>"


def loss_scaled(optimizer):
    """`optimizer` wrapped in a LossScaleOptimizer unless it is one (what compile does under
    the 'mixed_float16' policy)."""
    return optimizer if isinstance(optimizer, LossScaleOptimizer) else \
        LossScaleOptimizer(optimizer)


def _values(g):
    if isinstance(g, IndexedSlices):
        g = g.values
    return g._value if isinstance(g, _Operand) else np.asarray(g)
