"""Following a recording while it grows: :func:`follow_recording` and its :class:`Follower`,
which reads 64 KiB at a time, waits for the newline of a partly written line, and notices
when the writer closes the file, its process dies, or the file is replaced.
Imports: stdlib, ``files`` and ``reader``.
"""
from __future__ import annotations

import collections
import os
import time

from . import reader as _reader
from .files import NotARegularFile, _hostname, open_regular
from .reader import (_BOM_AND_SPACE, _CHUNK, RecordingError, _EventParser, _major, _mb,
                     check_header)


def follow_recording(path, poll: float = 0.1, idle_timeout: float | None = None):
    """Follow a recording while it grows: an iterator of events that waits for more.

    Like TensorBoard following a log directory. It waits for the file to appear, waits for
    the newline of a partially written last line, and stops when the writer closes the
    recording (``.ended``, ``.reason == "closed"``), when the producer process is gone
    without closing it (``"producer_gone"``: same machine only), when the file shrinks
    (``"truncated"``), or after ``idle_timeout`` seconds without new data (``"idle"``).
    ``poll`` is the wait between checks. Memory stays bounded: the file is read in chunks.

    For a periodic callback (a dashboard's live view) use ``follower.poll()``: the events
    available now, without waiting.

    >>> f = follow_recording("run.tvz")      # doctest: +SKIP
    >>> for event in f: ...                  # ends when the writer closes the file
    """
    return Follower(path, poll=poll, idle_timeout=idle_timeout)


class Follower:
    """Iterator over a growing recording; see :func:`follow_recording`."""

    def __init__(self, path, poll: float = 0.1, idle_timeout: float | None = None):
        self.path = os.fspath(path)
        self.poll_interval = poll
        self.idle_timeout = idle_timeout
        self.header: dict | None = None
        self.warnings: list = []
        self.footer = None
        self.ended = False
        self.reason: str | None = None
        self.events_read = 0
        self._file = None
        self._offset = 0
        self._partial = b""
        self._skipping = 0          # > 0: inside an enormous line, bytes skipped so far
        self._lineno = 0
        self._ready: collections.deque = collections.deque()
        self._parser = _EventParser(self.warnings, self.path)
        self._last_data = time.monotonic()
        self._last_alive_check = 0.0
        self._header_raw = b""      # the header line's bytes: a rewritten file starts otherwise
        #: how many times the file was replaced, truncated or rotated and reading started
        #: again on the new file (each time with a warning): the events after it are a new run
        self.restarts = 0

    # --- public -----------------------------------------------------------------------------
    @property
    def sources(self) -> dict:
        """The source lines the file carries so far (file -> {line number: text})."""
        return self._parser.tables.sources

    def poll(self, max_events: int = 10_000) -> list:
        """The events available now (at most ``max_events``), without waiting."""
        out = []
        while len(out) < max_events:
            while self._ready and len(out) < max_events:
                out.append(self._ready.popleft())
            if len(out) >= max_events or self.ended:
                break
            restarts = self.restarts
            if not self._read_chunk():
                self._check_end()
                break
            if self.restarts != restarts and out:
                break       # a batch never mixes two files: the new one's come next call
        return out

    def backlog(self) -> int:
        """About how many events the file holds that :meth:`poll` has not returned yet:
        the bytes not read yet over the mean size of an event read so far."""
        if self._file is None or self.ended:
            return len(self._ready)
        try:
            unread = os.fstat(self._file.fileno()).st_size - self._offset + len(self._partial)
        except OSError:
            unread = 0
        per_event = self._offset / max(self.events_read, 1)
        return len(self._ready) + (int(unread / per_event) if per_event > 0 else 0)

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            if self._ready:
                return self._ready.popleft()
            if self.ended:
                self.close()
                raise StopIteration
            if not self._read_chunk():
                if self._check_end():
                    continue
                time.sleep(self.poll_interval)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = f"ended ({self.reason})" if self.ended else "following"
        return f"<tapeviz Follower {self.path!r}: {self.events_read} events, {state}>"

    # --- reading ------------------------------------------------------------------------------
    def _open(self) -> bool:
        if self._file is None:
            try:
                self._file = open_regular(self.path)
            except FileNotFoundError:
                return False
            except NotARegularFile as exc:      # a FIFO would block every read
                self._end("not_a_recording", str(exc))
                raise RecordingError(str(exc)) from None
        return True

    def _read_chunk(self) -> bool:
        """Read one chunk and parse its whole lines; False when there was nothing new.
        A file truncated or rewritten in place is read again from its start; once the open
        file has nothing more, a new file at the path (replaced, or the old one renamed:
        rotated) is followed from its start."""
        if self.ended or not self._open():
            return False
        fd = self._file.fileno()
        try:
            size = os.fstat(fd).st_size
            rewritten = self._header_raw and os.pread(fd, len(self._header_raw), 0) != \
                self._header_raw
        except OSError:
            size, rewritten = None, False
        if size is not None and size < self._offset:
            self._restart(f"{self.path!r} shrank from {self._offset} to {size} bytes while "
                          "being followed (truncated: a new recording?)")
            return False
        if rewritten:
            self._restart(f"{self.path!r} was rewritten in place while being followed (its "
                          "header changed: a new recording?)")
            return False
        chunk = self._file.read(_CHUNK)
        if not chunk:
            moved = self._moved()
            if moved:
                self._restart(moved)
            return False
        self._offset += len(chunk)
        self._last_data = time.monotonic()
        self._feed(chunk)
        return True

    def _moved(self) -> str | None:
        """Why the path now names another file than the one being read, or None."""
        try:
            now = os.stat(self.path)
            mine = os.fstat(self._file.fileno())
        except OSError:        # deleted and not created again (yet): keep the open file
            return None
        if (now.st_ino, now.st_dev) == (mine.st_ino, mine.st_dev):
            return None
        if mine.st_nlink > 0:
            return (f"{self.path!r} was rotated while being followed (the file was renamed "
                    "and a new one created)")
        return f"{self.path!r} was replaced by a new file while being followed"

    def _restart(self, why: str) -> None:
        """Read the file at the path from its start, as a new recording, saying why."""
        self.restarts += 1
        if self._partial:
            self.warnings.append(f"line {self._lineno + 1}: truncated "
                                 f"({len(self._partial)} bytes without a newline), ignored")
        self.warnings.append(f"{why}: following the new file from its start (its events "
                             "are a new run)")
        self.close()
        self.header, self.footer = None, None
        self._offset, self._partial, self._skipping, self._lineno = 0, b"", 0, 0
        self._header_raw = b""
        self._parser = _EventParser(self.warnings, self.path)
        self._last_data = time.monotonic()

    def _feed(self, chunk: bytes) -> None:
        start = 0
        while not self.ended:
            nl = chunk.find(b"\n", start)
            if nl < 0:
                rest = chunk[start:]
                if self._skipping:
                    self._skipping += len(rest)
                elif len(self._partial) + len(rest) > _reader.MAX_LINE_BYTES:
                    self._skipping = len(self._partial) + len(rest)
                    self._partial = b""
                else:
                    self._partial += rest
                    if self.header is None:
                        self._sniff_partial_header()
                return
            self._lineno += 1
            if self._skipping:
                n = self._skipping + nl - start
                self._skipping = 0
                self._parser.warn(self._lineno, f"line {self._lineno}: longer than "
                                  f"{_mb(_reader.MAX_LINE_BYTES)} ({_mb(n)}), skipped")
            else:
                line = self._partial + chunk[start:nl] if self._partial else chunk[start:nl]
                self._partial = b""
                self._line(line)
            start = nl + 1

    def _sniff_partial_header(self) -> None:
        """A first line still without its newline: refuse it already if it cannot become a
        header (binary, text, or longer than any header)."""
        head = self._partial.lstrip(_BOM_AND_SPACE)
        if head and (head[:1] != b"{" or len(head) > _CHUNK):
            self._header_from(self._partial, complete=len(head) > _CHUNK)

    def _header_from(self, raw: bytes, complete: bool = True) -> None:
        try:
            self.header = check_header(raw, self.path, complete)
            self._header_raw = raw + b"\n" if complete else b""
            self._parser.tables.set_version(_major(self.header.get("version")))
        except RecordingError as exc:
            self.ended, self.reason = True, "not_a_recording"
            self.warnings.append(str(exc))
            raise

    def _line(self, raw: bytes) -> None:
        if self.header is None:
            self._header_from(raw)
            return
        event = self._parser.parse(raw, self._lineno)
        if event is None:
            return
        if event.KIND == "recording_closed":
            self.footer = event
            self._parser.note_dropped(event, self._lineno)
            self._end("closed")
            return
        self.events_read += 1
        self._ready.append(event)

    def _check_end(self) -> bool:
        """No new data: decide whether the stream has ended. True if it just did."""
        if self.ended:
            return True
        now = time.monotonic()
        if self.idle_timeout is not None and now - self._last_data >= self.idle_timeout:
            return self._end("idle", f"no new data for {self.idle_timeout} s")
        if self.header and now - self._last_alive_check >= 1.0:
            self._last_alive_check = now
            if not _producer_alive(self.header):
                # one last read: the producer may have written its last batch as it exited
                if self._read_chunk():
                    return False
                return self._end("producer_gone", "the producer (pid "
                                 f"{self.header.get('pid')}) exited without closing the "
                                 "recording (killed or crashed?)")
        return False

    def _end(self, reason: str, warning: str | None = None) -> bool:
        self.ended = True
        self.reason = reason
        if warning:
            self.warnings.append(warning)
        if self._partial and reason != "closed":
            self.warnings.append(f"line {self._lineno + 1}: truncated "
                                 f"({len(self._partial)} bytes without a newline), ignored")
            self._partial = b""
        return True


def _producer_alive(header: dict) -> bool:
    pid = header.get("pid")
    if not isinstance(pid, int) or header.get("host") != _hostname() or pid <= 0:
        return True          # cannot tell: assume it is alive
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return _not_zombie(pid)


def _not_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
        return state not in (b"Z", b"X")
    except (OSError, IndexError):
        return True


