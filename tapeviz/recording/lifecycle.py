"""The open recordings of this process: one daemon thread flushes them every
``FLUSH_SECONDS``, they are closed at interpreter exit, and a forked child forgets them
without touching its parent's files; one that an uncaught exception ends is closed as
``"crashed"`` with that exception (``crash.py``). Imports: stdlib only (it works on the writers in
:data:`_open_recordings`, whatever module made them).
"""
from __future__ import annotations

import atexit
import os
import threading
import time

from .crash import install_hook, uncaught

#: The writer flushes at least this often (its other triggers are in ``writer.py``).
FLUSH_SECONDS = 0.2

_open_recordings: list = []
_flusher = None
_flusher_lock = threading.Lock()


def _ensure_flusher() -> None:
    """One daemon thread flushes every open recording every FLUSH_SECONDS."""
    global _flusher
    with _flusher_lock:
        if _flusher is not None and _flusher.is_alive():
            return
        _flusher = threading.Thread(target=_flush_loop, name="tapeviz-recording-flusher",
                                    daemon=True)
        _flusher.start()
    install_hook()


def _flush_loop() -> None:
    global _flusher
    while True:
        time.sleep(FLUSH_SECONDS)
        with _flusher_lock:
            if not _open_recordings:
                _flusher = None
                return
            open_now = list(_open_recordings)
        for rec in open_now:
            if rec._end:
                try:
                    rec.flush()
                except Exception:   # never let the flusher die on one bad recording
                    pass


@atexit.register
def _close_all_at_exit() -> None:
    # an uncaught exception is ending the run: say so, or the file reads as a clean finish
    error = uncaught() if _open_recordings else None
    for rec in list(_open_recordings):
        try:
            rec.close(reason="crashed" if error else "exit", error=error)
        except Exception:
            pass


def _forget_in_child() -> None:
    global _flusher, _flusher_lock
    _flusher_lock = threading.Lock()
    for rec in list(_open_recordings):
        rec._abandon()
    _open_recordings.clear()
    _flusher = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
