"""The first line of a recording: the header checked, and a file that is not a recording
told for what it seems to be (an image, a CSV, a newer schema), so the error says so.
Imports: stdlib and ``events`` only.
"""
from __future__ import annotations

import json

from .. import events as _events
from ..events import SCHEMA_VERSION

FORMAT = "tapeviz-recording"
#: No line of a recording is longer than this (the reader's bound, named in messages here).
MAX_LINE_BYTES = 16 * 1024 * 1024
#: what the reader hands over for a first line longer than that
_TOO_LONG = object()


class RecordingError(ValueError):
    """The file is not a tapeviz recording this version can read; the message says why."""


_BOM_AND_SPACE = b"\xef\xbb\xbf \t\r"


def check_header(raw: bytes, path: str, complete_line: bool = True):
    """The header dict of a recording's first line, or RecordingError saying what is wrong."""
    what = f"{path!r}"
    if raw is not _TOO_LONG and raw.startswith(b"\xef\xbb\xbf"):   # a UTF-8 BOM (an editor)
        raw = raw[3:]
    if raw is _TOO_LONG:
        raise RecordingError(f"{what} is not a tapeviz recording: its first line is longer "
                             f"than {_mb(MAX_LINE_BYTES)} (a recording starts with a short "
                             "JSON header)")
    sniffed = _sniff_binary(raw)
    if sniffed:
        raise RecordingError(f"{what} is not a tapeviz recording: it looks like {sniffed}")
    try:
        header = json.loads(raw)
    except (ValueError, RecursionError):
        header = None
        if not complete_line and raw.lstrip().startswith(b'{"format"'):
            raise RecordingError(
                f"{what} holds only a truncated header ({len(raw)} bytes, no newline): the "
                "producer stopped while starting, or is still starting (try again)") from None
    if not isinstance(header, dict):
        raise RecordingError(f"{what} is not a tapeviz recording: {_guess_text(raw)}; a "
                             f"recording starts with a JSON header line "
                             f'{{"format": "{FORMAT}", "version": ...}}')
    if header.get("format") != FORMAT:
        if "kind" in header and header.get("kind") in _events.EVENT_TYPES:
            raise RecordingError(f"{what} has no recording header: its first line is a "
                                 f"{header['kind']!r} event (tapeviz events without the header "
                                 "line; the start of the file is missing)")
        keys = ", ".join(list(map(str, header))[:6])
        raise RecordingError(f"{what} is not a tapeviz recording: it is JSON whose first "
                             f"object has keys [{keys}] and no \"format\": \"{FORMAT}\"")
    version = header.get("version")
    major = _major(version)
    if major is None:
        raise RecordingError(f"{what} is a tapeviz recording with an invalid schema version "
                             f"{version!r} in its header (expected an integer)")
    if major > SCHEMA_VERSION:
        raise RecordingError(
            f"{what} was written by a newer tapeviz ({header.get('tapeviz', 'unknown')}) with "
            f"event schema version {version}; this tapeviz reads versions up to "
            f"{SCHEMA_VERSION}. Fix: upgrade tapeviz to read it")
    return header


def _major(version):
    if isinstance(version, bool):
        return None
    if isinstance(version, int):
        return version
    if isinstance(version, float) and version == version and abs(version) < 1e9:
        return int(version)
    if isinstance(version, str):
        head = version.split(".", 1)[0].strip()
        if head.isdigit():
            return int(head)
    return None


_SIGNATURES = [
    (b"\x89PNG\r\n\x1a\n", "a PNG image"), (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"), (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive (or .npz, .docx, .whl)"), (b"\x1f\x8b", "a gzip file"),
    (b"BZh", "a bzip2 file"), (b"\xfd7zXZ", "an xz file"), (b"\x28\xb5\x2f\xfd", "a zstd file"),
    (b"\x93NUMPY", "a NumPy .npy array"), (b"\x89HDF", "an HDF5 file"),
    (b"\x7fELF", "an executable (ELF)"), (b"SQLite format 3", "an SQLite database"),
    (b"\x80\x02", "a Python pickle"), (b"\x80\x03", "a Python pickle"),
    (b"\x80\x04", "a Python pickle"), (b"\x80\x05", "a Python pickle"),
]


def _sniff_binary(raw: bytes) -> str | None:
    for magic, name in _SIGNATURES:
        if raw.startswith(magic):
            return name + " (binary)"
    sample = raw[:8192]
    if b"\x00" in sample:
        return "a binary file (it contains NUL bytes)"
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(sample) - 4:   # not just a multi-byte character cut at the edge
            return "a binary file (it is not UTF-8 text)"
    return None


def _guess_text(raw: bytes) -> str:
    text = raw[:200].decode("utf-8", "replace").strip()
    preview = text[:60] + ("..." if len(text) > 60 else "")
    low = text.lower()
    if not text:
        return "its first line is blank"
    if low.startswith(("<!doctype html", "<html")):
        return f"it looks like an HTML page (starts {preview!r})"
    if low.startswith("<?xml") or low.startswith("<"):
        return f"it looks like XML or HTML (starts {preview!r})"
    if text.startswith("[") or text.startswith('"') or text[:1].isdigit() and "," not in text:
        try:
            json.loads(raw)
            return f"its first line is JSON but not an object (starts {preview!r})"
        except (ValueError, RecursionError):
            pass
    if text.startswith("{"):
        return f"its first line is not valid JSON (starts {preview!r})"
    if "," in text or "\t" in text or ";" in text:
        return f"it looks like CSV or other delimited text (first line {preview!r})"
    return f"it looks like plain text (first line {preview!r})"


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB" if n >= 1024 * 1024 else f"{n} bytes"
