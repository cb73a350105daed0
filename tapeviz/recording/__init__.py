"""Recordings: tape events written to a JSON Lines file, read back, and followed while they grow.

A recording is an append-only text file: a header line, then one event per line
(``Event.to_dict()`` as JSON, its site and repeated tensor refs written once and then named
by id), then a ``recording_closed`` line when the writer closes::

    {"format": "tapeviz-recording", "version": 2, "tapeviz": "0.1.0", "argv": [...], ...}
    {"kind": "site", "id": 1, "site": {"file": "train.py", "line": 12, ...}}
    {"kind": "tape_opened", "seq": 1, "time": 1795314941.98, "tape": 1, ..., "site": 1}
    ...
    {"kind": "recording_closed", "seq": 812, "time": 1795314942.41, "reason": "closed", ...}

The writer flushes in batches (every 2,048 events or 1 MiB, every 0.2 s, at close and at
exit), so another process can follow the file while it grows (:func:`follow_recording`).
Readers tolerate a torn last line, skip garbled lines with a warning, ignore unknown kinds
and fields, and refuse a file that is not a recording with a :class:`RecordingError` that
says what the file seems to be. Only JSON is parsed: loading never executes code.

    >>> import tapeviz as tv
    >>> with tv.record("run.tvz"):          # doctest: +SKIP
    ...     train()
    >>> rec = tv.load_recording("run.tvz")  # doctest: +SKIP

By default a recording keeps a summary of every gradient call and the full events of the
calls worth them (the flight policy of ``flight.py``); ``tv.record(path, full=True)`` keeps
every event. The writer is in ``writer.py`` (its JSON encoding in ``encode.py``, its flusher
thread and closing at exit in ``lifecycle.py``), loading in ``reader.py`` (the header and
foreign files in ``header.py``), following in ``follow.py``, what a file writes once in
``tables.py``, the source lines it carries in ``sources.py``, and safe opening and locking
in ``files.py``. The schema is documented in ``docs/events.md``. Imports: stdlib and
``events`` only.
"""
from __future__ import annotations

from ..events import SCHEMA_VERSION  # noqa: F401
from . import writer as _writer
from .files import NotARegularFile, RecordingLocked  # noqa: F401
from .flight_policy import FlightPolicy  # noqa: F401
from .follow import Follower, follow_recording  # noqa: F401
from .reader import (FORMAT, MAX_LINE_BYTES, MAX_WARNINGS, Recording,  # noqa: F401
                     RecordingError, check_header, load_recording)
from .writer import (_ENV_OWNER, FLUSH_BYTES, FLUSH_EVENTS, FLUSH_SECONDS,  # noqa: F401
                     _open_recordings, record, start_from_env)


def __getattr__(name):
    if name == "env_recording":    # rebound by start_from_env(): read it where it lives
        return _writer.env_recording
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
