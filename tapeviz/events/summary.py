"""Summaries of arrays: shape, dtype, stats, NaN/Inf counts, and the value itself when small.

Small arrays are summarised in plain Python, large ones in a few vectorised NumPy passes
(NumPy is imported on first use, so ``import tapeviz.events`` stays light); the last
summaries are cached by array identity. Imports: stdlib, ``codec`` (NumPy lazily).
"""
from __future__ import annotations

import math
import threading
from weakref import ref as _weakref

from .codec import sanitize

#: Arrays with at most this many elements are sent whole (``summary["value"]``).
config = {"value_limit": 64}



def summarize(array, limit: int | None = None) -> dict:
    """Shape, dtype, min, max, mean, norm, NaN and Inf counts; the value itself when small.

    ``{"shape", "dtype", "size"}`` always; for numeric and bool arrays also ``"nan"``,
    ``"inf"`` (counts), ``"zeros"`` and, over the finite elements when there are any,
    ``"min"``, ``"max"``, ``"mean"``, ``"norm"`` (L2); ``"value"`` (nested lists, non-finite
    numbers as ``"nan"``/``"inf"``/``"-inf"``) when ``size <= limit`` (default
    ``config["value_limit"]``, 64). Small arrays are summarised in plain Python (NumPy's
    per-call overhead dominates there), large ones in a few vectorised passes.

    >>> summarize([1.0, float("nan")])["nan"]
    1
    """
    limit = config["value_limit"] if limit is None else limit
    np = _numpy or _np()
    if type(array) is not np.ndarray:
        return _summarize(np.asarray(array), limit)
    key = id(array)
    hit = _summaries.get(key)
    if hit is not None and hit[0]() is array and hit[1] == limit:
        return hit[2].copy()
    out = _summarize(array, limit)
    _remember(key, array, limit, out)
    return out.copy()


#: Summaries of the last arrays summarised, by identity (tensors are immutable: the engine
#: summarises one array several times, as an op's output, the next op's input, a gradient).
#: An entry holds its array weakly and goes when the array does, so a cached id is never a
#: dead array's, and the cache keeps no array alive: a recording that built one training
#: step's payloads would otherwise hold that step's arrays (tens of MB for an MLP) until
#: later summaries pushed them out, and the allocator would hand the next steps fresh pages.
#: The engine never writes into an array once it is made (an assignment gives the variable
#: a new one).
_SUMMARY_CACHE = 1024
_summaries: dict = {}            # id(array) -> (weak ref to array, limit, summary), oldest first
_cache_lock = threading.Lock()


def _remember(key, array, limit, out) -> None:
    # the entry goes when its array is freed, in whichever thread drops it (no lock there: a
    # collection that frees the array may run while this thread holds it). The callback runs
    # before the array's id can be reused, so whatever it finds under ``key`` is this entry.
    ref = _weakref(array, lambda _, key=key: _summaries.pop(key, None))
    with _cache_lock:
        while len(_summaries) >= _SUMMARY_CACHE:
            _summaries.pop(next(iter(_summaries)), None)
        _summaries[key] = (ref, limit, out)


def _summarize(a, limit: int) -> dict:
    size = a.size
    dtype = a.dtype
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        name = _DTYPE_NAMES[dtype] = dtype.name if dtype.kind in "fiub" else str(dtype)
    out = {"shape": list(a.shape), "dtype": name, "size": size}
    numeric = dtype.kind in "fiub"
    if size <= limit:
        if numeric and size:
            flat = a.ravel().tolist() if a.ndim != 1 else a.tolist()
            clean = _small_stats(flat, size, dtype.kind == "f", out)
            value = a.tolist() if a.ndim > 1 else (flat if a.ndim else flat[0])
            out["value"] = value if clean else _jsonable(value)
        else:
            out["value"] = _jsonable(a.tolist())
    elif numeric:
        _large_stats(a, size, out)
    return out


_DTYPE_NAMES: dict = {}


def _small_stats(flat: list, size: int, floating: bool, out: dict) -> bool:
    """Stats of a short list of Python numbers into ``out``; True when all are finite."""
    if size == 1:
        x = flat[0]
        if not floating or math.isfinite(x):
            x = float(x)
            out.update(min=x, max=x, mean=x, norm=abs(x), nan=0, inf=0, zeros=int(x == 0))
            return True
    total = sum(flat)
    if not floating or math.isfinite(total):
        fin, n_nan, n_inf, clean = flat, 0, 0, True
    else:
        fin = [x for x in flat if math.isfinite(x)]
        n_nan = sum(1 for x in flat if x != x)
        n_inf = size - len(fin) - n_nan
        clean = not (n_nan or n_inf)
        total = sum(fin)
    if fin:
        n = len(fin)
        mean = total / n if math.isfinite(total) else sum(x / n for x in fin)
        out.update(min=float(min(fin)), max=float(max(fin)), mean=_finite(mean),
                   norm=_finite(math.hypot(*fin)))
    out.update(nan=n_nan, inf=n_inf, zeros=flat.count(0))
    return clean


def _large_stats(a, size: int, out: dict) -> None:
    """Stats of a large numeric array. Float32 arrays are read as they are, with no float64
    copy: min, max and the zero count are exact in any dtype, the sum is accumulated in
    float64, and only the sum of squares stays in float32 (relative error about 1e-7), which
    cannot overflow or lose the largest elements' squares while the largest magnitude is
    between 1e-15 and 1e15 (or 0); other arrays, and float32 ones outside that range, are
    read as float64."""
    np = _np()
    f = a.ravel()
    if f.dtype != np.float32:
        f = f.astype(np.float64, copy=False)
    lo, hi = float(f.min()), float(f.max())
    big = max(-lo, hi)      # NaN compares false: NaN arrays take the careful path
    if f.dtype == np.float32 and not (big == 0 or 1e-15 < big < 1e15):
        f = f.astype(np.float64)
    if -1e150 < lo and hi < 1e150:   # all finite, and no square overflows
        out.update(min=lo, max=hi, mean=float(f.sum(dtype=np.float64)) / size,
                   norm=math.sqrt(float(np.dot(f, f))), nan=0, inf=0,
                   zeros=size - int(np.count_nonzero(f)))
        return
    with np.errstate(over="ignore", invalid="ignore"):
        _careful_stats(np, f.astype(np.float64, copy=False), size, out)


def _careful_stats(np, f, size: int, out: dict) -> None:
    """Stats of an array with NaN, Inf or huge values: counted, excluded, scaled."""
    finite = np.isfinite(f)
    n_fin = int(np.count_nonzero(finite))
    n_nan = int(np.count_nonzero(np.isnan(f))) if n_fin != size else 0
    fin = f if n_fin == size else f[finite]
    if n_fin:
        lo, hi = float(fin.min()), float(fin.max())
        scale = max(abs(lo), abs(hi)) or 1.0
        unit = fin / scale
        mean = float(unit.sum()) / n_fin * scale
        norm = math.sqrt(float(np.dot(unit, unit))) * scale
        out.update(min=lo, max=hi, mean=_finite(mean), norm=_finite(norm))
    out.update(nan=n_nan, inf=size - n_fin - n_nan, zeros=int(size - np.count_nonzero(f)))


_numpy = None

def _np():
    global _numpy
    if _numpy is None:
        import numpy
        _numpy = numpy
    return _numpy



def _finite(x):
    x = float(x)
    if math.isfinite(x):
        return x
    return "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")


def _jsonable(value):
    if type(value) is float:
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if type(value) is list:
        return [_jsonable(v) for v in value]
    if value is None or type(value) in (int, bool, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    return sanitize(value)

