"""The cross-entropy losses of `tv.nn`: sigmoid, softmax (a distribution per row) and sparse
softmax (a class index per row). Each is one fused NumPy kernel with a fused `...Grad` op for
its VJP (one NumPy call in the backward pass), and each `...Grad` op has VJPs of its own
written with tapeviz ops, so higher derivatives still work. As TensorFlow's kernels, the
logits' gradient is `softmax - labels` (it assumes each row of labels sums to 1).
The softmax kernels they share are in nn.py.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import dtype_mismatch, tensor
from .axes import expand_dims
from .elementwise import cast, sigmoid, where
from .indexing import one_hot
from .makers import zeros_like
from .reduce import reduce_sum
from .nn import (_float, _flush_subnormal, _log_softmax_np, _neg_axis, _softmax_np,
                 log_softmax, softmax)


# --- cross-entropies ----------------------------------------------------------------------------
def _logits_and_labels(labels, logits, fn, op, cast_labels=False):
    """The logits (floating) and the labels as the logits' dtype, for the two losses whose
    labels are values rather than class indices. `cast_labels`: labels of another dtype are
    cast (TF's softmax cross-entropy casts them; its sigmoid one refuses them)."""
    if labels is None or logits is None:
        raise ValueError(f"{fn}: both labels= and logits= are required")
    x = _float(logits, op)
    z = tensor(labels, x.dtype)
    if z._value.dtype != x._value.dtype:
        if not cast_labels:
            raise dtype_mismatch(op, x, z)
        z = cast(z, x.dtype)
    return x, z


def _sigmoid_xent_forward(z, x):
    out = (np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype, copy=False)
    return _flush_subnormal(out)


def _sigmoid_xent_logits_vjp(g, y, z, x):
    """g · (sigmoid(x) - z), summed as TensorFlow sums the gradients of the loss's three terms
    (TensorFlow builds the loss from `where`, `-x·z` and `log1p(exp(-|x|))`): so an infinite
    g gives inf - inf = NaN, and the second derivative at x = 0 is TensorFlow's."""
    positive = x >= 0
    softplus_part = g * sigmoid(where(positive, -x, x))   # (sigmoid(-|x|), -|x| as TF's where)
    return (where(positive, g, zeros_like(g)) - g * z
            + where(positive, -softplus_part, softplus_part))


_sigmoid_xent = defop("SigmoidCrossEntropyWithLogits", _sigmoid_xent_forward,
                      [lambda g, y, z, x: -g * x, _sigmoid_xent_logits_vjp],
                      "y = max(x, 0) - x·z + log(1 + e^-|x|)  (z: labels, x: logits)",
                      ["∂z = -g · x", "∂x = g · (sigmoid(x) - z)"])


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Elementwise logistic loss of `logits` x against `labels` z in [0, 1]:
    max(x, 0) - x·z + log(1 + e^-|x|), stable for any x. Gradients: g · (sigmoid(x) - z)
    for the logits, -g · x for the labels.

    >>> import tapeviz as tv
    >>> tv.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[100.0, 100.0]
    ...                                         ).numpy().tolist()
    [0.0, 100.0]
    """
    x, z = _logits_and_labels(labels, logits, "sigmoid_cross_entropy_with_logits",
                              "SigmoidCrossEntropyWithLogits")
    if z._value.shape != x._value.shape:
        raise ValueError(f"sigmoid_cross_entropy_with_logits: `logits` and `labels` must have "
                         f"the same shape, received ({tuple(x.shape)} vs {tuple(z.shape)}). "
                         "Fix: one label per logit (reshape the labels)")
    return apply(_sigmoid_xent, (z, x))


def _expand(g, axis):
    """`g` (the loss gradient, shaped like the loss) with the class axis put back."""
    return expand_dims(g, axis)


def _xent_grad_forward(g, x, z, axis):
    return np.expand_dims(g, axis) * (_softmax_np(x, axis) - z)


def _softmax_jvp_t(u, x, axis):
    """(u - Σ u·s) · s with s = softmax(x): the softmax VJP, as tapeviz ops."""
    s = softmax(x, axis=axis)
    return (u - reduce_sum(u * s, axis=axis, keepdims=True)) * s


_xent_grad = defop("SoftmaxCrossEntropyGrad", _xent_grad_forward,
                   [lambda gg, out, g, x, z, axis:
                    reduce_sum(gg * (softmax(x, axis=axis) - z), axis=axis),
                    lambda gg, out, g, x, z, axis: _softmax_jvp_t(gg * _expand(g, axis), x, axis),
                    lambda gg, out, g, x, z, axis: -gg * _expand(g, axis)],
                   "y = g · (softmax(x) - z)",
                   ["∂g = Σ gg · (softmax(x) - z)", "∂x = softmax VJP of gg · g",
                    "∂z = -gg · g"])
_xent = defop("SoftmaxCrossEntropyWithLogits",
              lambda z, x, axis: -np.sum(z * _log_softmax_np(x, axis), axis=axis),
              [lambda g, y, z, x, axis: -_expand(g, axis) * log_softmax(x, axis=axis),
               lambda g, y, z, x, axis: apply(_xent_grad, (g, x, z), {"axis": axis})],
              "y = -Σ z · log softmax(x)  (z: labels, x: logits)",
              ["∂z = -g · log softmax(x)", "∂x = g · (softmax(x) - z)"])


def softmax_cross_entropy_with_logits(labels=None, logits=None, axis=-1, name=None):
    """Cross-entropy between `labels` (a distribution per row) and `softmax(logits)`:
    `-Σ labels · log softmax(logits)` along `axis`. As TensorFlow's kernel, the logits'
    gradient is g · (softmax(logits) - labels), exact when each row of labels sums to 1;
    labels get -g · log softmax(logits).

    >>> import tapeviz as tv
    >>> loss = tv.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=[[0.0, 0.0]])
    >>> round(float(loss[0]), 4)
    0.6931
    """
    x, z = _logits_and_labels(labels, logits, "softmax_cross_entropy_with_logits",
                              "SoftmaxCrossEntropyWithLogits", cast_labels=True)
    if x._value.ndim == 0:
        raise InvalidArgumentError("SoftmaxCrossEntropyWithLogits: logits must have at least "
                                   "one dimension (the classes), got a scalar "
                                   "[Op:SoftmaxCrossEntropyWithLogits]",
                                   "SoftmaxCrossEntropyWithLogits")
    try:
        shape = np.broadcast_shapes(z._value.shape, x._value.shape)
    except ValueError:
        shape = None
    if shape != x._value.shape:
        raise InvalidArgumentError(
            f"logits and labels must be broadcastable: logits_size={list(x.shape)} "
            f"labels_size={list(z.shape)} (dtype {x.dtype.name}). Fix: labels need the logits' "
            "shape, one probability per class [Op:SoftmaxCrossEntropyWithLogits]",
            "SoftmaxCrossEntropyWithLogits")
    axis = _neg_axis(axis, x._value.ndim, "SoftmaxCrossEntropyWithLogits")
    return apply(_xent, (z, x), {"axis": axis})


def _sparse_xent_forward(x, labels):
    lsm = _log_softmax_np(x, -1)
    if lsm.ndim == 2:   # (batch, classes): plain indexing, without take_along_axis's set-up
        return -lsm[np.arange(lsm.shape[0]), labels]
    return -np.take_along_axis(lsm, labels[..., None].astype(np.intp), -1)[..., 0]


def _sparse_grad_forward(g, x, labels):
    out = _softmax_np(x, -1)
    flat = out.reshape(-1, out.shape[-1])
    flat[np.arange(flat.shape[0]), labels.reshape(-1)] -= 1
    return g[..., None] * out


def _sparse_onehot(x, labels):
    return one_hot(labels, x._value.shape[-1], dtype=x.dtype)


_sparse_grad = defop("SparseSoftmaxCrossEntropyGrad", _sparse_grad_forward,
                     [lambda gg, out, g, x, labels:
                      reduce_sum(gg * (softmax(x) - _sparse_onehot(x, labels)), axis=-1),
                      lambda gg, out, g, x, labels: _softmax_jvp_t(gg * _expand(g, -1), x, -1),
                      None],
                     "y = g · (softmax(x) - one_hot(labels))",
                     ["∂g = Σ gg · (softmax(x) - one_hot(labels))",
                      "∂x = softmax VJP of gg · g", "(none: labels are integers)"])
_sparse_xent = defop("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_forward,
                     [lambda g, y, x, labels: apply(_sparse_grad, (g, x, labels)), None],
                     "y = -log softmax(x)[label]",
                     ["∂x = g · (softmax(x) - one_hot(label))", "(none: labels are integers)"],
                     saves=((0, 1), False))


def _label_out_of_range(labels, n) -> bool:
    """Some label outside [0, n): one NumPy pass, not four (it runs every training step). A
    negative label seen as unsigned (32 or 64 bits) is larger than any class count."""
    if labels.dtype.kind == "i":
        if labels.dtype.itemsize < 4:    # -1 as a uint8 is 255: not past 300 classes
            return bool(np.logical_or.reduce((labels < 0) | (labels >= n), axis=None))
        labels = labels.view(labels.dtype.str.replace("i", "u"))
    return bool(np.maximum.reduce(labels, axis=None) >= n)


def sparse_softmax_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Cross-entropy of `logits` (..., classes) against integer class `labels` (...):
    `-log softmax(logits)[label]`, one loss per row. Gradient wrt logits:
    g · (softmax(logits) - one_hot(label)); labels get None.

    >>> import tapeviz as tv
    >>> loss = tv.nn.sparse_softmax_cross_entropy_with_logits(labels=[0], logits=[[0.0, 0.0]])
    >>> round(float(loss[0]), 4)
    0.6931
    """
    if labels is None or logits is None:
        raise ValueError("sparse_softmax_cross_entropy_with_logits: both labels= and logits= "
                         "are required")
    op = "SparseSoftmaxCrossEntropyWithLogits"
    x = _float(logits, op)
    z = tensor(labels)
    if z._value.dtype.kind not in "iu":
        raise InvalidArgumentError(
            f"Value for attr 'Tlabels' of {z.dtype.name} is not in the list of allowed values: "
            f"int32, int64 (labels shape {tuple(z.shape)}, logits shape {tuple(x.shape)} "
            f"{x.dtype.name}). Fix: class indices must be integers, e.g. tv.cast(labels, "
            f"tv.int32) [Op:{op}]", op)
    if z._value.ndim != x._value.ndim - 1:
        raise ValueError(f"Rank mismatch: Rank of labels (received {z._value.ndim}) should equal "
                         f"rank of logits minus 1 (received {x._value.ndim}). labels shape "
                         f"{tuple(z.shape)}, logits shape {tuple(x.shape)}. Fix: labels hold "
                         "one class index per row of logits (tv.squeeze labels of shape "
                         "(batch, 1), or use softmax_cross_entropy_with_logits for one-hot "
                         "labels)")
    if z._value.shape != x._value.shape[:-1]:
        raise ValueError(f"Shape mismatch: The shape of labels (received {tuple(z.shape)}) "
                         f"should equal the shape of logits except for the last dimension "
                         f"(received {tuple(x.shape)}) in "
                         f"sparse_softmax_cross_entropy_with_logits. Fix: one class index per "
                         f"row of logits: labels of shape {tuple(x.shape[:-1])}")
    n = x._value.shape[-1]
    if z._value.size and _label_out_of_range(z._value, n):
        bad = (z._value < 0) | (z._value >= n)
        raise InvalidArgumentError(
            f"Received a label value of {int(z._value[bad].flat[0])} which is outside the valid "
            f"range of [0, {n}). Label values: "
            f"{' '.join(str(v) for v in np.asarray(z._value).reshape(-1)[:20])} (logits shape "
            f"{tuple(x.shape)}). Fix: labels are class indices in [0, {n}), one per row of "
            f"logits [Op:{op}]", op)
    return apply(_sparse_xent, (x, z))


__all__ = ["sigmoid_cross_entropy_with_logits", "softmax_cross_entropy_with_logits",
           "sparse_softmax_cross_entropy_with_logits"]
