"""The array memory a flight recording's ring buffer keeps alive (see ``flight.py``).

A call in the ring holds its events unbuilt, with the engine's tensors as their builders'
arguments, so its arrays live until it is written or let go. Each array is made by one
thing, and counted there, once, from the held events' arguments:

- an ``op_recorded`` event: the values of the op's outputs;
- a ``backward_step`` event: each gradient the step produced for an input, and the sum when
  it was added to a gradient that input already had;
- a ``variable_assigned`` event: the variable's new value (the ring keeps the values later
  assignments replace), and the update itself when an optimizer assigned a NumPy array no
  op made (``assign_quiet``; or the arrays it is made again from, for SGD).

Not counted: what the user holds anyway (constants, a variable's value as a tape watches it,
which an assignment made) and a backward pass's seed (ones of the target's shape). Counted
twice: an op's output that is a view of its input (``reshape``), and a gradient that a
recording tape also records as an op (higher-order gradients): an over-count, never under.

One plain loop over the call's events, reading only their kinds and the few arguments
above: ``_settle`` runs it every call (about 4 us for the Dense 16-16-4 loop's call of 27
events, 1% of its step). Imports: stdlib, ``events`` and the engine's assignment builder.
"""
from __future__ import annotations

from .. import events as _events
from ..engine.assign import quiet_assigned_payload   # (the engine is imported first)
from ..events.deferred import pending_build

_OpRecorded, _BackwardStep = _events.OpRecorded, _events.BackwardStep
_VariableAssigned = _events.VariableAssigned
_COUNTED = frozenset((_OpRecorded, _BackwardStep, _VariableAssigned))


def array_bytes(items) -> int:
    """The bytes of the arrays that the held ``items`` (a call's events, as ``flight._Call``
    holds them) were the first to keep alive: see the module's doc."""
    total = 0
    for item in items:
        cls = item[0]
        if cls not in _COUNTED:
            continue
        if len(item) == 5:          # (cls, seq, time, build, args): held unmade
            build, args = item[3], item[4]
        else:                       # (cls, event): made, as someone else listens too
            pending = pending_build(item[1])
            if not pending:         # built: its payload holds no array
                continue
            build, args = pending
        if cls is _OpRecorded:      # args: node, inputs, outputs, ...
            for tensor in args[2]:
                total += tensor._value.nbytes
        elif cls is _BackwardStep:  # args: call, step, node, op, upstream, gradients, ...
            for _, _, produced, added, whole in args[5] or ():
                total += produced._value.nbytes
                if added:
                    total += whole._value.nbytes
        else:                       # an assignment's: variable, new value, ..., update
            total += args[1].nbytes
            if build is quiet_assigned_payload:     # (the arrays its update is made from)
                for part in args[5][1:]:
                    total += getattr(part, "nbytes", 0)
    return total
