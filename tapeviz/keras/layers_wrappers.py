"""Layer wrappers: `Bidirectional` (a recurrent layer run forwards and backwards) and
`TimeDistributed` (a layer applied to every time step)."""
from __future__ import annotations

from ..engine.convert import convert_to_tensor
from ..engine.tape import name_scope
from ..engine.tensor import Tensor
from .layers_base import Layer
from .layers_recurrent import RNN, _CellLayer

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


class Bidirectional(Layer):
    """Two copies of a recurrent layer, `forward_<name>` and `backward_<name>` (the second with
    `go_backwards` flipped), their outputs merged by `merge_mode` ('concat', 'sum', 'mul',
    'ave', or None for the pair); the backward outputs are put back in time order first.

    >>> import tapeviz as tv
    >>> bi = tv.keras.layers.Bidirectional(tv.keras.layers.GRU(2, return_sequences=True))
    >>> bi(tv.ones((1, 4, 3))).shape
    TensorShape([1, 4, 4])
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `Bidirectional` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer!r}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode!r}. Merge mode should "
                             'be one of {"sum", "mul", "ave", "concat", None}')
        if not isinstance(layer, _CellLayer) or (backward_layer is not None and
                                                 not isinstance(backward_layer, RNN)):
            raise NotImplementedError(
                f"Bidirectional of a {type(layer).__name__} layer is not supported by tapeviz "
                "(it wraps SimpleRNN, LSTM and GRU layers). Fix: e.g. "
                "Bidirectional(tf.keras.layers.LSTM(units))")
        if weights is not None:
            raise NotImplementedError("Bidirectional: weights= is not supported by tapeviz. "
                                      "Fix: call layer.set_weights(weights) once it is built")
        super().__init__(**kwargs)
        self.__dict__["layer"] = layer     # (not a sublayer: the copies below hold the weights)
        self.forward_layer = layer.with_config(name="forward_" + layer.name)
        self.backward_layer = backward_layer if backward_layer is not None else \
            layer.with_config(name="backward_" + layer.name,
                              go_backwards=not layer.go_backwards)
        if backward_layer is not None:
            backward_layer._name = backward_layer._scope_name = "backward_" + backward_layer.name
        if self.forward_layer.return_sequences != self.backward_layer.return_sequences or \
                self.forward_layer.return_state != self.backward_layer.return_state:
            raise ValueError("Forward layer and backward layer should have the same "
                             "`return_sequences` and `return_state`. Fix: build both with the "
                             "same values")
        for rnn in (self.forward_layer, self.backward_layer):
            rnn.zero_output_for_mask = rnn.return_sequences       # as Keras forces it
        self.merge_mode = merge_mode
        self.return_sequences = self.forward_layer.return_sequences
        self.return_state = self.forward_layer.return_state
        self.supports_masking = True

    def _sublayers(self):
        return [self.forward_layer, self.backward_layer]

    def build(self, input_shape):
        for rnn in (self.forward_layer, self.backward_layer):
            with name_scope(rnn.name):
                rnn.build(input_shape)
        self.built = True

    def call(self, inputs, training=None, mask=None, initial_state=None):
        from ..engine.ops import concat
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, training=training, mask=mask,
                               initial_state=forward_state)
        y_rev = self.backward_layer(inputs, training=training, mask=mask,
                                    initial_state=backward_state)
        states = []
        if self.return_state:
            states, y, y_rev = list(y[1:]) + list(y_rev[1:]), y[0], y_rev[0]
        if self.return_sequences:
            y_rev = y_rev[:, ::-1]
        if self.merge_mode == "concat":
            output = concat([y, y_rev], axis=-1)
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            return (output if self.merge_mode is None else [output]) + states
        return output

    def compute_mask(self, inputs, mask=None):
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        outs = [out, out] if self.merge_mode is None else [out]
        if self.return_state:
            return outs + [None] * 2 * len(self.forward_layer._state_sizes())
        return outs if self.merge_mode is None else out

    def compute_output_shape(self, input_shape):
        shape = self.forward_layer.compute_output_shape(input_shape)
        out, states = (shape[0], list(shape[1:])) if self.return_state else (shape, [])
        if self.merge_mode == "concat":
            out = tuple(out[:-1]) + (out[-1] * 2,)
        outs = [out, out] if self.merge_mode is None else [out]
        if self.return_state:
            return outs + states + states
        return outs if self.merge_mode is None else out


class TimeDistributed(Layer):
    """`layer` applied to each time step: (batch, steps, ...) folded to (batch·steps, ...),
    the layer called once, and unfolded. Its weights are created in this layer's name scope
    (`time_distributed/kernel:0`), as Keras's."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `TimeDistributed` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer!r}")
        super().__init__(**kwargs)
        self.layer = layer
        self.supports_masking = True

    def build(self, input_shape):
        if input_shape is not None and len(input_shape) < 3:
            raise ValueError(f"`TimeDistributed` Layer should be passed an `input_shape` with "
                             f"at least 3 dimensions, received: {tuple(input_shape)}. Fix: "
                             "inputs of shape (batch, timesteps, ...)")
        if not self.layer.built:
            self.layer.build((None,) + tuple(input_shape[2:]))
            self.layer.built = True
        self.built = True

    def call(self, inputs, training=None):
        from ..engine.ops import reshape
        from .layers_base import _accepts
        x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
        batch, steps = x._value.shape[:2]
        folded = reshape(x, (-1,) + tuple(x.shape[2:]))
        kwargs = {"training": training} if training is not None and _accepts(
            self.layer.call, "training") else {}
        y = self.layer(folded, **kwargs)
        return reshape(y, (batch, steps) + tuple(y.shape[1:]))

    def compute_output_shape(self, input_shape):
        inner = self.layer.compute_output_shape((input_shape[0],) + tuple(input_shape[2:]))
        return (input_shape[0], input_shape[1]) + tuple(inner[1:])
