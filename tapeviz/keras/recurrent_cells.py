"""The recurrent cells: `SimpleRNNCell`, `LSTMCell`, `GRUCell`, with Keras's weights.

Each cell has `kernel` (input_dim, gates·units), `recurrent_kernel` (units, gates·units) and
`bias`, the gates side by side in Keras's order (LSTM: input, forget, cell, output; GRU:
update, reset, candidate), so weights copied from TensorFlow with `set_weights` give
TensorFlow's outputs. GRU's `reset_after=True` (the default) has a bias of shape
(2, 3·units): the input bias, then the recurrent bias.

A recurrent layer calls a cell in two parts: `project` multiplies the whole sequence by the
kernel at once, then `step` runs one time step: one matmul of the state by the recurrent
kernel for all gates, split into the gates. Called on its own, a cell does both for one step:
`LSTMCell(4)(x, [h, c])` returns `(h, [h, c])`, as Keras's.
"""
from __future__ import annotations

import numpy as np

from ..engine import dtypes as _dt
from ..engine.ops import makers as _makers
from . import activations as _activations
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input


class Orthogonal(_initializers.RandomInitializer):
    """Keras's 'orthogonal' (the recurrent kernels' default): a random orthogonal matrix."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed}

    def _sample(self, shape, dtype):
        d = _dt.as_dtype(dtype or _dt.float32)
        shape = tuple(int(s) for s in shape)
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        a = _initializers._rng(self.seed).standard_normal((max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q = q * np.sign(np.diag(r))          # (as Keras: a unique, uniformly drawn matrix)
        if rows < cols:
            q = q.T
        return _makers._make((self.gain * q).reshape(shape).astype(d.np))


_initializers._BY_NAME["orthogonal"] = Orthogonal
_initializers.Orthogonal = _initializers.orthogonal = Orthogonal


def _rate(value, what, cell):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise TypeError(f"{cell}: `{what}` must be a float between 0 and 1, got {value!r}. "
                        f"Fix: e.g. {what}=0.2")
    return min(1.0, max(0.0, float(value)))     # (clipped to [0, 1], as Keras does)


class _Cell(Layer):
    """What the three cells share: arguments, weights, dropout masks, a standalone call."""
    gates = 1

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        kind = type(self).__name__
        kwargs.pop("implementation", None)          # (Keras picks it from recurrent_dropout)
        super().__init__(**kwargs)
        if not isinstance(units, (int, np.integer)) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"{kind}: Received an invalid value for argument `units`, expected "
                             f"a positive integer, got {units!r}. Fix: e.g. {kind}(32)")
        self.units = int(units)
        self.activation = _activations.get(activation)
        self.recurrent_activation = _activations.get(recurrent_activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = _initializers.get(kernel_initializer)
        self.recurrent_initializer = _initializers.get(recurrent_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = _regularizers.get(recurrent_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.recurrent_constraint = _constraints.get(recurrent_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.dropout = _rate(dropout, "dropout", kind)
        self.recurrent_dropout = _rate(recurrent_dropout, "recurrent_dropout", kind)
        # Keras's `implementation=1` when there is recurrent dropout: one mask per gate
        self.masks_per_gate = self.gates if 0 < self.recurrent_dropout < 1 else 1

    @property
    def state_size(self):
        return self.units

    @property
    def output_size(self) -> int:
        return self.units

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_init(self):
        return self.bias_initializer

    def build(self, input_shape):
        width = self.gates * self.units
        self.kernel = self.add_weight("kernel", (int(input_shape[-1]), width),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", (self.units, width),
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = self.add_weight("bias", self._bias_shape(), initializer=self._bias_init(),
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        from ..engine.ops import zeros
        n = batch_size if batch_size is not None else inputs.shape[0]
        sizes = self.state_size if isinstance(self.state_size, (list, tuple)) else \
            [self.state_size]
        return [zeros((n, s), dtype or self._dtype) for s in sizes]

    # --- dropout: one mask per sequence, the same at every step, as Keras's -------------------
    def dropout_masks(self, x_step, h_step, training):
        """(input masks, recurrent masks): lists of `masks_per_gate` scaled 0/1 masks, or None
        where that dropout is off (not training, or a rate of 0 or 1)."""
        from ..engine.ops import ones_like
        from ..nn import dropout

        def masks(like, rate):
            if not training or rate == 0:
                return None             # (a rate of 1 is refused by dropout, as in Keras)
            return [dropout(ones_like(like), rate) for _ in range(self.masks_per_gate)]
        return masks(x_step, self.dropout), masks(h_step, self.recurrent_dropout)

    # --- the two parts of a step ----------------------------------------------------------------
    def project(self, x, input_masks=None):
        """x @ kernel (+ the input bias) for a step (batch, features) or a whole sequence
        (batch, steps, features), with the input dropout masks (per gate when several)."""
        from ..engine.ops import add, concat, matmul, reshape

        def times(a, kernel):
            if a._value.ndim == 2:
                return matmul(a, kernel)
            batch, steps, features = a._value.shape
            flat = matmul(reshape(a, (batch * steps, features)), kernel)
            return reshape(flat, (batch, steps, kernel._value.shape[1]))

        def dropped(mask):
            return x * (mask if x._value.ndim == 2 else mask[:, None, :])

        if input_masks is None:
            out = times(x, self.kernel)
        elif len(input_masks) == 1:
            out = times(dropped(input_masks[0]), self.kernel)
        else:
            u = self.units
            out = concat([times(dropped(m), self.kernel[:, g * u:(g + 1) * u])
                          for g, m in enumerate(input_masks)], axis=-1)
        bias = self._input_bias()
        return out if bias is None else add(out, bias)

    def _input_bias(self):
        return self.bias

    def _recurrent(self, h, masks, kernel):
        """h @ kernel for all gates in one matmul (per gate when each has its own mask)."""
        from ..engine.ops import concat, matmul
        if masks is None:
            return matmul(h, kernel)
        if len(masks) == 1:
            return matmul(h * masks[0], kernel)
        u = self.units
        return concat([matmul(h * masks[g], kernel[:, g * u:(g + 1) * u])
                       for g in range(kernel._value.shape[1] // u)], axis=-1)

    def step(self, projected, states, recurrent_masks=None):
        raise NotImplementedError

    def call(self, inputs, states, training=None):
        x = _float_input(inputs, self._dtype, f"{type(self).__name__} {self.name!r}")
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        in_masks, rec_masks = self.dropout_masks(x, states[0], training)
        output, new_states = self.step(self.project(x, in_masks), states, rec_masks)
        return output, new_states


class SimpleRNNCell(_Cell):
    """`h = activation(x @ kernel + bias + h_prev @ recurrent_kernel)`."""

    def __init__(self, units, activation="tanh", use_bias=True, **kwargs):
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)

    def step(self, projected, states, recurrent_masks=None):
        h = self.activation(projected + self._recurrent(states[0], recurrent_masks,
                                                        self.recurrent_kernel))
        return h, [h]


class LSTMCell(_Cell):
    """Gates i, f, o = sigmoid(z), candidate g = tanh(z), from `z = x @ kernel +
    h @ recurrent_kernel + bias` split in four; `c = f·c_prev + i·g`, `h = o·tanh(c)`;
    states [h, c]. `unit_forget_bias=True` starts the forget gate's bias at 1."""
    gates = 4

    def __init__(self, units, unit_forget_bias=True, **kwargs):
        super().__init__(units, **kwargs)
        self.unit_forget_bias = bool(unit_forget_bias)

    @property
    def state_size(self):
        return [self.units, self.units]

    def _bias_init(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        base, u = self.bias_initializer, self.units

        def forget_one(shape, dtype=None, **kwargs):
            from ..engine.ops import concat, ones
            return concat([base((u,), dtype), ones((u,), dtype), base((2 * u,), dtype)], 0)
        return forget_one

    def step(self, projected, states, recurrent_masks=None):
        from ..engine.ops import split
        h, c = states
        z = projected + self._recurrent(h, recurrent_masks, self.recurrent_kernel)
        zi, zf, zc, zo = split(z, 4, axis=-1)
        act, rec = self.activation, self.recurrent_activation
        c = rec(zf) * c + rec(zi) * act(zc)
        h = rec(zo) * act(c)
        return h, [h, c]


class GRUCell(_Cell):
    """Update and reset gates z, r = sigmoid(...), candidate hh = tanh(x_h + r·(h @ R_h)) with
    `reset_after=True` (Keras 2's default, the cuDNN layout), tanh(x_h + (r·h) @ R_h) without;
    `h = z·h_prev + (1 - z)·hh`."""
    gates = 3

    def __init__(self, units, reset_after=True, **kwargs):
        super().__init__(units, **kwargs)
        self.reset_after = bool(reset_after)

    def _bias_shape(self):
        return (2, 3 * self.units) if self.reset_after else (3 * self.units,)

    def _input_bias(self):
        if self.bias is None or not self.reset_after:
            return self.bias
        return self.bias[0]

    def step(self, projected, states, recurrent_masks=None):
        from ..engine.ops import split
        h = states[0]
        u = self.units
        x_z, x_r, x_h = split(projected, 3, axis=-1)
        masks = recurrent_masks
        if self.reset_after:
            inner = self._recurrent(h, masks, self.recurrent_kernel)
            if self.bias is not None:
                inner = inner + self.bias[1]
            r_z, r_r, r_h = split(inner, 3, axis=-1)
        else:
            inner = self._recurrent(h, None if masks is None else masks[:2],
                                    self.recurrent_kernel[:, :2 * u])
            r_z, r_r = split(inner, 2, axis=-1)
        z = self.recurrent_activation(x_z + r_z)
        r = self.recurrent_activation(x_r + r_r)
        if self.reset_after:
            hh = self.activation(x_h + r * r_h)
        else:
            h_for_candidate = h if masks is None else h * masks[-1]
            hh = self.activation(x_h + self._recurrent(r * h_for_candidate, None,
                                                       self.recurrent_kernel[:, 2 * u:]))
        h = z * h + (1 - z) * hh
        return h, [h]
