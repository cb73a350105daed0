"""The gallery's demos, run as plain scripts, against what real TensorFlow prints.

Each ``demos/NN_slug.py`` runs in a subprocess (``python demos/NN_slug.py``): first the lesson,
printing what the TensorFlow tutorial prints, then ``--- tapeviz explains ---`` and tapeviz's
explanations. The lesson's lines are compared with ``tests/golden/demo_outputs/<stem>.txt``,
made by running the same ``lesson`` with real TensorFlow (``generate_demo_outputs.py``): the
same lines, ``tf.``/``tv.`` prefixes made equal, numbers equal to a relative 1e-4, ``None``
and every other word exactly. The explanations must give the causes the demo declares in
``TEACHES`` (one list per explained tape, one cause per source; ``"a|b"`` accepts either).
"""
from __future__ import annotations

import ast
import difflib
import functools
import math
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEMOS = sorted((ROOT / "demos").glob("[0-9][0-9]_*.py"))
STEMS = [p.stem for p in DEMOS]
#: the demos, the one that trains an MLP (several seconds) marked slow for the quick loop
PARAMS = [pytest.param(s, marks=pytest.mark.slow) if "mlp" in s else s for s in STEMS]
GOLDEN = ROOT / "tests" / "golden" / "demo_outputs"
MARKER = "--- tapeviz explains ---"
REL_TOL = 1e-4
#: The MLP demo trains for this many epochs in the tests (the golden files use the same).
TEST_EPOCHS = "2"


@functools.lru_cache(maxsize=None)
def run_demo(stem: str):
    """Run one demo as a script; returns (returncode, stdout, stderr, seconds)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["TAPEVIZ_DEMO_EPOCHS"] = TEST_EPOCHS
    for var in ("TAPEVIZ_RECORD", "TAPEVIZ_EXPLAIN", "_TAPEVIZ_RECORD_PID"):
        env.pop(var, None)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, str(ROOT / "demos" / f"{stem}.py")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr, time.perf_counter() - t0


def lesson_and_explanations(stem: str) -> tuple[list[str], list[list[tuple[str, str, str]]]]:
    code, out, err, _ = run_demo(stem)
    assert code == 0, f"python demos/{stem}.py failed (exit {code}):\n{out[-3000:]}\n{err[-5000:]}"
    assert MARKER in out, f"demos/{stem}.py printed no '{MARKER}' line:\n{out[-3000:]}"
    lesson, _, explained = out.partition(MARKER + "\n")
    blocks: list[list[tuple[str, str, str]]] = []
    for line in explained.splitlines():
        if re.fullmatch(r"explain #\d+", line):
            blocks.append([])
            continue
        m = re.match(r"  (\S.*?): (value|none|zero|nan|inf) \[(\w+)\]", line)
        if m and blocks:
            blocks[-1].append(m.groups())
    return lesson.splitlines(), blocks


# ---- comparing printed lines ------------------------------------------------------------------

_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|nan|inf)(?![\w])")


def normalise(line: str) -> str:
    """tapeviz prints `tv.Tensor(...)` / `<tv.Variable ...>` where TensorFlow prints `tf.`."""
    return re.sub(r"(?<![\w.])tv\.(Tensor|Variable)\b", r"tf.\1", line)


def split_numbers(line: str) -> tuple[str, list[float]]:
    """The line with each number replaced by `#` (whitespace made uniform), and the numbers."""
    numbers = [float(m) for m in _NUMBER.findall(line)]
    text = _NUMBER.sub("#", normalise(line))
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"([\[(]) ", r"\1", text)
    text = re.sub(r" ([\])])", r"\1", text)
    return text, numbers


def same_number(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=0.0)


def differences(expected: list[str], actual: list[str]) -> list[str]:
    """Human-readable differences between TensorFlow's lines and tapeviz's (empty: same)."""
    if len(expected) != len(actual):
        return [f"{len(expected)} lines from TensorFlow, {len(actual)} from tapeviz:",
                *difflib.unified_diff(expected, [normalise(a) for a in actual],
                                      "tensorflow", "tapeviz", lineterm="")]
    out = []
    for i, (e, a) in enumerate(zip(expected, actual), 1):
        te, ne = split_numbers(e)
        ta, na = split_numbers(a)
        if te != ta or len(ne) != len(na) or not all(map(same_number, ne, na)):
            out.append(f"line {i}:\n  tensorflow: {e}\n  tapeviz:    {a}")
    return out


def test_the_comparison_itself():
    assert not differences(["tf.Tensor(6.0, shape=(), dtype=float32)"],
                           ["tv.Tensor(6.00001, shape=(), dtype=float32)"])
    assert differences(["tf.Tensor(6.0, shape=(), dtype=float32)"],
                       ["tv.Tensor(6.01, shape=(), dtype=float32)"])
    assert differences(["None"], ["tv.Tensor(0.0, shape=(), dtype=float32)"])
    assert differences(["tf.Tensor(nan, shape=(), dtype=float32)"],
                       ["tv.Tensor(1.0, shape=(), dtype=float32)"])
    assert not differences(["[[ 0.5  -1. ]"], ["[[ 0.5000001 -1.       ]"])
    assert not differences(["<tf.Variable 'x0:0' shape=() dtype=float32, numpy=3.0>"],
                           ["<tv.Variable 'x0:0' shape=() dtype=float32, numpy=3.0>"])
    assert differences(["['x0:0']"], ["['x1:0']"])
    assert differences(["RuntimeError"], ["ValueError"])


# ---- the demos ----------------------------------------------------------------------------

@pytest.mark.parametrize("stem", PARAMS)
def test_demo_prints_what_tensorflow_prints(stem):
    golden = GOLDEN / f"{stem}.txt"
    assert golden.is_file(), (f"no TensorFlow output for {stem}: run "
                              "`../tfvenv/bin/python tests/golden/generate_demo_outputs.py`")
    lesson, _ = lesson_and_explanations(stem)
    diffs = differences(golden.read_text().splitlines(), lesson)
    assert not diffs, f"demos/{stem}.py differs from TensorFlow:\n" + "\n".join(diffs)


def _teaches(path: Path):
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "TEACHES" for t in node.targets):
            return ast.literal_eval(node.value)
    return None


@pytest.mark.parametrize("stem", PARAMS)
def test_demo_explains_the_cause_it_teaches(stem):
    teaches = _teaches(ROOT / "demos" / f"{stem}.py")
    assert teaches, f"demos/{stem}.py declares no TEACHES"
    _, blocks = lesson_and_explanations(stem)
    assert len(blocks) == len(teaches), f"{len(blocks)} explanations, TEACHES has {len(teaches)}"
    wrong = []
    for i, (block, wanted) in enumerate(zip(blocks, teaches), 1):
        got = [cause for _, _, cause in block]
        ok = len(got) == len(wanted) and all(g in w.split("|") for g, w in zip(got, wanted))
        if not ok:
            wrong.append(f"explain #{i}: expected {wanted}, got "
                         f"{[f'{name}: {verdict} [{cause}]' for name, verdict, cause in block]}")
    assert not wrong, f"demos/{stem}.py:\n" + "\n".join(wrong)


def test_every_demo_is_a_lesson_with_a_title_and_a_text():
    assert len(STEMS) >= 18
    for path in DEMOS:
        tree = ast.parse(path.read_text())
        doc = ast.get_docstring(tree) or ""
        title, _, body = doc.strip().partition("\n")
        assert title and len(title) < 90, f"{path.name}: the docstring's first line is the title"
        assert body.strip().count(". ") >= 1, f"{path.name}: 2-4 sentences after the title"
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert "lesson" in names, f"{path.name} has no lesson(tf)"
        src = path.read_text()
        # a plain script and a gallery page both: tapeviz.demo.present decides which
        assert ('if __name__ == "__main__" or __name__.startswith("bokeh")' in src
                and "present(__name__, lesson, __doc__" in src), path.name
        # lesson(tf) is TensorFlow code: it never imports tapeviz itself
        lesson_src = ast.get_source_segment(src, next(n for n in tree.body if getattr(n, "name", "") == "lesson"))
        assert "tapeviz" not in lesson_src and "tv." not in lesson_src, path.name


def test_every_demo_has_tensorflow_output():
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == STEMS


@pytest.mark.slow
def test_mlp_demo_runs_to_its_held_out_accuracy():
    stem = next(s for s in STEMS if "mlp" in s)
    code, out, err, _ = run_demo(stem)
    assert code == 0, err[-3000:]
    assert "held-out accuracy" in out
