"""Why a gradient is zero (a dead ReLU, an activation stuck in its tail, a clip that holds,
or values that cancel), and whether a small one went through a saturated activation.
Loaded by `explanation.py` only for a zero gradient, or a tape holding a Sigmoid or Tanh."""
from __future__ import annotations

import numpy as np

from .context import SATURABLE, _on_path, _op_name


#: the ops (besides Relu) whose saved values can show why a gradient through them is zero
_ZERO_SUSPECTS = frozenset({"Sigmoid", "Tanh", "ClipByValue", "Maximum", "Minimum"})


#: ops whose gradient with respect to one input is scaled by the other input's value: an
#: all-zero other input (the output of a dead layer) makes that gradient zero
_PRODUCTS = frozenset({"MatMul", "BatchMatMulV2", "Mul", "Conv2D"})
#: ops that pass zeros through unchanged, followed back to the op that made them
_PASS_ZEROS = frozenset({"Identity", "Reshape", "Transpose", "ExpandDims", "Squeeze", "Cast",
                         "Flatten", "Dropout", "MaxPool", "AvgPool"})


def why_zero(ctx, source):
    on = _path(ctx, source)
    for node, inputs, outputs in ctx.entries:
        if node.id not in on:
            continue
        name = _op_name(node)
        if name == "Relu":   # (a tape keeps a ReLU's output, not its input: all 0 <=> x <= 0)
            if not np.any(outputs[0]._value):
                dead = _first_dead(ctx, node)
                return "dead_relu", dead, dead_relu_details(ctx, dead)
            continue
        if name in _PRODUCTS:
            dead = _dead_relu_behind(ctx, node, inputs, on[node.id])
            if dead is not None:
                dead = _first_dead(ctx, dead)
                return "dead_relu", dead, dict(dead_relu_details(ctx, dead),
                                               through=_op_name(node), site_of_use=node.site)
            continue
        if name not in _ZERO_SUSPECTS:
            continue
        if name in SATURABLE:
            local = _saturation(ctx, node, name, outputs)
            if local is not None:
                return "saturated", node, dict(instance(ctx, node), local=local)
            continue
        x = [np.asarray(t._value) for t in inputs]
        if name == "ClipByValue" and 0 in on[node.id]:
            if np.all((x[0] < x[1]) | (x[0] > x[2])):
                return "clipped", node, instance(ctx, node)
        if name in ("Maximum", "Minimum"):
            idx = on[node.id]
            first_wins = x[0] >= x[1] if name == "Maximum" else x[0] <= x[1]
            if idx == [0] and not np.any(first_wins) or idx == [1] and np.all(first_wins):
                return "clipped", node, instance(ctx, node)
    chain = saturated_chain(ctx, source) if ctx.saturable else None
    if chain is not None:
        return ("saturated",) + chain
    dead = _dead_relu_before_target(ctx)
    return "cancelled", None, ({"dead_elsewhere": dead.site, "dead_scope": dead.scope}
                               if dead is not None else {})


def _dead_relu_before_target(ctx):
    """The first ReLU (where its zeros began) the target descends from whose output is all
    zeros, off the source's path, or None. A dead layer makes every example reach the target
    with the same values after it, so contributions that differ by example can cancel
    exactly (a GAN discriminator's real and fake terms on its output bias)."""
    lineage = {n.id for n in ctx.lineage}
    for node, _, outputs in ctx.entries:
        if (node.id in lineage and _op_name(node) == "Relu" and outputs[0]._value.size
                and not np.any(outputs[0]._value)):
            return _first_dead(ctx, node)
    return None


def _path(ctx, source) -> dict:
    """node id -> indices of its inputs that lead back to the source, for the ops between
    the source and the targets, over the tape's entries (exact however deep the graph:
    lineage is cut at `op.MAX_LINEAGE_DEPTH`, a 300-step RNN is deeper), or over the
    lineage when the tape kept no entries. (A persistent tape's other losses are not on it:
    a dead ReLU of another loss is not why this one's gradient is zero.)"""
    if not ctx.entries:
        return _on_path(ctx.lineage, source._id)
    reach, on = {source._id}, {}
    for node, inputs, outputs in ctx.entries:
        idx = [i for i, t in enumerate(inputs) if t._id in reach]
        if idx:
            on[node.id] = idx
            reach.update(t._id for t in outputs)
    needed = {t._id for t in ctx.targets}
    for node, inputs, outputs in reversed(ctx.entries):
        if any(t._id in needed for t in outputs):
            needed.update(t._id for t in inputs)
        else:
            on.pop(node.id, None)
    return on


def _dead_relu_behind(ctx, node, inputs, path_inputs):
    """The dead ReLU whose all-zero output is the other factor of a product on the path."""
    for i, t in enumerate(inputs):
        if i in path_inputs or not isinstance(t._value, np.ndarray) or np.any(t._value):
            continue
        producer = t._node
        while producer is not None and not isinstance(producer.op, str) and \
                producer.op.name in _PASS_ZEROS and producer.parents:
            producer = producer.parents[0]
        if producer is not None and not isinstance(producer.op, str) and \
                producer.op.name == "Relu":
            return producer
    return None


def _first_dead(ctx, relu):
    """The dead ReLU where the zeros began: a ReLU whose input is exactly zero everywhere is
    dead only because a layer before it is (0 @ w + 0 = 0), so follow the all-zero values
    back to the earliest dead ReLU they came from (a ten-layer net with its sixth layer dead
    names the sixth, not the ninth)."""
    known = ctx.values
    entries = {e[0].id: e for e in ctx.entries}
    while True:
        entry = entries.get(relu.id)
        pre = known.get(entry[1][0]._id) if entry is not None else None
        if pre is None or np.any(pre):
            return relu           # its input is negative somewhere: the zeros begin here
        earlier = _zero_relu_upstream(relu.parents[0], known, entries)
        if earlier is None:
            return relu
        relu = earlier


def _zero_relu_upstream(node, known, entries, limit=64):
    """The nearest ReLU with an all-zero output that the all-zero value `node` made came
    from, through ops whose outputs are all zero too (a MatMul by it, an Add of a zero
    bias), or None."""
    stack, seen = [node], set()
    while stack and len(seen) < limit:
        n = stack.pop()
        if n is None or n.id in seen or isinstance(n.op, str):
            continue
        seen.add(n.id)
        entry = entries.get(n.id)
        out = known.get(entry[2][0]._id) if entry is not None else None
        if out is None or np.any(out):
            continue
        if n.op.name == "Relu" and n is not node:
            return n
        stack.extend(n.parents)
    return None


#: a variable added to a dead ReLU's input (a bias) is named as what killed it when at least
#: this share of the input would be positive without it; below, the rest of the input (the
#: product with the weights) is non-positive nearly everywhere by itself, and the weights are
#: named. In the broken-runs corpus a bias of -10 or -50 leaves 23-57% positive without it;
#: weights that Adam at a learning rate of 0.1 drove negative, 0-0.1%
BIAS_KILLS_FROM = 0.05
_STATES = ("Variable", "assign", "assign_add", "assign_sub")


def dead_relu_details(ctx, relu) -> dict:
    """Which ReLU this is (its op name; which of several at one line: a loop's iteration)
    and what made its input non-positive: a variable added to it (a bias of -10: ``culprit``)
    or the weights it was multiplied by (``weights``), with the lines that made and last
    set them."""
    details = instance(ctx, relu)
    pre = relu.parents[0] if relu.parents else None
    if pre is None or isinstance(pre.op, str):
        return details
    if pre.op.name not in ("AddV2", "Add", "BiasAdd", "Sub"):
        details.update(_weights(ctx, pre))          # relu(x @ w): the product alone
        return details
    entry = _entry(ctx, pre)
    if entry is None:
        return details
    known = ctx.values
    values = [known.get(t._id) for t in entry[1]]
    total = known.get(entry[2][0]._id)
    if total is None or any(v is None for v in values):
        return details
    for i, t in enumerate(entry[1]):
        if not _is_state(t):
            continue
        sign = -1.0 if pre.op.name == "Sub" and i == 1 else 1.0
        with np.errstate(all="ignore"):
            share = float(np.mean(np.asarray(total) - sign * np.asarray(values[i]) > 0))
        bias = {"culprit": t.name, **_lines(t._node, "culprit"), "share_without": share,
                "culprit_range": (float(np.min(values[i])), float(np.max(values[i])))}
        if share >= BIAS_KILLS_FROM:
            details.update(bias)
            return details
        other = entry[1][1 - i]._node if len(entry[1]) == 2 else None
        weights = _weights(ctx, other) if other is not None else {}
        if weights:
            details.update(weights, bias=bias["culprit"], share_without=share,
                           bias_range=bias["culprit_range"])
        return details
    return details


def _weights(ctx, product) -> dict:
    """The variable a product (a MatMul, a convolution) reads, with its lines, or {}."""
    if isinstance(product.op, str) or product.op.name not in _PRODUCTS:
        return {}
    entry = _entry(ctx, product)
    state = next((t for t in entry[1] if _is_state(t)), None) if entry is not None else None
    return {"weights": state.name, **_lines(state._node, "weights")} if state is not None else {}


def _is_state(t) -> bool:
    """A variable's value as read: its creation, or an assignment that last set it."""
    node = t._node
    return node is not None and isinstance(node.op, str) and node.op in _STATES


def _lines(node, key) -> dict:
    """Where a variable was made and, when an assignment set it since, where that ran."""
    made_at = (node.attrs or {}).get("made_at", node.site) if node.op != "Variable" \
        else node.site
    return {f"{key}_site": made_at,
            f"{key}_updated": node.site if node.site != made_at else None}


def _entry(ctx, node):
    return next((e for e in ctx.entries if e[0] is node), None)


def instance(ctx, node) -> dict:
    """The op's name as the graph shows it and, when the tape recorded several ops of its
    kind at its line (a loop), which one it is."""
    name = _op_name(node)
    same = [n for n, _, _ in ctx.entries
            if _op_name(n) == name and n.site == node.site] if node.site else [node]
    scope = getattr(node, "scope", "")      # (set when a tape recorded the op)
    out = {"op_label": f"{name}_{node.id}" + (f" in {scope}" if scope else "")}
    if len(same) > 1 and node in same:
        out.update(occurrence=same.index(node) + 1, occurrences=len(same))
    return out


def saturated_on_path(ctx, source):
    """``(node, extra)`` of the first Sigmoid or Tanh between the source and a target that is
    stuck in its tail, else None. Only those: a dead ReLU on one path does not hide a
    saturated activation on another (the gradient is not zero, so the ReLU explains none
    of it)."""
    on = _path(ctx, source)
    for node, inputs, outputs in ctx.entries:
        if node.id in on:
            name = _op_name(node)
            if name in SATURABLE:
                local = _saturation(ctx, node, name, outputs)
                if local is not None:
                    return node, dict(instance(ctx, node), local=local)
    return None


def _saturation(ctx, node, name, outputs):
    """The largest local derivative of a Sigmoid or Tanh over its output (y(1-y), 1-y^2) when
    below 1e-6 (the activation is stuck in its tail), else None. Worked out once per node
    for all of a gradient call's sources."""
    local = _largest_local(ctx, node, name, outputs)
    return local if local < 1e-6 else None


def _largest_local(ctx, node, name, outputs) -> float:
    """A Sigmoid's or Tanh's largest local derivative over its output, once per node."""
    memo = ctx.saturation
    if node.id not in memo:
        y = np.asarray(outputs[0]._value, np.float64)
        memo[node.id] = float(np.max(y * (1 - y) if name == "Sigmoid" else 1 - y * y)) \
            if y.size else 1.0
    return memo[node.id]


#: a gradient norm below this has vanished (tape_events' health check says "broken" there)
VANISHING = 1e-6
#: a gradient through a chain of activations whose largest local derivatives multiply to
#: less than this has vanished (each alone may look healthy: 0.25 ** 10 is 1e-6)
CHAIN_VANISHES = 1e-6


def saturated_chain(ctx, source):
    """``(node, extra)`` when the source's gradient passes through a chain of Sigmoid/Tanh
    ops (a deep net, an unrolled RNN) whose largest local derivatives multiply to less than
    `CHAIN_VANISHES`: the first of them, the product and the chain's length; else None."""
    on = _path(ctx, source)
    first, product, count = None, 1.0, 0
    for node, _, outputs in ctx.entries:
        if node.id in on and _op_name(node) in SATURABLE:
            product *= _largest_local(ctx, node, _op_name(node), outputs)
            count += 1
            first = first or node
    if count >= 2 and product < CHAIN_VANISHES:
        return first, dict(instance(ctx, first), local=product, chain=count)
    if count >= 2:
        return _vanishing_in_backward(ctx, source, count)
    return None


def _vanishing_in_backward(ctx, source, count):
    """Re-run the backward pass and find the Sigmoid/Tanh where the upstream gradient's norm
    first falls below `VANISHING` (walking back from the target): in a deep net or an RNN no
    single activation is stuck in its tail, yet the product of their Jacobians vanishes."""
    if not ctx.tape._entries and not ctx.tape._kept_entries:
        return None
    seen = []          # (node, upstream norm) of each Sigmoid/Tanh, in backward order

    def observer(node, g, step_grads):
        if _op_name(node) in SATURABLE and not isinstance(g, tuple) and g is not None:
            seen.append((node, float(np.linalg.norm(np.asarray(g._value, np.float64)))))
    ctx.replay_backward(source, observer)
    if not seen or seen[0][1] < VANISHING:
        return None
    for k, (node, norm) in enumerate(seen):
        if norm < VANISHING:
            return node, dict(instance(ctx, node), chain=count, after=k, start=seen[0][1],
                              local=norm)
    return None
