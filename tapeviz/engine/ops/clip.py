"""Clipping by norm (`tv.clip_by_norm`, `tv.clip_by_global_norm`, `tv.global_norm`).

Composite ops, written exactly as TensorFlow writes them, so their gradients (including the
path through the norm itself) are TensorFlow's. `clip_by_value` lives with the elementwise ops.
"""
from __future__ import annotations

from ..convert import constant
from ..indexed_slices import IndexedSlices
from ._base import require, tensor
from .elementwise import cast, maximum, minimum, ones_like, sqrt, where, zeros_like
from .gradient_ops import identity
from .join import stack
from .nn import l2_loss
from .reduce import reduce_sum

__all__ = ["clip_by_norm", "clip_by_global_norm", "global_norm"]


def clip_by_norm(t, clip_norm, axes=None, name=None):
    """`t * clip_norm / max(‖t‖₂, clip_norm)`: rescale `t` so its L2 norm (over `axes`, all by
    default) is at most `clip_norm`. A zero tensor stays zero, with a finite gradient.

    >>> clip_by_norm([3.0, 4.0], 1.0).numpy().tolist()
    [0.6000000238418579, 0.800000011920929]
    """
    if isinstance(t, IndexedSlices):   # as TensorFlow: the norm of the rows given
        clipped = clip_by_norm(t.values, clip_norm, axes)
        return IndexedSlices(clipped, t.indices, t.dense_shape)
    t = require(tensor(t), "clip_by_norm", "f", "a floating-point")
    if isinstance(clip_norm, (str, bytes)):
        raise TypeError(f"clip_by_norm: clip_norm must be a number, got {clip_norm!r} (t has "
                        f"shape {tuple(t.shape)}, dtype {t.dtype.name}). Fix: e.g. "
                        "tv.clip_by_norm(t, 1.0)")
    clip = tensor(clip_norm, t.dtype)
    if clip._value.dtype != t._value.dtype:
        clip = cast(clip, t.dtype)
    clip = maximum(clip, zeros_like(clip))   # a negative clip_norm clips to zero, as TF
    l2sum = reduce_sum(t * t, axis=axes, keepdims=True)
    positive = l2sum > 0
    l2sum_safe = where(positive, l2sum, ones_like(l2sum))     # no NaN gradient at zero
    l2norm = where(positive, sqrt(l2sum_safe), l2sum)
    return identity(t * clip / maximum(l2norm, clip))


def global_norm(t_list, name=None):
    """sqrt(Σ ‖t‖₂²) over every tensor of `t_list` (None entries are ignored)."""
    if not isinstance(t_list, (list, tuple)) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a list or tuple of tensors, received "
                        f"{type(t_list).__name__}")
    # (the rows of IndexedSlices as given, duplicates apart, as TensorFlow sums them)
    tensors = [tensor(t.values if isinstance(t, IndexedSlices) else t)
               for t in t_list if t is not None]
    if not tensors:
        return constant(0.0)
    # (stacked as they are: TF refuses tensors of different dtypes, stack names them)
    return sqrt(reduce_sum(stack([l2_loss(t) for t in tensors])) * 2.0)


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor of `t_list` by `clip_norm / max(global_norm, clip_norm)`.

    Returns `(list_clipped, global_norm)`; None entries stay None. If the global norm is
    NaN or infinite, every entry becomes NaN (as TensorFlow), so a broken step is visible.
    """
    if not isinstance(t_list, (list, tuple)) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors, received "
                        f"{type(t_list).__name__}. Fix: pass a list, e.g. "
                        "tv.clip_by_global_norm(list(grads), 5.0)")
    if isinstance(clip_norm, (str, bytes)):
        raise TypeError(f"clip_by_global_norm: clip_norm must be a number, got {clip_norm!r} "
                        f"(for {len(t_list)} tensors). Fix: e.g. "
                        "tv.clip_by_global_norm(grads, 5.0)")
    norm = global_norm(t_list) if use_norm is None else tensor(use_norm)
    dtype = norm.dtype
    clip = tensor(clip_norm, dtype)
    if clip._value.dtype != norm._value.dtype:
        clip = cast(clip, dtype)
    scale_finite = clip * minimum(1.0 / norm, constant(1.0, dtype) / clip)
    scale = scale_finite + (norm - norm)      # NaN/Inf norm -> NaN scale
    out = []
    for t in t_list:
        if t is None:
            out.append(None)
            continue
        rows = t if isinstance(t, IndexedSlices) else None
        t = tensor(t.values if rows is not None else t)
        s = scale if scale._value.dtype == t._value.dtype else cast(scale, t.dtype)
        scaled = identity(t * s)
        out.append(scaled if rows is None else IndexedSlices(scaled, rows.indices,
                                                              rows.dense_shape))
    return out, norm


__all__ = ["clip_by_global_norm", "clip_by_norm", "global_norm"]
