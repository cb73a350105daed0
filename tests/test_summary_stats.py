"""The stats of large arrays' summaries (events/summary.py, NumPy passes) against independent
truth: exact min/max/zero counts, sums checked against `math.fsum` (correctly rounded). The
sum of squares of a float32 array is accumulated in float32 (relative error about 1e-7)."""
import math

import numpy as np
import pytest

from tapeviz import events


def truth(a):
    x = [float(v) for v in np.asarray(a, np.float64).ravel()]
    return (min(x), max(x), math.fsum(x), math.fsum(v * v for v in x),
            sum(1 for v in x if v == 0))


def check(s, a):
    lo, hi, total, squares, zeros = truth(a)
    n = a.size
    assert s["min"] == lo and s["max"] == hi and s["zeros"] == zeros
    assert s["nan"] == 0 and s["inf"] == 0
    assert s["mean"] == pytest.approx(total / n, rel=1e-12,
                                      abs=1e-12 * math.sqrt(squares) / n + 1e-300)
    rel = 1e-5 if a.dtype == np.float32 else 1e-12
    assert s["norm"] == pytest.approx(math.sqrt(squares), rel=rel)


def large(a):
    """`a`'s summary taken the large-array way (no value), whatever its size."""
    events.summary._summaries.clear()
    return events.summarize(a, limit=0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 3, 7, 8, 9, 65, 100, 1023, 4099])
def test_stats_are_exact_or_correctly_close(dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.normal(size=n) * 10.0 ** rng.integers(-6, 6, size=n)).astype(dtype)
    a[rng.random(n) < 0.2] = 0.0
    if n > 4:
        a[n // 2] = -0.0                 # a negative zero is a zero, as count_nonzero says
        a[-1] = a.min() - 1
        a[0] = a.max() + 1
    check(large(a), a)


@pytest.mark.parametrize("scale", [1e-30, 1e-20, 1e-16, 1e16, 1e30])
def test_float32_arrays_of_tiny_or_huge_values_keep_their_norm(scale):
    """Squares of float32 values below about 1e-19 underflow to 0 in float32, and above about
    1e19 overflow: such arrays are summed in float64, so a vanishing gradient's norm is not 0."""
    a = (np.linspace(-1, 1, 101) * scale).astype(np.float32)
    s = large(a)
    assert s["norm"] > 0
    check(s, a)


def test_extremes_and_subnormals():
    for dtype in (np.float32, np.float64):
        tiny = np.finfo(dtype).smallest_subnormal
        a = np.full(100, tiny, dtype)
        a[7] = -3.0
        a[42] = 7.0
        s = large(a)
        assert (s["min"], s["max"]) == (-3.0, 7.0)
        check(s, a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", [0, 5, 70])
def test_a_non_finite_value_anywhere_is_counted_and_left_out(dtype, bad, where):
    a = np.linspace(-1, 1, 75).astype(dtype)
    a[where] = bad
    s = large(a)
    assert s["nan"] == (1 if np.isnan(bad) else 0)
    assert s["inf"] == (0 if np.isnan(bad) else 1)
    finite = np.delete(a, where).astype(np.float64)
    assert s["min"] == finite.min() and s["max"] == finite.max()
    assert s["mean"] == pytest.approx(math.fsum(finite) / finite.size, rel=1e-6)


def test_huge_float64_values_do_not_overflow():
    s = large(np.full(1000, 1e300))
    assert s["norm"] == pytest.approx(1e300 * math.sqrt(1000))
    assert s["mean"] == pytest.approx(1e300)
    check(large(np.full(100, 9.9e149)), np.full(100, 9.9e149))


def test_strided_swapped_and_other_dtypes():
    a = np.arange(200.0, dtype=np.float32).reshape(10, 20) - 50
    for other in (a.T, a[:, ::2], a.astype(">f4"), a.astype(np.float16), a.astype(np.int32),
                  a.astype(np.int8), a > 0):
        s = large(other)
        lo, hi, total, squares, zeros = truth(other)
        assert (s["min"], s["max"], s["zeros"]) == (lo, hi, zeros)
        assert s["mean"] == pytest.approx(total / other.size)
        assert s["norm"] == pytest.approx(math.sqrt(squares), rel=1e-5)
        assert type(s["zeros"]) is int and type(s["mean"]) is float
