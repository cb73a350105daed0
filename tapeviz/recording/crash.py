"""The exception that ended a recorded run: :func:`describe` turns it into the plain-text
``error`` of the ``recording_closed`` line (type, message, the user's file and line), and
:func:`crash_text` into the one line a page shows. An exception that escapes a
``with tv.record(...)`` block is described by the writer's ``__exit__``; one that ends the
interpreter is caught by a hook on ``sys.excepthook`` (:func:`install_hook`), so the closing
at exit can say so instead of looking like a clean finish. Imports: stdlib only.
"""
from __future__ import annotations

import os
import sys

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
#: The message is cut to this many characters: it is the user's text, shown once.
MAX_MESSAGE = 1000
CRASH_PREFIX = "the run crashed: "

_uncaught: dict | None = None
_hooked = False


def describe(exc: BaseException) -> dict:
    """``{"type", "message", "file", "line", "function"}`` of ``exc``: where it happened in the
    user's code (the innermost frame of its traceback outside tapeviz; the innermost frame
    when every frame is tapeviz's). Plain strings and numbers: pages escape them."""
    user = inner = None
    tb = exc.__traceback__
    while tb is not None:
        inner = tb
        if not tb.tb_frame.f_code.co_filename.startswith(_PKG_DIR):
            user = tb
        tb = tb.tb_next
    at = user or inner
    try:
        message = str(exc)
    except Exception:    # a broken __str__ must not hide the crash itself
        message = "<message could not be read>"
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE - 1] + "…"
    kind = type(exc)
    name = kind.__qualname__ if kind.__module__ in ("builtins", "__main__") else \
        f"{kind.__module__}.{kind.__qualname__}"
    out = {"type": name, "message": message, "file": None, "line": None, "function": None}
    if at is not None:
        code = at.tb_frame.f_code
        out.update(file=code.co_filename, line=at.tb_lineno, function=code.co_name)
    return out


def crash_text(error) -> str | None:
    """``the run crashed: RuntimeError at train.py:141 (in <module>): <message>``, or None when
    ``error`` is not a recorded exception (an older recording's footer, a clean close)."""
    if not isinstance(error, dict) or not error.get("type"):
        return None
    text = CRASH_PREFIX + str(error["type"])
    if error.get("file"):
        text += f" at {os.path.basename(str(error['file']))}:{error.get('line')}"
        if error.get("function"):
            text += f" (in {error['function']})"
    message = str(error.get("message") or "").strip()
    return text + (f": {message}" if message else "")


def install_hook() -> None:
    """Remember the exception that ends the interpreter (then call the previous hook), for
    the recordings closed at exit. Installed once, by the first recording."""
    global _hooked
    if _hooked:
        return
    _hooked = True
    previous = sys.excepthook

    def _tapeviz_excepthook(kind, exc, tb):
        global _uncaught
        try:
            if exc is not None and not isinstance(exc, SystemExit):
                _uncaught = describe(exc)
        except Exception:   # describing must never hide the user's traceback
            pass
        previous(kind, exc, tb)

    sys.excepthook = _tapeviz_excepthook


def uncaught() -> dict | None:
    """The exception that is ending the interpreter, described, or None (a clean exit).

    The hook's record first; else (the program replaced ``sys.excepthook``) what Python
    left in ``sys.last_value`` for an uncaught exception, trusted only in a script: an
    interactive shell or notebook keeps it from an earlier, already reported error."""
    if _uncaught is not None:
        return _uncaught
    if sys.flags.interactive or hasattr(sys, "ps1") or "IPython" in sys.modules:
        return None
    exc = getattr(sys, "last_value", None)
    if isinstance(exc, BaseException) and not isinstance(exc, SystemExit):
        try:
            return describe(exc)
        except Exception:
            return None
    return None
