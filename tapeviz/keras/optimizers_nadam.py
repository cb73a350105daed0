"""tf-keras's (Keras 2's) Nadam, run eagerly and inside a compiled `fit`.

Keras runs `fit`'s `train_step` inside a `tf.function` unless `run_eagerly`. tf-keras's Nadam
decides whether to multiply its u-product by `u_t` or reuse it with
`tf.cond(counter == iterations + 2, cached, multiply)`, where `counter` is a Python int
(`_u_product_counter`) that the multiplying branch increments. In a tf.function that
increment happens only while tracing, once per variable, so each variable's update keeps the
counter value its trace read: at run time the u-product is multiplied once per variable at
every step, except for the one variable whose count equals `iterations + 2`. Eagerly the
counter follows the steps and the product is multiplied once per step.

tapeviz runs `fit` eagerly either way and reproduces TensorFlow's numbers in both cases:
`current_trace()` (engine/threadstate.py) names the traced function a step stands for (one
per `compile`; `fit` and `train_on_batch` are traced apart, their input signatures differ;
keras/step_function.py), and the first update of a variable in that function takes the count
its trace would have read.
A function whose first trace builds the optimizer is traced twice by TensorFlow (variables
were created while tracing), so the counter moves on by the number of variables once more.
A user's own `@tf.function` stands for the trace of the function and its arguments'
signature (tapeviz/function.py): a loop over a dataset inside it is one traced body, as
AutoGraph makes it. Not imitated: a `train_step` applying gradients several times per step
with an optimizer built in it, and a Python loop that TensorFlow unrolls while tracing (each
iteration its own trace there, one here).
"""
from __future__ import annotations

import numpy as np

from ..engine.tensor import Variable
from ..engine.threadstate import current_trace
from .optimizer_args import _number
from .optimizers import Optimizer, Tensor, _set


class Nadam(Optimizer):
    """Keras 2's (tf-keras's) Nadam: Adam with Nesterov momentum, β₁ warmed up by the schedule
    `u_t = β₁·(1 - ½·0.96ᵗ)` and the running product `Πu` of the u's so far:
    `m̂ = u_{t+1}·m/(1 - Πu·u_{t+1}) + (1 - u_t)·g/(1 - Πu)`, `v̂ = v/(1 - β₂ᵗ)`,
    `w -= lr·m̂/(√v̂ + ε)` (m, v as Adam's). Inside a compiled `fit`, Πu as TensorFlow's
    traced function computes it (see the module's docstring)."""

    #: whether a traced function reads the u-product's counter at trace time (not the legacy
    #: Nadam, which keeps its product in a variable)
    _counts_at_trace_time = True

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 name="Nadam", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1 = _number(beta_1, "beta_1", self.name, 0.9)
        self.beta_2 = _number(beta_2, "beta_2", self.name, 0.999)
        self.epsilon = _number(epsilon, "epsilon", self.name, 1e-7)
        # Πu follows from the step alone: kept as (step, value) only to multiply on from the
        # last step (a restored optimizer, whose iterations came back, works it out again)
        self._u_product = None
        self._u_product_counter = 1     # tf-keras's Python counter
        self._traced = {}               # traced function -> {variable id: counter it read}
        self._in_function = None        # the traced function the current step stands for

    def apply_gradients(self, grads_and_vars, name=None):
        pairs = list(grads_and_vars)
        outer = self._in_function
        self._in_function = current_trace()
        try:
            if self._in_function is not None and self._counts_at_trace_time:
                self._trace([v for g, v in pairs if g is not None and isinstance(v, Variable)])
            return super().apply_gradients(pairs, name)
        finally:
            self._in_function = outer

    def _trace(self, variables):
        """Give the variables not yet traced in the current function the counter values
        TensorFlow's trace reads: one per update, in order (after a first trace, when this
        one builds the optimizer)."""
        counts = self._traced.setdefault(self._in_function, {})
        new = [v._id for v in variables if v._id not in counts]
        if not self._slots:
            self._u_product_counter += len(new)
        for j, key in enumerate(new):
            counts[key] = self._u_product_counter + j
        self._u_product_counter += len(new)

    def _update(self, var, g, lr):
        dtype = var._value.dtype

        def c(value):
            return np.asarray(value, dtype)

        step = int(self.iterations._value) + 1
        b1, b2, decay = c(self.beta_1), c(self.beta_2), c(0.96)

        def u(k):
            return b1 * (c(1.0) - c(0.5) * decay ** c(k))

        u_t, u_t_1 = u(step), u(step + 1)
        count = self._traced.get(self._in_function, {}).get(var._id)
        u_product_t = (self._u_product_at(step, u, dtype) if count is None
                       else self._traced_u_product(step, count, u_t, dtype)).astype(dtype)
        u_product_t_1 = u_product_t * u_t_1
        m, v = self._slot(var, "m"), self._slot(var, "v")
        m_new = m._value + (g - m._value) * (c(1.0) - b1)
        v_new = v._value + (np.square(g) - v._value) * (c(1.0) - b2)
        _set(m, m_new)
        _set(v, v_new)
        m_hat = u_t_1 * m_new / (c(1.0) - u_product_t_1) + (c(1.0) - u_t) * g / (
            c(1.0) - u_product_t)
        v_hat = v_new / (c(1.0) - b2 ** c(step))
        var.assign_sub(Tensor(((m_hat * lr) / (np.sqrt(v_hat) + c(self.epsilon)))
                              .astype(dtype, copy=False)))

    def _u_product_at(self, step, u, dtype):
        """Πu over steps 1..step, in the dtype of the first variable that asked (as Keras
        keeps it), multiplied on from the last step asked for, else from step 0."""
        done, product = self._u_product if self._u_product is not None and \
            self._u_product[0] <= step else (0, np.asarray(1.0, dtype))
        if done < step:
            self._u_product_counter += 1
        for k in range(done + 1, step + 1):
            product = (product * u(k)).astype(product.dtype)
        self._u_product = (step, product)
        return product

    def _traced_u_product(self, step, count, u_t, dtype):
        """The u-product as a traced update whose counter read ``count`` computes it: the
        product so far, multiplied by ``u_t`` unless ``count`` equals `iterations + 2`."""
        product = self._u_product[1] if self._u_product is not None else np.asarray(1.0, dtype)
        if count != step + 1:
            product = (product * u_t).astype(product.dtype)
        self._u_product = (step, product)
        return product
