"""Instructions per run of a workload, counted by valgrind's callgrind (not a test).

    .venv/bin/python benchmarks/instructions.py "tapeviz W1" "tapeviz W1 events"
    .venv/bin/python benchmarks/instructions.py "tapeviz W1" --tree /tmp/before   # another checkout

CPU time on a shared VM moves 5-30% from run to run; an instruction count does not (with
``PYTHONHASHSEED=0`` it repeats within about 1%), so a small change to the engine can be
compared before and after. Each workload (a name of ``workloads.FACTORIES``) runs in a fresh
Python under callgrind twice, ``--few`` and ``--many`` times after building it; the difference
divided by the extra runs is what one run costs, start-up and imports excluded. An
instruction count ignores caches and branch prediction: a change that moves memory
(W3's matmuls) must still be timed with ``benchmarks/run.py``. Needs ``valgrind`` on the PATH
(``apt-get install valgrind``); prints numbers only.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = """
import sys
sys.path[:0] = [{tree!r}, {bench!r}]
import workloads
run = workloads.FACTORIES[{name!r}]()
if run is None:
    sys.exit("{name}: its package is not installed")
for _ in range({n}):
    run()
"""


def count(name: str, n: int, tree: str) -> int:
    """Instructions (callgrind's "I refs") of a fresh Python that builds ``name`` and runs it
    ``n`` times."""
    code = CHILD.format(tree=tree, bench=os.path.join(tree, "benchmarks"), name=name, n=n)
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1",
               MKL_NUM_THREADS="1")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, env=env)
    found = re.search(r"refs:\s*([\d,]+)", out.stderr)
    if out.returncode != 0 or not found:
        raise SystemExit(f"{name}: callgrind failed (exit {out.returncode}):\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("workloads", nargs="+", help='names in workloads.FACTORIES, e.g. "tapeviz W1"')
    ap.add_argument("--tree", default=os.path.dirname(HERE),
                    help="the checkout whose tapeviz and benchmarks/ to run (default: this one)")
    ap.add_argument("--few", type=int, default=3)
    ap.add_argument("--many", type=int, default=13)
    args = ap.parse_args(argv)
    if args.many <= args.few:
        ap.error("--many must be larger than --few")
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
        return 2
    tree = os.path.abspath(args.tree)
    print(f"tree: {tree}")
    for name in args.workloads:
        per_run = (count(name, args.many, tree) - count(name, args.few, tree)) / (args.many - args.few)
        print(f"{name:32s} {per_run / 1e6:10.2f} M instructions per run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
