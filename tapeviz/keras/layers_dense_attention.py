"""Keras's `Attention` (Luong-style dot-product attention) on `[query, value]` or
`[query, value, key]`: scores `query · keyᵀ` (times a trainable `scale` with
`use_scale=True`; `score_mode="concat"`: `Σ tanh(scale·(q + k))` times a trainable weight),
masked (a value mask and the causal mask subtract 1e9 from the hidden scores, 65504 in
float16), softmax over the keys, dropout when training, then the weighted sum of the values,
zeroed where the query mask is False. `return_attention_scores=True` also returns the
softmax weights. The same ops as tf-keras, so the same values and gradients."""
from __future__ import annotations

from ..engine.convert import convert_to_tensor
from ..engine.ops import cast, expand_dims, logical_and, logical_not, matmul, reduce_sum, tanh
from .layers_base import Layer


def _lower_triangular(rows, cols):
    from ..engine.ops import greater_equal, range as _range
    return greater_equal(expand_dims(_range(rows), -1), expand_dims(_range(cols), 0))


class Attention(Layer):
    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, causal=False,
                 **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Received: score_mode={score_mode}. Acceptable values are: "
                             f"['dot', 'concat']")
        self.use_scale, self.score_mode = bool(use_scale), score_mode
        self.dropout, self.causal = float(dropout), bool(causal)
        self.supports_masking = True
        self.scale = self.concat_score_weight = None
        from .masking import masks_made     # (its output carries the query mask)
        masks_made()

    def build(self, input_shape):
        if self.use_scale:
            self.scale = self.add_weight("scale", (), initializer="ones")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight("concat_score_weight", (),
                                                       initializer="ones")
        self.built = True

    def _validate(self, inputs, mask):
        name = type(self).__name__
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"{name} layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs}.")
        if not 2 <= len(inputs) <= 3:
            raise ValueError(f"{name} layer accepts inputs list of length 2 or 3, namely "
                             f"[query, value] or [query, value, key]. Received length: "
                             f"{len(inputs)}.")
        if mask is not None and (not isinstance(mask, (list, tuple)) or
                                 not 2 <= len(mask) <= len(inputs)):
            raise ValueError(f"{name} layer mask must be a list of length 2, namely "
                             f"[query_mask, value_mask]. Received: {mask}.")

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        q, k = expand_dims(query, -2), expand_dims(key, -3)
        inner = tanh(self.scale * (q + k)) if self.scale is not None else tanh(q + k)
        return self.concat_score_weight * reduce_sum(inner, axis=-1)

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        self._validate(inputs, mask)
        q, v = convert_to_tensor(inputs[0]), convert_to_tensor(inputs[1])
        k = convert_to_tensor(inputs[2]) if len(inputs) > 2 else v
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._scores(q, k)
        scores_mask = None if v_mask is None else expand_dims(convert_to_tensor(v_mask), -2)
        if self.causal or use_causal_mask:
            causal = _lower_triangular(scores.shape[-2], scores.shape[-1])
            scores_mask = causal if scores_mask is None else logical_and(scores_mask, causal)
        if scores_mask is not None:
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = scores - big * cast(logical_not(scores_mask), scores.dtype)
        from ..engine.ops.nn import softmax
        weights = softmax(scores)
        if training and self.dropout > 0:
            from ..nn import dropout
            weights = dropout(weights, self.dropout)
        result = matmul(weights, v)
        if q_mask is not None:
            result = result * cast(expand_dims(convert_to_tensor(q_mask), -1), result.dtype)
        return (result, weights) if return_attention_scores else result

    def compute_mask(self, inputs, mask=None):
        if mask:
            q_mask = mask[0]
            return None if q_mask is None else convert_to_tensor(q_mask)
        return None

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0][:-1]) + (input_shape[1][-1],)

    def get_config(self) -> dict:
        return {**super().get_config(), "use_scale": self.use_scale,
                "score_mode": self.score_mode, "dropout": self.dropout}
