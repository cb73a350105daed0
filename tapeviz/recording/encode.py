"""How events become JSON lines: orjson for tapeviz's own events, the strict stdlib ``json``
encoder for everything else (and for everything without orjson), and the helpers that keep
both writing the same ASCII JSON.

orjson writes NaN/Inf as ``null``, so only events whose payloads cannot hold them take it
(tapeviz's summaries write non-finite numbers as strings; an op's ``attrs`` and a scalar are
checked). Non-ASCII characters become ``\\u`` escapes, as ``json.dumps`` writes them.
Imports: stdlib and ``events`` only (orjson by the first writer).
"""
from __future__ import annotations

import codecs
import json

_encode = json.JSONEncoder(allow_nan=False, check_circular=False, separators=(",", ":")).encode


_orjson = None          # the orjson module once a writer imported it; False: not installed


def _fast_dumps():
    """``orjson.dumps`` when orjson is installed (a runtime dependency; imported by the first
    writer, not by ``import tapeviz``), else None: the stdlib encoder does everything.
    Call it with ``option=NEWLINE`` (orjson's OPT_APPEND_NEWLINE): one line per call."""
    global _orjson
    if _orjson is None:
        try:
            import orjson
            _orjson = orjson
        except ImportError:
            _orjson = False
    return _orjson.dumps if _orjson else None


#: orjson.OPT_APPEND_NEWLINE (a documented constant of orjson's API)
NEWLINE = 1 << 10


def _json_escape(exc):
    """Codec error handler: non-ASCII characters as JSON ``\\u`` escapes (surrogate pairs
    beyond the BMP), exactly as ``json.dumps(ensure_ascii=True)`` writes them."""
    out = []
    for ch in exc.object[exc.start:exc.end]:
        c = ord(ch)
        if c > 0xFFFF:
            c -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 | (c >> 10), 0xDC00 | (c & 0x3FF)))
        else:
            out.append("\\u%04x" % c)
    return "".join(out), exc.end


codecs.register_error("tapeviz-json-ascii", _json_escape)


def _finite_number(x) -> bool:
    """A plain int or finite float (orjson takes it as it is; anything else goes the strict
    way). ``x - x`` is NaN for NaN and +-Inf."""
    t = type(x)
    return t is int or (t is float and x - x == 0)


_SCALARS = frozenset({str, int, bool, type(None)})


def _plain(value, depth: int = 3) -> bool:
    """True when orjson writes ``value`` exactly as the strict encoder does: strings, ints,
    bools, None and finite floats, in lists and string-keyed dicts at most ``depth`` deep (a
    tape event, an op definition, a scalar). NaN (orjson: null), NumPy numbers and deeper
    payloads are left to the strict encoder. Loops, not ``all()`` of a generator: every tape
    event and scalar is checked here."""
    t = type(value)
    if t in _SCALARS:
        return True
    if t is float:
        return value - value == 0       # NaN and +-Inf give NaN
    if depth == 0:
        return False
    if t is dict:
        for k, x in value.items():
            if type(k) is not str:
                return False
            t = type(x)
            if t in _SCALARS:
                continue
            if t is float:
                if x - x != 0:
                    return False
            elif not _plain(x, depth - 1):
                return False
        return True
    if t is list:
        for x in value:
            if not _plain(x, depth - 1):
                return False
        return True
    return False


_fragments: dict = {}


def _ascii_fragment(text):
    """A string as ready-made ASCII JSON for orjson (memoised: formulas repeat)."""
    frag = _fragments.get(text)
    if frag is None:
        if type(text) is not str or not hasattr(_orjson, "Fragment"):
            return text
        frag = _orjson.Fragment(_encode(text).encode("ascii"))
        if len(_fragments) < 4096:
            _fragments[text] = frag
    return frag


def _finite_attrs(attrs: dict) -> bool:
    """An op's attrs hold user numbers: NaN/Inf there must go the strict (sanitising) way."""
    if not attrs:
        return True
    for v in attrs.values():
        if isinstance(v, float):
            if v - v != 0:                  # NaN or +-Inf
                return False
        elif type(v) is list:
            for x in v:
                if isinstance(x, float) and x - x != 0:
                    return False
    return True


def cut_to_fit(line: bytes, limit: int, encode) -> tuple:
    """``(line, is a table line)`` for a JSON line longer than ``limit`` bytes, made to fit:
    its summaries' values left out (``"value_cut": true`` says so), then any string longer
    than 4,096 characters cut (ending ``...[cut]``); the line is None when even that is too
    long. ``encode``: the writer's strict encoder (a dict to a line)."""
    data = json.loads(line)
    if type(data) is not dict:
        return None, False
    _cut_values(data)
    out = encode(data)
    if len(out) > limit:
        out = encode(_cut_strings(data))
    return (out if len(out) <= limit else None), data.get("kind") in ("site", "refs_cleared")


def _cut_values(data) -> None:
    """Every summary in ``data`` (a dict with ``shape``, ``size`` and ``value``) without its
    value, marked ``"value_cut": true``."""
    stack = [data]
    while stack:
        item = stack.pop()
        if type(item) is dict:
            if "value" in item and "size" in item and "shape" in item:
                del item["value"]
                item["value_cut"] = True
            stack.extend(item.values())
        elif type(item) is list:
            stack.extend(item)


_LONGEST_STRING = 4096


def _cut_strings(value):
    """``value`` with every string longer than 4,096 characters cut, ending ``...[cut]``."""
    t = type(value)
    if t is str:
        return value if len(value) <= _LONGEST_STRING else value[:_LONGEST_STRING] + "...[cut]"
    if t is dict:
        return {k: _cut_strings(v) for k, v in value.items()}
    if t is list:
        return [_cut_strings(v) for v in value]
    return value
