"""How tensors appear in events: tensor refs (id, name, shape, dtype, kind, summary), the
payload of a variable assignment, and escapes (a value leaving the tape for NumPy or a
Python number), noted where the user's code let it out."""
from __future__ import annotations

import re

from .. import events as _events
from . import dtypes as _dt
from .call_site import as_dict, escape_site
from .tensor import ValueNotKept, Variable
from .threadstate import here, tapes


def _assigned_payload(var, value, node, method, new, new_value, new_node, site, limit):
    return {"variable": ref_dict(var, value, node, limit), "method": method,
            "value": ref_dict(new, new_value, new_node, limit), "site": as_dict(site)}


_NP_CALL = re.compile(r"\b(?:np|numpy|onp|jnp)\.([A-Za-z_][\w.]*)\s*\(")


def note_escape(tensor, via):
    """A value left the tape (NumPy or a Python number): remember where, for explanations."""
    opened = here().open
    if not opened and not _events.ACTIVE:
        return
    site = escape_site(2)
    if via is None:
        from .call_site import source_line
        match = _NP_CALL.search(source_line(site))
        via = f"np.{match.group(1)}" if match else "np.asarray"
    # a trainable variable counts even before an op has read it (and so watched it) there:
    # `np.sin(v)` inside a tape is the one read, and the reason `v` gets no gradient
    auto = isinstance(tensor, Variable) and tensor.trainable
    for tape in tapes(opened):
        if tensor._id in tape._ids or (auto and tape._watch_accessed):
            tape._escapes.append((tensor._id, via, site))
    if _events.ACTIVE:
        _events.emit(_events.make(_events.Escaped, tensor=ref(tensor), via=via,
                                  site=as_dict(site)))


_VARIABLE_NODES = frozenset(("Variable", "assign", "assign_add", "assign_sub"))


def ref(t):
    """The reference to a tensor used in events, as a :class:`tapeviz.events.Lazy` that
    ``events.make`` turns into the plain-data ref dict (:func:`ref_dict`) only when the
    event is read. The value, lineage and summary limit are captured now: a Variable's
    change later (assign) and so does ``events.config``."""
    return _events.Lazy(ref_dict, t, t._value, t._node, _events.config["value_limit"])


def ref_dict(t, value=None, node=None, limit=None) -> dict:
    """The plain-data reference to a tensor used in events (``value``/``node``: as captured
    when the event happened; by default the tensor's current ones)."""
    if value is None:
        value, node = t._value, t._node
    op = node.op if node is not None else None
    if type(op) is str:
        is_var = op in _VARIABLE_NODES or isinstance(t, Variable)
        kind = "variable" if is_var else ("constant" if op == "Const" else op.lower())
        node_id = None
    else:
        is_var = isinstance(t, Variable)
        kind = "variable" if is_var else ("constant" if node is None else "tensor")
        node_id = node.id if node is not None else None
    shape = list(value.shape)
    return {"id": t._id, "name": t.name, "shape": shape,
            "dtype": _dt.from_numpy(value.dtype).name, "kind": kind,
            "trainable": bool(node.attrs.get("trainable", True)) if is_var and node is not None
            and node.attrs else (True if is_var else None),
            "node": node_id,
            "summary": None if type(value) is ValueNotKept else
            _events.summarize(value, limit) if value.dtype.kind != "O" else
            {"shape": shape, "dtype": "string"}}
