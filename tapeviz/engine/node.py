"""Lineage: which op made a value, from which values, at which line of the user's code.

Every op call builds a `Node`, whether or not a tape records it, so that an explanation can
later say what happened even to work no tape recorded ("this tensor was computed before the
tape opened"). A node holds no arrays: parents, ids and a source line only, so lineage costs
little memory and can be kept as long as the tensors that point to it.
"""
from __future__ import annotations

from .. import events as _events
from .call_site import user_site
from .threadstate import _local

#: Lineage deeper than this is cut, so a long loop of `x = x + 1` cannot grow memory forever.
MAX_LINEAGE_DEPTH = 512


class Node:
    """Lineage of one op call: what ran, on what, where. Holds no arrays."""

    __slots__ = ("id", "op", "parents", "in_ids", "out_ids", "site", "attrs", "depth",
                 "tapes", "scope", "ghost", "__weakref__")

    def __init__(self, op, inputs, site, attrs):
        """The node of a call of `op` on `inputs` (tensors, or anything with the `_id` and
        `_node` of one: its lineage is read, it is not kept)."""
        global _last_node_id
        # (no call between the read and the write: the GIL cannot switch threads there)
        self.id = _last_node_id = _last_node_id + 1
        self.op = op
        # (spelled out for one and two inputs, nearly every op: `tuple(map(...))` costs more)
        if len(inputs) == 2:
            a, b = inputs
            parents, self.in_ids = (a._node, b._node), (a._id, b._id)
        elif len(inputs) == 1:
            a, = inputs
            parents, self.in_ids = (a._node,), (a._id,)
        else:
            parents = tuple([t._node for t in inputs])
            self.in_ids = tuple([t._id for t in inputs])
        self.out_ids = ()
        self.site = site
        self.attrs = attrs
        depth = 0
        for p in parents:
            if p is not None and p.depth >= depth:
                depth = p.depth + 1
        if depth > MAX_LINEAGE_DEPTH:
            parents = ()
            depth = 0
        self.parents = parents
        self.depth = depth
        self.tapes = ()     # ids of the tapes that recorded this call
        self.ghost = False  # told as a ghost (`skipped`): an op reading its outputs is one too

    def __repr__(self):
        return f"<Node {self.id} {self.op if isinstance(self.op, str) else self.op.name}>"


_last_node_id = 0


def peek_node_id() -> int:
    """The id the next node will get (tapes mark where they opened, closed and paused)."""
    return _last_node_id + 1


_WALK = object()   # leaf_node's default: take the user's source line


def leaf_node(kind: str, site=_WALK) -> Node | None:
    """The lineage of a tensor that no op produced: a constant, a variable, a NumPy result.
    ``site``: its source line, None for none; by default the user's line is taken."""
    return Node(kind, (), user_site(2) if site is _WALK else site, None)


def mark_copy(node: Node, copied) -> None:
    """Note on a constant's or variable's ``node`` that its value is a copy of ``copied``'s (a
    tensor or variable), whose history the copy does not carry: the `copied_value`
    explanation of a None gradient reads it back with `copy_source`."""
    node.attrs = {**(node.attrs or {}), "copy_of": (copied._id, copied._node)}


def copy_source(node: Node):
    """``(id, node)`` of the value a constant or variable was copied from, else None."""
    return (node.attrs or {}).get("copy_of") if isinstance(node.op, str) else None


def watched_site(depth: int = 2):
    """The user's source line when a tape is open or someone listens (an explanation or an
    event may read it), else None: an assignment or an optimizer's update outside any tape
    skips the frame walk."""
    return user_site(depth + 1) if (_local.state.open or _events.ACTIVE) else None
