"""Where in the user's code something happened: the first frame outside tapeviz.

A site is the pair (code object, line number), taken by a short frame walk with no string
work, and turned into a dict only when an event or explanation needs it.

Two things that look cheap are not, and the walk avoids both (it runs for every op):
``hash(code)`` hashes the code object's bytecode, names and constants on every call (8 us for a
1,000-line script's module code), and ``frame.f_lineno`` scans the line table from the start
(5 us there). So a file is classified by its ``co_filename`` (a string: its hash is cached),
and the site at a given instruction (``f_lasti``) is made once, then found by
``id(code)`` (the cache holds the code object, so its id cannot be reused meanwhile).
"""
from __future__ import annotations

import linecache
import os
import sys

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_internal: dict = {}   # co_filename -> True when that file lives inside tapeviz
_sites: dict = {}      # id(code) -> {f_lasti: (code, lineno)}: the sites taken so far
_MAX_CODES = 4096      # more code objects than this (notebook cells re-run): start afresh
_getframe = sys._getframe


def _is_internal(code) -> bool:
    name = code.co_filename
    flag = _internal.get(name)
    if flag is None:
        flag = _internal[name] = name.startswith(_PKG_DIR)
    return flag


def _site_at(frame):
    """The site of ``frame``'s current instruction: the same tuple every time it is asked."""
    code = frame.f_code
    lasti = frame.f_lasti
    at = _sites.get(id(code))
    if at is None:
        if len(_sites) >= _MAX_CODES:
            _sites.clear()
        at = _sites[id(code)] = {}
    site = at.get(lasti)
    if site is None:
        site = at[lasti] = (code, frame.f_lineno)
    return site


def user_site(depth: int = 2):
    """(code, lineno) of the nearest caller outside tapeviz, or None."""
    frame = _getframe(depth)
    internal = _internal
    while frame is not None:
        code = frame.f_code
        flag = internal.get(code.co_filename)    # (inlined `_is_internal`: runs for every op)
        if flag is None:
            flag = _is_internal(code)
        if not flag:
            at = _sites.get(id(code))             # (inlined `_site_at`'s usual hit)
            if at is not None:
                site = at.get(frame.f_lasti)
                if site is not None:
                    return site
            return _site_at(frame)
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
            return _site_at(frame)
        frame = frame.f_back
    return None


def _user_frame():
    """The innermost frame of the user's code (not tapeviz's), or None."""
    frame = _getframe(2)
    while frame is not None and _is_internal(frame.f_code):
        frame = frame.f_back
    return frame


def user_names(objects) -> dict:
    """id(obj) -> the name the user's code binds it to (locals first), for readable messages."""
    frame = _user_frame()
    if frame is None:
        return {}
    wanted = {id(o) for o in objects}
    found: dict = {}
    for scope, loops in ((frame.f_locals, _loop_targets(frame.f_code)),
                         (frame.f_globals, _module_loop_targets(frame))):
        # a module's globals are many: skip a scope that holds none of them (a C-speed test)
        if len(found) == len(wanted) or wanted.isdisjoint(map(id, scope.values())):
            continue
        for name, value in list(scope.items()):
            if (id(value) in wanted and id(value) not in found and not name.startswith("_")
                    and name not in loops):
                found[id(value)] = name
    return found


def _module_loop_targets(frame) -> frozenset:
    """The loop targets of the module whose globals ``frame`` reads, found on the stack (a
    train step called from the script's body); none when the module is not running."""
    globals_ = frame.f_globals
    while frame is not None:
        if frame.f_globals is globals_ and frame.f_code.co_name == "<module>":
            return _loop_targets(frame.f_code)
        frame = frame.f_back
    return frozenset()


_LOOP_TARGETS: dict = {}


def _loop_targets(code) -> frozenset:
    """The names a ``for`` statement of ``code`` binds (``w`` in ``for w in weights``): after
    the loop such a name still holds the last item, and calling w9 "w" would read as every
    layer's weight."""
    hit = _LOOP_TARGETS.get(code)
    if hit is None:
        import dis
        names, ins = set(), list(dis.get_instructions(code))
        for i, op in enumerate(ins):
            if op.opname != "FOR_ITER":
                continue
            for nxt in ins[i + 1:]:       # the targets: stores (and unpacks) right after
                if nxt.opname.startswith("UNPACK_"):
                    continue
                if not nxt.opname.startswith("STORE_"):
                    break
                vals = nxt.argval if isinstance(nxt.argval, tuple) else (nxt.argval,)
                names.update(v for v in vals if isinstance(v, str))
        hit = _LOOP_TARGETS[code] = frozenset(names)
    return hit


def user_prefix() -> str:
    """The name the user's code calls tapeviz by (``tf`` after ``import tapeviz as tf``; ``tv``
    when none is found), so that a fix reads as code they can paste."""
    package = sys.modules.get(__name__.split(".")[0])
    frame = _user_frame()
    if frame is None or package is None:
        return "tv"
    for scope in (frame.f_globals, frame.f_locals):   # (imports are usually the module's)
        for guess in ("tv", "tf"):
            if scope.get(guess) is package:
                return guess
        if package in scope.values():     # (a C-speed test: the loop only when it finds)
            for name, value in list(scope.items()):
                if value is package and name.isidentifier() and not name.startswith("_"):
                    return name
    return "tv"


def as_dict(site) -> dict | None:
    """{"file", "line", "func", "code"} for events and explanations (a fresh dict each call;
    the source line is looked up once per site)."""
    if site is None:
        return None
    hit = _dicts.get(id(site))     # (by id: hashing the site would hash its code object)
    if hit is not None and hit[0] is site:
        return dict(hit[1])
    code, lineno = site
    found = {"file": code.co_filename, "line": lineno, "func": code.co_name,
             "code": linecache.getline(code.co_filename, lineno).strip()}
    cell = cell_of(code.co_filename)
    if cell is not None:
        found["cell"] = cell
    if found["code"]:   # (a line not found yet may be registered later: notebooks)
        if len(_dicts) >= _MAX_DICTS:
            _dicts.clear()
        _dicts[id(site)] = (site, found)   # (holding the site: its id stays its own)
    return dict(found)


_dicts: dict = {}      # id(site) -> (site, its dict), for the sites a training loop repeats
_MAX_DICTS = 4096


def cell_of(fname) -> int | None:
    """The execution count of the IPython or Jupyter cell whose code was compiled under the
    file name ``fname`` (ipykernel names a cell after a hash of its text, such as
    ``4220225238.py`` in its temporary folder), or None: not in IPython, or a real file. Asked
    of the shell's compiler through ``format_code_name`` (IPython 8 and later), which IPython's
    own tracebacks use to say ``Cell In[3], line 4``."""
    ipython = sys.modules.get("IPython")     # never imported here: only a running shell counts
    if ipython is None or type(fname) is not str:
        return None
    try:
        shell = ipython.get_ipython()
        named = shell.compile.format_code_name(fname) if shell is not None else None
    except Exception:      # an IPython without it, or a shell of another kind: no cell
        return None
    if not isinstance(named, tuple) or len(named) != 2 or not isinstance(named[1], str):
        return None
    number = named[1].removeprefix("In[").removesuffix("]")
    return int(number) if number.isdigit() else None


def where(fname, line) -> str:
    """``cell [3], line 4`` for a notebook cell, else ``/path/to/train.py:4``."""
    cell = cell_of(fname)
    return f"cell [{cell}], line {line}" if cell is not None else f"{fname}:{line}"


def filename(site):
    return None if site is None else site[0].co_filename


def lineno(site):
    return None if site is None else site[1]


def source_line(site) -> str:
    return "" if site is None else linecache.getline(site[0].co_filename, site[1]).strip()
