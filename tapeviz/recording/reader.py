"""Reading a recording back: :func:`load_recording`, and the pieces a follower shares with
it (lines read in bounded pieces, events parsed tolerantly, the header checked, foreign files
recognised, in ``header.py``). Only JSON is parsed: loading never executes code.
Imports: stdlib, ``events``, ``files``, ``header`` and ``tables``.
"""
from __future__ import annotations

import json
import os

from ..events import from_dict
from .crash import crash_text
from .files import NotARegularFile, open_regular
from .header import (_BOM_AND_SPACE, _TOO_LONG, FORMAT, RecordingError, _major,  # noqa: F401
                     _mb, _sniff_binary, check_header)
from .header import MAX_LINE_BYTES as HEADER_MAX_LINE
from .tables import ReaderTables

#: A line longer than this is skipped (with a warning) without being read whole.
MAX_LINE_BYTES = HEADER_MAX_LINE
#: At most this many warnings are kept in ``Recording.warnings`` (then a count).
MAX_WARNINGS = 100
#: Unknown event kinds are named in a warning the first time each is met, up to this many.
MAX_UNKNOWN_KINDS = 20

_CHUNK = 1 << 16

try:
    from orjson import loads as _orjson_loads   # a runtime dependency; about 5x the stdlib's speed
except ImportError:   # pragma: no cover - a broken install still reads recordings, slower
    _orjson_loads = None


#: the tokens a writer uses for non-finite numbers (JSON has none): tapeviz's writer writes
#: these strings; the literals other JSON writers emit (Python's ``json.dumps`` by default,
#: JavaScript's ``NaN`` through some libraries) are read as the same strings
NON_FINITE_LITERALS = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}


def loads(raw, on_literal=None):
    """One JSON line. orjson first; the stdlib decides when orjson refuses (a garbled line
    should get the stdlib's error message). A foreign ``NaN``/``Infinity``/``-Infinity``
    literal is read as the string tapeviz writes for it (``"nan"``...), and reported to
    ``on_literal`` (its name) when given."""
    if _orjson_loads is not None:
        try:
            return _orjson_loads(raw)
        except ValueError:
            pass
    return json.loads(raw, parse_constant=lambda name: _literal(name, on_literal))


def _literal(name, on_literal):
    if on_literal is not None:
        on_literal(name)
    return NON_FINITE_LITERALS[name]


class Recording(list):
    """The events of a recording, in file order, plus:

    ``header`` (the first line, a dict), ``warnings`` (what was skipped and why, with line
    numbers), ``complete`` (the writer closed it: the ``recording_closed`` line was read),
    ``footer`` (that ``RecordingClosed`` event, or None), ``path``, and ``sources`` (the
    source lines it carries: file -> {line number: text})."""

    def __init__(self, events=(), header=None, warnings=None, complete=False, footer=None,
                 path=None):
        super().__init__(events)
        self.sources: dict = {}
        self.header = header or {}
        self.warnings = warnings if warnings is not None else []
        self.complete = complete
        self.footer = footer
        self.path = path

    def kinds(self) -> list:
        return [e.kind for e in self]

    def of(self, kind: str) -> list:
        return [e for e in self if e.kind == kind]

    def __repr__(self):
        state = "complete" if self.complete else "incomplete"
        return (f"<tapeviz Recording {self.path!r}: {len(self)} events, {state}, "
                f"{len(self.warnings)} warnings>")


def load_recording(path) -> Recording:
    """Read a recording back into event objects (the classes of ``tapeviz.events``).

    Tolerant of what a crash or a live writer leaves: a torn last line is dropped with a
    warning, a garbled or enormous (> 16 MB) line is skipped with a warning naming its line
    number, unknown kinds and fields are ignored. Raises :class:`RecordingError` for an
    empty file, a file that is not a recording (the message says what it seems to be) and a
    recording from a newer, incompatible schema. ``FileNotFoundError`` as usual."""
    path = os.fspath(path)
    with _open(path) as f:
        header, reader = _read_header(f, path)
        rec = Recording(header=header, path=path)
        parser = _EventParser(rec.warnings, path)
        parser.tables.set_version(_major(header.get("version")))
        rec.sources = parser.tables.sources
        while True:
            item = reader.next_line()
            if item is None:
                break
            raw, complete_line, lineno = item
            if raw is _TOO_LONG:
                parser.warn(lineno, f"line {lineno}: longer than {_mb(MAX_LINE_BYTES)} "
                                    f"({_mb(complete_line)}), skipped without reading it")
                continue
            if not complete_line:
                event = parser.parse(raw, lineno, last=True)
            else:
                event = parser.parse(raw, lineno)
            if event is None:
                continue
            if event.KIND == "recording_closed":
                rec.complete = True
                rec.footer = event
                parser.note_dropped(event, lineno)
                continue
            rec.append(event)
        if parser.extra_warnings:
            rec.warnings.append(f"... and {parser.extra_warnings} more warnings")
        return rec


def read_header(path) -> dict:
    """The header of recording ``path``, checked as :func:`load_recording` checks it, reading
    only the first line (at most 16 MB, usually a few hundred bytes): a cheap "is this a
    recording I can read?". Raises :class:`RecordingError` (with the same messages) or
    ``OSError``."""
    path = os.fspath(path)
    with _open(path) as f:
        return _read_header(f, path)[0]


def check_followable(path) -> None:
    """Return if ``path`` is a recording this tapeviz can read, or may still become one while
    a script writes it: a file that does not exist yet, is empty, or holds the start of a
    first line that may still become a header. Raises as :func:`read_header` otherwise (a
    FIFO or a device is refused, never waited on)."""
    path = os.fspath(path)
    try:
        with _open(path) as f:
            head = f.read(_CHUNK)
    except FileNotFoundError:
        return
    first = head.lstrip(_BOM_AND_SPACE)
    if not first or (b"\n" not in head and first[:1] == b"{" and len(head) < _CHUNK):
        return
    read_header(path)


def _open(path):
    """The file, opened for reading; RecordingError at once for a FIFO, a device, a socket."""
    try:
        return open_regular(path)
    except NotARegularFile as exc:
        raise RecordingError(str(exc)) from None


def _read_header(f, path):
    """(header, line reader positioned after it) for the binary file ``f``."""
    start = f.peek(_CHUNK)[:_CHUNK]
    try:
        if start and b"\n" not in start and start.lstrip(_BOM_AND_SPACE)[:1] != b"{":
            check_header(start, path, complete_line=False)   # not a header: read no more
        reader = _LineReader(f)
        first = reader.next_line()
        if first is None:
            raise RecordingError(f"{path!r} is empty (0 bytes): not a tapeviz recording "
                                 "yet (the producer may have crashed before writing its "
                                 "header)")
        raw, complete_line, lineno = first
        return check_header(raw, path, complete_line), reader
    except RecordingError:
        sniffed = _sniff_binary(start)     # the first line alone may look like little
        if sniffed:
            raise RecordingError(f"{path!r} is not a tapeviz recording: it looks like "
                                 f"{sniffed}") from None
        raise


# ---------------------------------------------------------------------------------------------
# shared reading helpers

class _LineReader:
    """Lines of a binary file, each at most MAX_LINE_BYTES: (bytes, has newline, number);
    an enormous line is reported as (_TOO_LONG, its length, number) and skipped in chunks."""

    def __init__(self, f):
        self.f = f
        self.lineno = 0

    def next_line(self):
        f = self.f
        line = f.readline(_CHUNK)
        if not line:
            return None
        self.lineno += 1
        if line.endswith(b"\n"):
            return line[:-1], True, self.lineno
        pieces, n = [line], len(line)       # a long line: gather it in chunks, up to the limit
        while True:
            piece = f.readline(_CHUNK)
            n += len(piece)
            if n > MAX_LINE_BYTES:
                pieces = None                # too long: stop keeping it, skip to its end
                while piece and not piece.endswith(b"\n"):
                    piece = f.readline(_CHUNK)
                    n += len(piece)
                return _TOO_LONG, n - (1 if piece.endswith(b"\n") else 0), self.lineno
            if not piece:
                return b"".join(pieces), False, self.lineno      # last line, no newline
            if piece.endswith(b"\n"):
                pieces.append(piece[:-1])
                return b"".join(pieces), True, self.lineno
            pieces.append(piece)


class _EventParser:
    """Lines to events. Version 2 files write sites and repeated tensor refs once and then
    name them (see ``tables.py``); the events handed out carry them in full, as they did
    when they were emitted."""

    def __init__(self, warnings_list: list, path: str):
        self.warnings = warnings_list
        self.path = path
        self.extra_warnings = 0
        self.tables = ReaderTables()
        self.unknown_kinds: set = set()
        self._literals: list = []

    def warn(self, lineno, message: str) -> None:
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(message)
        else:
            self.extra_warnings += 1

    def note_dropped(self, footer, lineno: int) -> None:
        """A warning when the footer counts events the writer could not write, and the
        crash it records, if any, as the first warning (a page that shows one shows it)."""
        crash = crash_text(footer.error)
        if crash:
            self.warnings.insert(0, crash)
        if footer.dropped:
            first = footer.dropped_first     # (None in older recordings)
            why = (f"the first, {first}" if first else
                   "it ran out of memory or could not write the file")
            self.warn(lineno, f"line {lineno}: the writer could not write {footer.dropped} "
                              f"event(s) ({why}): they are missing")

    def parse(self, raw: bytes, lineno: int, last: bool = False):
        """An event, or None (blank line, table line, unknown kind, or garbled: warned)."""
        if not raw.strip():
            return None
        try:
            literals = self._literals
            data = loads(raw, literals.append)
            if literals:
                names = ", ".join(sorted(set(literals)))
                literals.clear()
                self.warn(lineno, f"line {lineno}: holds {names} (not JSON: tapeviz writes "
                                  '"nan", "inf", "-inf"), read as those strings')
            if type(data) is dict:
                tables = self.tables
                if tables.define(data):
                    return None
                site = data.get("site")
                if type(site) is int:
                    data["site"] = tables.site(site)
                    if data["site"] is None:
                        self.warn(lineno, f"line {lineno}: refers to site {site}, which no "
                                          "earlier line defines; its site is left out")
                tables.resolve(data)
            event = from_dict(data)
            if event is None and type(data) is dict:
                self._unknown_kind(data.get("kind"), lineno)
            return event
        except (ValueError, TypeError, RecursionError) as exc:
            if last:
                self.warn(lineno, f"line {lineno}: truncated last line ({len(raw)} bytes "
                                  "without a newline: the producer stopped mid-write?), ignored")
            else:
                self.warn(lineno, f"line {lineno}: not a valid event ({_reason(exc)}), skipped")
            return None


    def _unknown_kind(self, kind, lineno) -> None:
        """Warn once per kind: a newer tapeviz may add kinds (a compatible change), and
        their events are skipped; a file of thousands of them says so once."""
        name = kind if type(kind) is str else repr(kind)
        name = name if len(name) <= 40 else name[:37] + "..."
        if name in self.unknown_kinds or len(self.unknown_kinds) >= MAX_UNKNOWN_KINDS:
            return
        self.unknown_kinds.add(name)
        self.warn(lineno, f"line {lineno}: an event of unknown kind {name!r} (written by a "
                          "newer tapeviz?), skipped; later ones of that kind are skipped "
                          "without a warning")


def _reason(exc) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "..."
