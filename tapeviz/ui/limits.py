"""What one recording may make the views hold and draw, whatever the file says.

The store passes every name, scope, shape and summary it keeps through these functions, so
the graph, its layout, the cards and the exported page only ever see bounded values: a
12 KB line with a name scope 3,000 levels deep, or a summary claiming a million dimensions,
costs what an ordinary op costs. Each cut stays visible: a clipped name ends with "…", a
deep scope's last level reads "…(n more)", a dropped value leaves its statistics.

>>> clip_scope("a/b/c", max_depth=2)
'a/b …(1 more)'
>>> clip_name("x" * 10, limit=6)
'xxxxx…'
"""
from __future__ import annotations

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
    than MAX_VALUE elements (or nested deeper than MAX_DIMS) is left out."""
    if type(summary) is not dict:
        return None
    out = {"shape": clip_shape(summary.get("shape")),
           "dtype": clip_name(summary.get("dtype", "?"), 40)}
    for k in _COUNT_KEYS:
        v = summary.get(k)
        if type(v) is int and v >= 0:
            out[k] = v
    for k in _NUMBER_KEYS:
        v = summary.get(k)
        if type(v) in (int, float) or v in _NON_FINITE:
            out[k] = v
    value = summary.get("value")
    if type(value) is str:
        out["value"] = clip_name(value, MAX_TEXT)
    elif "value" in summary and _elements(value, MAX_VALUE, MAX_DIMS) is not None:
        out["value"] = value
    return out


def _elements(value, budget: int, depth: int):
    """How many scalars ``value`` (nested lists) holds, or None past ``budget`` or ``depth``;
    stops as soon as it knows."""
    if type(value) is not list:
        return 1
    if depth == 0:
        return None
    n = 0
    for v in value:
        k = _elements(v, budget - n, depth - 1) if type(v) is list else 1
        if k is None:
            return None
        n += k
        if n > budget:
            return None
    return n


def clip_ref(ref):
    """A tensor ref with a bounded name, shape, dtype and summary (None when not a ref)."""
    if type(ref) is not dict:
        return None
    out = dict(ref)
    out["name"] = clip_name(ref.get("name")) if ref.get("name") is not None else None
    out["shape"] = clip_shape(ref.get("shape"))
    if ref.get("dtype") is not None:
        out["dtype"] = clip_name(ref["dtype"], 40)
    if "summary" in ref:
        out["summary"] = clip_summary(ref["summary"])
    return out


def clip_site(site):
    """A site with string fields of bounded length and an int line (None when not a site)."""
    if type(site) is not dict:
        return None
    line = site.get("line")
    return {"file": clip_name(site.get("file"), MAX_TEXT), "line": line if type(line) is int else None,
            "func": clip_name(site.get("func")), "code": clip_name(site.get("code"), MAX_TEXT)}


def number(value):
    """A float from a number or one of the strings "nan"/"inf"/"-inf"; None otherwise."""
    if type(value) in (int, float):
        return float(value)
    if value in _NON_FINITE:
        return float(value)
    return None


def clip_list(value) -> list:
    return value if isinstance(value, list) else []


def clip_refs(value) -> list:
    """The tensor refs of an event field, each clipped (anything not a ref is dropped)."""
    return [r for r in map(clip_ref, clip_list(value)) if r is not None]


def clip_input_grad(g: dict) -> dict:
    return {**g, "grad": clip_summary(g.get("grad")), "total": clip_summary(g.get("total"))}


def clip_result(r: dict) -> dict:
    """A gradient result with its ref, summary, norm and texts bounded."""
    out = {**r, "tensor": clip_ref(r.get("tensor")), "grad": clip_summary(r.get("grad")),
           "norm": number(r.get("norm"))}
    for k in ("source_name", "verdict", "cause", "filename"):
        if r.get(k) is not None:
            out[k] = clip_name(r[k], 1000)
    for k in ("message", "fix"):
        if r.get(k) is not None:
            out[k] = clip_name(r[k], 4000)
    return out
