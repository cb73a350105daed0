"""Recurrent layers: `RNN(cell)`, `SimpleRNN`, `LSTM`, `GRU`, unrolled on the tape.

Each time step is ordinary ops in the name scope `<layer>/step_<t>` (a slice of the input
projection, one matmul of the state by the recurrent kernel for all gates, the gates'
activations), so a recording shows every step and explains a saturated gate like any other
op. The input is multiplied by the kernel once for the whole sequence (one matmul), as
TensorFlow's fused kernels do.

Inputs are (batch, timesteps, features); `return_sequences` gives every step's output
(batch, timesteps, units), else the last; `return_state` adds the final states. A mask
(from `Embedding(mask_zero=True)`, `Masking`, or `mask=`) marks padding: a masked step
carries the previous output and states through unchanged, as Keras's.

>>> import tapeviz as tv
>>> lstm = tv.keras.layers.LSTM(3, return_sequences=True)
>>> lstm(tv.ones((2, 5, 4))).shape
TensorShape([2, 5, 3])
>>> [v.name for v in lstm.weights]
['lstm/lstm_cell/kernel:0', 'lstm/lstm_cell/recurrent_kernel:0', 'lstm/lstm_cell/bias:0']
"""
from __future__ import annotations

import numpy as np

from ..engine import nest
from ..engine.tape import name_scope
from ..engine.tensor import Tensor, TensorShape
from . import masking as _masking
from .layers_base import Layer, _float_input
from .recurrent_cells import GRUCell, LSTMCell, SimpleRNNCell, _Cell


class RNN(Layer):
    """Runs `cell` over the time steps. The cell may be a tapeviz cell or any layer with
    `state_size` and `call(inputs, states) -> (output, new_states)`, as in Keras."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, time_major=False, zero_output_for_mask=False,
                 **kwargs):
        if isinstance(cell, (list, tuple)):
            raise NotImplementedError(
                "RNN: a list of cells (StackedRNNCells) is not supported by tapeviz. Fix: stack "
                "recurrent layers instead, e.g. LSTM(32, return_sequences=True) then LSTM(32)")
        if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
            raise ValueError(f"Argument `cell` should have a `call` method and a `state_size` "
                             f"attribute. Received: cell={cell!r}. Fix: e.g. "
                             "tf.keras.layers.RNN(tf.keras.layers.LSTMCell(32))")
        super().__init__(**kwargs)
        if stateful:
            raise NotImplementedError(
                f"{type(self).__name__}: stateful=True is not supported by tapeviz (the final "
                "states are not kept between batches). Fix: stateful=False, and carry the state "
                "yourself: call the layer with return_state=True and pass the returned states "
                "as initial_state= on the next batch")
        self.cell = cell
        self.return_sequences, self.return_state = bool(return_sequences), bool(return_state)
        self.go_backwards, self.stateful, self.unroll = bool(go_backwards), False, bool(unroll)
        self.time_major = bool(time_major)     # (timesteps, batch, ...) in and out
        self.zero_output_for_mask = bool(zero_output_for_mask)
        self.supports_masking = True

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        # as Keras: a recurrent layer's second positional argument is its initial state
        if constants is not None:
            raise NotImplementedError(f"{type(self).__name__}: constants= is not supported by "
                                      "tapeviz. Fix: concatenate them to each step's input")
        if initial_state is not None:
            kwargs["initial_state"] = initial_state
        return super().__call__(inputs, **kwargs)

    @property
    def states(self) -> list:
        return [None] * len(self._state_sizes())

    def _state_sizes(self) -> list:
        size = self.cell.state_size
        return list(size) if isinstance(size, (list, tuple)) else [size]

    def build(self, input_shape):
        if isinstance(input_shape, list) and input_shape and not _is_shape(input_shape):
            input_shape = input_shape[0]           # [inputs, *initial_state] shapes
        if self.time_major and input_shape is not None:
            input_shape = _map_shapes(input_shape, _swap_leading)
        if input_shape is None or self.cell.built:
            self.built = True
            return
        nested = not _is_shape(input_shape)
        shapes = []
        _map_shapes(input_shape, shapes.append)
        if nested:
            self._refuse_nested(shapes)
        for shape in shapes:
            if len(shape) != 3 and not (nested and len(shape) > 3):
                raise ValueError(
                    f'Input 0 of layer "{self.name}" is incompatible with the layer: expected '
                    f"ndim=3, found ndim={len(shape)}. Full shape received: {tuple(shape)}. "
                    "Fix: inputs of shape (batch, timesteps, features), e.g. "
                    "tf.expand_dims(x, -1) for one feature")
        # the cell builds on one time step: each input's shape without its time axis
        step_shape = _map_shapes(input_shape, lambda shape: TensorShape(
            (shape[0],) + tuple(shape[2:]))) if nested else (input_shape[0], input_shape[-1])
        self.cell._maybe_build(step_shape)
        self.cell.built = True
        self.built = True
        if not isinstance(self.cell, _Cell):
            self._build_cell_sublayers(step_shape)

    def _refuse_nested(self, shapes):
        """SimpleRNN/LSTM/GRU cells take one input tensor, as Keras's input spec says."""
        if isinstance(self.cell, _Cell):
            raise ValueError(
                f'Layer "{self.name}" expects 1 input(s), but it received {len(shapes)} input '
                f"tensors. Inputs received: shapes {[tuple(s) for s in shapes]}. Fix: a list "
                "[inputs, *initial_state] (or initial_state=) passes initial states; several "
                "inputs go in one tensor (tf.concat on the last axis) or to a cell of your own")

    def _build_cell_sublayers(self, step_shape):
        """Keras calls the cell on a symbolic step when the RNN is built on a known shape
        (`input_shape=`, an `Input`): layers a user's cell first calls in `call` get their
        variables then, named `<rnn>/<cell>/<layer>/...`. One step on zeros does the same."""
        from ..engine.ops import zeros
        from .functional import stand_in_call

        def zeros_of(shape):
            return zeros(tuple(2 if d is None else d for d in shape), self._dtype)

        x = _map_shapes(step_shape, zeros_of)
        with stand_in_call():
            self._custom_step(x, self.get_initial_state(x), None)

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        return [out] + [None] * len(self._state_sizes()) if self.return_state else out

    def compute_output_shape(self, input_shape):
        if self.time_major:
            input_shape = _swap_leading(input_shape)
        units = self.cell.output_size if hasattr(self.cell, "output_size") else \
            self._state_sizes()[0]
        out = (input_shape[0], input_shape[1], units) if self.return_sequences else \
            (input_shape[0], units)
        if self.time_major and self.return_sequences:
            out = _swap_leading(out)
        if self.return_state:
            return [out] + [(input_shape[0], s) for s in self._state_sizes()]
        return out

    def get_initial_state(self, inputs):
        from ..engine.ops import zeros
        batch = nest.flatten(inputs)[0].shape[0]
        # a state's size: a number of units, or a shape (a TensorShape or a list of sizes)
        return [zeros((batch,) + (tuple(s) if isinstance(s, (list, tuple)) else (s,)),
                      self._dtype) for s in self._state_sizes()]

    def call(self, inputs, mask=None, training=None, initial_state=None):
        from ..engine.ops import expand_dims, unstack, where, zeros_like
        if isinstance(inputs, list):            # Keras's rule: a list is [inputs, *states]
            inputs, initial_state = inputs[0], (list(inputs[1:]) or initial_state)
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        where_ = f"{type(self).__name__} layer {self.name!r}"
        # a tuple or dict of (batch, timesteps, ...) tensors is one nested input
        flat = [_float_input(t, self._dtype, where_) for t in nest.flatten(inputs)]
        if self.time_major:             # the steps run batch-major, as Keras runs them
            flat = [_swap_leading(f) for f in flat]
            inputs = nest.pack_sequence_as(inputs, flat)
        x = flat[0]
        if x._value.ndim != 3 and not (nest.is_nested(inputs) and x._value.ndim > 3):
            self.build(tuple(x.shape))                     # raises the ndim error
        if not self.cell.built:       # (a nested input's shapes are only known here)
            self.build(nest.pack_sequence_as(inputs, [f.shape for f in flat]))
        batch, steps = x._value.shape[:2]
        states = self._initial_states(inputs, initial_state)
        if mask is not None:
            mask = _masking.as_mask(mask, where_, (batch, steps))
            step_masks = unstack(expand_dims(mask, -1), axis=1)     # (batch, 1) each
        cell = self.cell
        builtin = isinstance(cell, _Cell)
        if builtin:
            if nest.is_nested(inputs):
                self._refuse_nested([tuple(f.shape) for f in flat])
            in_masks, rec_masks = cell.dropout_masks(x[:, 0], states[0], training)
            # one matmul for every step, cut into steps by one op (its gradient a concat)
            projected = unstack(cell.project(x, in_masks), axis=1)
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outputs, previous = [], None
        for t in order:
            with name_scope(f"step_{t}"):
                if builtin:
                    output, new_states = cell.step(projected[t], states, rec_masks)
                else:
                    x_t = nest.pack_sequence_as(inputs, [f[:, t] for f in flat])
                    output, new_states = self._custom_step(x_t, states, training)
                if mask is not None:
                    keep = step_masks[t]
                    flat_out = nest.flatten(output)
                    if previous is None or self.zero_output_for_mask:
                        previous = [zeros_like(o) for o in flat_out]
                    output = nest.pack_sequence_as(output, [
                        where(keep, new, old) for new, old in zip(flat_out, previous)])
                    new_states = [where(keep, new, old) for new, old in zip(new_states, states)]
            outputs.append(output)
            previous, states = nest.flatten(output), new_states
        if not outputs:
            raise ValueError(f"{where_}: the input has 0 time steps (shape {tuple(x.shape)}). "
                             "Fix: give at least one step")
        out = _stack_steps(outputs) if self.return_sequences else outputs[-1]
        if self.time_major and self.return_sequences:
            out = nest.pack_sequence_as(out, [_swap_leading(t) for t in nest.flatten(out)])
        return [out] + list(states) if self.return_state else out

    def _initial_states(self, inputs, initial_state) -> list:
        if initial_state is None:
            return self.get_initial_state(inputs)
        given = list(initial_state) if isinstance(initial_state, (list, tuple)) else \
            [initial_state]
        sizes = self._state_sizes()
        if len(given) != len(sizes):
            names = ", ".join(["h", "c"][:len(sizes)] + ["s"] * (len(sizes) - 2))
            raise ValueError(f"Layer has {len(sizes)} states but was passed {len(given)} "
                             f"initial states. Fix: {type(self).__name__} takes "
                             f"initial_state=[{names}], each of shape (batch, units)")
        return [_float_input(s, self._dtype, f"{self.name} initial_state") for s in given]

    def _custom_step(self, x_t, states, training):
        """A user's cell, called as Keras calls it: `cell(inputs, states)`."""
        from .layers_base import _accepts
        kwargs = {"training": training} if _accepts(self.cell.call, "training") else {}
        output, new_states = self.cell(x_t, states, **kwargs)
        if isinstance(new_states, Tensor) or not isinstance(new_states, (list, tuple)):
            new_states = [new_states]
        return output, list(new_states)


def _is_shape(value) -> bool:
    """A shape (a TensorShape or a tuple/list of sizes), not a structure of shapes."""
    return isinstance(value, (list, tuple)) and all(
        d is None or isinstance(d, (int, np.integer)) for d in value)


def _map_shapes(shapes, fn):
    """``fn`` applied to each shape of a nested structure of shapes, the structure kept."""
    if _is_shape(shapes):
        return fn(shapes)
    if isinstance(shapes, dict):
        return {k: _map_shapes(v, fn) for k, v in shapes.items()}
    return type(shapes)(_map_shapes(v, fn) for v in shapes)


def _swap_leading(x):
    """A tensor or shape with its first two axes swapped: (timesteps, batch, ...) and back."""
    if isinstance(x, Tensor):
        from ..engine.ops import transpose
        return transpose(x, [1, 0] + list(range(2, x._value.ndim)))
    return TensorShape((x[1], x[0]) + tuple(x[2:]))


def _stack_steps(outputs):
    """Each step's output (a tensor or a nested structure of them) stacked on axis 1."""
    from ..engine.ops import stack
    flat = [nest.flatten(o) for o in outputs]
    return nest.pack_sequence_as(outputs[0], [stack([f[i] for f in flat], axis=1)
                                              for i in range(len(flat[0]))])


class _CellLayer(RNN):
    """`SimpleRNN`, `LSTM`, `GRU`: an RNN of a cell named `<kind>_cell`, made from the same
    arguments; its settings (`units`, `activation`, ...) are read through to the cell."""
    cell_class = _Cell

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal",
                 bias_initializer="zeros", kernel_regularizer=None, recurrent_regularizer=None,
                 bias_regularizer=None, activity_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, return_sequences=False, return_state=False,
                 go_backwards=False, stateful=False, unroll=False, time_major=False,
                 **kwargs):
        cell_kwargs = {k: kwargs.pop(k) for k in ("unit_forget_bias", "reset_after",
                                                   "implementation") if k in kwargs}
        self._config = dict(
            units=units, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, return_sequences=return_sequences,
            return_state=return_state, go_backwards=go_backwards, stateful=stateful,
            unroll=unroll, time_major=time_major, **cell_kwargs, **kwargs)
        cell_args = dict(activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, dropout=dropout,
                         recurrent_dropout=recurrent_dropout, **cell_kwargs)
        if self.cell_class is not SimpleRNNCell:
            cell_args["recurrent_activation"] = recurrent_activation
        cell = self.cell_class(units, name=self.cell_name, dtype=kwargs.get("dtype"),
                               **cell_args)
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         time_major=time_major, activity_regularizer=activity_regularizer,
                         **kwargs)

    def with_config(self, **changes):
        """A fresh layer of the same arguments, some changed (Bidirectional's copies)."""
        return type(self)(**{**self._config, **changes})

    def __getattr__(self, name):
        # units, activation, dropout, reset_after, ...: the cell's (only reached when the
        # layer itself has no such attribute)
        if name.startswith("_") or name in ("cell",):
            raise AttributeError(name)
        return getattr(self.__dict__["cell"], name) if "cell" in self.__dict__ else \
            object.__getattribute__(self, name)


class SimpleRNN(_CellLayer):
    """A fully connected RNN: `h_t = tanh(x_t @ kernel + h_{t-1} @ recurrent_kernel + bias)`."""
    cell_class, cell_name = SimpleRNNCell, "simple_rnn_cell"

    def __init__(self, units, activation="tanh", **kwargs):
        super().__init__(units, activation=activation, **kwargs)


class LSTM(_CellLayer):
    """Long short-term memory (Hochreiter 1997): states [h, c]; see `LSTMCell`."""
    cell_class, cell_name = LSTMCell, "lstm_cell"


class GRU(_CellLayer):
    """Gated recurrent unit (Cho et al. 2014), `reset_after=True` by default; see `GRUCell`."""
    cell_class, cell_name = GRUCell, "gru_cell"
