"""`RandomFourierFeatures` (`tf.keras.layers.experimental`): Keras's random-features map
`cos(x @ (unscaled_kernel / kernel_scale) + bias)`, which approximates a shift-invariant
kernel (Gaussian or Laplacian) by a dot product of the mapped inputs.

Its weights are Keras's: `unscaled_kernel` (input_dim, output_dim) drawn from a standard
normal ('gaussian') or a standard Cauchy ('laplacian') distribution, `bias` (output_dim,)
uniform in [0, 2π), both never trained, and `kernel_scale` (1,), kept non-negative, trainable
only when the layer is (`trainable=False` by default, as Keras's).
"""
from __future__ import annotations

import numpy as np

from ..engine.ops import add, cos, matmul
from . import initializers as _initializers
from .layers_base import Layer, _float_input

_KERNELS = ("gaussian", "laplacian")


class RandomFourierFeatures(Layer):
    def __init__(self, output_dim, kernel_initializer="gaussian", scale=None, trainable=False,
                 name=None, **kwargs):
        if not isinstance(output_dim, (int, np.integer)) or output_dim <= 0:
            raise ValueError(f"RandomFourierFeatures: `output_dim` should be a positive integer. "
                             f"Received: {output_dim!r}. Fix: e.g. output_dim=1024")
        if isinstance(kernel_initializer, str) and kernel_initializer.lower() not in _KERNELS:
            raise ValueError(f"RandomFourierFeatures: Unsupported `kernel_initializer`: "
                             f"{kernel_initializer!r} Expected one of: {_KERNELS}")
        if scale is not None and scale <= 0.0:
            raise ValueError(f"RandomFourierFeatures: When provided, `scale` should be a "
                             f"positive float. Received: {scale!r}. Fix: scale=None picks "
                             "Keras's default")
        super().__init__(trainable=trainable, name=name, **kwargs)
        self.output_dim = int(output_dim)
        self.kernel_initializer = kernel_initializer
        self.scale = scale

    def build(self, input_shape):
        if input_shape is None or len(input_shape) != 2:
            rank = None if input_shape is None else len(input_shape)
            raise ValueError(f"RandomFourierFeatures: The rank of the input tensor should be 2. "
                             f"Received input with rank {rank} instead. Full input shape "
                             f"received: {input_shape}. Fix: inputs of shape (batch, features)")
        if input_shape[1] is None:
            raise ValueError("RandomFourierFeatures: The last dimension of the input tensor "
                             f"should be defined. Found `None`. Full input shape received: "
                             f"{input_shape}")
        input_dim = int(input_shape[1])
        shape = (input_dim, self.output_dim)
        self.unscaled_kernel = self.add_weight(
            "unscaled_kernel", shape, dtype="float32", trainable=False,
            initializer=_random_features_initializer(self.kernel_initializer, shape))
        self.bias = self.add_weight(
            "bias", (self.output_dim,), dtype="float32", trainable=False,
            initializer=_initializers.RandomUniform(0.0, 2 * np.pi))
        if self.scale is None:
            self.scale = _default_scale(self.kernel_initializer, input_dim)
        self.kernel_scale = self.add_weight(
            "kernel_scale", (1,), dtype="float32", trainable=True,
            initializer=_initializers.Constant(self.scale), constraint="NonNeg")
        self.built = True

    def call(self, inputs):
        x = _float_input(inputs, self._dtype, f"RandomFourierFeatures layer {self.name!r}")
        kernel = (1.0 / self.kernel_scale) * self.unscaled_kernel
        return cos(add(matmul(x, kernel), self.bias))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.output_dim,)

    def get_config(self) -> dict:
        return {**super().get_config(), "output_dim": self.output_dim,
                "kernel_initializer": self.kernel_initializer, "scale": self.scale}


def _random_features_initializer(initializer, shape):
    """Keras's: a standard normal for 'gaussian'; standard Cauchy samples (the Laplacian
    kernel's spectral density) for 'laplacian'; any other initializer as given."""
    if not isinstance(initializer, str):
        return initializer
    if initializer.lower() == "gaussian":
        return _initializers.RandomNormal(stddev=1.0)
    # (tapeviz's generator, so tv.random.set_seed makes the kernel reproducible)
    probs = _initializers._rng(None).uniform(low=0.0, high=1.0, size=shape)
    return _initializers.Constant(np.tan(np.pi * (probs - 0.5)))


def _default_scale(initializer, input_dim) -> float:
    if isinstance(initializer, str) and initializer.lower() == "gaussian":
        return float(np.sqrt(input_dim / 2.0))
    return 1.0
