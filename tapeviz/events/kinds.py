"""The event kinds: frozen, slotted dataclasses, one per kind, and :data:`EVENT_TYPES`.

Every event has a ``kind`` (its class's ``KIND``), a global ``seq`` number and a wall-clock
``time``; the fields after those are each kind's payload, documented in ``docs/events.md``.
Imports: stdlib and ``deferred`` only.
"""
from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field

from .deferred import (_Deferrable, _dict_maker, _get_pending, _make_deferrable, _materialize,
                       _set_pending, install_stamps)

if sys.version_info >= (3, 11):
    _event_class = dataclass(frozen=True, slots=True)
else:
    def _event_class(cls):
        """``dataclass(frozen=True, slots=True)`` as Python 3.11 makes it. Python 3.10's gives a
        subclass a slot of its own for every field, the inherited ones too (bpo-45897, fixed
        in 3.11): each kind's own ``seq`` and ``time`` slots would then hide the base's, which
        :func:`install_stamps` reads from and the engine's deferred events are stamped in."""
        cls = dataclass(frozen=True)(cls)
        inherited = set()
        for base in cls.__mro__[1:-1]:
            slots = base.__dict__.get("__slots__", ())
            inherited.update((slots,) if isinstance(slots, str) else slots)
        names = tuple(f.name for f in dataclasses.fields(cls))
        body = {k: v for k, v in cls.__dict__.items()
                if k not in names and k not in ("__dict__", "__weakref__")}
        body["__slots__"] = tuple(n for n in names if n not in inherited)
        slotted = type(cls)(cls.__name__, cls.__bases__, body)
        slotted.__qualname__ = cls.__qualname__
        slotted.__getstate__ = dataclasses._dataclass_getstate     # as 3.10's slots=True does
        slotted.__setstate__ = dataclasses._dataclass_setstate
        return slotted

#: 2: recordings write each source site once (a ``site`` line) and events refer to it by id.
#: 3: a backward step's ``total`` that is its ``grad`` is left out (readers put it back).
SCHEMA_VERSION = 3


@_event_class
class Event(_Deferrable):
    KIND = "event"
    seq: int = 0
    time: float = 0.0

    def __post_init__(self):
        _set_pending(self, None)

    @property
    def kind(self) -> str:
        return self.KIND

    def to_dict(self) -> dict:
        """The JSON form: ``{"kind": ..., "seq": ..., "time": ..., <fields>}``."""
        try:
            if _get_pending(self):
                _materialize(self)
        except AttributeError:      # built without __init__ (unpickled): nothing deferred
            pass
        return _dict_maker(type(self))(self)


@_event_class
class OpDefined(Event):
    """The first use of an op in a run: its human formulas, so a recording describes itself."""
    KIND = "op_defined"
    op: str = ""
    formula: str = ""
    grad_formulas: list = field(default_factory=list)   # one string per input
    differentiable: bool = True


@_event_class
class TapeOpened(Event):
    KIND = "tape_opened"
    tape: int = 0
    persistent: bool = False
    watch_accessed_variables: bool = True
    outer_tapes: list = field(default_factory=list)      # tapes already recording: nesting
    site: dict | None = None


@_event_class
class TapeClosed(Event):
    KIND = "tape_closed"
    tape: int = 0
    site: dict | None = None


@_event_class
class Watched(Event):
    """A tensor or variable joined a tape's watch set; ``how`` is ``"watch"`` or ``"auto"``."""
    KIND = "watched"
    tape: int = 0
    tensor: dict = field(default_factory=dict)
    how: str = "watch"
    site: dict | None = None


@_event_class
class OpRecorded(Event):
    """An op ran. ``tapes`` lists the tapes that recorded it; empty with a ``skipped`` reason
    (``"paused"`` inside ``stop_recording``, ``"outside_tape"`` after a tape closed) for an op
    that touched a tape's tensors but was not recorded: a ghost node in the dashboard."""
    KIND = "op_recorded"
    node: int = 0
    op: str = ""
    tapes: list = field(default_factory=list)
    inputs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)
    attrs: dict = field(default_factory=dict)
    site: dict | None = None
    skipped: str | None = None
    backward_of: int | None = None    # the gradient call whose backward pass ran this op
    scope: str = ""                    # name scope (a Keras layer's name), for grouping


@_event_class
class RecordingPaused(Event):
    KIND = "recording_paused"
    tape: int = 0
    site: dict | None = None


@_event_class
class RecordingResumed(Event):
    KIND = "recording_resumed"
    tape: int = 0
    site: dict | None = None


@_event_class
class VariableAssigned(Event):
    KIND = "variable_assigned"
    variable: dict = field(default_factory=dict)
    method: str = "assign"
    value: dict = field(default_factory=dict)
    site: dict | None = None


@_event_class
class Escaped(Event):
    """A value left the tape: ``via`` is ``"numpy()"``, ``"np.sin"``, ``"float()"``, ..."""
    KIND = "escaped"
    tensor: dict = field(default_factory=dict)
    via: str = ""
    site: dict | None = None


@_event_class
class GradientStarted(Event):
    KIND = "gradient_started"
    call: int = 0
    tape: int = 0
    method: str = "gradient"   # gradient | jacobian | batch_jacobian | explain
    targets: list = field(default_factory=list)
    sources: list = field(default_factory=list)
    unconnected_gradients: str = "none"
    site: dict | None = None


@_event_class
class BackwardStep(Event):
    """One op's vector-Jacobian product during a backward pass.

    ``upstream``: one summary (or None) per output of the op. ``input_grads``: one dict per
    input, ``{"tensor": id, "grad": summary | None, "accumulated": bool, "total": summary}``,
    where ``total`` is the running sum when the input gets gradients from several consumers."""
    KIND = "backward_step"
    call: int = 0
    step: int = 0
    node: int = 0
    op: str = ""
    formula: str = ""
    upstream: list = field(default_factory=list)
    input_grads: list = field(default_factory=list)


@_event_class
class GradientFinished(Event):
    """Per source: ``{"tensor": ref, "grad": summary | None, "norm": float | None,
    "verdict", "cause", "message", "fix", "filename", "lineno", "path"}``."""
    KIND = "gradient_finished"
    call: int = 0
    tape: int = 0
    results: list = field(default_factory=list)


@_event_class
class Scalar(Event):
    """A number the user reports for charts, e.g. ``tv.events.log_scalar("loss", loss, step)``."""
    KIND = "scalar"
    name: str = ""
    value: float = 0.0
    step: int | None = None


@_event_class
class RecordingClosed(Event):
    """The last line of a recording, written by its writer only (never sent to subscribers):
    a reader that follows the file stops here. ``reason`` is ``"closed"`` (``close()`` or the
    end of the ``with`` block) or ``"exit"`` (the interpreter exited first); ``events`` is the
    number of event lines written before it; ``dropped`` counts events that could not be
    written (none, normally)."""
    KIND = "recording_closed"
    reason: str = "closed"
    events: int = 0
    dropped: int = 0


install_stamps(Event)

EVENT_TYPES: dict[str, type[Event]] = {
    cls.KIND: cls for cls in (OpDefined, TapeOpened, TapeClosed, Watched, OpRecorded,
                              RecordingPaused, RecordingResumed, VariableAssigned, Escaped,
                              GradientStarted, BackwardStep, GradientFinished, Scalar,
                              RecordingClosed)
}

for _cls in (Watched, OpRecorded, VariableAssigned, Escaped, GradientStarted, BackwardStep,
             GradientFinished):
    _make_deferrable(_cls)

