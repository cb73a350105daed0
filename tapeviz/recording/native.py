"""The recording writer's usual event in C (``_tables``: ``_writer.c`` and ``_on_event.c``,
built by setup.py where a C compiler is there): hands it the objects it works with, the same
ones writer.py's Python uses, so that both write the same bytes
(tests/test_recording_writer_c.py compares them). Imports: stdlib, ``events``, ``encode`` and
``tables``.
"""
from __future__ import annotations

from .. import events as _events
from ..events.deferred import _MEMBER, _Deferrable, _getters, built_payload
from . import encode, tables


def plan(cls):
    """``(kind, name, slot, name, slot, ...)``: the slots ``_dict_maker``'s function reads,
    in its order, for _on_event.c to make the same dict; None: that function makes it."""
    try:
        out = [cls.KIND]
        for name, get in _getters(cls):
            slot = getattr(get, "__self__", None)
            if type(slot) is not _MEMBER:
                return None
            out += (name, slot)
    except Exception:     # not an event class
        return None
    return tuple(out)


def setup(c, writer):
    """Hands the C module ``c`` what it works with (``writer``: the writer module); returns
    its ``write`` and ``on_event``."""
    c.setup_writer({
        "OpRecorded": _events.OpRecorded, "BackwardStep": _events.BackwardStep,
        "GradientFinished": _events.GradientFinished, "Scalar": _events.Scalar,
        "ref_fields": tables._REF_FIELDS_BY_CLASS, "fragments": encode._fragments,
        "ascii_fragment": encode._ascii_fragment, "writer_globals": vars(writer),
        "tables_globals": vars(tables), "cleared": tables.CLEARED,
        "errors": writer._WRITE_ERRORS,
        "newline": encode.NEWLINE})
    c.setup_on_event({
        "make_plan": plan, "python_on_event": writer.record._on_event,
        "built_payload": built_payload, "pending_slot": _Deferrable.__dict__["_pending"],
        "build_errors": writer._BUILD_ERRORS})
    return c.write, c.on_event


def load(writer):
    """``(write, on_event)`` of the C module, set up; ``(None, None)`` where it was not built
    (no C compiler, or a build older than these functions): writer.py's Python serves."""
    try:
        from . import _tables as c
        c.on_event
    except (ImportError, AttributeError):
        return None, None
    return setup(c, writer)
