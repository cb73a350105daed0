"""The reverse walk over a tape's entries: VJPs, unbroadcasting, accumulation, events.

Entries are in execution order, so walking them backwards is already a valid order. Only
entries that lie between the sources and the targets are visited, and only the VJPs of
inputs that lead back to a source are called.
"""
from __future__ import annotations

from .. import events as _events
from .ops import add, broadcast_to, cast, reduce_sum, sum_to, zeros
from .threadstate import quietly


class NeedsLoop(Exception):
    """An op on the path cannot take a batched upstream gradient: fall back to a loop."""


def backward(tape, targets, upstreams, source_ids, batch=0, call=None, observer=None):
    """Gradients {id: Tensor} for `source_ids`, from `targets` seeded with `upstreams`.

    `batch` > 0 means every upstream carries that many leading Jacobian dimensions.
    `observer(node, g, [(input index, input, gradient)])` sees every step (explanations)."""
    entries = tape._entries
    watched = tape._ids
    if tape._watched.keys() <= source_ids and all(i in watched for i in source_ids):
        # the sources are every tensor the tape watches: what they reach is what the tape
        # marked as it recorded (the float outputs of differentiable ops fed by them); the
        # walk skips the rest (integer outputs, ops without VJPs) on its own
        reach = watched
    else:
        reach = {i for i in source_ids if i in watched}
        if not reach:
            return {}
        for node, inputs, outputs in entries:
            for t in inputs:
                if t._id in reach:
                    for o in outputs:
                        reach.add(o._id)
                    break

    grads: dict = {}
    for t, g in zip(targets, upstreams):
        if g is not None and t._id in reach:
            _accumulate(grads, t._id, g)
    if not grads:
        return {}
    emitting = _events.STEP_EVENTS and call is not None
    args = (entries, grads, reach, source_ids, batch, call, observer, emitting)
    if tape._user_vjps:   # custom gradient code is the user's: it runs with their settings
        return _walk(*args)
    # the whole walk in the quiet context (NaN/Inf are results to explain, not warnings):
    # one switch per pass instead of one per op
    return quietly(_walk, *args)


def _walk(entries, grads, reach, keep, batch, call, observer, emitting):
    step = 0
    tracing = emitting or observer is not None   # someone wants each step's gradients
    limit = _config["value_limit"]
    get = grads.get
    for node, inputs, outputs in reversed(entries):
        if len(outputs) == 1:
            y = outputs[0]
            oid = y._id
            g = get(oid)
            if g is None:
                continue
            if oid not in keep:
                del grads[oid]
        else:
            gs = [get(o._id) for o in outputs]
            if all(g is None for g in gs):
                continue
            for o in outputs:
                if o._id not in keep:
                    grads.pop(o._id, None)
            known = next((gi, o) for gi, o in zip(gs, outputs) if gi is not None)
            lead_shape = known[0]._value.shape[:known[0]._value.ndim - known[1]._value.ndim]
            g = tuple(gi if gi is not None else zeros(lead_shape + o._value.shape, o.dtype)
                      for gi, o in zip(gs, outputs))
            y = outputs
        op = node.op
        vjps = op.vjps
        if vjps is None:
            continue
        if batch and not op.batchable:
            raise NeedsLoop(op.name)
        attrs = node.attrs
        n = len(inputs)
        step_grads = [] if tracing else None
        for i, x in enumerate(inputs):
            xid = x._id
            if xid not in reach:
                continue
            value = x._value
            dtype = value.dtype     # (read once: a NumPy scalar looks its dtype up each time)
            if dtype.kind != "f":
                continue
            vjp = vjps[i]
            if vjp is None:
                continue
            if attrs:
                gx = vjp(g, y, *inputs, **attrs)
            elif n == 2:
                gx = vjp(g, y, inputs[0], inputs[1])
            else:
                gx = vjp(g, y, *inputs)
            if gx is None:
                continue
            gv = gx._value
            # (`is not` first: NumPy's builtin dtypes are singletons, and `!=` costs more)
            if batch or gv.shape != value.shape or (gv.dtype is not dtype and
                                                    gv.dtype != dtype):
                gx = _fit(gx, x, batch, g)
            prev = get(xid)
            total = grads[xid] = gx if prev is None else add(prev, gx)
            if step_grads is not None:
                step_grads.append((i, x, gx, prev is not None, total))
        if observer is not None:
            observer(node, g, step_grads)
        if emitting:   # a `backward_step` event, its summaries built when someone reads it
            _emit_deferred(_BackwardStep, _step_payload, call, step, node, op, g, step_grads,
                           limit)
        step += 1
    return grads


def _fit(gx, x, batch, g):
    """Unbroadcast a VJP's result to the input's shape and keep the input's float dtype.

    Without Jacobian axes one `sum_to` folds everything. With them (`batch` > 0),
    broadcasting adds axes after the batch axes, so those are summed explicitly; `sum_to`
    then only folds the axes that were 1 in the input."""
    shape = x._value.shape
    gshape = gx._value.shape
    if not batch and len(gshape) >= len(shape):
        gx = sum_to(gx, shape)   # one op folds the added and the stretched axes
    elif len(gshape) != len(shape) + batch or gshape[batch:] != shape:
        extra = len(gshape) - batch - len(shape)
        if extra > 0:
            gx = reduce_sum(gx, axis=list(range(batch, batch + extra)))
        target = gx._value.shape[:batch] + shape
        if extra < 0:   # a rule returned no batch axes: take them from the upstream gradient
            upstream = g[0] if isinstance(g, tuple) else g
            gx = broadcast_to(gx, upstream._value.shape[:batch] + shape)
        elif gx._value.shape != target:
            gx = sum_to(gx, target)
    if gx._value.dtype != x._value.dtype:
        gx = cast(gx, x._value.dtype)
    return gx


def _accumulate(grads, key, g):
    prev = grads.get(key)
    grads[key] = g if prev is None else add(prev, g)


_emit_deferred, _BackwardStep, _config = (_events.emit_deferred, _events.BackwardStep,
                                          _events.config)


def _step_payload(call, step, node, op, g, step_grads, limit) -> dict:
    """The fields of a `backward_step` (gradients are immutable tensors: building them when a
    subscriber reads the event gives what building them at the step would)."""
    summarize = _events.summarize
    ups = g if isinstance(g, tuple) else (g,)
    input_grads = []
    for i, x, gx, acc, total in step_grads:
        grad = summarize(gx._value, limit)
        # an input's first gradient is its total: the same summary (a recording then writes
        # it once, see recording/tables.py)
        input_grads.append({"index": i, "tensor": x._id, "grad": grad, "accumulated": acc,
                            "total": grad if total is gx else summarize(total._value, limit)})
    return {"call": call, "step": step, "node": node.id, "op": op.name,
            "formula": "; ".join(op.grad_formulas),
            "upstream": [summarize(u._value, limit) if u is not None else None for u in ups],
            "input_grads": input_grads}
