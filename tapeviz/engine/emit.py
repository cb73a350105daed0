"""Op events: `op_recorded` for an op call, `op_defined` the first time an op is seen.

`op.apply` calls `op_event` only while someone listens to op events (`events.OP_EVENTS`).
An op no tape recorded is told too, with `skipped` saying why (its tape was paused, or it
ran on a closed tape's tensors), unless it belongs to no graph at all. The payload (tensor
refs with summaries, the source line, the attributes) is built when a subscriber reads it.
"""
from __future__ import annotations

from .. import events as _events
from ..events import OpDefined, OpRecorded, emit, emit_deferred, make
from .call_site import as_dict
from .refs import ref_dict
from .threadstate import _local, tapes

_config = _events.config


def op_event(op, node, inputs, outputs):
    """Emit `op_recorded` (and `op_defined` the first time an op is seen).

    The payload (refs with summaries, site, attrs) is built only when a subscriber reads the
    event (`events.deferred`): op inputs and outputs are immutable tensors, so building it
    later gives what building it now would."""
    if _events.muted():   # (an op_defined made now would reach no one, and never be sent)
        return
    if not op.announced:
        op.announced = True
        emit(make(OpDefined, op=op.name, formula=op.formula,
                  grad_formulas=list(op.grad_formulas), differentiable=op.differentiable))
    state = _local.state
    skipped = None
    if node.tapes:
        scope = node.scope      # (set when a tape recorded it)
    else:
        ins = {t._id for t in inputs}
        opened = tapes(state.open)
        if opened and (any(tape._ids & ins for tape in opened) or
                       len(opened) != len(tapes(state.recording))):
            skipped = "paused"   # it touched a tape's tensors, or ran inside stop_recording
        elif state.backward:
            return   # a backward-pass op no tape recorded belongs to no graph
        elif state.entered and _on_a_closed_tape(state.entered, opened, ins):
            skipped = "outside_tape"
        elif opened and _reads_untracked(inputs, opened):
            skipped = "untracked"
        if skipped:
            node.ghost = True
        scope = "/".join(state.scopes) if state.scopes else ""
    backward = state.backward
    emit_deferred(OpRecorded, _op_payload, node, inputs, outputs, skipped,
                  backward[-1] if backward else None, scope, _config["value_limit"])


def _reads_untracked(inputs, opened) -> bool:
    """Whether an op no tape recorded reads, while a tape is open, a value that tape's op
    made but does not track (an integer: `tf.cast(x @ w, tf.int32)` cast back to float), or
    the output of such a ghost: the path is cut there, and the graph draws the cut."""
    for t in inputs:
        node = t._node
        if node is None:
            continue
        if node.ghost:
            return True
        for tape_id in node.tapes:      # (a tape or two: a loop, not a set built per op)
            for tape in opened:
                if tape._id == tape_id:
                    return True
    return False


def _on_a_closed_tape(entered, opened, ins) -> bool:
    """Whether a tape this thread entered, no longer open, has one of the ids ``ins``."""
    for ref in list(entered):
        tape = ref()
        if tape is not None and not tape._ids.isdisjoint(ins) and tape not in opened:
            return True
    return False


def _op_payload(node, inputs, outputs, skipped, backward_of, scope, limit) -> dict:
    return {"node": node.id, "op": node.op.name, "tapes": list(node.tapes),
            "inputs": [_ref(t, limit) for t in inputs],
            "outputs": [_ref(t, limit) for t in outputs],
            "attrs": jsonable_attrs(node.attrs), "site": as_dict(node.site),
            "skipped": skipped, "backward_of": backward_of, "scope": scope}


def _ref(t, limit):
    return ref_dict(t, t._value, t._node, limit)


def jsonable_attrs(attrs) -> dict:
    if not attrs:
        return {}
    out = {}
    for k, v in attrs.items():
        if isinstance(v, (bool, int, float, str)) or v is None:
            out[k] = v
        elif isinstance(v, (tuple, list)):
            out[k] = [x if isinstance(x, (bool, int, float, str)) or x is None else repr(x)
                      for x in v]
        else:
            out[k] = repr(v)
    return out
