"""How benchmarks/run.py takes its numbers.

Each system runs in its own long-lived worker process (forked from the parent, which never
imports a peer framework), pinned to one BLAS/OpenMP thread (threadpoolctl, the OMP/MKL/
OpenBLAS environment variables, and torch's or TensorFlow's own thread settings in their
factories). A worker builds its workload once, then runs it on request and answers with the
CPU time the run took in that process (time.process_time: all of its threads). Samples are
taken round-robin, one run of each system per round, the order rotating from round to round;
each figure is the median time and the median of the per-round ratios to the first system.
Nothing here asserts a timing.
"""
from __future__ import annotations

import gc
import os
import platform
import statistics
import sys
import time

clock = time.process_time

THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
               "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS")


def pin_threads():
    """One thread for every BLAS/OpenMP pool loaded now, and for any loaded later that reads
    the usual environment variables. Returns threadpoolctl's limiter (or None)."""
    for var in THREAD_VARS:
        os.environ[var] = "1"
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(1)


def chain(y, sin, length):
    """W1 and W2's chain, the same code for tapeviz, PyTorch and TensorFlow: multiply, add
    and sin in turn (Python floats beside the tensor, as tutorial code writes them)."""
    for i in range(length):
        k = i % 3
        if k == 0:
            y = y * 1.001
        elif k == 1:
            y = y + 0.25
        else:
            y = sin(y)
    return y


def mlp_loss(m, x, labels, params):
    """W3's forward pass, the same code for tapeviz and TensorFlow (``m`` is ``tv`` or ``tf``:
    tapeviz imitates TensorFlow's API): relu, relu, sparse softmax cross-entropy."""
    w1, b1, w2, b2, w3, b3 = params
    h = m.nn.relu(m.matmul(x, w1) + b1)
    h = m.nn.relu(m.matmul(h, w2) + b2)
    logits = m.matmul(h, w3) + b3
    return m.reduce_mean(
        m.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


def numpy_softmax_cross_entropy(logits, labels):
    """The hand-written NumPy steps' loss: mean sparse softmax cross-entropy of ``logits``
    (batch, classes) against integer ``labels``, and its gradient with respect to ``logits``."""
    import numpy as np

    rows = np.arange(logits.shape[0])
    m = logits.max(axis=1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    loss = np.mean(np.log(s[:, 0]) + m[:, 0] - logits[rows, labels])
    d = e / s
    d[rows, labels] -= 1
    d /= logits.shape[0]
    return loss, d


class Unavailable(RuntimeError):
    """A peer that is not installed (its factory returned None)."""


def to_numpy(value):
    """A workload's result as NumPy, whatever the framework (for the agreement checks)."""
    import numpy as np
    if isinstance(value, (list, tuple)):
        return [to_numpy(v) for v in value]
    if hasattr(value, "detach"):                 # torch
        return value.detach().cpu().numpy()
    if hasattr(value, "numpy"):                  # tapeviz, TensorFlow
        return np.asarray(value.numpy())
    return np.asarray(value)


def update_check(step, params):
    """A training step's check: the loss of one step and what it changed in each parameter
    (compared as updates, not as parameters, which the initial values would dominate)."""
    import numpy as np

    def check():
        before = [np.array(to_numpy(p), copy=True) for p in params]
        loss = to_numpy(step())
        return [loss, *[to_numpy(p) - b for p, b in zip(params, before)]]
    return check


def agree(a, b, rtol, atol):
    """Whether b matches a within rtol of its norm (plus atol): norm-wise, so that a float32
    ReLU mask flipped by another BLAS's rounding (one sample, one unit) is not a mismatch,
    while a wrong gradient is. Returns an error message or None."""
    import numpy as np
    pairs = zip(a, b) if isinstance(a, list) else [(a, b)]
    for i, (x, y) in enumerate(pairs):
        x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
        if x.shape != y.shape:
            return f"result {i}: shape {y.shape} != {x.shape}"
        err, scale = float(np.linalg.norm(x - y)), float(np.linalg.norm(x))
        if not err <= rtol * scale + atol:
            return f"result {i}: |difference| {err:.3g} vs |tapeviz's| {scale:.3g}"
    return None


class Worker:
    """One system in its own long-lived process (fork). Each sample runs the workload
    ``repeat`` times back to back and answers with the CPU time of one run (see
    `timed_here`)."""

    def __init__(self, factories, name, repeat=1):
        import multiprocessing as mp
        ctx = mp.get_context("fork")
        self.name = name
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child, factories, name, repeat),
                                daemon=True)
        self.proc.start()
        ok = self.conn.recv()
        if ok == "unavailable":
            self.close()
            raise Unavailable(name)
        if ok != "ready":
            self.close()
            raise RuntimeError(f"benchmark worker {name!r} failed: {ok}")

    def _ask(self, msg):
        self.conn.send(msg)
        out = self.conn.recv()
        if isinstance(out, str):
            raise RuntimeError(f"{self.name}: {out}")
        return out

    def __call__(self):
        return self._ask("run")

    def check(self):
        """The workload's checked result (a fresh run: call before timing)."""
        return self._ask("check")[0]

    def info(self):
        """The worker's framework version and the BLAS/OpenMP libraries it has loaded."""
        return self._ask("info")[0]

    def close(self):
        try:
            self.conn.send("stop")
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=10)
        if self.proc.is_alive():
            self.proc.kill()


def _worker_main(conn, factories, name, repeat=1):
    pin_threads()
    try:
        fn = factories[name]()
        if fn is None:
            conn.send("unavailable")
            return
        conn.send("ready")
    except Exception as exc:  # reported to the parent
        conn.send(f"{type(exc).__name__}: {exc}")
        return
    while True:
        msg = conn.recv()
        try:
            if msg == "run":
                gc.collect()
                t0 = clock()
                for _ in range(repeat):
                    fn()
                conn.send((clock() - t0) / repeat)
            elif msg == "check":
                conn.send((to_numpy(getattr(fn, "check", fn)()),))
            elif msg == "info":
                conn.send((worker_info(),))
            else:
                return
        except Exception as exc:
            conn.send(f"{type(exc).__name__}: {exc}")


def timed_here(fn, repeat=1):
    """`fn` as a callable that runs it in this process ``repeat`` times back to back and
    returns the CPU time of one run. A sample of several runs is a loop's steady state: one
    short run alone (a 4 ms training step) starts from caches that the `gc.collect()` before
    it has just walked through, and its time moves with where that walk left things."""
    def run():
        gc.collect()
        t0 = clock()
        for _ in range(repeat):
            fn()
        return (clock() - t0) / repeat
    return run


def round_robin(fns, rounds, warmup=2):
    """Run each callable (a Worker, or `timed_here(fn)`: each returns the CPU time of one
    run) once per round, the order rotating and reversing every other cycle; returns the
    median times, the medians of the per-round ratios of the first to each (the first's is
    1), and their spreads: the (25th, 75th) percentiles of those per-round ratios, so a
    reader sees how far run-to-run noise moves a ratio before trusting a verdict on it."""
    for _ in range(warmup):
        for f in fns:
            f()
    n = len(fns)
    times = [[] for _ in fns]
    for k in range(rounds):
        order = [(k + j) % n for j in range(n)]
        if (k // n) % 2:
            order.reverse()
        for i in order:
            times[i].append(fns[i]())
    medians = [statistics.median(t) for t in times]
    per_round = [[a / b if b > 0 else float("nan") for a, b in zip(times[0], t)]
                 for t in times]
    ratios = [statistics.median(r) for r in per_round]
    spreads = [quartiles(r) for r in per_round]
    return medians, ratios, spreads


def quartiles(values):
    """(25th, 75th) percentiles (statistics.quantiles' exclusive method); the one value
    twice when there is only one."""
    values = list(values)
    if len(values) < 2:
        return (values[0], values[0]) if values else (float("nan"), float("nan"))
    q1, _, q3 = statistics.quantiles(values, n=4)
    return q1, q3


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


# --- the machine ---------------------------------------------------------------------------------
def blas_info():
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "threadpoolctl missing (pip install threadpoolctl)"
    parts = []
    for lib in threadpool_info():
        parts.append(f"{lib.get('internal_api')} {lib.get('version')} "
                     f"({lib.get('architecture')} kernel, {lib.get('num_threads')} thread(s), "
                     f"{lib.get('user_api')})")
    return "; ".join(parts) or "none found"


def worker_info():
    from importlib import metadata
    versions = []
    for m in ("torch", "tensorflow", "autograd"):
        if m in sys.modules:
            try:
                versions.append(f"{m} {sys.modules[m].__version__}")
            except AttributeError:
                versions.append(f"{m} {metadata.version(m)}")
    return ", ".join(versions + [f"BLAS: {blas_info()}"])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_line():
    try:
        load = "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "load average unknown"
    return f"{load}, {time.strftime('%Y-%m-%d %H:%M %Z')}"


def machine_line():
    return f"{cpu_model()}, {os.cpu_count()} CPUs ({platform.machine()}), {load_line()}"
