"""Run the fourth trial's programs under tapeviz and compare them with TensorFlow's answers.

    python tests/wild/trial4/run_trial.py              # every program, one at a time
    python tests/wild/trial4/run_trial.py NAME ...     # some programs

Each program (a file here whose first line names its source) runs in a fresh process
through ``tests/wild/wild_runner.py tapeviz``, which swaps its ``tensorflow`` imports for
``tapeviz`` and changes nothing else, exactly as ``tests/test_wild.py`` runs the corpus;
its answers are compared with TensorFlow's in ``answers/`` (recorded by
``tests/wild/record.py --folder tests/wild/trial4``) within the corpus's tolerances. One
line per program says ``matched``, ``error`` (the exception and the program line it came
from) or ``wrong numbers`` (how many answers differ, and the first); the summary gives the
rate over all programs and over those that need nothing README lists as not imitated.
Run it with the project's Python (tapeviz importable from the repository root).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
WILD = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(WILD))
sys.path.insert(0, os.path.join(os.path.dirname(WILD), "golden"))

import golden_format  # noqa: E402

# As tests/test_wild.py: long float32 training runs drift a little step by step.
RTOL, ATOL = 2e-3, 1e-5

#: program -> what it uses that README's list of what is not imitated names
NEEDS_UNSUPPORTED = {
    "tutorial_simple_audio": "complex arithmetic (tf.signal.stft gives complex64 and the"
                             " spectrogram is its tf.abs)",
}


def programs(names=()):
    """The trial's programs (the files naming their source), or those named."""
    found = sorted(name[:-3] for name in os.listdir(HERE) if name.endswith(".py")
                   and open(os.path.join(HERE, name), encoding="utf-8").read(9) == "# After: ")
    if names:
        missing = set(names) - set(found)
        if missing:
            sys.exit("no such program(s): %s" % ", ".join(sorted(missing)))
        found = [name for name in found if name in names]
    return found


def run_under_tapeviz(name):
    """Run one program in a fresh process: ``{"answers": ..., "crash": ...}``."""
    program = os.path.join(HERE, name + ".py")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p))
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


def judge(name, result):
    """``(verdict, detail)`` for one program's result against TensorFlow's answers."""
    with open(os.path.join(HERE, "answers", name + ".json"), encoding="utf-8") as f:
        expected = json.load(f)
    if expected["sha256"] != golden_format.sha256_of(os.path.join(HERE, name + ".py")):
        return "stale", "the program changed since TensorFlow answered it; record it again"
    if result["crash"]:
        return "error", error_line(name, result["crash"])
    mismatches = golden_format.compare(expected, result["answers"], rtol=RTOL, atol=ATOL)
    if mismatches:
        return "wrong numbers", "%d answers differ; first: %s" % (len(mismatches),
                                                                  mismatches[0])
    return "matched", ""


def main(argv):
    names = programs(argv)
    verdicts = {}
    for name in names:
        verdict, detail = judge(name, run_under_tapeviz(name))
        verdicts[name] = verdict
        need = NEEDS_UNSUPPORTED.get(name)
        print("%-36s %-13s %s%s" % (name, verdict, detail,
                                     "  [needs: %s]" % need if need else ""), flush=True)
    counted = [n for n in names if n not in NEEDS_UNSUPPORTED]
    matched = [n for n in counted if verdicts[n] == "matched"]
    print("\n%d of %d programs matched; of the %d that need nothing listed as unsupported,"
          " %d matched (%.0f%%)" % (sum(v == "matched" for v in verdicts.values()), len(names),
                                   len(counted), len(matched),
                                   100.0 * len(matched) / max(len(counted), 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
