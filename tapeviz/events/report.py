"""A subscriber that raises is reported once, as a ``RuntimeWarning`` pointing at the user's
line (the first frame outside tapeviz), and never breaks the user's program. Imports: stdlib."""
from __future__ import annotations

import os
import sys
import warnings

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep   # tapeviz/


def report(sub, exc) -> None:
    """Warn once per subscription ``sub`` about ``exc``; later errors of it are ignored."""
    if sub.failed:
        return
    sub.failed = True
    try:
        warnings.warn(f"tapeviz: event subscriber {sub.callback!r} raised "
                      f"{type(exc).__name__}: {exc}; further errors from it are ignored",
                      RuntimeWarning, stacklevel=_user_stacklevel())
    except Exception:   # warnings turned into errors (-W error) must not break the program
        pass


def _user_stacklevel() -> int:
    """The stacklevel of the first frame outside tapeviz, seen from report's warnings.warn."""
    frame, level = sys._getframe(1), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PKG_DIR):
        frame, level = frame.f_back, level + 1
    return level - 1 if frame is not None else 2
