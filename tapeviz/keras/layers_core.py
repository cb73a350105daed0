"""The core layers: `Dense`, `Flatten`, `Activation`, `ReLU`, `Dropout` (and, below them,
`Reshape` and `Embedding`)."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor
from . import activations as _activations
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input


class Dense(Layer):
    """`activation(inputs @ kernel + bias)`; kernel shape (input_dim, units)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, (int, np.integer)) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"Dense: Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units!r} ({type(units).__name__}). "
                             "Fix: pass the number of outputs as an int, e.g. Dense(10)")
        self.units = int(units)
        self.activation = _activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = _initializers.get(kernel_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.kernel = None
        self.bias = None

    def _check_input_rank(self, input_shape):
        """Keras's input spec (min_ndim=2), checked when the layer is called, not by a direct
        `build((features,))`, which Keras accepts."""
        if input_shape is not None and len(input_shape) < 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected min_ndim=2, found ndim={len(input_shape)}. Full shape "
                             f"received: {tuple(input_shape)}. Fix: add a batch axis, e.g. "
                             "tv.reshape(x, (1, -1))")

    def _maybe_build(self, input_shape):
        self._check_input_rank(input_shape)
        super()._maybe_build(input_shape)

    def build(self, input_shape):
        if input_shape is None or len(input_shape) < 1 or input_shape[-1] is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        last = int(input_shape[-1])
        self.kernel = self.add_weight("kernel", (last, self.units),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs):
        from ..engine.ops import add, matmul, tensordot
        x = _float_input(inputs, self._dtype, f"Dense layer {self.name!r}")
        self._check_input_rank(tuple(x.shape))
        if x._value.shape[-1] != self.kernel._value.shape[0]:
            raise ValueError(
                f"Input 0 of layer {self.name!r} is incompatible with the layer: expected "
                f"axis -1 of input shape to have value {self.kernel._value.shape[0]}, but "
                f"received input with shape {tuple(x.shape)}. Fix: this layer was built for "
                f"inputs with {self.kernel._value.shape[0]} features")
        if x._value.ndim == 2:
            out = matmul(x, self.kernel)
        else:
            out = tensordot(x, self.kernel, [[x._value.ndim - 1], [0]])
        if self.use_bias:
            out = add(out, self.bias)
        # Keras lets code set `layer.activation = None` (Grad-CAM drops a softmax that way)
        return out if self.activation is None else self.activation(out)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1·d2·...); `data_format="channels_first"` moves the
    channel axis (1) last first, so the order of the values is the channels-last one."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last", "channels_first"):
            raise ValueError(f'The `data_format` argument must be one of "channels_first", '
                             f'"channels_last". Received: {data_format}')
        self.data_format = data_format or "channels_last"

    def call(self, inputs):
        from ..engine.ops import reshape, transpose
        x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
        if x._value.ndim == 0:
            raise ValueError("Flatten: expected min_ndim=1, found ndim=0: the input needs a batch "
                             "dimension, got a scalar. Fix: pass a batch, e.g. "
                             "tv.reshape(x, (1, 1))")
        if self.data_format == "channels_first" and x._value.ndim > 2:
            x = transpose(x, [0] + list(range(2, x._value.ndim)) + [1])
        return reshape(x, (x._value.shape[0], -1)) if x._value.ndim != 1 else \
            reshape(x, (x._value.shape[0], 1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        n = None if any(s is None for s in rest) else int(np.prod(rest)) if rest else 1
        return (input_shape[0], n)

    def get_config(self) -> dict:
        return {**super().get_config(), "data_format": self.data_format}


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class ReLU(Layer):
    """`K.relu(x, negative_slope, max_value, threshold)`: a rectifier, capped at `max_value`,
    `negative_slope·(x - threshold)` below `threshold`."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. "
                             f"Received: {max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError(f"negative_slope of a ReLU layer cannot be a negative value. "
                             f"Received: {negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError(f"threshold of a ReLU layer cannot be a negative value. "
                             f"Received: {threshold}")
        from .backend import floatx        # (kept as floatx NumPy scalars, as tf-keras)
        self.max_value = None if max_value is None else np.asarray(max_value, floatx())
        self.negative_slope = np.asarray(negative_slope, floatx())
        self.threshold = np.asarray(threshold, floatx())

    def call(self, inputs):
        from .backend import relu
        return relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                    threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


class Dropout(Layer):
    """`tv.nn.dropout` when called with `training=True`; the identity otherwise."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(rate, (str, bytes)) or not isinstance(rate, (int, float, np.number)):
            raise TypeError(f"Dropout: `rate` must be a float between 0 and 1, got {rate!r} "
                            f"({type(rate).__name__}). Fix: e.g. Dropout(0.5)")
        if not 0 <= rate <= 1:
            raise ValueError(f"Dropout: Invalid value received for argument `rate`. Expected a "
                             f"float value between 0 and 1. Received: rate={rate}. Fix: rate is "
                             "the fraction of inputs to drop, e.g. Dropout(0.5)")
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        from ..nn import dropout
        return dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class Reshape(Layer):
    """(batch, ...) -> (batch, *target_shape); one entry of `target_shape` may be -1.

    >>> import tapeviz as tv
    >>> tv.keras.layers.Reshape((2, -1))(tv.ones((5, 6))).shape
    TensorShape([5, 2, 3])
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        shape = (target_shape,) if isinstance(target_shape, (int, np.integer)) else \
            tuple(target_shape)
        if sum(s == -1 for s in shape) > 1 or any(
                not isinstance(s, (int, np.integer)) or (s < 1 and s != -1) for s in shape):
            raise ValueError(f"Reshape: target_shape must be positive integers with at most one "
                             f"-1 (the batch axis is not part of it), got {target_shape!r}. Fix: "
                             "e.g. Reshape((28, 28, 1))")
        self.target_shape = tuple(int(s) for s in shape)

    def call(self, inputs):
        from ..engine.ops import reshape
        x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
        return reshape(x, (x._value.shape[0],) + self.target_shape)

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        if -1 not in self.target_shape:
            return (input_shape[0],) + self.target_shape
        if any(s is None for s in rest):
            return (input_shape[0],) + tuple(None if s == -1 else s for s in self.target_shape)
        known = int(np.prod([s for s in self.target_shape if s != -1]))
        total = int(np.prod(rest))
        if known == 0 or total % known:
            raise ValueError(f"total size of new array must be unchanged, input_shape = "
                             f"{list(rest)}, output_shape = {list(self.target_shape)}")
        return (input_shape[0],) + tuple(total // known if s == -1 else s
                                         for s in self.target_shape)


class Embedding(Layer):
    """Rows of an (input_dim, output_dim) table, looked up by integer ids (`tv.gather`):
    (batch, ...) ids -> (batch, ..., output_dim) vectors."""

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, input_length=None, sparse=False,
                 **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.embeddings_regularizer = _regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = _constraints.get(embeddings_constraint)
        if sparse:
            raise ValueError("Embedding: sparse=True is not supported by tapeviz. Fix: "
                             "sparse=False")
        if any(not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v <= 0
               for v in (input_dim, output_dim)):
            raise ValueError(f"Both `input_dim` and `output_dim` should be positive, Received "
                             f"input_dim = {input_dim} and output_dim = {output_dim}. Fix: "
                             "input_dim is the vocabulary size, output_dim the vector size")
        self.input_dim, self.output_dim = int(input_dim), int(output_dim)
        self.embeddings_initializer = _initializers.get(embeddings_initializer)
        self.mask_zero, self.input_length = bool(mask_zero), input_length
        self.embeddings = None
        if self.mask_zero:
            from .masking import masks_made
            masks_made()

    def build(self, input_shape=None):
        self.embeddings = self.add_weight("embeddings", (self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs):
        from ..engine.ops import cast, gather
        ids = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
        if ids.dtype.name not in ("int32", "int64"):
            ids = cast(ids, "int32")           # as Keras: float ids are truncated
        return gather(self.embeddings, ids)

    def compute_mask(self, inputs, mask=None):
        """With `mask_zero=True`, where the ids are not 0 (the padding); else None."""
        if not self.mask_zero:
            return None
        from ..engine.ops import not_equal
        return not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)
