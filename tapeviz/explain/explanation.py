"""Why each gradient is what it is: `None`, zero, NaN/Inf or a value, with the line to fix.

An explanation reads three records: the tape's entries (what it recorded, with values), the
lineage every op call leaves (what ran, recorded or not: so work outside the tape, inside
`stop_recording`, or through `assign` is still visible), and the tape's side notes (watches
refused, values that escaped to NumPy, pause spans, open/close marks).
"""
from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from .. import events as _events
from ..engine import op as _op
from ..engine.call_site import (cell_of, filename as site_file, lineno as site_line, user_names,
                                user_prefix, where as site_where)
from ..engine.tensor import Variable
from . import messages
from .context import RELEASED, _Context, _op_name
from .none import _tape_connects, _why_none

VERDICTS = ("value", "none", "zero", "nan", "inf")
CAUSES = tuple(messages.CAUSES)


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
    path_nodes: tuple = ()      # NaN/Inf: node ids of the ops from the source to the origin

    def as_dict(self) -> dict:
        # (by hand: dataclasses.asdict deep-copies every field, a third of the cost of a
        # recorded gradient_finished event)
        out = {"source_name": self.source_name, "verdict": self.verdict, "cause": self.cause,
               "message": self.message, "fix": self.fix, "filename": self.filename,
               "lineno": self.lineno, "path": list(self.path), "node": self.node,
               "origin_call": self.origin_call}
        if self.cell is not None:       # (a script's results are as they were)
            out["cell"] = self.cell
        if self.path_nodes:             # (what *Show on graph* highlights for a NaN)
            out["path_nodes"] = list(self.path_nodes)
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
    from ..engine import nest
    from ..engine.gradient_args import _as_target, _as_upstream, _ones, _sources, _unconnected
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
        from ..engine.backprop import backward, reads_apart
        apart = reads_apart(tape, flat_sources) or {}
        with _Quiet():
            grads = backward(tape, targets, ups, ids, apart=apart)
        results = [_zero_fill(grads.get(apart.get(id(s), s._id)), s, unconnected)
                   for s in flat_sources]
    else:   # a one-shot tape already used: its last answer is all that is left
        last = tape._last_results or {}
        results = [_zero_fill(last[s._id], s, unconnected) if s._id in last else RELEASED
                   for s in flat_sources]
    return explain_flat(tape, targets, flat_sources, results, unconnected)


def _zero_fill(g, source, unconnected):
    if g is None and unconnected == "zero" and source._value.dtype.kind == "f":
        from ..engine.ops import zeros_like
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
        from .nonfinite import nonfinite_input, nonfinite_origin   # (rare)
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
        from .zero import why_zero
        cause, node, extra = why_zero(ctx, source)
        return _make(name, "zero", cause, node, extra, source, ctx.prefix)
    if ctx.saturable:     # a vanishing value through an activation stuck in its tail
        from .zero import VANISHING, saturated_chain, saturated_on_path
        found = saturated_on_path(ctx, source)
        # float64: a finite float32 gradient's squared norm may overflow (an exploding run)
        norm = float(np.linalg.norm(value.reshape(-1).astype(np.float64)))
        if found is None and norm < VANISHING:
            found = saturated_chain(ctx, source)
        if found is not None:
            return _make(name, "value", "saturated", *found, source, ctx.prefix)
    return _make(name, "value", "ok", None, {}, source, ctx.prefix)


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
                       cell_of(site_file(site)), tuple(extra.get("path_nodes", ())))


def _creation_site(source):
    if isinstance(source, Variable):
        return source._site
    return source._node.site if source._node is not None else None


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
