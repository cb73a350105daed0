"""tapeviz's benchmarks, side by side with hand-written NumPy and HIPS autograd.

    ./run.sh bench                       # everything, about a minute
    .venv/bin/python benchmarks/run.py --quick
    .venv/bin/python benchmarks/run.py --profile     # cProfile of tapeviz's MLP step too

Workloads (issue 6):
  W1  chain of 1,000 scalar float32 ops (mul, add, sin in turn) on a watched scalar, then its
      gradient: time per op, forward + backward, tapeviz vs HIPS autograd
  W2  the same chain on float32 vectors of shape (16,)
  W3  MLP training step, batch 256, 784-256-256-10, relu, sparse softmax cross-entropy, SGD,
      float32: tapeviz (tv.keras.optimizers.SGD) vs hand-written NumPy backprop
  W4  five 1024x1024 matmuls, reduce_sum, gradient wrt the first, vs NumPy
  W5  tracemalloc peak of one warm W3 step (non-persistent and persistent tape) vs NumPy
  W6  Hessian of a 50-parameter function (jacobian of a gradient under nested tapes) vs
      autograd.hessian
  events on/off: W1 and W3 with a no-op subscriber vs none
  import   `python -c "import tapeviz"`, whole process, median wall and CPU time, next to
           `python -c "import numpy"` (the UI stack must load lazily)

Method (issue 6): each system in its own long-lived worker process (forked; `--in-process`
runs both here), one BLAS thread everywhere (threadpoolctl), CPU time (time.process_time,
measured inside the worker), samples interleaved in pairs whose order alternates, warm-up
first; each figure is the median of the per-pair ratios (and the median times). Memory (W5)
is measured here with tracemalloc. Nothing here asserts a timing.
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapeviz as tv  # noqa: E402

clock = time.process_time


# --- timing -------------------------------------------------------------------------------------
def paired(a, b, pairs, warmup=2):
    """Median time of `a`, of `b`, and median of the per-pair ratios a/b (interleaved)."""
    for _ in range(warmup):
        a()
        b()
    ta, tb, ratios = [], [], []
    for k in range(pairs):
        gc.collect()
        order = (a, b) if k % 2 == 0 else (b, a)
        times = {}
        for f in order:
            t0 = clock()
            f()
            times[f] = clock() - t0
        ta.append(times[a])
        tb.append(times[b])
        ratios.append(times[a] / times[b] if times[b] > 0 else float("nan"))
    return statistics.median(ta), statistics.median(tb), statistics.median(ratios)


class Worker:
    """One system in its own long-lived process (fork): it builds its workload once, then
    runs it on request and answers with the CPU time the run took in that process."""

    def __init__(self, factory_name):
        import multiprocessing as mp
        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, factory_name), daemon=True)
        self.proc.start()
        ok = self.conn.recv()
        if ok != "ready":
            raise RuntimeError(f"benchmark worker {factory_name!r} failed: {ok}")

    def __call__(self):
        self.conn.send("run")
        out = self.conn.recv()
        if isinstance(out, str):
            raise RuntimeError(out)
        return out

    def close(self):
        try:
            self.conn.send("stop")
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=10)


def _worker_main(conn, factory_name):
    try:
        from threadpoolctl import threadpool_limits
        threadpool_limits(1)
    except ImportError:
        pass
    try:
        fn = FACTORIES[factory_name]()
        if fn is None:
            raise RuntimeError(f"{factory_name} is not available (missing package)")
        conn.send("ready")
    except Exception as exc:  # reported to the parent, which stops
        conn.send(f"{type(exc).__name__}: {exc}")
        return
    while True:
        msg = conn.recv()
        if msg != "run":
            return
        try:
            gc.collect()
            t0 = clock()
            fn()
            conn.send(clock() - t0)
        except Exception as exc:
            conn.send(f"{type(exc).__name__}: {exc}")


def paired_workers(name_a, name_b, pairs, warmup=2):
    """`paired` with each system in its own worker process (issue 6's method)."""
    a, b = Worker(name_a), Worker(name_b)
    try:
        for _ in range(warmup):
            a()
            b()
        ta, tb, ratios = [], [], []
        for k in range(pairs):
            if k % 2 == 0:
                x, y = a(), b()
            else:
                y, x = b(), a()
            ta.append(x)
            tb.append(y)
            ratios.append(x / y if y > 0 else float("nan"))
        return statistics.median(ta), statistics.median(tb), statistics.median(ratios)
    finally:
        a.close()
        b.close()


# --- W3: the MLP step --------------------------------------------------------------------------
SIZES = (784, 256, 256, 10)
BATCH = 256
LR = 0.1


def mlp_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(BATCH, SIZES[0])).astype(np.float32)
    labels = rng.integers(0, SIZES[-1], size=BATCH).astype(np.int32)
    params = []
    for n_in, n_out in zip(SIZES[:-1], SIZES[1:]):
        limit = np.sqrt(6 / (n_in + n_out))
        params.append(rng.uniform(-limit, limit, size=(n_in, n_out)).astype(np.float32))
        params.append(np.zeros(n_out, np.float32))
    return x, labels, params


def tapeviz_mlp(persistent=False):
    x_np, labels_np, params_np = mlp_data()
    x, labels = tv.constant(x_np), tv.constant(labels_np)
    params = [tv.Variable(p, name=n) for p, n in zip(params_np, ["w1", "b1", "w2", "b2", "w3",
                                                                  "b3"])]
    w1, b1, w2, b2, w3, b3 = params
    opt = tv.keras.optimizers.SGD(learning_rate=LR)

    def step():
        with tv.GradientTape(persistent=persistent) as tape:
            h = tv.nn.relu(tv.matmul(x, w1) + b1)
            h = tv.nn.relu(tv.matmul(h, w2) + b2)
            logits = tv.matmul(h, w3) + b3
            loss = tv.reduce_mean(
                tv.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params))
        return loss
    return step, params


def numpy_mlp():
    x, labels, params = mlp_data()
    rows = np.arange(BATCH)
    lr = np.float32(LR)

    def step():
        w1, b1, w2, b2, w3, b3 = params
        z1 = x @ w1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = np.maximum(z2, 0)
        logits = h2 @ w3 + b3
        m = logits.max(axis=1, keepdims=True)
        e = np.exp(logits - m)
        s = e.sum(axis=1, keepdims=True)
        loss = np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, labels])
        d = e / s
        d[rows, labels] -= 1
        d /= BATCH
        dw3, db3 = h2.T @ d, d.sum(axis=0)
        dz2 = (d @ w3.T) * (z2 > 0)
        dw2, db2 = h1.T @ dz2, dz2.sum(axis=0)
        dz1 = (dz2 @ w2.T) * (z1 > 0)
        dw1, db1 = x.T @ dz1, dz1.sum(axis=0)
        for p, g in zip(params, (dw1, db1, dw2, db2, dw3, db3)):
            p -= lr * g
        return loss
    return step, params


def check_mlp_agree():
    """Both implementations compute the same step (a wrong benchmark is worse than none)."""
    a, pa = tapeviz_mlp()
    b, pb = numpy_mlp()
    la, lb = float(a()), float(b())
    assert abs(la - lb) < 1e-4 * max(1, abs(lb)), (la, lb)
    for p, q in zip(pa, pb):
        np.testing.assert_allclose(p.numpy(), q, rtol=1e-3, atol=1e-5)


# --- W1: the scalar chain ------------------------------------------------------------------------
CHAIN = 1000


def tapeviz_chain(shape=()):
    x0 = tv.constant(np.full(shape, 0.5, np.float32) if shape else np.float32(0.5))

    def run():
        with tv.GradientTape() as tape:
            tape.watch(x0)
            y = x0
            for i in range(CHAIN):
                k = i % 3
                if k == 0:
                    y = y * 1.001
                elif k == 1:
                    y = y + 0.25
                else:
                    y = tv.sin(y)
        return tape.gradient(y, x0) if not shape else tape.gradient(tv.reduce_sum(y), x0)
    return run


def autograd_chain(shape=()):
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None

    def f(y):
        for i in range(CHAIN):
            k = i % 3
            if k == 0:
                y = y * np.float32(1.001)
            elif k == 1:
                y = y + np.float32(0.25)
            else:
                y = anp.sin(y)
        return y
    g = autograd.grad(f if not shape else (lambda y: anp.sum(f(y))))
    x0 = np.full(shape, 0.5, np.float32) if shape else np.float32(0.5)
    return lambda: g(x0)


def check_chain_agree(auto):
    a = float(tapeviz_chain()())
    if auto is not None:
        b = float(auto())
        assert abs(a - b) < 1e-3 * max(1.0, abs(b)), (a, b)


# --- W4: big matmuls ---------------------------------------------------------------------------------
N4 = 1024


def w4_data():
    rng = np.random.default_rng(4)
    return [(rng.normal(size=(N4, N4)) / np.sqrt(N4)).astype(np.float32) for _ in range(6)]


def tapeviz_w4():
    mats = [tv.constant(m) for m in w4_data()]

    def run():
        with tv.GradientTape() as tape:
            tape.watch(mats[0])
            y = mats[0]
            for m in mats[1:]:
                y = tv.matmul(y, m)
            loss = tv.reduce_sum(y)
        return tape.gradient(loss, mats[0])
    return run


def numpy_w4():
    mats = w4_data()

    def run():
        ys = [mats[0]]
        for m in mats[1:]:
            ys.append(ys[-1] @ m)
        loss = ys[-1].sum()
        g = np.ones_like(ys[-1])
        for m in reversed(mats[1:]):
            g = g @ m.T
        return loss, g
    return run


# --- W5: memory of the MLP step ---------------------------------------------------------------
def peak_bytes(step, warm=2):
    """tracemalloc peak of one warm step, above what was allocated before it."""
    import tracemalloc
    for _ in range(warm):
        step()
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        step()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


# --- W6: Hessian of a 50-parameter function ----------------------------------------------------
N6 = 50


def w6_data():
    rng = np.random.default_rng(6)
    return rng.normal(size=(N6, N6)) / np.sqrt(N6), rng.normal(size=N6)


def tapeviz_hessian():
    a_np, x_np = w6_data()
    a, x = tv.constant(a_np), tv.constant(x_np)

    def run():
        with tv.GradientTape() as outer:
            outer.watch(x)
            with tv.GradientTape() as inner:
                inner.watch(x)
                y = tv.reduce_sum(tv.tanh(tv.linalg.matvec(a, x)) if hasattr(tv.linalg, "matvec")
                                  else tv.tanh(tv.reshape(tv.matmul(a, tv.reshape(x, (N6, 1))),
                                                          (N6,)))) + tv.reduce_sum(tv.sin(x) * x)
            g = inner.gradient(y, x)
        return outer.jacobian(g, x)
    return run


def autograd_hessian():
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None
    a, x = w6_data()

    def f(v):
        return anp.sum(anp.tanh(anp.dot(a, v))) + anp.sum(anp.sin(v) * v)
    h = autograd.hessian(f)
    return lambda: h(x)


# --- events on / off -----------------------------------------------------------------------------
class _Events:
    """Turn a no-op subscriber on around each call."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self):
        with tv.events.subscribe(lambda event: None):
            return self.fn()


# --- the workloads by name (what a worker process builds) ------------------------------------
def _with_events(factory):
    def make():
        fn = factory()
        tv.events.subscribe(lambda event: None)     # on for the worker's whole life
        return fn
    return make


FACTORIES = {
    "tapeviz W3": lambda: tapeviz_mlp()[0],
    "numpy W3": lambda: numpy_mlp()[0],
    "tapeviz W1": tapeviz_chain,
    "autograd W1": autograd_chain,
    "tapeviz W2": lambda: tapeviz_chain((16,)),
    "autograd W2": lambda: autograd_chain((16,)),
    "tapeviz W6": tapeviz_hessian,
    "autograd W6": autograd_hessian,
    "tapeviz W3 events": _with_events(lambda: tapeviz_mlp()[0]),
    "tapeviz W1 events": _with_events(tapeviz_chain),
    "tapeviz W4": tapeviz_w4,
    "numpy W4": numpy_w4,
}


# --- import time ---------------------------------------------------------------------------------
def import_times(statement, runs):
    """Median wall time and median CPU time (user + sys) of whole `python -c statement`
    processes: interpreter start-up included, as a user's script pays it. Bytecode caches
    are allowed (a user's Python writes them; with PYTHONDONTWRITEBYTECODE set, every edited
    module would be compiled again on each import) and one warm-up run fills them."""
    import resource
    import subprocess
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", statement], check=True, env=env)
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", statement], check=True, env=env)
        walls.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


# --- main --------------------------------------------------------------------------------------
def blas_info():
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl missing (pip install threadpoolctl)"
    parts = []
    for lib in threadpool_info():
        parts.append(f"{lib.get('internal_api')} {lib.get('version')} "
                     f"({lib.get('architecture')}, {lib.get('threading_layer')}, "
                     f"{lib.get('user_api')})")
    return "; ".join(parts) or "none found"


def _ms(t):
    return f"{t * 1e3:9.2f} ms"


def _us(t):
    return f"{t * 1e6:9.2f} us"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (about 20 s)")
    parser.add_argument("--no-w4", action="store_true", help="skip the 1024x1024 matmuls")
    parser.add_argument("--profile", action="store_true",
                        help="also print a cProfile of tapeviz's MLP step")
    parser.add_argument("--in-process", action="store_true",
                        help="run both systems in this process (default: a worker process "
                             "each)")
    args = parser.parse_args(argv)
    pairs = 8 if args.quick else 25
    in_process = args.in_process

    def compare(name_a, name_b, n, warmup=2):
        if in_process:
            return paired(FACTORIES[name_a](), FACTORIES[name_b](), n, warmup)
        return paired_workers(name_a, name_b, n, warmup)
    try:
        from threadpoolctl import threadpool_limits
        limits = threadpool_limits(1)
    except ImportError:
        limits = None
        os.environ.setdefault("OMP_NUM_THREADS", "1")

    print(f"tapeviz {tv.__version__} benchmarks: Python {platform.python_version()}, NumPy "
          f"{np.__version__}, {platform.machine()} ({os.cpu_count()} CPUs), "
          f"{platform.processor() or platform.platform()}")
    print(f"BLAS: {blas_info()}  [limited to 1 thread: {limits is not None}]")
    print("times: CPU time (process_time), medians; ratio: median of interleaved paired "
          "ratios; " + ("both systems in this process\n" if in_process else
                         "each system in its own worker process\n"))

    check_mlp_agree()
    auto = autograd_chain()
    check_chain_agree(auto)
    rows = []

    # W3
    tv_step, _ = tapeviz_mlp()
    np_step, _ = numpy_mlp()
    t_tv, t_np, r = compare("tapeviz W3", "numpy W3", pairs)
    rows.append(("W3 MLP step 784-256-256-10, b=256", "tapeviz", _ms(t_tv), "NumPy",
                 _ms(t_np), f"{r:.3f}x", "<= 1.10x"))

    # W1
    chain = tapeviz_chain()
    if auto is not None:
        t_tv, t_ag, r = compare("tapeviz W1", "autograd W1", pairs)
        rows.append(("W1 scalar chain, per op (fwd+bwd)", "tapeviz", _us(t_tv / CHAIN),
                     "autograd", _us(t_ag / CHAIN), f"{r:.3f}x", "<= 0.50x"))
    else:
        t_tv = statistics.median(_times(chain, pairs))
        rows.append(("W1 scalar chain, per op (fwd+bwd)", "tapeviz", _us(t_tv / CHAIN),
                     "autograd", "  (missing)", "-", "<= 0.50x"))
        print("note: HIPS autograd is not installed (`./run.sh bench` installs the bench "
              "extra); its column is skipped\n")

    # W2
    chain16 = tapeviz_chain((16,))
    auto16 = autograd_chain((16,))
    if auto16 is not None:
        t_tv, t_ag, r = compare("tapeviz W2", "autograd W2", pairs)
        rows.append(("W2 chain on (16,) vectors, per op", "tapeviz", _us(t_tv / CHAIN),
                     "autograd", _us(t_ag / CHAIN), f"{r:.3f}x", "<= 0.70x"))

    # W6
    hess_tv, hess_ag = tapeviz_hessian(), autograd_hessian()
    if hess_ag is not None:
        np.testing.assert_allclose(hess_tv().numpy(), hess_ag(), rtol=1e-8, atol=1e-10)
        t_tv, t_ag, r = compare("tapeviz W6", "autograd W6", max(3, pairs // 3))
        rows.append(("W6 Hessian, 50 parameters", "tapeviz", _ms(t_tv), "autograd", _ms(t_ag),
                     f"{r:.3f}x", "<= 0.50x"))

    # W5
    m_np = peak_bytes(np_step)
    m_tv = peak_bytes(tv_step)
    m_ps = peak_bytes(tapeviz_mlp(persistent=True)[0])
    rows.append(("W5 MLP step memory (tracemalloc peak)", "tapeviz", f"{m_tv / 2**20:6.2f} MiB",
                 "NumPy", f"{m_np / 2**20:6.2f} MiB", f"{m_tv / m_np:.3f}x", "<= 1.30x"))
    rows.append(("W5 same, persistent tape", "tapeviz", f"{m_ps / 2**20:6.2f} MiB", "NumPy",
                 f"{m_np / 2**20:6.2f} MiB", f"{m_ps / m_np:.3f}x", "<= 1.60x"))

    # events on vs off
    t_on, t_off, r = (paired(_Events(tv_step), tv_step, pairs) if in_process else
                      paired_workers("tapeviz W3 events", "tapeviz W3", pairs))
    rows.append(("W3 MLP step, events on vs off", "on", _ms(t_on), "off", _ms(t_off),
                 f"{r:.3f}x", "<= 1.03x"))
    t_on, t_off, r = (paired(_Events(chain), chain, pairs) if in_process else
                      paired_workers("tapeviz W1 events", "tapeviz W1", pairs))
    rows.append(("W1 chain per op, events on vs off", "on", _us(t_on / CHAIN), "off",
                 _us(t_off / CHAIN), f"{r:.3f}x", "<= 1.20x"))

    # W4
    if not args.no_w4:
        t_tv, t_np, r = compare("tapeviz W4", "numpy W4", 3 if args.quick else 7, warmup=1)
        rows.append(("W4 5 matmuls 1024², grad wrt first", "tapeviz", _ms(t_tv), "NumPy",
                     _ms(t_np), f"{r:.3f}x", "<= 1.03x"))

    # import tapeviz: the whole process, next to Python with NumPy alone (the UI loads lazily)
    runs = 5 if args.quick else 11
    w_tv, c_tv = import_times("import tapeviz", runs)
    w_np, c_np = import_times("import numpy", runs)
    rows.append(("import tapeviz, whole process (wall)", "tapeviz", f"{w_tv:8.3f} s",
                 "numpy", f"{w_np:8.3f} s", f"{w_tv / w_np:.3f}x", "<= 0.25 s"))
    rows.append(("import tapeviz, whole process (CPU)", "tapeviz", f"{c_tv:8.3f} s",
                 "numpy", f"{c_np:8.3f} s", f"{c_tv / c_np:.3f}x", "<= 0.25 s"))

    header = ("workload", "", "time", "", "peer time", "ratio", "target")
    widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))

    if args.profile:
        profile_mlp(tv_step)
    return 0


def _times(fn, n):
    out = []
    for _ in range(n):
        t0 = clock()
        fn()
        out.append(clock() - t0)
    return out


def profile_mlp(step, steps=50):
    import cProfile
    import pstats
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(steps):
        step()
    prof.disable()
    print(f"\ncProfile of {steps} tapeviz MLP steps (top 25 by own time):")
    pstats.Stats(prof).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    sys.exit(main())
