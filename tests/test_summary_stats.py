"""The one-pass C stats of large float arrays (events/_stats.c) against independent truth:
exact min/max/zero counts, and sums checked against `math.fsum` (correctly rounded)."""
import math
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from tapeviz import events
from tapeviz.events import summary


@pytest.fixture
def finite_stats():
    # imported here, not skipped: a build that lost the module must fail, not pass quietly
    from tapeviz.events._stats import finite_stats
    return finite_stats


def truth(a):
    x = [float(v) for v in np.asarray(a, np.float64).ravel()]
    return (min(x), max(x), math.fsum(x), math.fsum(v * v for v in x),
            sum(1 for v in x if v == 0))


def check(got, a):
    lo, hi, total, squares, zeros = truth(a)
    assert got[0] == lo and got[1] == hi and got[4] == zeros
    assert got[2] == pytest.approx(total, rel=1e-12, abs=1e-12 * math.sqrt(squares) + 1e-300)
    assert got[3] == pytest.approx(squares, rel=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 3, 7, 8, 9, 15, 16, 17, 65, 100, 1023, 4099])
def test_stats_are_exact_or_correctly_close_at_every_vector_boundary(finite_stats, dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.normal(size=n) * 10.0 ** rng.integers(-20, 20, size=n)).astype(dtype)
    a[rng.random(n) < 0.2] = 0.0
    if n > 4:
        a[n // 2] = -0.0                 # a negative zero is a zero, as count_nonzero says
        a[-1] = a.min() - 1              # extremes in the scalar tail, then in the lanes
        a[0] = a.max() + 1
    check(finite_stats(a), a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_extremes_in_each_lane_and_subnormals(finite_stats, dtype):
    tiny = np.finfo(dtype).smallest_subnormal
    for where in range(16):
        a = np.full(16, tiny, dtype)
        a[where] = -3.0
        a[(where + 5) % 16] = 7.0
        got = finite_stats(a)
        check(got, a)
        assert (got[0], got[1]) == (-3.0, 7.0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("where", [0, 5, 70])      # first lane, a later lane, the tail
def test_a_non_finite_value_anywhere_sends_the_array_to_numpy(finite_stats, dtype, bad, where):
    a = np.linspace(-1, 1, 75).astype(dtype)
    a[where] = bad
    assert finite_stats(a) is None
    s = events.summarize(a)
    assert s["nan"] == (1 if np.isnan(bad) else 0)
    assert s["inf"] == (0 if np.isnan(bad) else 1)
    finite = np.delete(a, where).astype(np.float64)
    assert s["min"] == finite.min() and s["max"] == finite.max()


def test_all_nan_and_huge_float64_values_go_the_careful_way(finite_stats):
    assert finite_stats(np.full(100, np.nan)) is None
    assert finite_stats(np.full(100, 1e150)) is None      # its square may overflow
    assert finite_stats(np.full(100, -1e150)) is None
    s = events.summarize(np.full(1000, 1e300))
    assert s["norm"] == pytest.approx(1e300 * math.sqrt(1000))
    assert finite_stats(np.full(100, 9.9e149)) is not None


def test_arrays_it_does_not_read_are_left_to_numpy(finite_stats):
    a = np.arange(200.0, dtype=np.float32).reshape(10, 20)
    for other in (a.T, a[:, ::2], a.astype(">f4"), a.astype(np.float16), a.astype(np.int32),
                  a.astype(np.complex64), np.zeros(0, np.float32), [1.0, 2.0], "text"):
        assert finite_stats(other) is None
        if isinstance(other, np.ndarray) and other.size and other.dtype.kind == "f":
            s = events.summarize(other)
            lo, hi, total, _, zeros = truth(other)
            assert (s["min"], s["max"], s["zeros"]) == (lo, hi, zeros)
            assert s["mean"] == pytest.approx(total / other.size)


def test_big_arrays_read_without_the_gil_are_right_from_two_threads_at_once(finite_stats):
    rng = np.random.default_rng(1)
    arrays = [rng.normal(size=300_000).astype(np.float32), rng.normal(size=200_000)]
    answers = {i: truth(a) for i, a in enumerate(arrays)}
    failures = []

    def work(i):
        for _ in range(10):
            got = finite_stats(arrays[i])
            if got[:2] != answers[i][:2] or got[4] != answers[i][4] or not math.isclose(
                    got[3], answers[i][3], rel_tol=1e-12):
                failures.append((i, got))

    threads = [threading.Thread(target=work, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_summaries_take_the_c_stats_and_match_numpys(monkeypatch):
    rng = np.random.default_rng(3)
    arrays = [rng.normal(size=(300, 7)).astype(np.float32), rng.normal(size=500),
              np.zeros((20, 20), np.float32), np.arange(-50.0, 50.0, dtype=np.float32)]
    with_c = [events.summarize(a) for a in arrays]
    monkeypatch.setattr(summary, "_finite_stats", None)
    summary._summaries.clear()
    without = [events.summarize(a) for a in arrays]
    for c, n in zip(with_c, without):
        assert set(c) == set(n)
        for k in c:
            if k in ("mean", "norm"):
                assert c[k] == pytest.approx(n[k], rel=1e-12, abs=1e-15)
            else:
                assert c[k] == n[k]
        assert type(c["zeros"]) is int and type(c["mean"]) is float


def test_the_c_stats_are_built_and_used():
    if os.environ.get("TAPEVIZ_PURE_PYTHON", "") not in ("", "0"):
        assert summary._finite_stats is None
        return
    from tapeviz.events._stats import finite_stats
    assert summary._finite_stats is finite_stats


def test_pure_python_summaries_skip_the_c_stats():
    code = ("import numpy as np; from tapeviz.events import summary as s; "
            "print(s._finite_stats is None, s.summarize(np.arange(100.0))['mean'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=dict(os.environ, TAPEVIZ_PURE_PYTHON="1"))
    assert out.stdout.split() == ["True", "49.5"]


def test_the_plain_loop_for_cpus_without_sse2_gives_the_same_answers(tmp_path):
    """Other CPUs (ARM) build `_stats.c` without its SSE2 loop: build it that way here."""
    import importlib.util
    import shutil
    import sysconfig
    cc = shutil.which("gcc") or shutil.which("cc")
    # (as the fixture above: without a compiler the C stats are missing, and that must fail)
    assert cc is not None, "no C compiler: install gcc and run ./run.sh setup again"
    source = os.path.join(os.path.dirname(summary.__file__), "_stats.c")
    built = tmp_path / ("_stats" + sysconfig.get_config_var("EXT_SUFFIX"))
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-U__SSE2__",
                    "-I" + sysconfig.get_paths()["include"], source, "-o", str(built)],
                   check=True, capture_output=True)
    spec = importlib.util.spec_from_file_location("_stats", built)
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    assert plain.VECTORIZED == 0           # the plain loop, not SSE2 under another name
    import platform
    from tapeviz.events import _stats
    assert _stats.VECTORIZED == (platform.machine() in ("x86_64", "AMD64"))
    rng = np.random.default_rng(7)
    for n in (1, 5, 8, 9, 100, 1001):
        for dtype in (np.float32, np.float64):
            a = rng.normal(size=n).astype(dtype)
            a[rng.random(n) < 0.2] = -0.0
            check(plain.finite_stats(a), a)
            b = a.copy()
            b[n // 2] = np.nan
            assert plain.finite_stats(b) is None
