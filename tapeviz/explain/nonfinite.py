"""Where a NaN or Inf gradient began: the first recorded op on the source's path whose inputs
are finite and whose output is not (forward), else the first backward step that turned
finite upstream gradients into non-finite ones (the pass is run again, quietly).
Loaded by `explanation.py` only when a gradient is not finite."""
from __future__ import annotations

import numpy as np

from ..engine.op import ValueNotKept
from .context import _ancestors, _on_path, _op_name


def nonfinite_input(ctx, source):
    """``(leaf, extra)`` when a value that entered the tape already held NaN/Inf (the source
    itself, a variable an optimizer wrote a NaN gradient into, the data), else None: the
    first such leaf on the source's path, in the order the tape read them; else the first
    anywhere the targets descend from (a NaN weight of an earlier layer reaches a later
    layer's gradient through the activations it multiplies)."""
    from ..engine.tape_events import NONFINITE_SINCE
    on = _on_path(ctx.lineage, source._id)

    def nonfinite_leaves(node, inputs, outputs):
        return next((t for t in inputs if _is_leaf(t) and not _finite(_kept(t))), None)
    found = _first_on_path_else_anywhere(ctx, on, nonfinite_leaves)
    if found is None:
        return None
    t = found[1]
    since = NONFINITE_SINCE.get(t._id)
    site = since[0] if since else (t._node.site if t._node is not None else None)
    return t, {"site": site, "call": since[1] if since else None,
               "leaf": t.name, "is_source": t._id == source._id,
               "assigned": t._node is not None and t._node.op in _ASSIGNED}


def _first_on_path_else_anywhere(ctx, on, match):
    """``(node, match(...))`` of the first entry on the source's path (node ids ``on``) for
    which ``match(node, inputs, outputs)`` is not None, else of the first such entry
    anywhere in the targets' lineage: one scan of the entries for both."""
    lineage = {n.id for n in ctx.lineage}
    first_elsewhere = None
    for node, inputs, outputs in ctx.entries:
        on_path = node.id in on
        if not on_path and (first_elsewhere is not None or node.id not in lineage):
            continue
        found = match(node, inputs, outputs)
        if found is None:
            continue
        if on_path:
            return node, found
        first_elsewhere = node, found
    return first_elsewhere


_ASSIGNED = ("assign", "assign_add", "assign_sub")


def _is_leaf(t) -> bool:
    """A value the tape read from outside: a variable, a constant, a tensor made outside."""
    return t._node is None or isinstance(t._node.op, str)


def _kept(t):
    return None if type(t._value) is ValueNotKept else t._value


def nonfinite_origin(ctx, source, verdict):
    on = _on_path(ctx.lineage, source._id)
    known, finite = ctx.values, ctx.finite
    path_ops = [node for node, _, _ in ctx.entries if node.id in on]

    def makes_nonfinite(node, inputs, outputs):
        """``inputs`` when the op made a NaN or Inf from finite inputs, else None."""
        if all(finite[t._id] for t in inputs) and not all(finite[t._id] for t in outputs):
            return inputs
        return None
    # on the source's path first; else off it (a NaN made in an earlier layer reaches this
    # source's gradient through the activations its op multiplies)
    found = _first_on_path_else_anywhere(ctx, on, makes_nonfinite)
    if found is not None:
        node, inputs = found
        route = path_to(ctx, node, on)
        return node, {"phase": "forward", "path": [_op_name(n) for n in route],
                      "path_nodes": [n.id for n in route],
                      "downstream": _downstream_ops(ctx, node, on),
                      "where_trap": _discarded_by_where(ctx, node, known),
                      "input_min": _smallest(known.get(inputs[0]._id)) if inputs else None,
                      "relu": _relu_fed(node, inputs),
                      "overflow": _overflow(ctx, node, known), **_instance(ctx, node)}
    origin = _backward_origin(ctx, source)
    if origin is not None:
        node, trap = origin
        route = path_to(ctx, node, on)
        return node, {"phase": "backward", "where_trap": trap,
                      "path": [_op_name(n) for n in route] or [_op_name(n) for n in path_ops],
                      "path_nodes": [n.id for n in route],
                      "overflow": _overflow(ctx, node, known), **_instance(ctx, node)}
    return None, {"phase": "unknown"}


#: ops with a pole or an edge at zero, and which input meets it (a division's denominator)
_AT_ZERO = {"Log": 0, "Log1p": 0, "Sqrt": 0, "Rsqrt": 0, "Reciprocal": 0, "RealDiv": 1,
            "Pow": 0}


#: ops whose output is exactly 0 wherever their input is at or below 0 and whose gradient
#: multiplies by that 0 (so the Inf of a log or a division after them becomes NaN), as a fix
#: names them. (A maximum with 0 or a clip at 0 selects its gradient: 0 there, not NaN.)
_FLOORED_AT_ZERO = {"Relu": ("a ReLU", "tv.nn.relu(x)"), "Relu6": ("a ReLU6", "tv.nn.relu6(x)")}


def _relu_fed(node, inputs):
    """``{"site", "op", "written"}`` of the ReLU that made the input of ``node`` its NaN or
    Inf came from (a log's argument, a division's denominator), else None: its exact zeros
    for a quantity that must stay positive (a variance, a scale) are the cause an epsilon at
    the op hides."""
    k = _AT_ZERO.get(_op_name(node))
    made = inputs[k]._node if k is not None and len(inputs) > k else None
    if made is None or isinstance(made.op, str) or made.op.name not in _FLOORED_AT_ZERO:
        return None
    label, written = _FLOORED_AT_ZERO[made.op.name]
    return {"site": made.site, "op": label, "written": written}


#: ops that make Inf from finite inputs only by overflowing (no pole, no domain edge): the
#: sign of a diverging run, whose weights and loss grow each step until they pass the dtype
_OVERFLOWS = frozenset({"Square", "Mul", "MatMul", "BatchMatMulV2", "AddV2", "AddN", "Sub",
                        "SquaredDifference", "Sum", "Mean", "Prod", "Cumsum", "Einsum",
                        "Conv2D", "BiasAdd"})


def _overflow(ctx, node, known):
    """For an op of `_OVERFLOWS`: the inputs it read with their largest magnitudes, its dtype's
    largest value, and the leaf (a variable, the data) holding the largest magnitude among
    the values those inputs were computed from (not one from elsewhere on the source's path:
    a constant 1.0 after the op explains nothing of its overflow)."""
    if _op_name(node) not in _OVERFLOWS:
        return None
    by_id = {t._id: t for _, inputs, _ in ctx.entries for t in inputs}
    finite = ctx.finite
    floats = [i for i in dict.fromkeys(node.in_ids) if i in known and _is_float(known[i])]
    if not floats or not all(finite[i] for i in floats):
        return None
    values = [np.asarray(known[i]) for i in floats]
    behind = {n.id for n in _ancestors([node])}
    leaves = [(float(np.abs(known[t._id]).max()), t.name) for n, inputs, _ in ctx.entries
              if n.id in behind for t in inputs
              if t._id in known and _is_leaf(t) and _is_float(known[t._id]) and finite[t._id]]
    largest_leaf = max(leaves, default=None)
    return {"largest": max(float(np.abs(v).max()) for v in values),
            "limit": float(np.finfo(values[0].dtype).max), "dtype": values[0].dtype.name,
            "inputs": [(*_input_label(by_id.get(i)), float(np.abs(v).max()))
                       for i, v in zip(floats, values)],
            "leaf": largest_leaf[1] if largest_leaf else None,
            "leaf_largest": largest_leaf[0] if largest_leaf else None}


def _is_float(value) -> bool:
    v = np.asarray(value)
    return v.dtype.kind == "f" and v.size > 0


def _input_label(t) -> tuple:
    """(name, how it was made) of an op's input, as the user can find it: a leaf by its
    name, an op's output also by the op and line that made it."""
    if t is None:
        return "an input", ""
    if _is_leaf(t):
        return t.name, ""
    from ..engine.call_site import lineno
    line = lineno(t._node.site) if t._node.site else None
    return t.name, f"the {_op_name(t._node)} output" + (f" of line {line}" if line else "")


def _instance(ctx, node) -> dict:
    """Which op of its kind at its line (`zero.instance`), and the leaves it reads itself:
    ``h1 @ w3 + h2 @ wd`` holds two MatMuls, told apart by the variable each reads."""
    from .zero import instance
    entry = next((inputs for n, inputs, _ in ctx.entries if n is node), ())
    return dict(instance(ctx, node),
                reads=list(dict.fromkeys(t.name for t in entry if _is_leaf(t))))


def path_to(ctx, node, on) -> list:
    """The recorded ops from the source to ``node`` (oldest first): the source's own path up
    to ``node``; when ``node`` is off that path (a NaN made in another layer), up to the first
    op of the path that reads a value computed from ``node``, with the ops between them."""
    nodes = [n for n, _, _ in ctx.entries]
    join, after = (node, {node.id}) if node.id in on else _join(nodes, node, on)
    if join is None:
        return [node]
    behind = {n.id for n in _ancestors([join])}
    return [n for n in nodes if n.id in behind and (n.id in on or n.id in after)]


def _join(nodes, node, on):
    """(the first op on the path that reads what ``node`` made, ``node`` and the ops between)."""
    made, after = set(node.out_ids), {node.id}
    for n in nodes:
        if n.id <= node.id or not any(i in made for i in n.in_ids):
            continue
        if n.id in on:
            return n, after
        made.update(n.out_ids)
        after.add(n.id)
    return None, after


def _values(entries) -> dict:
    """tensor id -> value of everything the entries touched. A tape keeps only what an op's
    VJPs read (`op.saves`) and always keeps leaves, so a value no entry kept is the output of
    an earlier pure NumPy forward: it is computed again from its inputs (rarely needed: only
    to find where a NaN began)."""
    known = {t._id: t._value for _, inputs, outputs in entries for t in inputs + outputs
             if type(t._value) is not ValueNotKept}
    with np.errstate(all="ignore"):
        for node, inputs, outputs in entries:
            if all(t._id in known for t in outputs) or \
                    not all(t._id in known for t in inputs):
                continue
            out = node.op.forward(*[known[t._id] for t in inputs], **(node.attrs or {}))
            for t, v in zip(outputs, out if node.op.n_out != 1 else (out,)):
                known.setdefault(t._id, v)
    return known


def _downstream_ops(ctx, node, on) -> list:
    return [_op_name(n) for n, _, _ in ctx.entries if n.id > node.id and n.id in on]


def _smallest(value):
    """The smallest element of an op's first input: a root or log of a negative number makes
    NaN in the forward pass, and the fix for that differs from the fix for an infinite slope."""
    if value is None:
        return None
    v = np.asarray(value)
    return float(v.min()) if v.dtype.kind == "f" and v.size else None


class FiniteValues(dict):
    """tensor id -> whether its value (in ``known``) holds no NaN or Inf, each array
    scanned once, when first asked."""

    def __init__(self, known: dict):
        super().__init__()
        self.known = known

    def __missing__(self, tensor_id) -> bool:
        self[tensor_id] = finite = _finite(self.known.get(tensor_id))
        return finite


def _finite(value) -> bool:
    if value is None:    # not kept by the tape: unknown, so not taken for the origin
        return True
    v = np.asarray(value)
    return v.dtype.kind != "f" or bool(np.isfinite(v).all())


def _backward_origin(ctx, source):
    """Re-run the backward pass and stop at the first step that makes a non-finite gradient."""
    if not ctx.tape._entries and not ctx.tape._kept_entries:
        return None
    found = []

    def observer(node, g, step_grads):
        if found:
            return
        ups = g if isinstance(g, tuple) else (g,)
        if not all(u is None or _finite(u._value) for u in ups):
            return
        for _, x, gx, _, _ in step_grads or ():
            if not _finite(gx._value):
                trap = any(u is not None and not np.asarray(u._value).all() for u in ups) \
                    and _select_downstream(ctx, node)
                found.append((node, trap))
                return
    ctx.replay_backward(source, observer)
    return found[0] if found else None


def _select_downstream(ctx, node) -> bool:
    ids = set(node.out_ids)
    for n, _, _ in ctx.entries:
        if n.id > node.id and any(i in ids for i in n.in_ids):
            if not isinstance(n.op, str) and n.op.name == "SelectV2":
                return True
            ids.update(n.out_ids)
    return False


def _discarded_by_where(ctx, node, known) -> bool:
    """The where trap in the forward pass: a `where` (SelectV2) after `node` takes a branch
    computed from node's non-finite output and selects the other branch at every non-finite
    element. The value is then finite, but the gradient is not: `where` sends a zero into the
    discarded branch, and the op's local derivative there is inf (0 × inf = NaN)."""
    ids = set(node.out_ids)
    for n, inputs, outputs in ctx.entries:
        if n.id <= node.id or not any(t._id in ids for t in inputs):
            continue
        if not isinstance(n.op, str) and n.op.name == "SelectV2" and len(inputs) == 3:
            y = known.get(outputs[0]._id)
            for branch in inputs[1:]:
                b = known.get(branch._id) if branch._id in ids else None
                if b is None or y is None or np.asarray(b).dtype.kind != "f":
                    continue
                bad = ~np.isfinite(np.asarray(b))
                try:
                    bad = np.broadcast_to(bad, np.shape(y))
                except ValueError:
                    continue
                if bad.any() and np.isfinite(np.asarray(y)[bad]).all():
                    return True
        ids.update(n.out_ids)
    return False
