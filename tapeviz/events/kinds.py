"""The event kinds: frozen, slotted dataclasses, one per kind, and :data:`EVENT_TYPES`.

Every event has a ``kind`` (its class's ``KIND``), a global ``seq`` number and a wall-clock
``time``; the fields after those are each kind's payload, documented in ``docs/events.md``.
The engine's events build their payload on first read (``deferred.py``).
Imports: stdlib and ``deferred`` only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .deferred import Payload, _payload_fields, _set, build_payload

_event_class = dataclass(frozen=True, slots=True)

#: 2: recordings write each source site once (a ``site`` line) and events refer to it by id.
#: 3: a backward step's ``total`` that is its ``grad`` is left out (readers put it back).
SCHEMA_VERSION = 3


@_event_class
class Event(Payload):
    KIND = "event"
    seq: int = 0
    time: float = 0.0

    def __post_init__(self):
        _set(self, "_build", None)

    @property
    def kind(self) -> str:
        return self.KIND

    def to_dict(self) -> dict:
        """The JSON form: ``{"kind": ..., "seq": ..., "time": ..., <fields>}``."""
        build_payload(self)
        out = {"kind": self.KIND, "seq": self.seq, "time": self.time}
        for f in _payload_fields(type(self)):
            out[f.name] = getattr(self, f.name)
        return out


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
    (``"paused"`` inside ``stop_recording``, ``"outside_tape"`` after a tape closed,
    ``"untracked"`` on an integer a recorded op made, or on such a ghost's output) for an op
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
    """``results``, per source: ``{"tensor": ref, "grad": summary | None, "norm": float |
    None, "verdict", "cause", "message", "fix", "filename", "lineno", "path"}``.
    ``verdicts``, per source: ``{"id", "name", "verdict", "norm"}``, the same verdict and
    (to rounding) norm, set when the engine makes the event: reading them (and ``call``,
    ``tape``) builds no payload, so a subscriber that wants only those pays for no summaries
    and no explanations."""
    KIND = "gradient_finished"
    call: int = 0
    tape: int = 0
    results: list = field(default_factory=list)
    verdicts: list = field(default_factory=list)


@_event_class
class Scalar(Event):
    """A number the user reports for charts, e.g. ``tv.events.log_scalar("loss", loss, step)``."""
    KIND = "scalar"
    name: str = ""
    value: float = 0.0
    step: int | None = None


@_event_class
class Note(Event):
    """Something in the run that most likely is a bug although every gradient is a finite
    value, so no verdict shows it: ``code`` names it (``softmax_as_logits``,
    ``batchnorm_inference``, ``frozen_layer_updated``), ``subject`` what it is about (a loss,
    a layer, a weight), ``message`` and ``fix`` say it in words, ``site`` is the user's line.
    Told once per code and subject."""
    KIND = "note"
    code: str = ""
    subject: str = ""
    message: str = ""
    fix: str = ""
    site: dict | None = None


@_event_class
class CallSummary(Event):
    """One gradient call in a few numbers, written by a flight recording
    (``tv.record(path)``, the flight policy) for every call, never sent to subscribers. ``index``
    counts the calls this recording saw (1, 2, ...), ``call`` is the engine's call id;
    ``sources``: ``[{"name", "norm", "verdict"}]`` per source; ``norm``: the global gradient
    norm over the finite ones; ``scalars``: ``[{"name", "value", "step"}]`` logged since the
    previous call; ``full``: its full events are in the file, ``why`` says why (``"first"``,
    ``"every"``, ``"verdict"``, ``"jump"``); ``lead_up``: the indices of earlier calls whose
    full events were written just before it (from the ring buffer), ``lead_up_dropped``: how
    many of the calls it wanted the ring's byte bound had let go."""
    KIND = "call_summary"
    index: int = 0
    call: int = 0
    tape: int = 0
    sources: list = field(default_factory=list)
    norm: float | None = None
    scalars: list = field(default_factory=list)
    full: bool = False
    why: str = ""
    lead_up: list = field(default_factory=list)
    lead_up_dropped: int = 0


@_event_class
class RecordingClosed(Event):
    """The last line of a recording, written by its writer only (never sent to subscribers):
    a reader that follows the file stops here. ``reason`` is ``"closed"`` (``close()`` or the
    end of the ``with`` block), ``"exit"`` (the interpreter exited first) or ``"crashed"``
    (an uncaught exception ended the interpreter, or escaped the ``with`` block); ``events``
    is the number of event lines written before it; ``dropped`` counts events that could not
    be written (none, normally), and ``dropped_first`` why the first of them could not
    (``"<kind>: <exception>"``; older recordings have no such field). ``error``, for
    ``"crashed"`` only: the exception as plain text, ``{"type", "message", "file", "line",
    "function"}`` (the user's frame; older recordings have no such field)."""
    KIND = "recording_closed"
    reason: str = "closed"
    events: int = 0
    dropped: int = 0
    error: dict | None = None
    dropped_first: str | None = None


EVENT_TYPES: dict[str, type[Event]] = {
    cls.KIND: cls for cls in (OpDefined, TapeOpened, TapeClosed, Watched, OpRecorded,
                              RecordingPaused, RecordingResumed, VariableAssigned, Escaped,
                              GradientStarted, BackwardStep, GradientFinished, Scalar, Note,
                              CallSummary, RecordingClosed)
}

