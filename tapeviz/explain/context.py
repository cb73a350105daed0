"""What every explanation of one gradient call reads: the targets' lineage (every node they
descend from, recorded or not), the tape's entries, and a copy of the tape's state taken at
the call (`TapeState`), plus the helpers the cause finders share (which inputs of a node lead
back to a source, an op's name)."""
from __future__ import annotations

import functools

#: the ops that overwrite a variable: their node's first parent is the variable's old state
_ASSIGNS = ("assign", "assign_add", "assign_sub")
#: the activations whose tails make a gradient vanish (`zero.py`: `saturated`)
SATURABLE = frozenset({"Sigmoid", "Tanh"})


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
        None (`zero.py`: once per node for all sources)."""
        return {}

    def replay_backward(self, source, observer) -> None:
        """Run the backward pass from the targets to ``source`` again, quietly, with
        ``observer(node, upstream, step_grads)`` seeing every step (where a NaN began, where
        a gradient vanished); a one-shot tape's kept entries stand in for its released ones."""
        from ..engine.backprop import backward
        from ..engine.gradient_args import _ones
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
        again (`nonfinite._values`); once per gradient call, only when needed."""
        from .nonfinite import _values
        return _values(self.entries)

    @functools.cached_property
    def finite(self) -> dict:
        """tensor id -> whether its value in `values` is free of NaN and Inf, each value
        scanned once for every source's explanation (`nonfinite.py`)."""
        from .nonfinite import FiniteValues
        return FiniteValues(self.values)

    @functools.cached_property
    def saturable(self) -> bool:
        """Did the tape record a Sigmoid or Tanh, the only ops `zero.py` calls saturated?
        (Once per gradient call, for all its sources.)"""
        return any(_op_name(e[0]) in SATURABLE for e in self.entries)


class TapeState:
    """What an explanation reads of a tape, copied at a gradient call: the explanation of a
    None or zero gradient is worked out when a subscriber reads the event, and by then the
    tape may have recorded, paused or closed. Holds the tape's entries, not copies of them."""

    __slots__ = ("_id", "_ids", "_watched", "_watch_accessed", "_site", "_open_at",
                 "_closed_at", "_pauses", "_escapes", "_entries", "_kept_entries",
                 "_released_nodes", "_user_vjps")

    def __init__(self, tape, entries: list):
        self._id = tape._id
        self._ids = set(tape._ids)
        # (what a replay of the backward pass reads: `_Context.replay_backward`, for a zero
        # gradient through a Sigmoid or Tanh, or the origin of a NaN)
        self._watched = dict(tape._watched)
        self._user_vjps = tape._user_vjps
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
    return _ancestors(t._node for t in targets)


def _ancestors(nodes) -> list:
    """The nodes and every node they descend from, oldest first (see `_lineage`)."""
    seen: dict = {}
    stack = [n for n in nodes if n is not None]
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
