"""What one recording may make the views hold and draw, whatever the file says.

The store passes every name, scope, shape and site it keeps through these functions, and
the views read each summary through :func:`clip_summary` when they draw it (a check per
drawn value, not per ingested one), so the graph, its layout, the cards and the exported
page only ever see bounded values: a 12 KB line with a name scope 3,000 levels deep, or a
summary claiming a million dimensions, costs what an ordinary op costs. Each cut stays
visible: a clipped name ends with "…", a deep scope's last level reads "…(n more)", a
dropped value leaves its statistics.

>>> clip_scope("a/b/c", max_depth=2)
'a/b …(1 more)'
>>> clip_name("x" * 10, limit=6)
'xxxxx…'
"""
from __future__ import annotations

#: tapes a store keeps by default, a constant (``tapeviz serve/export --keep-tapes N`` pass
#: N to the stores they make): which ones is :mod:`~tapeviz.ui.store.story`'s choice
KEEP_TAPES = 50
#: outputs of ops run outside every tape on trainable variables kept, to draw as ghosts if
#: a tape reads one (a regulariser computed before the tape), and the most ops one such
#: chain draws (an L2 term summed over 50 variables before the tape is 150 ops)
UNTAPED_KEPT = 512
UNTAPED_CHAIN = 512
#: name scope levels shown; deeper levels are folded into the last one
MAX_DEPTH = 32
#: characters of a name (a tensor, an op, a variable, a scalar series, a site's function)
MAX_NAME = 200
#: characters of one level of a name scope
MAX_SCOPE_PART = 60
#: dimensions of a shape kept (a deeper shape is not an array anyone recorded)
MAX_DIMS = 32
#: elements of a summary's ``value`` kept (the writer stores at most ``value_limit``, 64 by
#: default); a larger value is left out and its statistics stay
MAX_VALUE = 4096
#: characters of a site's source line and file name
MAX_TEXT = 1000
#: run notes kept (each code and subject is told once per run: a run has few)
MAX_NOTES = 50

_NUMBER_KEYS = ("min", "max", "mean", "norm")
_COUNT_KEYS = ("size", "nan", "inf", "zeros")
_NON_FINITE = ("nan", "inf", "-inf")


def clip_name(text, limit: int = MAX_NAME) -> str:
    """``text`` as a string of at most ``limit`` characters (an ellipsis marks a cut)."""
    text = text if type(text) is str else ("" if text is None else str(text))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_scope(scope, max_depth: int = MAX_DEPTH) -> str:
    """A name scope of at most ``max_depth`` levels, each at most MAX_SCOPE_PART characters;
    the levels beyond are counted in the last one shown."""
    if not scope or type(scope) is not str:
        return ""
    if len(scope) <= MAX_SCOPE_PART and "/" not in scope:
        return scope
    parts = scope.split("/", max_depth)       # the rest stays one string: never split whole
    more = 0
    if len(parts) > max_depth:
        more = parts.pop().count("/") + 1
    parts = [clip_name(p, MAX_SCOPE_PART) for p in parts]
    if more:
        parts[-1] += f" …({more:,} more)"
    return "/".join(parts)


def clip_shape(shape):
    """A list of at most MAX_DIMS ints, or None when the field is not a shape."""
    if type(shape) not in (list, tuple) or len(shape) > MAX_DIMS:
        return None
    for d in shape:
        if type(d) is not int:
            return None
    return list(shape)


def clip_summary(summary):
    """A summary holding only well-typed, bounded fields (None when it is not a summary):
    counts are ints, statistics numbers or the strings "nan"/"inf"/"-inf", a value of more
    than MAX_VALUE elements (or nested deeper than MAX_DIMS) is left out. A well-formed
    summary (every summary tapeviz writes) is returned as it is."""
    if type(summary) is not dict:
        return None
    for k, v in summary.items():
        if not _FIELD_OK.get(k, _anything)(v):
            break
    else:
        return summary
    out = {"shape": clip_shape(summary.get("shape")),
           "dtype": clip_name(summary.get("dtype", "?"), 40)}
    for k, v in summary.items():
        if k not in out and _FIELD_OK.get(k, _anything)(v):
            out[k] = v
    value = summary.get("value")
    if type(value) is str:
        out["value"] = clip_name(value, MAX_TEXT)
    return out


def _anything(v) -> bool:
    return True


def _count_ok(v) -> bool:
    return type(v) is int and v >= 0


def _number_ok(v) -> bool:
    return type(v) is float or type(v) is int or v in _NON_FINITE


def _value_ok(v) -> bool:
    if type(v) is str:
        return len(v) <= MAX_TEXT
    return _elements(v, MAX_VALUE, MAX_DIMS) is not None


_FIELD_OK = {"shape": lambda v: clip_shape(v) is not None or v is None,
             "dtype": lambda v: type(v) is str and len(v) <= 40,
             "value": _value_ok,
             **dict.fromkeys(_COUNT_KEYS, _count_ok), **dict.fromkeys(_NUMBER_KEYS, _number_ok)}


def _elements(value, budget: int, depth: int):
    """How many scalars ``value`` (nested lists) holds, or None past ``budget`` or ``depth``;
    stops as soon as it knows."""
    if type(value) is not list:
        return 1
    if depth == 0:
        return None
    if list not in map(type, value):          # a row of numbers: the usual value
        return len(value) if len(value) <= budget else None
    n = 0
    for v in value:
        k = _elements(v, budget - n, depth - 1)
        if k is None:
            return None
        n += k
        if n > budget:
            return None
    return n


def clip_ref(ref):
    """A tensor ref with a bounded name, shape and dtype (None when not a ref); a well-formed
    one is returned as it is. Its summary is checked where it is drawn."""
    if type(ref) is not dict:
        return None
    name, dtype, shape = ref.get("name"), ref.get("dtype"), ref.get("shape")
    if ((name is None or type(name) is str and len(name) <= MAX_NAME)
            and (dtype is None or type(dtype) is str and len(dtype) <= 40)
            and type(shape) is list and clip_shape(shape) is not None):
        return ref
    out = dict(ref)
    out["name"] = clip_name(name) if name is not None else None
    out["shape"] = clip_shape(shape)
    if dtype is not None:
        out["dtype"] = clip_name(dtype, 40)
    return out


def clip_site(site):
    """A site with string fields of bounded length and an int line (None when not a site)."""
    if type(site) is not dict:
        return None
    file, line, func, code = site.get("file"), site.get("line"), site.get("func"), site.get("code")
    cell = site.get("cell")        # a notebook cell's execution count, or none
    if (type(file) is str and len(file) <= MAX_TEXT and type(line) is int and type(func) is str
            and len(func) <= MAX_NAME and type(code) is str and len(code) <= MAX_TEXT
            and (cell is None or type(cell) is int)):
        return site
    out = {"file": clip_name(site.get("file"), MAX_TEXT), "line": line if type(line) is int else None,
           "func": clip_name(site.get("func")), "code": clip_name(site.get("code"), MAX_TEXT)}
    if type(cell) is int:
        out["cell"] = cell
    return out


def number(value):
    """A float from a number or one of the strings "nan"/"inf"/"-inf"; None otherwise (an
    integer too large for a float, which only a foreign file holds, reads as infinite)."""
    if type(value) is float:
        return value
    if type(value) is int:
        try:
            return float(value)
        except OverflowError:
            return float("inf") if value > 0 else float("-inf")
    if value in _NON_FINITE:
        return float(value)
    return None


def clip_list(value) -> list:
    return value if isinstance(value, list) else []


def clip_refs(value) -> list:
    """The tensor refs of an event field, each clipped (anything not a ref is dropped)."""
    return [r for r in map(clip_ref, clip_list(value)) if r is not None]


def clip_result(r: dict) -> dict:
    """A gradient result with its ref, norm and texts bounded."""
    out = {**r, "tensor": clip_ref(r.get("tensor")), "norm": number(r.get("norm"))}
    for k in ("source_name", "verdict", "cause", "filename"):
        if r.get(k) is not None:
            out[k] = clip_name(r[k], 1000)
    for k in ("message", "fix"):
        if r.get(k) is not None:
            out[k] = clip_name(r[k], 4000)
    return out
