"""Diffing two recordings against opening one (not a test): ``tapeviz diff``'s work beside
``tapeviz serve``'s parse and ingest.

    .venv/bin/python benchmarks/diff_speed.py [--ops 1000] [--rounds 9] [--json out.json]

Records two runs of a chain of ``--ops`` scalar ops in name scopes of 50 (the dashboard
benchmark's program, one tape and its gradient), the second with one factor changed halfway
along, then times in this process, round-robin (timing.py): *open* = ``tv.load_recording``
and a dashboard ``Store`` ingesting it, as ``tapeviz serve`` does; *diff* = ``tv.diff`` of
the two files (both read, aligned, compared). Prints CPU-time medians and the median of the
per-round ratios diff/open (the target is at most 2: reading two files is 2 already).
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import timing  # noqa: E402


def record_chain(path, n, changed_at=None, scope=50):
    import tapeviz as tv
    with tv.record(str(path)):
        x = tv.Variable(1.0, name="x")
        with tv.GradientTape() as tape:
            y = x
            for b in range(max(n // scope, 1)):
                with tv.name_scope(f"layer{b}"):
                    for i in range(min(scope, n)):
                        k = b * scope + i
                        factor = 1.0002 if k == changed_at else 1.0001
                        y = y * factor if i % 2 else y + 0.001
        tape.gradient(y, x)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ops", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)
    import tapeviz as tv
    from tapeviz.ui.store.store import Store
    with tempfile.TemporaryDirectory(prefix="tapeviz-diff-") as tmp:
        a, b = pathlib.Path(tmp) / "a.tvz", pathlib.Path(tmp) / "b.tvz"
        record_chain(a, args.ops)
        record_chain(b, args.ops, changed_at=args.ops // 2 + 1)
        result = tv.diff(a, b)
        assert result.differ and len(result.pairs) == args.ops, result   # did the real work

        def open_one():
            Store().ingest(tv.load_recording(a))

        def diff_two():
            tv.diff(a, b)
        medians, ratios, spreads = timing.round_robin(
            [timing.timed_here(diff_two), timing.timed_here(open_one)], args.rounds)
    out = {"ops": args.ops, "diff_s": round(medians[0], 4), "open_s": round(medians[1], 4),
           "ratio": round(ratios[1], 3), "spread": [round(s, 3) for s in spreads[1]]}
    print(f"{args.ops:,}-op recordings: open one (load + store ingest) {medians[1] * 1e3:.1f} ms, "
          f"diff two {medians[0] * 1e3:.1f} ms: ratio {ratios[1]:.2f} (middle half "
          f"{spreads[1][0]:.2f}-{spreads[1][1]:.2f}; target <= 2)")
    print(json.dumps(out))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
