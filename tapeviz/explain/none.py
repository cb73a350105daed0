"""Why a gradient is None: the source is not a float, is not watched (not trainable, the tape
does not watch accessed variables, a Tensor made from a variable), is not connected, left the
tape through NumPy, its value was copied into a new constant or Variable, or the first op on
its path was cut (an assign, `stop_gradient`, a paused or closed tape, an integer cast, an op
with no gradient)."""
from __future__ import annotations

import numpy as np

from ..engine.node import copy_source
from ..engine.tensor import Variable
from .context import _ASSIGNS, _ancestors, _on_path


def _why_none(ctx, source):
    tape = ctx.tape
    if source._value.dtype.kind != "f":
        return "integer_dtype", None, {"dtype": source.dtype.name}
    watched = source._id in tape._ids
    on = _on_path(ctx.lineage, source._id)
    if not watched:
        if isinstance(source, Variable):
            if not source.trainable:
                return "not_trainable", None, {}
            if not tape._watch_accessed:
                return "auto_watch_off", None, {"site": tape._site}
            if not on:
                # read only by NumPy or float(): the value left before any op could watch it
                escape = _escape_in_cone(ctx, source)
                if escape is not None:
                    return "numpy_escape", None, escape
                return _unconnected(ctx, source)
            # trainable and auto-watched, yet never read while the tape recorded
            return _first_cut(ctx, on) or ("outside_tape", None, {})
        if _from_variable(source):
            return "replaced_variable", source._node, {}
        if not on:
            return _unconnected(ctx, source)
        return "not_watched", None, {}
    if not on:
        escape = _escape_in_cone(ctx, source)
        if escape is not None:
            return "numpy_escape", None, escape
        return _unconnected(ctx, source)
    cut = _first_cut(ctx, on)
    if cut is not None:
        return cut
    return _unconnected(ctx, source)


def _unconnected(ctx, source):
    """No op leads from the source to the target: unless the target reads a copy of the
    source's value (`tv.constant(w)`, `tv.Variable(x * 2)`), whose history starts anew."""
    for node in ctx.lineage:
        copied = copy_source(node)
        if copied is None:
            continue
        copied_id, copied_node = copied
        if copied_id == source._id or (copied_node is not None and copied_node.id in _on_path(
                _ancestors([copied_node]), source._id)):
            return "copied_value", node, {"kind": node.op, "direct": copied_id == source._id}
    return "unconnected", None, {}


def _from_variable(t) -> bool:
    """A Tensor made from a Variable by an op (as `x = x + 1` makes)."""
    node = t._node
    if node is None or isinstance(node.op, str):
        return False
    return any(p is not None and (p.op == "Variable" or p.op in _ASSIGNS) for p in node.parents)


def _first_cut(ctx, on):
    """The earliest node on a source->target path that blocks the gradient, and why."""
    tape = ctx.tape
    lineage = {n.id: n for n in ctx.lineage}
    for nid in sorted(on):
        node = lineage[nid]
        op = node.op
        if isinstance(op, str):
            # an assignment cuts the path of the value it copies in (input 1), not of the
            # variable it sets (input 0): a Variable source assigned earlier (a warm start,
            # set_weights, an optimizer's update) is read afresh, and its gradient is cut,
            # if at all, by what comes after
            if op in _ASSIGNS and any(i > 0 for i in on[nid]):
                return "variable_assign", node, {"method": op}
            continue
        if op.name == "StopGradient":
            return "stop_gradient", node, _difference_after(ctx, node)
        if tape._id not in node.tapes:
            span = _pause_containing(tape, node.id)
            if span is not None:
                return "stop_recording", node, {"pause_site": span[2]}
            if tape._open_at is None or node.id < tape._open_at or (
                    tape._closed_at is not None and node.id >= tape._closed_at):
                return "outside_tape", node, {}
            # it ran while the tape recorded, yet was not recorded: nothing it read was
            # watched then (a `tape.watch` that came too late)
            return "not_watched", node, {"late": True}
        if op.name == "Cast" and np.dtype(node.attrs["dtype"]).kind != "f":
            return "integer_dtype", node, {"dtype": np.dtype(node.attrs["dtype"]).name}
        if op.vjps is None:
            return "non_differentiable", node, {}
    return None


#: ops that compare a prediction with a target: a stop_gradient on one side of them is most
#: often meant for the other (a consistency, distillation or TD loss holds its target fixed)
_DIFFERENCES = frozenset({"Sub", "SquaredDifference"})


def _difference_after(ctx, stop) -> dict:
    """``{"difference": op name}`` when the stop_gradient's output is one side of a
    difference on the target's path (the fix then says where else it may belong), else {}."""
    out = stop.out_ids[0] if stop.out_ids else None
    for node in ctx.lineage:
        op = node.op
        if not isinstance(op, str) and op.name in _DIFFERENCES and out in node.in_ids:
            return {"difference": op.name}
    return {}


def _pause_containing(tape, node_id):
    for span in tape._pauses:
        start, end = span[0], span[1]
        if start <= node_id and (end is None or node_id < end):
            return span
    return None


def _escape_in_cone(ctx, source):
    cone = {source._id}
    for node in ctx.nodes:
        if any(i in cone for i in node.in_ids):
            cone.update(node.out_ids)
    for tid, via, site in ctx.tape._escapes:
        if tid in cone:
            return {"via": via, "site": site}
    return None


def _tape_connects(ctx, source) -> bool:
    """Do the tape's recorded ops lead from the source to a target?"""
    if source._id not in ctx.tape._ids:
        return False
    reach = {source._id}
    for node in ctx.nodes:
        if any(i in reach for i in node.in_ids):
            reach.update(node.out_ids)
    return any(t._id in reach for t in ctx.targets)
