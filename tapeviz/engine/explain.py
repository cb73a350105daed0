"""Why each gradient is what it is: `None`, zero, NaN/Inf or a value, with the line to fix.

An explanation reads three records: the tape's entries (what it recorded, with values), the
lineage every op call leaves (what ran, recorded or not: so work outside the tape, inside
`stop_recording`, or through `assign` is still visible), and the tape's side notes (watches
refused, values that escaped to NumPy, pause spans, open/close marks).
"""
from __future__ import annotations

import dataclasses
import functools
import warnings

import numpy as np

from .. import events as _events
from . import messages
from . import op as _op
from .call_site import (cell_of, filename as site_file, lineno as site_line, user_names,
                   user_prefix, where as site_where)
from .tensor import Variable

VERDICTS = ("value", "none", "zero", "nan", "inf")
CAUSES = tuple(messages.CAUSES)
_ASSIGNS = ("assign", "assign_add", "assign_sub")
#: the activations whose tails make a gradient vanish (`explain_zero`: `saturated`)
SATURABLE = frozenset({"Sigmoid", "Tanh"})


@dataclasses.dataclass(frozen=True)
class Explanation:
    """Why one source's gradient is what it is."""
    source_name: str
    verdict: str
    cause: str
    message: str
    fix: str
    filename: str | None = None
    lineno: int | None = None
    path: tuple = ()
    node: int | None = None     # the op (node id in `op_recorded` events) that made the cut
    origin_call: int | None = None   # nan_input: the gradient call whose NaN/Inf was applied
    cell: int | None = None     # the notebook cell `filename` names (its execution count)

    def as_dict(self) -> dict:
        # (by hand: dataclasses.asdict deep-copies every field, a third of the cost of a
        # recorded gradient_finished event)
        out = {"source_name": self.source_name, "verdict": self.verdict, "cause": self.cause,
               "message": self.message, "fix": self.fix, "filename": self.filename,
               "lineno": self.lineno, "path": list(self.path), "node": self.node,
               "origin_call": self.origin_call}
        if self.cell is not None:       # (a script's results are as they were)
            out["cell"] = self.cell
        return out

    def __str__(self) -> str:
        where = f" ({site_where(self.filename, self.lineno)})" if self.lineno else ""
        text = f"{self.source_name}: {self.verdict} [{self.cause}]{where}: {self.message}"
        return text + (f"\n  fix: {self.fix}" if self.fix else "")


class _Quiet:
    """Explanations recompute gradients: nothing they run may be recorded or emitted."""

    def __enter__(self):
        self._state = _op.here()
        self._recording = list(self._state.recording)
        self._events = _events.paused()
        self._events.__enter__()
        self._state.recording.clear()

    def __exit__(self, *exc):
        self._state.recording[:] = self._recording
        self._events.__exit__(*exc)


def explain(tape, target, sources, output_gradients=None, unconnected_gradients="none"):
    """`tape.explain(...)`: one Explanation per source, flattened in TensorFlow's order."""
    from . import nest
    from .gradient_args import _as_target, _as_upstream, _ones, _sources, _unconnected
    unconnected = _unconnected(unconnected_gradients)
    flat_sources = _sources(sources)
    targets = [_as_target(t) for t in nest.flatten(target)]
    ids = {s._id for s in flat_sources}
    if tape._entries or not tape._used:   # the values are still there to differentiate
        if output_gradients is None:
            ups = [_ones(t) for t in targets]
        else:
            ups = [None if g is None else _as_upstream(g, t)
                   for g, t in zip(nest.flatten(output_gradients), targets)]
        from .backprop import backward
        with _Quiet():
            grads = backward(tape, targets, ups, ids)
        results = [_zero_fill(grads.get(s._id), s, unconnected) for s in flat_sources]
    else:   # a one-shot tape already used: its last answer is all that is left
        last = tape._last_results or {}
        results = [_zero_fill(last[s._id], s, unconnected) if s._id in last else RELEASED
                   for s in flat_sources]
    return explain_flat(tape, targets, flat_sources, results, unconnected)


def _zero_fill(g, source, unconnected):
    if g is None and unconnected == "zero" and source._value.dtype.kind == "f":
        from .ops import zeros_like
        return zeros_like(source)
    return g


def explain_flat(tape, targets, sources, results, unconnected) -> list:
    """Explanations for already computed results (used by gradient events and warnings)."""
    names = user_names(sources)
    with _Quiet():
        ctx = _Context(tape, targets)
        ctx.prefix = user_prefix()
        return [_explain_one(ctx, s, r, unconnected, names.get(id(s)))
                for s, r in zip(sources, results)]


class _Context:
    """What every source's explanation shares: the target's lineage and the tape's nodes."""

    prefix = "tv"    # the name the user's code calls tapeviz by, for fixes in their words

    def __init__(self, tape, targets):
        self.tape = tape
        self.targets = targets
        self.entries = tape._entries or tape._kept_entries or []
        self.nodes = [e[0] for e in self.entries] or tape._released_nodes or []
        self.lineage = _lineage(targets)

    @functools.cached_property
    def saturation(self) -> dict:
        """node id -> a Sigmoid's or Tanh's largest local derivative when in its tail, else
        None (`explain_zero._saturation`: once per node for all sources)."""
        return {}

    def replay_backward(self, source, observer) -> None:
        """Run the backward pass from the targets to ``source`` again, quietly, with
        ``observer(node, upstream, step_grads)`` seeing every step (where a NaN began, where
        a gradient vanished); a one-shot tape's kept entries stand in for its released ones."""
        from .backprop import backward
        from .gradient_args import _ones
        tape = self.tape
        saved = tape._entries
        if not saved:
            tape._entries = tape._kept_entries
        try:
            backward(tape, self.targets, [_ones(t) for t in self.targets], {source._id},
                     observer=observer)
        finally:
            tape._entries = saved

    @functools.cached_property
    def values(self) -> dict:
        """tensor id -> value of everything the entries touched, dropped values computed
        again (`explain_nonfinite._values`); once per gradient call, only when needed."""
        from .explain_nonfinite import _values
        return _values(self.entries)

    @functools.cached_property
    def saturable(self) -> bool:
        """Did the tape record a Sigmoid or Tanh, the only ops `explain_zero` calls saturated?
        (Once per gradient call, for all its sources.)"""
        return any(_op_name(e[0]) in SATURABLE for e in self.entries)


class TapeState:
    """What an explanation reads of a tape, copied at a gradient call: the explanation of a
    None or zero gradient is worked out when a subscriber reads the event, and by then the
    tape may have recorded, paused or closed. Holds the tape's entries, not copies of them."""

    __slots__ = ("_id", "_ids", "_watch_accessed", "_site", "_open_at", "_closed_at",
                 "_pauses", "_escapes", "_entries", "_kept_entries", "_released_nodes")

    def __init__(self, tape, entries: list):
        self._id = tape._id
        self._ids = set(tape._ids)
        self._watch_accessed = tape._watch_accessed
        self._site = tape._site
        self._open_at, self._closed_at = tape._open_at, tape._closed_at
        self._pauses = [tuple(span) for span in tape._pauses]   # an open span ends later
        self._escapes = list(tape._escapes)
        self._entries = entries
        self._kept_entries = None
        self._released_nodes = tape._released_nodes


def _lineage(targets) -> list:
    """Every node the targets descend from (recorded or not), oldest first.

    An assign's earlier state (its first parent, the variable before) is not followed back:
    a training loop's optimizer leaves one assign per step per variable, and "state hides
    history" is exactly what the assign itself already tells."""
    seen: dict = {}
    stack = [t._node for t in targets if t._node is not None]
    while stack:
        node = stack.pop()
        if node is None or node.id in seen:
            continue
        seen[node.id] = node
        parents = node.parents
        if type(node.op) is str and node.op in _ASSIGNS:
            parents = parents[1:]
        stack.extend(p for p in parents if p is not None)
    return sorted(seen.values(), key=lambda n: n.id)


#: The value of a gradient a released one-shot tape was never asked for.
RELEASED = object()


def _explain_one(ctx, source, g, unconnected, user_name=None) -> Explanation:
    name = f"{user_name} ({source.name})" if user_name else source.name
    if g is RELEASED:
        if _tape_connects(ctx, source):
            return Explanation(name, "value", "ok", "Recorded ops connect the target to this "
                               "source, so its gradient exists; the one-shot tape released its "
                               "values before this source was asked for, so the number itself "
                               "is unknown.", messages.in_words(
                                   "Use tv.GradientTape(persistent=True), or explain before "
                                   "calling gradient, to see the value.", ctx.prefix))
        g = None
    if g is None:
        cause, node, extra = _why_none(ctx, source)
        return _make(name, "none", cause, node, extra, source, ctx.prefix)
    value = np.asarray(g._value)
    if np.isnan(value).any() or np.isinf(value).any():
        from .explain_nonfinite import nonfinite_input, nonfinite_origin   # (rare)
        verdict = "nan" if np.isnan(value).any() else "inf"
        found = nonfinite_input(ctx, source)
        if found is not None:
            return _make(name, verdict, "nan_input", None, dict(found[1], kind=verdict),
                         source, ctx.prefix)
        node, extra = nonfinite_origin(ctx, source, verdict)
        return _make(name, verdict, f"{verdict}_origin", node, extra, source, ctx.prefix)
    if not value.any():
        if unconnected == "zero" and not _tape_connects(ctx, source):
            return _make(name, "zero", "zero_unconnected", None, {}, source, ctx.prefix)
        from .explain_zero import why_zero
        cause, node, extra = why_zero(ctx, source)
        return _make(name, "zero", cause, node, extra, source, ctx.prefix)
    if ctx.saturable:     # a vanishing value through an activation stuck in its tail
        from .explain_zero import VANISHING, saturated_chain, saturated_on_path
        found = saturated_on_path(ctx, source)
        if found is None and float(np.linalg.norm(value.reshape(-1))) < VANISHING:
            found = saturated_chain(ctx, source)
        if found is not None:
            return _make(name, "value", "saturated", *found, source, ctx.prefix)
    return _make(name, "value", "ok", None, {}, source, ctx.prefix)


def _tape_connects(ctx, source) -> bool:
    """Do the tape's recorded ops lead from the source to a target?"""
    if source._id not in ctx.tape._ids:
        return False
    reach = {source._id}
    for node in ctx.nodes:
        if any(i in reach for i in node.in_ids):
            reach.update(node.out_ids)
    return any(t._id in reach for t in ctx.targets)


def _make(name, verdict, cause, node, extra, source, prefix="tv") -> Explanation:
    site = extra.get("site") or (node.site if node is not None else None)
    if cause in ("not_watched", "not_trainable") or (cause == "integer_dtype" and node is None):
        site = site or _creation_site(source)
    message, fix = messages.render(cause, name=name, node=node, prefix=prefix, **extra)
    path = tuple(extra.get("path", ()))
    if node is not None and not path:
        path = (_op_name(node),)
    if cause in ("ok", "unconnected", "zero_unconnected"):
        site = None
    return Explanation(name, verdict, cause, message, fix, site_file(site), site_line(site), path,
                       node.id if node is not None and cause not in ("ok", "unconnected",
                                                                       "zero_unconnected")
                       else None, extra.get("call") if cause == "nan_input" else None,
                       cell_of(site_file(site)))


def _creation_site(source):
    if isinstance(source, Variable):
        return source._site
    return source._node.site if source._node is not None else None


def _op_name(node) -> str:
    return node.op if isinstance(node.op, str) else node.op.name


def _on_path(lineage, source_id) -> dict:
    """node id -> indices of its inputs that lead back to the source (only nodes on a path)."""
    on: dict = {}
    for node in lineage:   # oldest first: parents are decided before children
        idx = [i for i, (pid, parent) in enumerate(zip(node.in_ids, node.parents))
               if pid == source_id or (parent is not None and parent.id in on)]
        if idx:
            on[node.id] = idx
    return on


# --- None ---------------------------------------------------------------------------------------
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
                return "unconnected", None, {}
            # trainable and auto-watched, yet never read while the tape recorded
            return _first_cut(ctx, on) or ("outside_tape", None, {})
        if _from_variable(source):
            return "replaced_variable", source._node, {}
        if not on:
            return "unconnected", None, {}
        return "not_watched", None, {}
    if not on:
        escape = _escape_in_cone(ctx, source)
        if escape is not None:
            return "numpy_escape", None, escape
        return "unconnected", None, {}
    cut = _first_cut(ctx, on)
    if cut is not None:
        return cut
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
            if op in _ASSIGNS:
                return "variable_assign", node, {"method": op}
            continue
        if op.name == "StopGradient":
            return "stop_gradient", node, {}
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


# --- opt-in warnings ---------------------------------------------------------------------------------
class GradientWarning(UserWarning):
    """Raised (as a warning) for a None/NaN gradient when `tv.config.explain_none` is on."""


#: sources already warned about for an all-zero gradient: a dead layer stays dead for many
#: steps, and one warning per variable says it (None, NaN and Inf warn every time)
_WARNED_ZERO: set = set()


def warn_if_broken(explanations) -> None:
    for e in explanations:
        if e.verdict == "zero" and e.cause != "zero_unconnected":
            if e.source_name in _WARNED_ZERO:
                continue
            _WARNED_ZERO.add(e.source_name)
        elif e.verdict not in ("none", "nan", "inf"):
            continue
        warnings.warn(str(e), GradientWarning, stacklevel=4)
