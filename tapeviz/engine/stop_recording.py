"""Pausing a tape: `with tape.stop_recording():`.

Inside the block the tape is taken off this thread's list of recording tapes (it stays open),
and the node ids where the pause began and ended are noted on the tape with the user's line,
for the explanation of a gradient the pause cut. On leaving, the tape goes back to its place
among the recording tapes, in the order the open ones were entered.
"""
from __future__ import annotations

import weakref

from .. import events as _events
from .call_site import as_dict, user_site
from .node import peek_node_id
from .threadstate import here


class StopRecording:
    """The context of `tape.stop_recording()`: the tape keeps its place among this thread's
    open tapes but records nothing inside; the span is noted on the tape (`_pauses`), so an
    explanation can say that a gradient path was cut by the pause."""

    def __init__(self, tape):
        self.tape = tape

    def __enter__(self):
        tape = self.tape
        state = here()
        ref = weakref.ref(tape)
        if ref not in state.recording:
            # as TensorFlow: a tape never entered has no tape to stop (RuntimeError), one
            # whose block has ended is not recording (ValueError)
            error = RuntimeError if tape._open_at is None else ValueError
            raise error("stop_recording() is only valid inside the tape's `with` block while "
                        "it is recording. Fix: use `with tape.stop_recording():` inside `with "
                        "tv.GradientTape() as tape:`")
        state.recording.remove(ref)
        self._span = [peek_node_id(), None, user_site(2)]
        tape._pauses.append(self._span)
        if _events.ACTIVE:
            _events.emit(_events.make(_events.RecordingPaused, tape=tape._id,
                                      site=as_dict(self._span[2])))

    def __exit__(self, *exc):
        tape = self.tape
        self._span[1] = peek_node_id()
        state = here()
        ref = weakref.ref(tape)
        if ref in state.open and ref not in state.recording:
            # back at its place among the recording tapes (the order of the open ones)
            state.recording.insert(sum(1 for r in state.open[:state.open.index(ref)]
                                       if r in state.recording), ref)
        if _events.ACTIVE:
            _events.emit(_events.make(_events.RecordingResumed, tape=tape._id,
                                      site=as_dict(user_site(2))))
        return False
