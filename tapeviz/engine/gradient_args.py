"""What a gradient call accepts: targets, sources, upstream gradients and
``unconnected_gradients``, checked and converted, with TensorFlow's errors and a fix each.
Used by the tape's calls and by the explanations and replays that repeat them."""
from __future__ import annotations

import enum

import numpy as np

from . import nest
from . import op as _op
from .tensor import Tensor, Variable


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def _unconnected(value) -> str:
    if value is UnconnectedGradients.NONE:   # the default (Enum.value is a slow property)
        return "none"
    v = getattr(value, "value", value)
    v = str(v).lower()
    if v not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}; use "
                         "tv.UnconnectedGradients.NONE or .ZERO ('none' / 'zero')")
    return v


def _flat_tensors(structure) -> bool:
    """Is it a list or tuple of tensors and variables (exact types, which are never nested)?
    The usual `sources`: flattened and packed without nest's walk, whose isinstance checks
    cost more than the rest of a small gradient call's bookkeeping."""
    kind = type(structure)
    if kind is not list and kind is not tuple:
        return False
    for s in structure:
        t = type(s)
        if t is not Variable and t is not Tensor:
            return False
    return True


def _packed(sources, results: list):
    """`nest.pack_sequence_as(sources, results)`: results shaped like `sources`."""
    if _flat_tensors(sources):
        return list(results) if type(sources) is list else tuple(results)
    return nest.pack_sequence_as(sources, results)


def _sources(sources) -> list:
    if _flat_tensors(sources):
        return list(sources)
    flat = nest.flatten(sources)
    out = []
    for s in flat:
        if isinstance(s, Variable):
            out.append(s)
        elif isinstance(s, Tensor):
            out.append(s)
        else:
            raise ValueError(f"Argument `sources` must be a tensor, a variable or a nested "
                             f"structure of them; got {s!r} of type {type(s).__name__}. Fix: "
                             "pass the tv.Variable (or the watched tensor) itself")
    return out


def _as_target(t):
    if isinstance(t, Variable):
        return Tensor(t._value, t._node, t._id)
    if isinstance(t, Tensor):
        return t
    if t is None:
        raise TypeError("Argument `target` should be a list or nested structure of Tensors or "
                        "Variables to be differentiated, but received None. Fix: pass the "
                        "tensor you computed inside the tape (did a function forget to return?)")
    raise TypeError(_not_a_tensor_target(t))


def _not_a_tensor_target(t) -> str:
    """The message for a target that is not a tensor (built only once that is known)."""
    head = f"gradient target must be a tensor, got {t!r} of type {type(t).__name__}"
    if isinstance(t, (np.ndarray, np.generic)) and t.dtype.kind in "biufc":
        shape = tuple(np.shape(t))
        return (f"{head} (a NumPy value of shape {shape} and dtype {t.dtype.name}): the "
                "computation left the tape through .numpy() or a NumPy function, so the tape "
                "recorded nothing that leads to this target and there is nothing to "
                "differentiate. Fix: keep the computation in tapeviz ops, e.g. `y = x * 2` "
                "instead of `y = x.numpy() * 2` (tv.square(x), not np.square(x.numpy())); call "
                ".numpy() only on the result, for printing")
    if isinstance(t, (float, int)) and not isinstance(t, bool):
        return (f"{head} (a Python {type(t).__name__}): the computation left the tape through "
                "float() or int() (or .numpy()), so the tape recorded nothing that leads to this "
                "target and there is nothing to differentiate. Fix: keep the computation in "
                "tapeviz ops, e.g. `y = x * 2` instead of `y = float(x) * 2`; call float() "
                "only on the result, for printing")
    return (f"{head}. Fix: pass the tensor you computed inside the tape from tapeviz ops "
            "(e.g. `y = x * x`), or a list of such tensors")


def _ones(t):
    if t._value.dtype.kind != "f":
        return None
    # (empty and fill: np.ones is a Python function around the same two steps)
    ones = np.empty(t._value.shape, t._value.dtype)
    ones.fill(1)
    return Tensor(ones, _op.leaf_node("Const"))


def _as_upstream(g, t):
    from .ops._base import tensor
    if g is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type "
                         "(<class 'NoneType'>) to a Tensor: output_gradients needs one tensor "
                         "per target. Fix: pass tv.ones_like(target) for a target you want "
                         "weighted by 1")
    g = tensor(g, t.dtype)
    if tuple(g.shape) != tuple(t.shape):
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(f"output_gradients shape {tuple(g.shape)} does not match the "
                                   f"target's shape {tuple(t.shape)}. Fix: pass one upstream "
                                   "gradient per target, shaped like that target", "gradient")
    return g


def _targets_that_are_sources(raw, sources, targets, upstreams, apart=None) -> None:
    """A source that is itself a target (`result = v0` under a Python `if`, TensorFlow's
    autodiff guide) gets that target's upstream gradient even when the tape never watched
    it, as TensorFlow answers: d(x)/d(x) is 1, integers included. Fills `raw` in place.
    A read differentiated apart (`apart`) is only itself, not another read of its variable."""
    for i, s in enumerate(sources):
        if raw[i] is not None:
            continue
        own = apart is not None and id(s) in apart
        for t, up in zip(targets, upstreams):
            if t._id != s._id or t._value.dtype.kind not in "fiu":   # (strings, bools: None)
                continue
            if own and t is not s:
                continue
            if up is None:       # (an integer target has no default upstream: TF's is 1)
                up = Tensor(np.ones(t._value.shape, t._value.dtype))
            raw[i] = up if raw[i] is None else raw[i] + up
