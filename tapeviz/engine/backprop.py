"""The reverse walk over a tape's entries: VJPs, unbroadcasting, accumulation, events.

Entries are in execution order, so walking them backwards is already a valid order. Only
entries that lie between the sources and the targets are visited, and only the VJPs of
inputs that lead back to a source are called.
"""
from __future__ import annotations

from .. import events as _events
from .ops import add_v2, broadcast_to, cast, reduce_sum, sum_to, zeros
from .tensor import Tensor, Variable
from .threadstate import quietly


class NeedsLoop(Exception):
    """An op on the path cannot take a batched upstream gradient: fall back to a loop."""


def backward(tape, targets, upstreams, source_ids, batch=0, call=None, observer=None,
             apart=None):
    """Gradients {id: Tensor} for `source_ids`, from `targets` seeded with `upstreams`.

    `batch` > 0 means every upstream carries that many leading Jacobian dimensions.
    `observer(node, g, [(input index, input, gradient)])` sees every step (explanations).
    `apart` {id(read): key}: reads of a variable that are sources themselves (they share the
    variable's id); each gathers its own gradient under its key (see `reads_apart`)."""
    entries = tape._entries
    watched = tape._ids
    if apart:
        return _walk_apart(tape, targets, upstreams, source_ids, batch, call, observer, apart)
    if tape._watched.keys() <= source_ids <= watched:
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

    return _run_walk(tape, entries, targets, upstreams, reach, source_ids, batch, call,
                     observer)


def _run_walk(tape, entries, targets, upstreams, reach, keep, batch, call, observer,
              apart=None):
    grads: dict = {}
    for t, g in zip(targets, upstreams):
        key = t._id if apart is None else apart.get(id(t), t._id)
        if g is not None and key in reach:
            _accumulate(grads, key, g)
    if not grads:
        return {}
    emitting = _events.STEP_EVENTS and call is not None
    args = (entries, grads, reach, keep, batch, call, observer, emitting, apart)
    if tape._user_vjps:   # custom gradient code is the user's: it runs with their settings
        return _walk(*args)
    # the whole walk in the quiet context (NaN/Inf are results to explain, not warnings):
    # one switch per pass instead of one per op
    return quietly(_walk, *args)


def reads_apart(tape, sources) -> dict | None:
    """{id(read): key} for the sources that are reads of a watched variable (`v.read_value()`,
    which shares the variable's id): TensorFlow differentiates each read as a tensor of its
    own, and the variable as the sum over its reads. None when there are none (the usual)."""
    apart = None
    for s in sources:
        if type(s) is Tensor:
            w = tape._watched.get(s._id)
            if w is not None and isinstance(w[0], Variable):
                apart = apart or {}
                apart[id(s)] = ("read", id(s))
    return apart


def _walk_apart(tape, targets, upstreams, source_ids, batch, call, observer, apart):
    """`backward` with some reads differentiated apart: the walk keys their inputs by `apart`;
    a variable among the sources then gets its own gradient plus its apart reads'."""
    keys = set(apart.values())
    reach = {i for i in source_ids if i in tape._ids} | keys
    for node, inputs, outputs in tape._entries:
        if any(t._id in reach for t in inputs):
            reach.update(o._id for o in outputs)
    grads = _run_walk(tape, tape._entries, targets, upstreams, reach, source_ids | keys, batch,
                      call, observer, apart)
    by_variable: dict = {}
    for node, inputs, outputs in tape._entries:   # which variable each apart read is of
        for x in inputs:
            key = apart.get(id(x))
            if key is not None:
                by_variable.setdefault(x._id, set()).add(key)
    for var_id, read_keys in by_variable.items():
        if var_id in source_ids:
            for key in read_keys:
                if key in grads:
                    _accumulate(grads, var_id, grads[key])
    return grads


def _walk(entries, grads, reach, keep, batch, call, observer, emitting, apart=None):
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
            xid = x._id if apart is None else apart.get(id(x), x._id)
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
            total = grads[xid] = gx if prev is None else add_v2(prev, gx)
            if op is _GATHER and not batch:
                _note_gather(grads, xid, prev, total, g, inputs[1], attrs)
            elif op is _IDENTITY and not batch and SLICES in grads:
                _note_identity(grads[SLICES], xid, prev, total, g, y)
            if step_grads is not None:
                step_grads.append((i, x, gx, prev is not None, total))
        if observer is not None:
            observer(node, g, step_grads)
        if emitting:   # a `backward_step` event, its summaries built when someone reads it
            _emit_deferred(_BackwardStep, _step_payload, call, step, node, op, g, step_grads,
                           limit)
        step += 1
    return grads


#: the key of `grads` under which the walk notes the gathers from sources (see `slices`)
SLICES = "gathered rows"
_DENSE = "dense"


def _note_gather(grads, xid, prev, total, g, indices, attrs):
    """Note a gather along axis 0 from tensor `xid`: while every gradient a source gets comes
    from such gathers (maybe through identities), TensorFlow returns it as IndexedSlices
    (`sparse_results`)."""
    notes = grads.get(SLICES)
    if notes is None:
        notes = grads[SLICES] = {}
    parts = notes.get(xid)
    if parts is _DENSE:
        return
    sparse = attrs["axis"] == 0 and attrs["batch_dims"] == 0
    if not sparse or (prev is not None and (parts is None or parts[1] is not prev)):
        notes[xid] = _DENSE      # a dense gradient reached it too: the answer is dense
        return
    if parts is None:
        parts = notes[xid] = [[], None]
    parts[0].append((g, indices))
    parts[1] = total


def _note_identity(notes, xid, prev, total, g, y):
    """An identity passes its output's gathered rows on to its input, as TensorFlow's."""
    parts, rows = notes.get(xid), notes.get(y._id)
    if parts is _DENSE:
        return
    if rows is None or rows is _DENSE or rows[1] is not g or (
            prev is not None and (parts is None or parts[1] is not prev)):
        notes[xid] = _DENSE
        return
    if parts is None:
        parts = notes[xid] = [[], None]
    parts[0].extend(rows[0])
    parts[1] = total


def sparse_results(grads, sources, results) -> list:
    """`results` with IndexedSlices for the sources whose gradient came from gathers only."""
    notes = grads.get(SLICES)
    if not notes:
        return results
    from .indexed_slices import from_gathers
    out = list(results)
    for i, s in enumerate(sources):
        parts = notes.get(s._id)
        if parts is not None and parts is not _DENSE and results[i] is parts[1]:
            out[i] = from_gathers(parts[0], s)
    return out


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
    grads[key] = g if prev is None else add_v2(prev, g)


from .ops.gradient_ops import _identity as _IDENTITY  # noqa: E402
from .ops.indexing import _gather as _GATHER  # noqa: E402

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
