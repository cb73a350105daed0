"""Replay recorded programs under tapeviz, sort disagreements into failures and documented
divergences, and write a failure as a bug report (shrunk when TensorFlow is importable).

    python tests/differential/replay.py [ci|long]          # summary of a set
    python tests/differential/replay.py --shrink PROGRAM_ID # needs tensorflow
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for path in (HERE, ROOT):        # the checkout's tapeviz, also from another environment
    if path not in sys.path:
        sys.path.insert(0, path)

from compare import differences  # noqa: E402,F401  (replay.differences for callers)
from divergences import explained  # noqa: E402
from interpret import run  # noqa: E402
from shrink import as_tf_code, shrink  # noqa: E402


def load(name):
    with gzip.open(os.path.join(HERE, "answers", f"{name}.json.gz"), "rb") as f:
        return json.loads(f.read())


@dataclass
class Outcome:
    agreed: int = 0
    failures: list = field(default_factory=list)        # (case, {check: sentence})
    divergences: dict = field(default_factory=dict)     # name -> [(case, differences)]


def replay(cases, tf):
    out = Outcome()
    for case in cases:
        program = case["program"]
        diffs = differences(case["answers"], run(program, tf))
        if not diffs:
            out.agreed += 1
            continue
        divergence = explained(program, case["answers"], diffs)
        if divergence:
            out.divergences.setdefault(divergence.name, []).append((case, diffs))
        else:
            out.failures.append((case, diffs))
    return out


def _tensorflow():
    try:
        import tensorflow
    except ImportError:
        return None
    return tensorflow


def minimal(program, check, tf, reference):
    """`program` shrunk to the fewest steps on which `check` still differs between `tf` and
    `reference` (another module: TensorFlow, or a correct engine when testing a planted bug)."""
    def fails(candidate):
        return check in differences(run(candidate, reference), run(candidate, tf))
    return shrink(program, fails)


def bug_report(case, diffs, tf):
    program = case["program"]
    check = next(iter(diffs))
    head = [f"program {program['id']} ({program['dtype']}, tag {program['tag']}, ops "
            f"{program['ops']}) disagrees with TensorFlow:"]
    head += [f"  {c}: {d}" for c, d in diffs.items()]
    reference = _tensorflow()
    if reference is not None:
        program = minimal(program, check, tf, reference)
        head.append(f"minimal program ({len(program['steps'])} steps), {check}:")
    else:
        head.append(f"the program ({check}); shrink it with `python tests/differential/"
                    f"replay.py --shrink {program['id']}` where tensorflow is installed:")
    return "\n".join(head + [as_tf_code(program, check)])


def main(argv=None):
    import tapeviz
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", nargs="?", default="ci")
    parser.add_argument("--shrink", metavar="PROGRAM_ID")
    args = parser.parse_args(argv)
    cases = load(args.set)["cases"]
    if args.shrink:
        case = next(c for c in cases if c["program"]["id"] == args.shrink)
        print(bug_report(case, differences(case["answers"], run(case["program"], tapeviz)),
                         tapeviz))
        return
    out = replay(cases, tapeviz)
    total = len(cases)
    print(f"{args.set}: {total} programs, {out.agreed} agree "
          f"({100 * out.agreed / total:.1f}%), {len(out.failures)} fail, "
          f"{sum(map(len, out.divergences.values()))} documented divergences")
    for name, ids in out.divergences.items():
        print(f"  divergence {name}: {len(ids)}")
    for case, diffs in out.failures:
        print(case["program"]["id"], case["program"]["ops"], diffs)


if __name__ == "__main__":
    main()
