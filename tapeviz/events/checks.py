"""The checks of the public functions' arguments: ``subscribe``'s kinds, and ``log_scalar``'s
number and step (a chart point is one number at an integer step). A wrong one is refused with
an error that says how to pass it. Imports: stdlib, ``kinds`` (NumPy lazily)."""
from __future__ import annotations

from .kinds import EVENT_TYPES


def subscribed_kinds(kinds) -> frozenset | None:
    """``subscribe``'s ``kinds`` checked: a frozenset of known kind names, or None (all)."""
    if kinds is None:
        return None
    if isinstance(kinds, str):
        kinds = (kinds,)
    try:
        chosen = frozenset(kinds)
    except TypeError:
        raise TypeError(f"subscribe(kinds=...) takes kind names such as "
                        f"['gradient_finished'], got {kinds!r}") from None
    unknown = sorted(str(k) for k in chosen - set(EVENT_TYPES))
    if unknown or not chosen:
        raise ValueError(f"subscribe(kinds=...): {', '.join(unknown) or 'an empty list'} "
                         f"{'is not an event kind' if len(unknown) == 1 else 'are not event kinds'}"
                         f"; the kinds are: {', '.join(sorted(EVENT_TYPES))}")
    return chosen


def scalar_value(name, value) -> float:
    if type(name) is not str:
        raise TypeError(f"log_scalar: name must be a str, got {name!r} ({type(name).__name__})."
                        " Fix: e.g. tv.events.log_scalar(\"loss\", loss, step)")
    if type(value) is float or type(value) is int:      # the usual case, checked first
        return float(value)
    import numpy as np
    raw = getattr(value, "_value", value)    # a tapeviz tensor or variable: its array
    if isinstance(raw, (int, float)):        # (bool too: 1.0 or 0.0, as TF casts it)
        return float(raw)
    if isinstance(raw, (np.ndarray, np.generic)) and raw.dtype.kind in "fiub":
        if raw.ndim:
            raise ValueError(f"log_scalar({name!r}): Expected scalar shape, saw shape: "
                             f"{raw.shape} (dtype {raw.dtype}). A chart point is one number. "
                             "Fix: reduce it first (e.g. tv.reduce_mean(x)), or log each "
                             "element under its own name")
        return float(raw)
    what = (f"a tensor of dtype {getattr(value, 'dtype', raw.dtype).name}"
            if isinstance(raw, np.ndarray) else f"{value!r} ({type(value).__name__})")
    raise TypeError(f"log_scalar({name!r}): value must be a number (a Python or NumPy number, "
                    f"or a 0-d numeric tensor), got {what}. Fix: pass the number itself, e.g. "
                    f"tv.events.log_scalar({name!r}, float(x), step)")


def scalar_step(name, step) -> int:
    raw = getattr(step, "_value", step)   # optimizer.iterations, a 0-d int variable, is fine
    if not isinstance(raw, bool) and (
            isinstance(raw, int) or getattr(raw, "ndim", 1) == 0 and raw.dtype.kind in "iu"):
        return int(raw)
    raise TypeError(f"log_scalar({name!r}): step must be an int or None, got {step!r} "
                    f"({type(step).__name__}). Fix: pass the training step number, e.g. "
                    "step=epoch, or step=int(optimizer.iterations)")
