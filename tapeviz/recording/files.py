"""Opening recording files safely: readers take regular files only, and one writer at a time.

A FIFO, a device or a socket named as a recording would hang a reader (opening a FIFO waits
for a writer; reading ``/dev/zero`` never ends) or read what is not a file: every reader
opens through :func:`open_regular`, which refuses them at once, without blocking.

A writer holds an exclusive ``flock`` on its file for as long as it records
(:func:`lock_for_writing`): two processes recording to one path would otherwise interleave
two runs in one file. The lock record is the header line, written right after the lock is
taken: it names the writer's process id and host (``_hostname``, also what a follower
compares to tell whether the producer is on this machine), so the second writer's error can
name it too. Imports: stdlib only.
"""
from __future__ import annotations

import errno
import io
import json
import os
import stat
import time

try:
    import fcntl
except ImportError:       # pragma: no cover (Windows: no flock; recording still works)
    fcntl = None


class NotARegularFile(ValueError):
    """The path names a FIFO, a device, a socket or a folder, not a recording file."""


def file_type(mode: int) -> str | None:
    """What a non-regular file is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def refusal(path, kind: str) -> str:
    return (f"{os.fspath(path)!r} is {kind}, not a regular file: a tapeviz recording is a "
            "file on disk. Fix: give the path of a .tvz file")


def open_regular(path):
    """``open(path, "rb")`` for a regular file; :class:`NotARegularFile` (at once, never
    blocking) for anything else. The file is opened non-blocking and checked with ``fstat``
    on what was opened, so a file swapped for a FIFO between a check and the open is refused
    too. ``FileNotFoundError`` and ``PermissionError`` as ``open`` raises them."""
    mode = os.stat(path).st_mode
    if stat.S_ISDIR(mode):                        # as open() says it
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    kind = file_type(mode)                        # a device is not even opened
    if kind is None:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
        try:
            kind = file_type(os.fstat(fd).st_mode)
            if kind is None:
                if hasattr(os, "set_blocking"):
                    os.set_blocking(fd, True)
                return io.BufferedReader(io.FileIO(fd, "rb", closefd=True))
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
    raise NotARegularFile(refusal(path, kind))


class RecordingLocked(RuntimeError):
    """Another process is recording to this file."""


def lock_for_writing(path):
    """A binary file for writing ``path``, emptied, and locked against any other writer.

    The file is opened without truncating it, then locked (``flock``, exclusive,
    non-blocking), and only then emptied: a second writer never touches the first one's
    lines. :class:`RecordingLocked` names the process that holds the lock (read from its
    header line). Where ``flock`` does not exist the file is opened without a lock."""
    try:
        kind = file_type(os.stat(path).st_mode)
    except FileNotFoundError:
        kind = None
    if kind is not None:
        raise NotARegularFile(refusal(path, kind))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        kind = file_type(os.fstat(fd).st_mode)
        if kind is not None:
            raise NotARegularFile(refusal(path, kind))
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise RecordingLocked(_held_by(path)) from None
        os.ftruncate(fd, 0)
        return io.BufferedWriter(io.FileIO(fd, "wb", closefd=True))
    except BaseException:
        os.close(fd)
        raise


def _held_by(path) -> str:
    """The error for a file another writer holds: its pid and host, from its header."""
    who = "another process"
    for _ in range(20):         # the header follows the lock within microseconds
        header = _header_of(path)
        if header is not None:
            pid, host = header.get("pid"), header.get("host")
            who = f"process {pid}" + (f" on {host}" if isinstance(host, str) else "")
            break
        time.sleep(0.01)
    return (f"{os.fspath(path)!r} is being recorded by {who}: two recordings in one file would "
            "mix their events. Fix: record to another file, or stop that process first")


def _header_of(path) -> dict | None:
    try:
        with open_regular(path) as f:
            line = f.readline(1 << 16)
        header = json.loads(line) if line.endswith(b"\n") else None
    except (OSError, ValueError):
        return None
    return header if isinstance(header, dict) and "pid" in header else None


def _iso_now() -> str:
    """Now, ISO 8601 in UTC with milliseconds: ``2026-11-22T02:39:13.027+00:00``."""
    now = time.time()
    ms = int(now % 1 * 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{ms:03d}+00:00"


def _hostname() -> str:
    try:
        return os.uname().nodename      # as socket.gethostname(), without importing socket
    except AttributeError:              # pragma: no cover (Windows)
        import platform
        return platform.node()
