"""Where in the user's code something happened: the first frame outside tapeviz.

A site is stored as the pair (code object, line number): taking it costs one short frame
walk and no string work. It is turned into a dict only when an event or explanation needs it.
"""
from __future__ import annotations

import linecache
import os
import sys

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_internal: dict = {}   # code object -> True when it lives inside tapeviz
_getframe = sys._getframe


def _is_internal(code) -> bool:
    flag = _internal.get(code)
    if flag is None:
        flag = _internal[code] = code.co_filename.startswith(_PKG_DIR)
    return flag


def user_site(depth: int = 2):
    """(code, lineno) of the nearest caller outside tapeviz, or None."""
    frame = _getframe(depth)
    internal = _internal
    while frame is not None:
        code = frame.f_code
        flag = internal.get(code)        # (inlined `_is_internal`: this runs for every op)
        if flag is None:
            flag = _is_internal(code)
        if not flag:
            return (code, frame.f_lineno)
        frame = frame.f_back
    return None


_NUMPY_DIR = None


def escape_site(depth: int = 2):
    """Like `user_site`, but also skips NumPy's own Python frames (np.mean calls asarray)."""
    global _NUMPY_DIR
    if _NUMPY_DIR is None:
        import numpy
        _NUMPY_DIR = os.path.dirname(os.path.abspath(numpy.__file__)) + os.sep
    frame = _getframe(depth)
    while frame is not None:
        code = frame.f_code
        if not _is_internal(code) and not code.co_filename.startswith(_NUMPY_DIR):
            return (code, frame.f_lineno)
        frame = frame.f_back
    return None


def user_names(objects) -> dict:
    """id(obj) -> the name the user's code binds it to (locals first), for readable messages."""
    frame = _getframe(1)
    while frame is not None and _is_internal(frame.f_code):
        frame = frame.f_back
    if frame is None:
        return {}
    wanted = {id(o) for o in objects}
    found: dict = {}
    for scope in (frame.f_locals, frame.f_globals):
        # a module's globals are many: skip a scope that holds none of them (a C-speed test)
        if len(found) == len(wanted) or wanted.isdisjoint(map(id, scope.values())):
            continue
        for name, value in list(scope.items()):
            if id(value) in wanted and id(value) not in found and not name.startswith("_"):
                found[id(value)] = name
    return found


def as_dict(site) -> dict | None:
    """{"file", "line", "func", "code"} for events and explanations (a fresh dict each call;
    the source line is looked up once per site)."""
    if site is None:
        return None
    found = _dicts.get(site)
    if found is None:
        code, lineno = site
        found = {"file": code.co_filename, "line": lineno, "func": code.co_name,
                 "code": linecache.getline(code.co_filename, lineno).strip()}
        if found["code"]:   # (a line not found yet may be registered later: notebooks)
            if len(_dicts) >= _MAX_DICTS:
                _dicts.clear()
            _dicts[site] = found
    return dict(found)


_dicts: dict = {}      # site -> its dict, for the sites a training loop repeats
_MAX_DICTS = 4096


def filename(site):
    return None if site is None else site[0].co_filename


def lineno(site):
    return None if site is None else site[1]


def source_line(site) -> str:
    return "" if site is None else linecache.getline(site[0].co_filename, site[1]).strip()
