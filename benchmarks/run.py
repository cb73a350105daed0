"""tapeviz's benchmarks: the engine beside NumPy, HIPS autograd, PyTorch and
TensorFlow, the recording writer, and the dashboard in headless chromium, in one table.

    ./run.sh bench                         # everything (installs the bench extra), ~3 minutes
    ./run.sh bench --tf                    # also installs tensorflow-cpu (bench-tf extra)
    .venv/bin/python benchmarks/run.py --quick --no-dashboard   # engine + writer, ~1.5 min
    .venv/bin/python benchmarks/run.py --engine-only --profile  # plus a cProfile of W3

Engine workloads (workloads.py, peers.py):
  W1  chain of 1,000 scalar float32 ops (mul, add, sin in turn) on a watched scalar, then its
      gradient: time per op, forward + backward; vs HIPS autograd, torch (0-d tensors),
      TensorFlow (eager GradientTape)
  W2  the same chain on float32 vectors of shape (16,); vs autograd and torch
  W3  MLP training step, batch 256, 784-256-256-10, relu, sparse softmax cross-entropy, SGD,
      float32: tapeviz (tv.keras.optimizers.SGD) vs hand-written NumPy backprop, torch and
      TensorFlow (manual SGD); each sample is five steps back to back (a training loop's
      steady state), its time divided by five
  W7  CNN training step, batch 64 of 28x28x1: 3x3 convolution with 16 filters, relu, 2x2
      max-pooling, dense to 10, sparse softmax cross-entropy, SGD, float32 (cnn_workloads.py):
      tapeviz (tv.nn.conv2d, tv.nn.max_pool2d) vs hand-written NumPy (im2col and one matmul);
      each sample is three steps
  W4  five 1024x1024 matmuls, reduce_sum, gradient wrt the first, vs NumPy
  W5  tracemalloc peak of one warm W3 step (non-persistent and persistent tape) vs NumPy
  W6  Hessian of a 50-parameter function (jacobian of a gradient under nested tapes) vs
      autograd.hessian and torch.autograd.functional.hessian
  events on/off: W1 and W3 with a no-op subscriber vs none; W1 with a subscriber of
  gradient_finished only (subscribe(kinds=...)) vs none (each one workload in this
  process, the subscriber on around every other sample); W3 recording every event to a
  file vs none, and with the default (flight) policy vs none (in two workers)
  W1 at the top level of a script after 1,000 other lines vs in a function (the cost of
      source lines in large code objects)
  A/A  W3 and W1 each against itself in a second worker: the ratio and spread that where a
      worker landed alone gives (a target closer to 1 than that cannot be resolved)
  import   `python -c "import tapeviz"`, whole process, beside `python -c "import numpy"`
Then recording_throughput.py, flight_recording.py (three training loops recorded with the
default policy, with every event and not at all: ratios and KiB a step), diff_speed.py (tv.diff of two 1,000-op recordings against
opening one) and dashboard.py run as subprocesses (``--json``) and their
numbers join the table. Method: see timing.py (a worker process per system, one thread,
CPU time, round-robin samples of one run, or of W3's five steps, medians of per-round
ratios). Every peer's results are
checked against tapeviz's before it is timed. Nothing here asserts a timing.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import report  # noqa: E402
import timing  # noqa: E402
from report import row  # noqa: E402

PEER_NAMES = {"numpy": "NumPy", "autograd": "autograd", "torch": "torch",
              "tensorflow": "TF eager"}


class Engine:
    """Runs the engine comparisons, in worker processes or (--in-process) here."""

    def __init__(self, in_process, skip=()):
        import workloads
        self.w = workloads
        self.in_process = in_process
        self.skip = set(skip)
        self.skipped, self.disagreed = [], []
        self.infos = {}              # peer -> its worker's versions and BLAS, once

    def _start(self, name):
        repeat = self.w.runs_per_sample(name)
        if self.in_process:
            fn = self.w.FACTORIES[name]()
            if fn is None:
                raise timing.Unavailable(name)
            run = timing.timed_here(fn, repeat)
            run.check = lambda: timing.to_numpy(getattr(fn, "check", fn)())
            run.close = lambda: None
            return run
        return timing.Worker(self.w.FACTORIES, name, repeat)

    def compare(self, workload, systems, rounds, warmup=2):
        """Median CPU time of each available system, its median per-round ratio (tapeviz
        over it) and that ratio's spread (quartiles), after checking it computes what tapeviz
        computes. {system: (t, ratio, spread)}"""
        started = []
        try:
            for s in systems:
                if s in self.skip and s != systems[0]:
                    continue
                try:
                    started.append((s, self._start(f"{s} {workload}")))
                except timing.Unavailable:
                    if s not in self.skipped:
                        self.skipped.append(s)
            for s, w in started:
                if s not in self.infos and hasattr(w, "info"):
                    self.infos[s] = w.info()
            key = workload.split()[0]
            rtol, atol = self.w.TOLERANCES.get(key, (1e-3, 1e-5))
            ref = started[0][1].check()
            ok = [started[0]]
            for s, w in started[1:]:
                err = timing.agree(ref, w.check(), rtol, atol)
                if err is None:
                    ok.append((s, w))
                else:
                    self.disagreed.append(f"{s} {workload}: {err}")
                    print(f"ERROR: {s} disagrees with tapeviz on {workload} ({err}); not timed",
                          file=sys.stderr)
            times, ratios, spreads = timing.round_robin([w for _, w in ok], rounds, warmup)
            return {s: (t, r, q) for (s, _), t, r, q in zip(ok, times, ratios, spreads)}
        finally:
            for _, w in started:
                w.close()


def _in_workers(w, names, rounds):
    """`timing.round_robin` over one worker process per workload name, closed after."""
    workers = [timing.Worker(w.FACTORIES, k, w.runs_per_sample(k)) for k in names]
    try:
        return timing.round_robin(workers, rounds)
    finally:
        for worker in workers:
            worker.close()


#: rounds of the events on/off rows, --quick too: with 8, one W3 run's ratio moved from
#: 1.03x to 1.08x between runs of the same code; with 40 (2 s), 1.03x to 1.05x
EVENT_ROUNDS = 40


def engine_rows(args):
    e = Engine(args.in_process, skip=args.skip)
    w = e.w
    rounds = 8 if args.quick else 25
    rows = []
    us = lambda t: t / w.CHAIN * 1e6  # noqa: E731  (per op)
    ms = lambda t: t * 1e3  # noqa: E731

    def add(name, res, unit, conv, targets):
        """A row per peer: tapeviz's median (from that same round-robin run), the peer's,
        and the median of the per-round ratios."""
        t0 = res["tapeviz"][0]
        for s in [s for s in res if s != "tapeviz"] or [None]:
            if s is None:
                rows.append(row("engine", name + " (no peer available)", conv(t0), unit))
                continue
            t, r, q = res[s]
            rows.append(row("engine", f"{name}, vs {PEER_NAMES.get(s, s)}", conv(t0), unit,
                            peer=PEER_NAMES.get(s, s), peer_value=conv(t), ratio=r,
                            target=targets.get(s), spread=q))

    r = e.compare("W1", ["tapeviz", "autograd", "torch", "tensorflow"], rounds)
    # (0.60x: one readable implementation, no C twins, costs W1 some speed; accepted)
    add("W1 chain of 1,000 scalar ops, per op (fwd+bwd)", r, "us", us,
        {"autograd": ("<=", 0.60, "ratio"), "torch": ("<", 1.00, "ratio")})
    r = e.compare("W2", ["tapeviz", "autograd", "torch"], rounds)
    add("W2 the chain on (16,) vectors, per op", r, "us", us,
        {"autograd": ("<=", 0.70, "ratio"), "torch": ("<", 1.00, "ratio")})
    r = e.compare("W3", ["tapeviz", "numpy", "torch", "tensorflow"], rounds)
    add("W3 MLP step 784-256-256-10, batch 256", r, "ms", ms, {"numpy": ("<=", 1.10, "ratio")})
    r = e.compare("W7", ["tapeviz", "numpy"], rounds)
    add("W7 CNN step, 3x3x16 conv on 28x28x1, max-pool, dense, batch 64", r, "ms", ms,
        {"numpy": ("<=", 1.30, "ratio")})
    training_rows(e, args, max(5, rounds // 2), rows)
    r = e.compare("W6", ["tapeviz", "autograd", "torch"], max(3, rounds // 3))
    add("W6 Hessian, 50 parameters", r, "ms", ms, {"autograd": ("<=", 0.50, "ratio")})

    # W5: memory, in this process
    m_np = timing.peak_bytes(w.numpy_mlp()) / 2**20
    m_tv = timing.peak_bytes(w.tapeviz_mlp()) / 2**20
    m_ps = timing.peak_bytes(w.tapeviz_mlp(persistent=True)) / 2**20
    rows.append(row("engine", "W5 MLP step memory (tracemalloc peak), vs NumPy", m_tv, "MiB",
                    peer="NumPy", peer_value=m_np, ratio=m_tv / m_np,
                    target=("<=", 1.30, "ratio")))
    rows.append(row("engine", "W5 the same, persistent tape", m_ps, "MiB", peer="NumPy",
                    peer_value=m_np, ratio=m_ps / m_np, target=("<=", 1.60, "ratio")))

    # where the user's code is: the chain at the end of a 1,000-line script vs in a function
    if args.in_process:
        pair = [timing.timed_here(w.FACTORIES[k]()) for k in ("tapeviz W1 long script",
                                                             "tapeviz W1")]
        (t_long, t_short), (_, ratio), (_, spread) = timing.round_robin(pair, rounds)
    else:
        (t_long, t_short), (_, ratio), (_, spread) = _in_workers(
            w, ("tapeviz W1 long script", "tapeviz W1"), rounds)
    rows.append(row("engine", "W1 at the top level of a 1,000-line script vs in a function",
                    us(t_long), "us", label="script", peer="function", peer_value=us(t_short),
                    ratio=ratio, spread=spread))

    # the method's own floor: one workload in two workers (or twice here) is not 1.000x, and
    # a ratio target closer to 1 than this spread cannot be told from where a worker landed
    for wl, unit, conv in (("W3", "ms", ms), ("W1", "us", us)):
        if args.in_process:
            pair = [timing.timed_here(w.FACTORIES[f"tapeviz {wl}"](), w.runs_per_sample(wl))
                    for _ in range(2)]
            (t_a, t_b), (_, ratio), (_, spread) = timing.round_robin(pair, rounds)
        else:
            (t_a, t_b), (_, ratio), (_, spread) = _in_workers(w, [f"tapeviz {wl}"] * 2, rounds)
        where = "twice in this process" if args.in_process else "in another worker"
        rows.append(row("engine", f"{wl} against itself {where} (the method's floor)",
                        conv(t_a), unit, label="a", peer="b", peer_value=conv(t_b),
                        ratio=ratio, spread=spread, floor=True))

    # events on vs off
    for wl, kinds, name, unit, conv, limit in (
            ("W3", None, "W3 MLP step, events on vs off", "ms", ms, 1.05),
            ("W1", None, "W1 chain per op, events on vs off", "us", us, 1.20),
            ("W1", w.GRADIENT_KINDS, "W1 with a subscriber of gradient_finished only vs off",
             "us", us, None),
            ("W3", "recording", "W3 MLP step, recording every event to a file vs off", "ms",
             ms, None),
            ("W3", "flight", "W3 MLP step, default (flight) recording vs off", "ms", ms,
             1.05)):
        if kinds in ("recording", "flight"):
            if args.in_process:
                continue     # a recording takes every event of its process: off's too
            (t_on, t_off), (_, ratio), (_, spread) = _in_workers(
                w, (f"tapeviz {wl} {kinds}", f"tapeviz {wl}"), rounds)
        else:
            # One workload in this process, its no-op subscriber on around every other
            # sample: the ratio holds the events' cost alone, not where two workers' arrays
            # landed (their A/A floor above moves 1-2%, as much as the cost measured); and
            # EVENT_ROUNDS at least, as a target 5% above 1 needs (a W3 round is 40 ms)
            sample = timing.timed_here(w.FACTORIES[f"tapeviz {wl}"](), w.runs_per_sample(wl))
            (t_on, t_off), (_, ratio), (_, spread) = timing.round_robin(
                [w.Events(sample, kinds), sample], max(rounds, EVENT_ROUNDS))
        rows.append(row("engine", name, conv(t_on), unit, label="on", peer="off",
                        peer_value=conv(t_off), ratio=ratio, spread=spread,
                        target=("<=", limit, "ratio") if limit else None))

    if not args.no_w4:
        r = e.compare("W4", ["tapeviz", "numpy"], 3 if args.quick else 7, warmup=1)
        add("W4 5 matmuls 1024x1024, grad wrt the first", r, "ms", ms,
            {"numpy": ("<=", 1.03, "ratio")})

    runs = 5 if args.quick else 11
    w_tv, c_tv = timing.import_times("import tapeviz", runs)
    w_np, c_np = timing.import_times("import numpy", runs)
    rows.append(row("engine", f"import tapeviz, whole process, wall ({runs} runs)", w_tv, "s",
                    peer="import numpy", peer_value=w_np, target=("<=", 0.25, "value")))
    rows.append(row("engine", "import tapeviz, whole process, CPU", c_tv, "s",
                    peer="import numpy", peer_value=c_np, target=("<=", 0.25, "value")))
    if args.profile:
        profile_mlp(w.tapeviz_mlp())
    return rows, e


def training_rows(e, args, rounds, rows):
    """E1: model.fit against the hand-written GradientTape loop; E2: a tf.data pipeline
    against NumPy slicing feeding the same W3 steps (see training_loops.py)."""
    w = e.w
    ms = lambda t: t * 1e3  # noqa: E731
    r = e.compare("E1", ["fit", "loop"], rounds, warmup=1)
    if "loop" in r:
        t, ratio, spread = r["loop"]
        rows.append(row("engine", "E1 model.fit epoch of 8 W3 steps vs the GradientTape loop",
                        ms(r["fit"][0]), "ms", label="fit", peer="loop", peer_value=ms(t),
                        ratio=ratio, spread=spread, target=("<=", 1.05, "ratio")))
    pair = ("tf.data E2", "numpy E2")
    if args.in_process:
        (t_a, t_b), (_, ratio), (_, spread) = timing.round_robin(
            [timing.timed_here(w.FACTORIES[k]()) for k in pair], rounds, 1)
    else:
        (t_a, t_b), (_, ratio), (_, spread) = _in_workers(w, pair, rounds)
    rows.append(row("engine", "E2 W3 epoch fed by tf.data (slices, shuffle, batch) vs NumPy",
                    ms(t_a), "ms", label="tf.data", peer="NumPy", peer_value=ms(t_b),
                    ratio=ratio, spread=spread, target=("<=", 1.05, "ratio")))


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


def sub_benchmark(script, extra_args, tmp, timeout, problems):
    """Run another benchmark script with --json; its output streams through. Returns its
    numbers. If it fails or outlives `timeout` seconds (its process group is then killed:
    chromium and servers included), what it printed as one-line JSON objects (dashboard.py
    prints each result so) is kept, and the trouble goes into `problems`."""
    import signal
    import threading
    out = os.path.join(tmp, os.path.basename(script) + ".json")
    print(f"\n--- {' '.join([script, *extra_args])} ---", flush=True)
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, script), "--json", out,
                             *extra_args], cwd=os.path.dirname(HERE), stdout=subprocess.PIPE,
                            text=True, start_new_session=True)
    printed = []

    def relay():
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            if line.startswith("{"):
                try:
                    printed.append(json.loads(line))
                except ValueError:
                    pass
    reader = threading.Thread(target=relay, daemon=True)
    reader.start()
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        code = f"killed after {timeout} s"
    reader.join(timeout=10)
    if code == 0 and os.path.exists(out):
        with open(out) as fh:
            return json.load(fh)
    kept = f"; the {len(printed)} results it printed are kept" if printed else ""
    problems.append(f"{script} failed (exit {code}): its rows may be missing{kept}")
    print(f"ERROR: {problems[-1]}", file=sys.stderr)
    return printed or None


def header_lines(limits):
    import tapeviz as tv
    return [f"tapeviz {tv.__version__} benchmarks, "
            f"Python {platform.python_version()}, NumPy {np.__version__}",
            f"machine: {timing.machine_line()}",
            f"BLAS: {timing.blas_info()}  [limited to 1 thread: {limits is not None}]"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="fewer samples, and the dashboard without its 500-op group")
    p.add_argument("--engine-only", action="store_true",
                   help="only the engine workloads (no recording writer, no dashboard)")
    p.add_argument("--no-dashboard", action="store_true", help="skip the browser measures")
    p.add_argument("--no-recording", action="store_true", help="skip the recording writer")
    p.add_argument("--no-diff", action="store_true", help="skip diffing two recordings")
    p.add_argument("--no-w4", action="store_true", help="skip the 1024x1024 matmuls")
    p.add_argument("--skip", nargs="*", default=[], metavar="PEER",
                   choices=["numpy", "autograd", "torch", "tensorflow"],
                   help="leave these peers out (e.g. --skip tensorflow)")
    p.add_argument("--tf", action="store_true",
                   help="(./run.sh bench --tf installs tensorflow-cpu first; TensorFlow is "
                        "used whenever it imports)")
    p.add_argument("--profile", action="store_true", help="also a cProfile of the W3 step")
    p.add_argument("--in-process", action="store_true",
                   help="run every system in this process (default: a worker process each)")
    p.add_argument("--json", default=None, help="also write all rows to this file")
    p.add_argument("--write-docs", default=None, metavar="MD",
                   help="also put the table into MD's figures block (./run.sh bench passes "
                        "docs/performance.md)")
    p.add_argument("--timeout", type=float, default=900,
                   help="seconds each of the two other scripts may take (default 900)")
    args = p.parse_args(argv)

    limits = timing.pin_threads()
    head = header_lines(limits)
    print("\n".join(head))
    print("times: CPU time, medians; ratio: median of round-robin per-round ratios (spread: "
          "their middle half, 25th-75th percentile); "
          + ("every system in this process" if args.in_process else
             "each system in its own worker process") + "\n", flush=True)

    rows, engine = engine_rows(args)
    print(report.table(rows), flush=True)          # the engine part, in case a later part fails
    recording = dashboard = None
    problems = []
    with tempfile.TemporaryDirectory(prefix="tapeviz-bench-") as tmp:
        if not (args.engine_only or args.no_recording):
            recording = sub_benchmark("recording_throughput.py", [], tmp, args.timeout,
                                      problems)
            recording = recording if isinstance(recording, dict) else None
            rows += report.recording_rows(recording or {})
        if not (args.engine_only or args.no_recording):
            flight = sub_benchmark("flight_recording.py", ["--rounds", "3"] if args.quick
                                   else [], tmp, args.timeout, problems)
            rows += report.flight_rows(flight if isinstance(flight, dict) else {})
        if not (args.engine_only or args.no_diff):
            diff = sub_benchmark("diff_speed.py", ["--rounds", "5"] if args.quick else [],
                                 tmp, args.timeout, problems)
            rows += report.diff_rows(diff if isinstance(diff, dict) else {})
        if not (args.engine_only or args.no_dashboard):
            dashboard = sub_benchmark("dashboard.py",
                                      ["--big-group", "0"] if args.quick else [], tmp,
                                      args.timeout, problems)
            rows += report.dashboard_rows(dashboard or [])

    print("\n" + "=" * 100)
    print("\n".join(head))
    print(f"at the end: {timing.load_line()}")
    for s in ("autograd", "torch", "tensorflow"):
        if s in engine.infos:
            print(f"{s} workers: {engine.infos[s]}")
    print(report.table(rows))
    notes = report.extras(recording, dashboard)
    for s in engine.skipped:
        notes.append(f"{s}: not installed, skipped ("
                     + ("./run.sh bench --tf installs tensorflow-cpu" if s == "tensorflow"
                        else "./run.sh bench installs the bench extra") + ")")
    for s in args.skip:
        notes.append(f"{s}: left out (--skip)")
    notes += [f"DISAGREES, not timed: {d}" for d in engine.disagreed]
    notes += [f"ERROR: {p}" for p in problems]
    if notes:
        print("\n" + "\n".join(notes))
    if args.write_docs:
        command = "benchmarks/run.py " + " ".join(a for a in (argv or sys.argv[1:])
                                                   if not a.startswith("--write-docs"))
        run_head = [*head, f"at the end: {timing.load_line()}", f"command: {command.strip()}"]
        report.write_figures(args.write_docs, report.markdown(run_head, rows, notes))
        print(f"\nwrote the figures into {args.write_docs}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"header": head, "rows": rows, "notes": notes}, fh, indent=1)
    return 1 if engine.disagreed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
