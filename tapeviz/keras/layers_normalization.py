"""`BatchNormalization`, as Keras 2's (tf-keras).

Training (`training=True`, which `fit` and an enclosing training call pass down): the batch's
mean and biased variance over every axis but `axis` normalize the input, and the moving
statistics move toward them: moving = moving · momentum + batch · (1 - momentum). Where
TensorFlow would use its fused kernel (a rank-4 input normalized over axis 1 or 3), the
variance the moving variance moves toward is the unbiased one (· n / (n - 1)), as that kernel
computes it. Inference (`training=False` or None, or a layer with `trainable = False`): the
moving statistics normalize. The moving statistics are non-trainable variables, updated in
place (their update is not an op on the tape, as TensorFlow's fused kernel's is not).
"""
from __future__ import annotations

import numpy as np

from ..engine.ops import cast, reshape
from ..engine.ops.normalization import batch_normalization, moments
from ..explain.notes import batchnorm_inference
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input

_FUSED_EPSILON = 1.001e-5     # the fused kernel's smallest epsilon (Keras raises smaller ones)


class BatchNormalization(Layer):
    """Normalize each feature (the `axis` entries) by batch statistics while training and by
    moving statistics at inference, then scale by `gamma` and shift by `beta`.

    >>> import tapeviz as tv
    >>> bn = tv.keras.layers.BatchNormalization()
    >>> y = bn(tv.constant([[1.0], [3.0]]), training=True)     # (x - 2) / √(1 + 0.001)
    >>> [round(float(v), 4) for v in tv.reshape(y, [-1])]
    [-0.9995, 0.9995]
    >>> [v.name.split("/")[1] for v in bn.weights]
    ['gamma:0', 'beta:0', 'moving_mean:0', 'moving_variance:0']
    >>> [round(float(v), 4) for v in bn.moving_variance.numpy()]   # 0.99 · 1 + 0.01 · 1
    [1.0]
    """

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, synchronized=False, fused=None, renorm=False,
                 virtual_batch_size=None, adjustment=None, **kwargs):
        super().__init__(**kwargs)
        self.beta_constraint = _constraints.get(beta_constraint)
        self.gamma_constraint = _constraints.get(gamma_constraint)
        self.beta_regularizer = _regularizers.get(beta_regularizer)
        self.gamma_regularizer = _regularizers.get(gamma_regularizer)
        if synchronized:
            raise ValueError("BatchNormalization: synchronized=True is for several devices; "
                             "tapeviz has one. Fix: synchronized=False")
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise ValueError("BatchNormalization: renorm, virtual_batch_size and adjustment "
                             "are not supported by tapeviz. Fix: leave them at their defaults")
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else axis
        self.momentum, self.epsilon = float(momentum), float(epsilon)
        self.center, self.scale = bool(center), bool(scale)
        self.fused = fused
        self.beta_initializer = _initializers.get(beta_initializer)
        self.gamma_initializer = _initializers.get(gamma_initializer)
        self.moving_mean_initializer = _initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = _initializers.get(moving_variance_initializer)
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        if input_shape is None:
            raise ValueError("BatchNormalization: the input shape must be known to build the "
                             "layer. Fix: call it on a tensor, or give input_shape=")
        rank = len(input_shape)
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        for a in axes:
            if not isinstance(a, (int, np.integer)) or not -rank <= a < rank:
                raise ValueError(f"Invalid value for `axis` argument. Expected 0 <= axis < "
                                 f"inputs.rank (with inputs.rank={rank}). Received: "
                                 f"axis={tuple(axes)} (BatchNormalization {self.name!r}, input "
                                 f"shape {tuple(input_shape)}). Fix: an axis in [-{rank}, "
                                 f"{rank}), usually -1 (the channels)")
        self._axes = sorted({int(a) % rank for a in axes})
        self.axis = self._axes if isinstance(self.axis, list) else self._axes[0]
        for a in self._axes:
            if input_shape[a] is None:
                raise ValueError(f"Input has undefined `axis` dimension. Received input with "
                                 f"shape {tuple(input_shape)} and axis={self.axis}")
        self._rank = rank
        single = len(self._axes) == 1
        param_shape = (int(input_shape[self._axes[0]]),) if single else tuple(
            int(input_shape[i]) if i in self._axes else 1 for i in range(rank))
        # where a single axis is not the last, the (C,) parameters broadcast as (1, C, 1, 1)
        self._broadcast = None if not single or self._axes[0] == rank - 1 else tuple(
            int(input_shape[i]) if i in self._axes else 1 for i in range(rank))
        uses_fused = rank in (4, 5) and self._axes in ([1], [rank - 1])
        if self.fused is None:
            self.fused = uses_fused
        elif self.fused and not uses_fused:
            raise ValueError(f"Unsupported axis. The use of `fused=True` is only possible with "
                             f"`axis=1` or `axis={rank - 1}` for {rank}D input tensors. "
                             f"Received: axis={self.axis}. Fix: leave fused=None")
        if self.fused:
            self.epsilon = max(self.epsilon, _FUSED_EPSILON)
        # (float32 even under a mixed policy, where the layer computes in float32, as Keras)
        f32 = {"experimental_autocast": False}
        if self.scale:
            self.gamma = self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint, **f32)
        if self.center:
            self.beta = self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint, **f32)
        self.moving_mean = self.add_weight("moving_mean", param_shape, trainable=False,
                                           initializer=self.moving_mean_initializer, **f32)
        self.moving_variance = self.add_weight("moving_variance", param_shape, trainable=False,
                                               initializer=self.moving_variance_initializer,
                                               **f32)
        self.built = True

    def call(self, inputs, training=None):
        x = _float_input(inputs, self._dtype, f"BatchNormalization layer {self.name!r}")
        half = x.dtype.name == "float16"      # (mixed precision: Keras computes in float32)
        if half:
            x = cast(x, "float32")
        if x._value.ndim != self._rank:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected ndim={self._rank}, found ndim={x._value.ndim}. Full "
                             f"shape received: {tuple(x.shape)}")
        if training is None and self.trainable:
            batchnorm_inference(self.name)     # (told once, when a tape records: notes.py)
        training = bool(training) and self.trainable     # (a frozen layer runs in inference)
        if training:
            reduce_axes = [i for i in range(self._rank) if i not in self._axes]
            mean, variance = moments(x, reduce_axes, keepdims=len(self._axes) > 1)
            self._update_moving(mean, variance, x)
        else:
            mean, variance = self.moving_mean, self.moving_variance
        gamma, beta = self.gamma, self.beta
        if self._broadcast is not None:
            mean, variance = reshape(mean, self._broadcast), reshape(variance, self._broadcast)
            gamma = None if gamma is None else reshape(gamma, self._broadcast)
            beta = None if beta is None else reshape(beta, self._broadcast)
        out = batch_normalization(x, mean, variance, beta, gamma, self.epsilon)
        return cast(out, "float16") if half else out

    def _update_moving(self, mean, variance, x):
        from .functional import probing
        if probing():      # a stand-in call of the functional API only learns shapes
            return
        n = x._value.size // int(np.prod([x._value.shape[a] for a in self._axes]))
        batch_variance = variance.numpy()
        if self.fused and n > 1:
            batch_variance = batch_variance * np.float32(n / (n - 1))
        decay = np.asarray(1.0 - self.momentum, self.moving_mean._value.dtype)
        for var, value in ((self.moving_mean, mean.numpy()),
                           (self.moving_variance, batch_variance)):
            old = var.numpy()
            var.assign(old - (old - value.astype(old.dtype)) * decay)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)
