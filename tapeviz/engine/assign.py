"""Assignment to a `Variable` (`assign`, `assign_add`, `assign_sub`): checks, the update (a
new array: whoever read the old one keeps it), its lineage node, tapes' notes, events."""
from __future__ import annotations

import numpy as np

from .. import events as _events
from .convert import _to_array, convert_to_tensor
from .indexed_slices import IndexedSlices
from .node import Node, watched_site
from .refs import _assigned_payload
from .call_site import user_site
from .tape_events import NONFINITE_GRADIENT, note_assigned
from .tensor import Tensor, Variable, _Operand
from .threadstate import _local, here, quietly, tapes


def _kind_of(value) -> str:
    """The NumPy dtype kind of an assigned value that failed to convert ('' if unknown)."""
    try:
        return np.asarray(value).dtype.kind
    except Exception:  # noqa: BLE001  (only used to word an error)
        return ""


def _fixed_dtype(var: Variable, method: str, kind: str) -> str:
    """For a float value given to an integer variable: the variable's dtype is fixed when it is
    created, so the fix is to create it as a float (or to pass an integer). '' otherwise."""
    if var._value.dtype.kind not in "iu" or kind not in "fc":
        return ""
    name = var.dtype.name
    origin = (" (a Variable created from a Python int, as tv.Variable(1), is int32)"
              if name == "int32" else "")
    scalar = var._value.ndim == 0
    example = "tv.Variable(1.0) instead of tv.Variable(1)" if scalar else \
        "tv.Variable([1.0, 2.0]) instead of tv.Variable([1, 2])"
    verb = {"assign_add": "add", "assign_sub": "subtract"}.get(method, "assign")
    return (f"a Variable's dtype is fixed when it is created, and this one is {name}{origin}, "
            f"so it cannot take a float (tv.cast would truncate the value). Fix: create the "
            f"variable as a float, e.g. {example} (or pass dtype=tv.float32), or {verb} an "
            f"integer.")


def _assign(var: Variable, value, method: str):
    if isinstance(value, IndexedSlices):   # a sparse gradient: its dense tensor, as TF
        value = convert_to_tensor(value)
    if isinstance(value, _Operand):
        new = value
    else:
        try:
            new = Tensor(_to_array(value, var.dtype), None)
        except (TypeError, ValueError) as exc:
            kind = "string" if isinstance(value, (str, bytes)) else type(value).__name__
            head = (f"{method} on variable {var.name!r} (dtype {var.dtype.name}, shape "
                    f"{tuple(var.shape)}) got {value!r} of type {kind}")
            fixed = _fixed_dtype(var, method, _kind_of(value))
            raise type(exc)(f"{head}: {fixed}" if fixed else f"{head}: {exc}") from None
    if type(new) is not Tensor:
        new = convert_to_tensor(new)
    # (equal NumPy dtypes first: the usual case then makes no DType objects)
    if new._value.dtype != var._value.dtype and new.dtype != var.dtype:
        head = (f"{method} on variable {var.name!r} (dtype {var.dtype.name}, shape "
                f"{tuple(var.shape)}) got a value of dtype {new.dtype.name}, shape "
                f"{tuple(new.shape)}")
        fixed = _fixed_dtype(var, method, new._value.dtype.kind)
        raise ValueError(f"{head}: {fixed} (Or tv.cast(value, {var.dtype!r}) if truncating "
                         "is what you want.)"
                         if fixed else f"{head}. Fix: tv.cast(value, {var.dtype!r})")
    if method == "assign":
        if new._value.shape != var._value.shape:
            raise ValueError(
                f"Cannot assign value of shape {tuple(new._value.shape)} to variable "
                f"{var.name!r} of shape {tuple(var._value.shape)}. Fix: reshape the value "
                f"(tv.reshape(value, {list(var._value.shape)})) or create a new Variable")
        result = new._value.copy() if isinstance(new._value, np.ndarray) else new._value
    else:
        result = _combined(var, new._value, method)
    site = watched_site(2)   # (read only if a tape may be cut by this assign, or by events)
    _commit(var, result, method, new, site)
    for tape in tapes(here().open):
        tape._assigns.append((var._id, new._id, method, var._node))
    if _events.ACTIVE:
        # (emit_deferred with its own builder, as op events: no Lazy fields for `make` to find)
        _events.emit_deferred(_events.VariableAssigned, _assigned_payload, var, result,
                              var._node, method, new, new._value, new._node, site,
                              _events.config["value_limit"])
    return var


def _combined(var: Variable, delta, method: str, out=None):
    """The variable's value plus (assign_add) or minus (assign_sub) the array ``delta``, as a
    new array (or in ``out``, an array no one else holds): tapes, reads, views and the user's
    own NumPy array may hold the old one (a VJP needs it; TensorFlow's reads keep their
    values), and nothing can tell cheaply that none does."""
    combine = np.add if method == "assign_add" else np.subtract
    old = var._value
    try:
        result = combine(old, delta, out=out)
    except ValueError:
        result = None
    if result is None or result.shape != old.shape:
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(
            f"{method} on variable {var.name!r}: shapes {tuple(old.shape)} and "
            f"{tuple(delta.shape)} are incompatible. Fix: the delta must have the "
            "variable's shape (or broadcast to it)", method)
    if result.dtype is not old.dtype:
        result = result.astype(old.dtype, copy=False)
    return result


def assign_quiet(var: Variable, delta, method: str, remade_by: tuple | None = None) -> bool:
    """`var.assign_add(delta)` or `assign_sub` of a NumPy update (an optimizer's) when no
    tape is open in this thread (none could read it) and ``delta`` has the variable's dtype.
    Then it does what `_assign` does, less what nothing reads: no leaf node for ``delta``
    (the assignment's node has None there, as for a Python value; a constant's leaf is on no
    gradient path, so explanations never name it). Someone listening gets the same
    `variable_assigned` event. Otherwise it changes nothing and returns False: the caller
    assigns the usual way.

    ``remade_by``: ``(function, *arguments)`` that make ``delta`` again, bit for bit, from
    values that do not change (SGD's ``(np.multiply, gradient, learning_rate)``), given when
    ``delta`` is an array the caller made for this update and keeps nowhere. The new value is
    then written into ``delta`` (the update makes one array, not two, and writes it where
    ``delta`` was just written, in cache: a fresh array for an MLP's first layer misses the
    cache on every line it writes), and the event holds the recipe, not ``delta``: so a
    subscriber costs no second array, and one that reads the event later reads the update."""
    if _local.state.open or delta.dtype is not var._value.dtype:
        return False
    new = Tensor(delta)    # (drawn before the update, as `_assign` draws its value's id)
    listening = _events.ACTIVE
    site = user_site(2) if listening else None    # (`watched_site`, with no tape open)
    reuse = remade_by is not None and type(delta) is np.ndarray
    result = _combined(var, delta, method, delta if reuse else None)
    _commit(var, result, method, new, site)
    if listening:
        _events.emit_deferred(_events.VariableAssigned, quiet_assigned_payload, var, result,
                              var._node, method, new, remade_by if reuse else (_same, delta),
                              site, _events.config["value_limit"])
    return True


def _same(value):
    """The recipe of an update kept as it is (an array no one writes into afterwards)."""
    return value


def quiet_assigned_payload(var, value, node, method, new, delta_recipe, site, limit):
    """The payload `_assign` would give, the update made again from ``delta_recipe``
    (``(function, *arguments)``, see `assign_quiet`). Its own function: a flight recording
    counts the recipe's arrays as memory it holds (recording/flight_memory.py)."""
    # (quietly: the update said its NumPy warnings, if any, when it ran)
    delta = quietly(delta_recipe[0], *delta_recipe[1:])
    return _assigned_payload(var, value, node, method, new, delta, None, site, limit)


def _commit(var: Variable, result, method: str, value: Tensor, site) -> None:
    """The variable takes its new value, and its lineage the assignment's node (whose inputs
    are the variable and ``value``, the tensor assigned, added or subtracted)."""
    var._node = Node(method, (var, value), site,
                     {"name": var._name, "trainable": var.trainable, "made_at": var._site})
    var._value = result
    if var._id in NONFINITE_GRADIENT:     # (rare: this variable had a NaN/Inf gradient)
        note_assigned(var._id, result, site or user_site(2))
