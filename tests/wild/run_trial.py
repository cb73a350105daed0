"""Run a blind trial's programs under tapeviz and compare them with TensorFlow's answers.

    python tests/wild/run_trial.py --folder tests/wild/trial5          # every program
    python tests/wild/run_trial.py --folder tests/wild/trial5 NAME ... # some programs
    python tests/wild/run_trial.py --folder tests/wild/trial5 --tree CHECKOUT

A trial folder holds public programs (each file's first line names its source), their
TensorFlow answers in ``answers/`` (recorded by ``tests/wild/record.py --folder``), and
optionally ``not_imitated.json`` and ``float_sensitive.json`` (see trial_notes.py). Each
program runs in a fresh process through ``tests/wild/wild_runner.py
tapeviz``, which swaps its ``tensorflow`` imports for ``tapeviz`` and changes nothing else,
exactly as ``tests/test_wild.py`` runs the corpus, and its answers are compared within the
corpus's tolerances. ``--tree`` imports tapeviz from another checkout (for example main as
it was when the trial's programs were chosen). One line per program says ``matched``,
``error`` (the exception and the program line it came from) or ``wrong numbers`` (how many
answers differ, and the first); the summary gives the rate over all programs and over those
that need nothing README lists as not imitated.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

WILD = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(WILD))
sys.path.insert(0, os.path.join(os.path.dirname(WILD), "golden"))

import golden_format  # noqa: E402
import trial_notes  # noqa: E402

# As tests/test_wild.py: long float32 training runs drift a little step by step.
RTOL, ATOL = 2e-3, 1e-5


def programs(folder, names=()):
    """The folder's programs (the files naming their source), or those named."""
    found = sorted(name[:-3] for name in os.listdir(folder) if name.endswith(".py")
                   and open(os.path.join(folder, name), encoding="utf-8").read(9) == "# After: ")
    if names:
        missing = set(names) - set(found)
        if missing:
            sys.exit("no such program(s) in %s: %s" % (folder, ", ".join(sorted(missing))))
        found = [name for name in found if name in names]
    return found


def run_under_tapeviz(folder, name, tree):
    """Run one program in a fresh process: ``{"answers": ..., "crash": ...}``."""
    program = os.path.join(folder, name + ".py")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (tree, os.environ.get("PYTHONPATH", "")) if p))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "answers.json")
        proc = subprocess.run(
            [sys.executable, os.path.join(WILD, "wild_runner.py"), "tapeviz", program, out],
            env=env, capture_output=True, text=True, timeout=1800, cwd=ROOT)
        if proc.returncode != 0 or not os.path.exists(out):
            return {"answers": {}, "crash": "runner failed (%d):\n%s"
                    % (proc.returncode, proc.stderr[-2000:])}
        with open(out, encoding="utf-8") as f:
            return json.load(f)


def error_line(name, crash):
    """The exception of a traceback, with the line of the program it came from."""
    lines = [line for line in crash.strip().splitlines() if line.strip()]
    exception = lines[-1].strip() if lines else "no traceback"
    at = [m.group(1) for m in re.finditer(r'File ".*%s\.py", line (\d+)' % re.escape(name),
                                          crash)]
    return exception + (" (%s.py line %s)" % (name, at[-1]) if at else "")


def judge(folder, name, result):
    """``(verdict, detail)`` for one program's result against TensorFlow's answers."""
    with open(os.path.join(folder, "answers", name + ".json"), encoding="utf-8") as f:
        expected = json.load(f)
    if expected["sha256"] != golden_format.sha256_of(os.path.join(folder, name + ".py")):
        return "stale", "the program changed since TensorFlow answered it; record it again"
    if result["crash"]:
        return "error", error_line(name, result["crash"])
    sensitive = trial_notes.float_sensitive(folder).get(name, {}).get("answers", [])
    expected, actual, missing = trial_notes.without_sensitive(expected, result["answers"],
                                                              sensitive)
    mismatches = golden_format.compare(expected, actual, rtol=RTOL, atol=ATOL)
    mismatches += ["%s: not reported" % n for n in missing]
    if mismatches:
        return "wrong numbers", "%d answers differ; first: %s" % (len(mismatches),
                                                                  mismatches[0])
    return "matched", (" (%s left out: float-sensitive in TensorFlow itself)"
                       % ", ".join(sensitive) if sensitive else "")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", required=True, help="the trial's folder")
    parser.add_argument("--tree", default=ROOT,
                        help="checkout whose tapeviz is imported (default: this one)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="programs run at once")
    parser.add_argument("names", nargs="*", help="programs to run (default: all)")
    args = parser.parse_args(argv)
    folder, tree = os.path.abspath(args.folder), os.path.abspath(args.tree)
    names = programs(folder, args.names)
    needs = trial_notes.not_imitated(folder)

    def one(name):
        return name, judge(folder, name, run_under_tapeviz(folder, name, tree))

    verdicts = {}
    with ThreadPoolExecutor(max(args.jobs, 1)) as pool:
        for name, (verdict, detail) in pool.map(one, names):
            verdicts[name] = verdict
            need = needs.get(name)
            print("%-36s %-13s %s%s" % (name, verdict, detail,
                                         "  [needs: %s]" % need if need else ""), flush=True)
    counted = [n for n in names if n not in needs]
    matched = [n for n in counted if verdicts[n] == "matched"]
    print("\n%d of %d programs matched; of the %d that need nothing listed as unsupported,"
          " %d matched (%.0f%%)" % (sum(v == "matched" for v in verdicts.values()), len(names),
                                   len(counted), len(matched),
                                   100.0 * len(matched) / max(len(counted), 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
