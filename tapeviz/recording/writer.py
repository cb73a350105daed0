"""Writing a recording: :class:`record` subscribes to the events and appends them, one JSON
line each, in batches (every 2,048 events or 1 MiB, every 0.2 s from a background thread, at
close and at interpreter exit); ``TAPEVIZ_RECORD=run.tvz`` records a script unchanged.
Sites and repeated tensor refs are written once (``tables.py``).
A writer locks its file (``files.py``): a second process recording to the same path gets
an error naming the first one's process id instead of mixing two runs into one file.
The flusher thread, closing at exit and forgetting in a forked child are in ``lifecycle.py``.
Imports: stdlib, ``events``, ``encode``, ``files``, ``flight``, ``lifecycle``, ``reader``,
``tables``.
"""
from __future__ import annotations

import os
import sys
import threading
import warnings

from .. import events as _events
from ..events import SCHEMA_VERSION, sanitize
from ..events.deferred import engine_built
from .encode import (NEWLINE, _ascii_fragment, _encode, _fast_dumps, _finite_attrs,
                     _finite_number, _plain, cut_to_fit)
from .crash import describe
from .files import _hostname, _iso_now, lock_for_writing
from .flight import FlightRecorder
from .flight_policy import policy_from
from .lifecycle import FLUSH_SECONDS, _ensure_flusher, _open_recordings  # noqa: F401
from .reader import FORMAT, MAX_LINE_BYTES
from .tables import _WITH_REFS, WriterTables, totals_once

_BackwardStep, _OpRecorded, _Scalar = _events.BackwardStep, _events.OpRecorded, _events.Scalar

#: The writer flushes after this many events, this many bytes, or this many seconds.
FLUSH_EVENTS = 2048
FLUSH_BYTES = 1 << 20
_BUFFER_SIZE = FLUSH_BYTES + (64 << 10)   # a batch, and the line that tips it over, usually
#: what a line that cannot be written the usual way raises: the event is then written the
#: general way (sanitised).
_WRITE_ERRORS = (ValueError, TypeError, RecursionError, OverflowError, KeyError, MemoryError)
#: what building an event's payload may raise: it is then written the general way, or, when
#: that fails too (a MemoryError summarising a huge broadcast view), counted in ``dropped``
_BUILD_ERRORS = (ValueError, TypeError, RecursionError, OverflowError, AttributeError,
                 MemoryError)
#: No line is longer than this (the reader skips longer ones): values are cut to fit.
MAX_LINE = MAX_LINE_BYTES


class record:
    """Record a run to ``path`` (JSON Lines), from now until ``close()``: a summary of every
    gradient call and the full events of the calls worth them (the first few, every 100th,
    the anomalous ones and the calls before those: the flight policy of ``flight.py``,
    ``docs/recordings.md``), or, with ``full=True``, every event of every call.

    ``flight``: a dict of :class:`~tapeviz.recording.flight_policy.FlightPolicy` options (``first``,
    ``every``, ``before``, ``jump``, ``ring_bytes``) or a policy; None takes the defaults.
    Use it as a context manager, or keep the object and call ``close()``; recordings still
    open when the interpreter exits are closed then. ``value_limit`` sets how many elements
    an array may have to be stored whole (default ``tv.events.config["value_limit"]``, 64);
    it applies to every subscriber while this recording is open. An existing file at
    ``path`` is replaced, unless another process is recording to it:
    :class:`~tapeviz.recording.files.RecordingLocked` then names that process.

    >>> import tapeviz as tv
    >>> with tv.record("run.tvz", full=True) as rec:    # doctest: +SKIP
    ...     x = tv.Variable(3.0)
    ...     with tv.GradientTape() as tape:
    ...         y = x * x
    ...     tape.gradient(y, x)
    >>> rec.events_written                  # doctest: +SKIP
    9
    """

    def __init__(self, path, value_limit: int | None = None, full: bool = False, flight=None):
        self.path = os.fspath(path)
        policy = policy_from(flight, full)
        real = os.path.realpath(self.path)
        for other in _open_recordings:
            if os.path.realpath(other.path) == real:
                raise ValueError(f"{self.path!r} is already being recorded by {other!r}; "
                                 "close it first or record to another file")
        if value_limit is not None and (type(value_limit) is not int or value_limit < 0):
            raise ValueError(f"value_limit must be a non-negative int, got {value_limit!r}")
        self.events_written = 0
        self.dropped = 0
        self.dropped_first = None       # why the first dropped event could not be written
        self.closed = False
        self._buffer = bytearray(_BUFFER_SIZE)   # whole lines up to _end, one write() each
        self._view = memoryview(self._buffer)    # lines are copied in through it
        self._end = 0
        self._buffered_events = 0     # events in it (the other lines are table lines)
        self._tables = WriterTables()  # sites and tensor refs already written in full
        self._dumps = _fast_dumps()
        self._lock = threading.Lock()
        self._failed = False
        self._file = lock_for_writing(self.path)    # RecordingLocked: another process has it
        try:
            header = self._header(value_limit)
            if policy is not None:
                header["flight"] = policy.as_dict()
            self._file.write(_encode(header).encode("ascii") + b"\n")
            self._file.flush()
        except BaseException:
            self._file.close()
            raise
        self._old_limit = None
        if value_limit is not None:
            self._old_limit = _events.config["value_limit"]
            self._limit = _events.config["value_limit"] = value_limit
        _open_recordings.append(self)
        self.flight = None if policy is None else FlightRecorder(self, policy)
        self._subscription = _events.subscribe(
            self.write if policy is None else self.flight.on_event, replay_definitions=True,
            holds_unbuilt=False,   # (a writer builds what it writes; the ring is bounded)
            holds=None if policy is None else self.flight.held)
        _ensure_flusher()

    def _header(self, value_limit) -> dict:
        from .. import TAPEVIZ_VERSION
        argv = [str(a)[:1000] for a in list(getattr(sys, "argv", None) or [])[:100]]
        return sanitize({
            "format": FORMAT, "version": SCHEMA_VERSION, "tapeviz": TAPEVIZ_VERSION, "argv": argv,
            "started": _iso_now(), "pid": os.getpid(),
            "host": _hostname(), "python": sys.version.split()[0],
            "value_limit": _events.config["value_limit"] if value_limit is None
            else value_limit})

    # --- the subscriber -----------------------------------------------------------------------
    def write(self, event) -> None:
        """Append one event (its table lines first); a flight recording hands them here."""
        if self._failed:
            self.dropped += 1
            return
        cls = type(event)
        try:    # the dict (building a deferred payload first): outside the lock
            data = event.to_dict()
        except _BUILD_ERRORS:
            data = None
        # ours: built by tapeviz, non-finite numbers written as strings (orjson may encode it)
        ours = engine_built(event)
        # the tables and the buffer change together, one event at a time: a line that names
        # a site or a tensor always follows the line that wrote it in full
        with self._lock:
            if self.closed:
                return
            self._write_locked(event, cls, data, ours)

    _on_event = write

    def write_data(self, cls, data: dict) -> None:
        """Append an event given as its JSON form (``to_dict()``'s), made by tapeviz and
        JSON-safe (a flight recording's summary of each call: no event object made)."""
        if self._failed:
            self.dropped += 1
            return
        with self._lock:
            if not self.closed:
                self._write_locked(data, cls, data, True)

    def _write_locked(self, event, cls, data, ours: bool) -> None:
        """The event's lines into the buffer, counted, flushed when due (``self._lock`` held,
        not closed). ``event``: the event, or its JSON form (:meth:`write_data`)."""
        tables = self._tables
        try:
            if data is None:
                raise ValueError("no payload")
            defined = tables.compact(cls, data)
            if defined:
                self._append(defined)
            line = self._line(cls, data, ours)
        except _WRITE_ERRORS:
            line = self._sanitized(event)
            if line is not None:
                self._append(line)
            if cls in _WITH_REFS:     # its refs, sanitised or lost, are not the ones remembered
                self._append(tables.clear())
            if line is None:
                return
        else:
            start = self._end
            end = start + len(line)
            if end <= _BUFFER_SIZE:      # _append's usual case, without the call
                self._view[start:end] = line
                self._end = end
            else:
                self._append(line)
            if tables.full():
                self._append(tables.clear())
        self._buffered_events += 1
        if self._buffered_events >= FLUSH_EVENTS or self._end >= FLUSH_BYTES:
            self._flush_locked()

    def _append(self, line: bytes) -> None:
        """Copy a line into the one buffer, not kept as a bytes object per line (a batch of
        kilobyte lines freed at once made the allocator return pages that the next batch
        faulted in again) nor appended with += (which reallocates as it grows). Through a
        memoryview: a bytearray's own slice assignment first copies a bytes line into a
        new bytearray. A line that does not fit flushes the lines before it; one larger
        than the whole buffer is then written by itself (whole lines, in order, either way)."""
        if len(line) > MAX_LINE:
            line = self._cut(line)
            if line is None:
                return
        start = self._end
        end = start + len(line)
        if end > _BUFFER_SIZE:
            self._flush_locked()
            if len(line) > _BUFFER_SIZE:
                self._write_now(line, 0)    # its event is counted with the next batch
                return
            start, end = 0, len(line)
        self._view[start:end] = line
        self._end = end

    def _cut(self, line: bytes):
        """A line longer than the reader takes (:data:`MAX_LINE`), made to fit
        (``encode.cut_to_fit``); None when it cannot be: an event's is counted in
        ``dropped`` (a table line's event loads without its site, with a warning)."""
        fitted, table_line = cut_to_fit(line, MAX_LINE, self._strict)
        if fitted is None and not table_line:
            self.dropped += 1
            self._buffered_events -= 1      # (counted by the caller once this line is written)
        return fitted

    def _line(self, cls, data: dict, ours: bool) -> bytes:
        """One JSON line: orjson when it writes what the strict stdlib ``json`` encoder would
        (it writes NaN as null): tapeviz's own events (their summaries write non-finite
        numbers as strings; an op's attrs are checked here) and small plain events; ``json``
        for the rest, and for everything where orjson is not installed."""
        if self._dumps is not None:
            if ours:
                fast = True
                if cls is _OpRecorded:
                    attrs = data["attrs"]
                    fast = not attrs or _finite_attrs(attrs)
                elif cls is _BackwardStep:    # formulas are not ASCII: escaped once
                    data["formula"] = _ascii_fragment(data["formula"])
                    data["input_grads"] = totals_once(data["input_grads"])
            elif cls is _Scalar:      # the numbers are the only non-plain risk: checked
                fast = _finite_number(data["value"]) and _finite_number(data["time"])
            else:
                fast = _plain(data)
            if fast:
                try:
                    line = self._dumps(data, option=NEWLINE)
                except TypeError:      # a type orjson refuses: the stdlib way decides
                    pass
                else:
                    if line.isascii():
                        return line
                    # the format is ASCII: \u escapes, as json writes them
                    return line.decode("utf-8").encode("ascii", "tapeviz-json-ascii")
        return self._strict(data)

    @staticmethod
    def _strict(data: dict) -> bytes:
        return _encode(data).encode("ascii") + b"\n"

    def _sanitized(self, event):
        try:
            data = event if type(event) is dict else event.to_dict()
            return _encode(sanitize(data)).encode("ascii") + b"\n"
        except Exception as exc:   # nothing sane left to write: count it, keep recording
            self.dropped += 1
            if self.dropped_first is None:    # (what the footer tells: a bug is reportable)
                kind = event.get("kind") if type(event) is dict else type(event).KIND
                self.dropped_first = f"{kind}: {type(exc).__name__}: {exc}"[:500]
            return None

    # --- flushing -----------------------------------------------------------------------------
    def flush(self) -> None:
        """Write the buffered events to the file now."""
        with self._lock:
            self._flush_locked()

    def _flush_locked(self) -> None:
        end = self._end
        n = self._buffered_events
        if not end and not n:
            return
        self._buffered_events = 0
        self._end = 0
        if not end:     # their lines went out by themselves (larger than the buffer)
            if self._failed:
                self.dropped += n
            else:
                self.events_written += n
            return
        with self._view[:end] as lines:
            if self._write_now(lines, n):
                self.events_written += n

    def _write_now(self, data, events: int) -> bool:
        if self._failed:
            return False
        try:
            self._file.write(data)
            self._file.flush()
            return True
        except (OSError, ValueError) as exc:   # disk full, file closed under us, ...
            self._failed = True
            self.dropped += events
            try:
                warnings.warn(f"tapeviz: recording to {self.path!r} stopped: {exc}; the "
                              "program goes on without it", RuntimeWarning, stacklevel=2)
            except Exception:   # warnings as errors: still never break the program
                pass
            return False

    # --- closing ------------------------------------------------------------------------------
    def close(self, reason: str = "closed", error: dict | None = None) -> None:
        """Flush, write the ``recording_closed`` line and close the file (idempotent).
        ``error``: the exception that ended the run, as :func:`~.crash.describe` gives it."""
        self._subscription.close()
        if self.flight is not None and not self.closed:
            self.flight.close()
        with self._lock:
            if self.closed:
                return
            self._flush_locked()
            self.closed = True
            footer = _events.make(_events.RecordingClosed, reason=reason,
                                  events=self.events_written, dropped=self.dropped,
                                  **({"error": error} if error else {}),
                                  **({"dropped_first": self.dropped_first}
                                     if self.dropped_first else {}))
            self._write_now(_encode(footer.to_dict()).encode("ascii") + b"\n", 0)
            try:
                self._file.close()
            except OSError:
                pass
        if self._old_limit is not None and _events.config["value_limit"] == self._limit:
            _events.config["value_limit"] = self._old_limit
        try:
            _open_recordings.remove(self)
        except ValueError:
            pass

    def _abandon(self) -> None:
        """In a forked child: forget this recording without touching the parent's file."""
        self._lock = threading.Lock()    # the parent's threads may have held it at fork time
        self._subscription.close()
        self.closed = True
        self._end = 0
        try:
            os.close(self._file.fileno())   # the raw fd only: no flush of inherited buffers
        except (OSError, ValueError):
            pass

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        error = None
        if exc is not None and not (isinstance(exc, SystemExit) and not exc.code):
            try:
                error = describe(exc)
            except Exception:   # describing must never replace the user's exception
                pass
        self.close(reason="crashed" if error else "closed", error=error)

    def __repr__(self):
        state = "closed" if self.closed else "recording"
        return f"<tapeviz recording {self.path!r} {state}, {self.events_written} events written>"


_ENV_OWNER = "_TAPEVIZ_RECORD_PID"
env_recording: record | None = None


def start_from_env() -> record | None:
    """``TAPEVIZ_RECORD=run.tvz python script.py`` records the script (called at import), with
    the flight policy's defaults, or every event with ``TAPEVIZ_RECORD_FULL=1``.

    A subprocess that inherits the variable from a recording process does not record (it
    would replace its parent's file)."""
    global env_recording
    path = os.environ.get("TAPEVIZ_RECORD", "").strip()
    if not path or env_recording is not None:
        return env_recording
    owner = os.environ.get(_ENV_OWNER)
    if owner and owner != str(os.getpid()):
        return None
    try:
        full = os.environ.get("TAPEVIZ_RECORD_FULL", "").strip() not in ("", "0")
        env_recording = record(path, full=full)
    except Exception as exc:   # a bad path must not stop the user's script
        warnings.warn(f"tapeviz: TAPEVIZ_RECORD={path!r}: cannot record there ({exc})",
                      RuntimeWarning, stacklevel=2)
        return None
    os.environ[_ENV_OWNER] = str(os.getpid())
    return env_recording


