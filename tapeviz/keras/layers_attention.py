"""`MultiHeadAttention`, as Keras 2's (tf-keras), for inputs of shape (batch, time, features).

The query, key and value are projected per head by einsum kernels named `query`, `key` and
`value` (kernel `(features, heads, key_dim)`, bias `(heads, key_dim)`), the scaled dot products
`softmax(q·kᵀ/√key_dim)` weigh the values, and `attention_output` (kernel
`(heads, value_dim, output features)`) projects the heads back: the variables, their names,
order and shapes are Keras's, so TensorFlow's weights give TensorFlow's outputs. A mask
(`attention_mask`, `use_causal_mask`) adds -1e9 to the masked scores before the softmax, as
Keras does.
"""
from __future__ import annotations

import math

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.ops import cast, einsum, expand_dims, multiply
from ..engine.ops.nn import softmax
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .layers_base import Layer, _float_input
from .layers_core import Dropout

_LARGE_NEGATIVE = -1e9       # Keras's masked score for float32 and float64


class _EinsumDense(Layer):
    """Keras's EinsumDense for the attention's projections: einsum(equation, x, kernel) + bias."""

    def __init__(self, equation, kernel_shape, bias_shape, attention, **kwargs):
        super().__init__(**kwargs)
        self.equation, self.kernel_shape, self.bias_shape = equation, kernel_shape, bias_shape
        # the attention layer's settings (not the layer itself, which would be a sublayer)
        self._settings = {part: {"initializer": getattr(attention, part + "_initializer"),
                                 "regularizer": getattr(attention, part + "_regularizer"),
                                 "constraint": getattr(attention, part + "_constraint")}
                          for part in ("kernel", "bias")}
        self.kernel = self.bias = None

    def build(self, input_shape):
        self.kernel = self.add_weight("kernel", self.kernel_shape, **self._settings["kernel"])
        if self.bias_shape is not None:
            self.bias = self.add_weight("bias", self.bias_shape, **self._settings["bias"])
        self.built = True

    def call(self, inputs):
        out = einsum(self.equation, inputs, self.kernel)
        return out if self.bias is None else out + self.bias


class MultiHeadAttention(Layer):
    """Attention of `num_heads` heads from `query` (batch, T, dim) over `value` (batch, S, dim)
    (and `key`, which defaults to `value`); the output has the query's shape.

    >>> import tapeviz as tv
    >>> mha = tv.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
    >>> mha(tv.ones((1, 3, 5)), tv.ones((1, 2, 5))).shape
    TensorShape([1, 3, 5])
    >>> [v.name for v in mha.trainable_variables][:2]
    ['multi_head_attention/query/kernel:0', 'multi_head_attention/query/bias:0']
    """

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        if attention_axes not in (None, 1, (1,), [1]):
            raise ValueError(f"MultiHeadAttention: attention_axes={attention_axes!r} is not "
                             "supported by tapeviz, which attends over the time axis of "
                             "(batch, time, features) inputs. Fix: attention_axes=None")
        self.num_heads, self.key_dim = int(num_heads), int(key_dim)
        self.value_dim = int(value_dim) if value_dim else self.key_dim
        self.dropout, self.use_bias = float(dropout), bool(use_bias)
        self.output_shape_arg = output_shape
        self.kernel_initializer = _initializers.get(kernel_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.activity_regularizer = _regularizers.get(activity_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self._projections_built = False

    def _build_projections(self, query, value, key):
        """Keras's `_build_from_signature`: the four projections, in Keras's order."""
        for name, x in (("query", query), ("value", value), ("key", key)):
            if x._value.ndim != 3:
                raise ValueError(f"MultiHeadAttention {self.name!r}: the {name} must have shape "
                                 f"(batch, time, features), got {tuple(x.shape)}. Fix: reshape "
                                 "it to rank 3 (tapeviz attends over one time axis)")
        n, bias = self.num_heads, self.use_bias
        out_dim = self.output_shape_arg or query.shape[-1]
        out_shape = tuple(out_dim) if isinstance(out_dim, (list, tuple)) else (int(out_dim),)
        if len(out_shape) != 1:
            raise ValueError("MultiHeadAttention: only a one-axis output_shape is supported "
                             f"by tapeviz, got {out_shape}. Fix: output_shape=an int")
        self._query_dense = _EinsumDense("abc,cde->abde", (int(query.shape[-1]), n, self.key_dim),
                                         (n, self.key_dim) if bias else None, self, name="query")
        self._key_dense = _EinsumDense("abc,cde->abde", (int(key.shape[-1]), n, self.key_dim),
                                       (n, self.key_dim) if bias else None, self, name="key")
        self._value_dense = _EinsumDense("abc,cde->abde",
                                         (int(value.shape[-1]), n, self.value_dim),
                                         (n, self.value_dim) if bias else None, self,
                                         name="value")
        self._dropout_layer = Dropout(rate=self.dropout)
        self._output_dense = _EinsumDense("abcd,cde->abe", (n, self.value_dim, out_shape[0]),
                                          out_shape if bias else None, self,
                                          name="attention_output")
        self._projections_built = True

    def call(self, query, value, key=None, attention_mask=None, return_attention_scores=False,
             training=None, use_causal_mask=False):
        where = f"MultiHeadAttention layer {self.name!r}"
        query = _float_input(query, self._dtype, where)
        value = _float_input(value, self._dtype, where)
        key = value if key is None else _float_input(key, self._dtype, where)
        if not self._projections_built:
            self._build_projections(query, value, key)
        q = self._query_dense(query)                 # (batch, T, heads, key_dim)
        k = self._key_dense(key)                     # (batch, S, heads, key_dim)
        v = self._value_dense(value)                 # (batch, S, heads, value_dim)
        q = multiply(q, 1.0 / math.sqrt(float(self.key_dim)))
        scores = einsum("aecd,abcd->acbe", k, q)     # (batch, heads, T, S)
        mask = self._mask(attention_mask, use_causal_mask, query.shape[1], value.shape[1])
        if mask is not None:
            scores = scores + (1.0 - cast(mask, scores.dtype)) * _LARGE_NEGATIVE
        scores = softmax(scores, axis=-1)
        dropped = self._dropout_layer(scores, training=training)
        attended = einsum("acbe,aecd->abcd", dropped, v)   # (batch, T, heads, value_dim)
        output = self._output_dense(attended)
        return (output, scores) if return_attention_scores else output

    def _mask(self, attention_mask, use_causal_mask, t, s):
        """The (batch or 1, 1, T, S) mask of the scores kept, or None."""
        mask = None
        if attention_mask is not None:
            mask = cast(convert_to_tensor(attention_mask), "bool")
            if mask._value.ndim == 2:        # (T, S), one for the whole batch
                mask = expand_dims(mask, 0)
            mask = expand_dims(mask, -3)     # a head axis
        if use_causal_mask:
            causal = convert_to_tensor(np.tril(np.ones((1, 1, int(t), int(s)), bool)))
            mask = causal if mask is None else cast(cast(mask, "int32") * cast(causal, "int32"),
                                                    "bool")
        return mask
