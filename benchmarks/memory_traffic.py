"""Where W3's memory goes: minor page faults a step and resident memory, for the hand-written
NumPy step, tapeviz's, and tapeviz's while listening or recording (not a test).

    .venv/bin/python benchmarks/memory_traffic.py [--steps 150] [--tree OTHER_CHECKOUT]

Each mode runs in a fresh process (resident memory cannot be told apart within one): W3
(workloads.py: 784-256-256-10, batch 256, SGD) runs 20 steps, then ``--steps`` more are
counted. A minor page fault is the kernel handing the process a page it never had, zeroed:
what happens when the allocator gives back memory (a heap trimmed, a large block unmapped)
and the next step asks for it again. Counts of faults and pages do not move with the load of a
shared machine as times do, so they can be compared before and after a change (``--tree``
runs another checkout's tapeviz). The system CPU time a step is printed beside them; it is
mostly the faults' cost, and is noisy. Modes: ``numpy``; ``off``; ``listen`` (a subscriber
that drops every event); ``default`` (``tv.record(path)``, the flight policy's defaults: its
ring keeps the last calls' arrays alive); ``no-ring`` (``flight={"before": 0}``); ``full``
(``full=True``). Instructions are counted by ``instructions.py``, times by ``run.py`` and
``flight_recording.py``.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = ("numpy", "off", "listen", "default", "no-ring", "full")

CHILD = """
import os, resource, sys, tempfile
sys.path[:0] = [{tree!r}, {bench!r}]
import tapeviz as tv
import workloads
mode, steps = {mode!r}, {steps}
step = workloads.numpy_mlp() if mode == "numpy" else workloads.tapeviz_mlp()
folder = tempfile.mkdtemp(prefix="tapeviz-memory-")
path = os.path.join(folder, "run.tvz")
options = {{"default": {{}}, "no-ring": {{"flight": {{"before": 0}}}}, "full": {{"full": True}}}}
recording = tv.record(path, **options[mode]) if mode in options else None
if mode == "listen":
    tv.events.subscribe(lambda event: None)
for _ in range(20):          # past the recording's first calls kept in full
    step()
before = resource.getrusage(resource.RUSAGE_SELF)
for _ in range(steps):
    step()
after = resource.getrusage(resource.RUSAGE_SELF)
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
kib = lambda key: int(status[key].split()[0])
print(mode, (after.ru_minflt - before.ru_minflt) / steps, kib("VmRSS") / 1024,
      kib("VmHWM") / 1024, (after.ru_stime - before.ru_stime) / steps * 1e6)
if recording is not None:
    recording.close()
"""


def measure(mode: str, steps: int, tree: str) -> list:
    """[faults a step, resident MiB at the end, peak resident MiB, system us a step]."""
    code = CHILD.format(tree=tree, bench=os.path.join(tree, "benchmarks"), mode=mode,
                        steps=steps)
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(f"{mode}: failed (exit {out.returncode}):\n{out.stderr[-2000:]}")
    return [float(x) for x in out.stdout.split()[1:]]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=150)
    ap.add_argument("--tree", default=os.path.dirname(HERE),
                    help="the checkout whose tapeviz and benchmarks/ to run (default: this one)")
    ap.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    args = ap.parse_args(argv)
    tree = os.path.abspath(args.tree)
    print(f"tree: {tree}; W3, {args.steps} steps after 20, one process per mode; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"  {'mode':8s} {'faults/step':>11s} {'resident':>10s} {'peak':>10s} {'sys/step':>9s}")
    for mode in args.modes:
        faults, rss, peak, sys_us = measure(mode, args.steps, tree)
        print(f"  {mode:8s} {faults:11.1f} {rss:6.1f} MiB {peak:6.1f} MiB {sys_us:6.0f} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
