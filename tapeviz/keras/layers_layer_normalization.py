"""`LayerNormalization`, as Keras 2's (tf-keras): each example normalized over `axis` (the
features) by its own mean and biased variance, then scaled by `gamma` and shifted by `beta`,
which have the shape of the normalized axes. Unlike `BatchNormalization` there are no moving
statistics, so training and inference compute the same.
"""
from __future__ import annotations

from ..engine.ops import cast, reshape
from ..engine.ops.normalization import batch_normalization, moments
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input


class LayerNormalization(Layer):
    """(x - mean) / √(variance + ε) · gamma + beta, the moments over `axis` of each example.

    >>> import tapeviz as tv
    >>> ln = tv.keras.layers.LayerNormalization()
    >>> [round(float(v), 4) for v in tv.reshape(ln(tv.constant([[1.0, 3.0]])), [-1])]
    [-0.9995, 0.9995]
    >>> [v.name.split("/")[1] for v in ln.weights]
    ['gamma:0', 'beta:0']
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', "
                            f"but received: {axis!r} (LayerNormalization {self.name!r})")
        self.epsilon, self.center, self.scale = float(epsilon), bool(center), bool(scale)
        self.beta_initializer = _initializers.get(beta_initializer)
        self.gamma_initializer = _initializers.get(gamma_initializer)
        self.beta_regularizer = _regularizers.get(beta_regularizer)
        self.gamma_regularizer = _regularizers.get(gamma_regularizer)
        self.beta_constraint = _constraints.get(beta_constraint)
        self.gamma_constraint = _constraints.get(gamma_constraint)
        self.supports_masking = True
        self.gamma = self.beta = None

    def build(self, input_shape):
        if input_shape is None:
            raise ValueError("LayerNormalization: the input shape must be known to build the "
                             "layer. Fix: call it on a tensor, or give input_shape=")
        rank = len(input_shape)
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        for a in axes:
            if not -rank <= a < rank:
                raise ValueError(f"Invalid value for `axis` argument. Expected 0 <= axis < "
                                 f"inputs.rank (with inputs.rank={rank}). Received: "
                                 f"axis={tuple(axes)} (LayerNormalization {self.name!r}, input "
                                 f"shape {tuple(input_shape)}). Fix: an axis in [-{rank}, "
                                 f"{rank}), usually -1 (the features)")
        self._axes = sorted({int(a) % rank for a in axes})
        if len(self._axes) != len(axes):
            raise ValueError(f"Duplicate axis: {tuple(axes)} (LayerNormalization {self.name!r})")
        self.axis = self._axes if isinstance(self.axis, list) else self._axes[0]
        self._rank = rank
        param_shape = [int(input_shape[a]) for a in self._axes]
        trailing = self._axes == list(range(rank - len(self._axes), rank))
        # parameters of axes that are not the trailing ones broadcast as (1, C, 1, ...)
        self._broadcast = None if trailing else [
            int(input_shape[i]) if i in self._axes else 1 for i in range(rank)]
        # tf-keras's fused kernel (trailing contiguous axes, ε ≥ 1.001e-5, float32 weights)
        # normalizes first and applies gamma and beta after; otherwise they go in together
        self._fused = (trailing and self.epsilon >= 1.001e-5 and self.dtype == "float32")
        # (float32 even under a mixed policy, as Keras's)
        if self.scale:
            self.gamma = self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint,
                                         experimental_autocast=False)
        if self.center:
            self.beta = self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint,
                                        experimental_autocast=False)
        self.built = True

    def call(self, inputs):
        x = _float_input(inputs, self._dtype, f"LayerNormalization layer {self.name!r}")
        if x._value.ndim != self._rank:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim={self._rank}, found ndim={x._value.ndim}. Full "
                             f"shape received: {tuple(x.shape)}")
        # under a mixed policy, Keras normalizes a float16 input in float32 (the fused kernel
        # rounds its output to float16 before gamma and beta, cast to float16, apply)
        half = x.dtype.name == "float16" and self.dtype == "float32"
        mean, variance = moments(cast(x, "float32") if half else x, self._axes, keepdims=True)
        gamma, beta = self.gamma, self.beta
        if self._broadcast is not None:
            gamma = None if gamma is None else reshape(gamma, self._broadcast)
            beta = None if beta is None else reshape(beta, self._broadcast)
        if not self._fused:
            out = batch_normalization(cast(x, "float32") if half else x, mean, variance, beta,
                                      gamma, self.epsilon)
            return cast(out, "float16") if half else out
        out = batch_normalization(cast(x, "float32") if half else x, mean, variance, None, None,
                                  self.epsilon)
        out = cast(out, "float16") if half else out
        if gamma is not None:
            out = out * cast(gamma, out.dtype)
        if beta is not None:
            out = out + cast(beta, out.dtype)
        return out

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)
