"""Keras's masks: which time steps of a padded sequence are real.

A layer that makes a mask (`Embedding(mask_zero=True)`, `Masking`) leaves it on its output
tensor as `_keras_mask`, a bool tensor of shape (batch, steps), as Keras does. The next layer
call finds it there: a layer whose `call` takes `mask=` gets it (the recurrent layers skip the
masked steps), and a layer that supports masking hands on the mask its `compute_mask`
returns (by default the same one), so `Embedding -> Dropout -> LSTM` sees the embedding's
mask. A layer that does not support masking drops it, as in Keras.

>>> import tapeviz as tv
>>> emb = tv.keras.layers.Embedding(10, 2, mask_zero=True)
>>> emb(tv.constant([[3, 4, 0]]))._keras_mask.numpy()
array([[ True,  True, False]])
"""
from __future__ import annotations

from ..engine import nest
from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor
from .layers_base import Layer, _accepts, _float_input
from .sample_weight import align_sample_weight

#: whether any mask was ever made: until then a layer call skips the mask bookkeeping
_MASKS_MADE = [False]


def masks_made():
    """Called by each layer that can make a mask, when it is made."""
    _MASKS_MADE[0] = True


def call_with_masks(layer, inputs, args, kwargs):
    """`layer.call(inputs, *args, **kwargs)`, given the inputs' masks as `mask=` when it takes
    one, and its outputs marked with the masks it hands on (Keras's `Layer.__call__`)."""
    if not _MASKS_MADE[0]:
        return layer.call(inputs, *args, **kwargs)
    masks = kwargs.get("mask")
    if "mask" not in kwargs:
        flat = [getattr(t, "_keras_mask", None) for t in nest.flatten(inputs)]
        if any(m is not None for m in flat):
            masks = nest.pack_sequence_as(inputs, flat) if nest.is_nested(inputs) else flat[0]
            if _accepts(layer.call, "mask"):
                kwargs["mask"] = masks
    outputs = layer.call(inputs, *args, **kwargs)
    if not supports_masking(layer):
        return outputs
    flat_outputs = nest.flatten(outputs)
    if all(getattr(t, "_keras_mask", None) is not None for t in flat_outputs):
        return outputs                           # (made with the outputs, as Masking's)
    out_masks = layer.compute_mask(inputs, masks) if hasattr(layer, "compute_mask") else masks
    if out_masks is None:
        return outputs
    for tensor, mask in zip(flat_outputs, nest.flatten(out_masks)):
        if isinstance(tensor, Tensor):
            tensor._keras_mask = mask
    return outputs


def supports_masking(layer) -> bool:
    """Keras's rule: `supports_masking = True`, or a `compute_mask` of its own."""
    return bool(getattr(layer, "supports_masking", False)) or hasattr(layer, "compute_mask")


class Masking(Layer):
    """Masks the time steps whose features all equal `mask_value` (their output is zeros).

    >>> import tapeviz as tv
    >>> x = tv.constant([[[1.0], [0.0], [2.0]]])
    >>> y = tv.keras.layers.Masking()(x)
    >>> y._keras_mask.numpy(), y.numpy()[0, :, 0]
    (array([[ True, False,  True]]), array([1., 0., 2.], dtype=float32))
    """

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True
        masks_made()

    def compute_mask(self, inputs, mask=None):
        from ..engine.ops import not_equal, reduce_any
        return reduce_any(not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        from ..engine.ops import cast, expand_dims
        x = _float_input(inputs, self._dtype, f"Masking layer {self.name!r}")
        keep = self.compute_mask(x)
        out = x * cast(expand_dims(keep, -1), x.dtype)
        out._keras_mask = keep
        return out

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


def mask_of(tensor):
    """The Keras mask a tensor carries (None if none), as `tensor._keras_mask`."""
    return getattr(tensor, "_keras_mask", None) if isinstance(tensor, Tensor) else None


def as_mask(mask, layer: str, steps_shape):
    """A user's `mask=` (bool array, list or tensor) as a bool tensor of `steps_shape`."""
    m = mask if isinstance(mask, Tensor) else convert_to_tensor(mask)
    if m.dtype.name != "bool" or tuple(m.shape) != tuple(steps_shape):
        raise ValueError(f"{layer}: the mask must be a bool tensor of shape (batch, timesteps) "
                         f"= {tuple(steps_shape)}, got dtype {m.dtype.name} and shape "
                         f"{tuple(m.shape)}. Fix: e.g. mask=tf.not_equal(token_ids, 0)")
    return m


def loss_weights(y_pred, losses, sample_weight, reduction):
    """The sample weights a loss object uses when its prediction carries a mask (a sequence
    output after `Embedding(mask_zero=True)`): masked steps weigh 0, and with the default
    reduction the others weigh total/valid, so the loss is the mean over the real steps, as
    Keras's `apply_valid_mask`. Without a mask, `sample_weight` unchanged."""
    mask = mask_of(y_pred)
    if mask is None or tuple(mask.shape) != tuple(losses.shape):
        return sample_weight
    from ..engine.ops import cast, reduce_sum
    weights = cast(mask, losses.dtype)
    if reduction in ("auto", "sum_over_batch_size"):
        weights = weights * (float(losses._value.size) / reduce_sum(weights))
    if sample_weight is None:
        return weights
    w = sample_weight if isinstance(sample_weight, Tensor) else convert_to_tensor(sample_weight)
    return align_sample_weight(cast(w, losses.dtype), weights._value.ndim) * weights


def metric_weights(y_pred, sample_weight):
    """The sample weights `fit`'s metrics use: the prediction's mask (0 at masked steps) times
    `sample_weight`, as Keras's compiled metrics; without a mask, `sample_weight`."""
    mask = mask_of(y_pred)
    if mask is None:
        return sample_weight
    from ..engine.ops import cast
    weights = cast(mask, y_pred.dtype)
    if sample_weight is None:
        return weights
    w = cast(sample_weight if isinstance(sample_weight, Tensor) else
             convert_to_tensor(sample_weight), y_pred.dtype)
    return align_sample_weight(w, weights._value.ndim) * weights
