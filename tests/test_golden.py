"""Golden tests: tapeviz must answer like real TensorFlow.

Each program in tests/golden/programs/ was run under real TensorFlow by
tests/golden/generate.py, and its answers were stored in tests/golden/answers/.
Here the very same program runs with ``tf`` bound to ``import tapeviz`` (in a
process of its own, forked from one that only imported tapeviz) and its answers
must match: values within tolerance, equal dtypes and shapes, None where TF
gives None, the same exception classes.  See tests/golden/README.md.
"""

from __future__ import annotations

import glob
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
ROOT = os.path.dirname(HERE)
PROGRAMS = sorted(glob.glob(os.path.join(GOLDEN, "programs", "*.py")))
REGENERATE = "../tfvenv/bin/python tests/golden/generate.py"

if GOLDEN not in sys.path:
    sys.path.insert(0, GOLDEN)
import golden_format  # noqa: E402


def _name(path):
    return os.path.splitext(os.path.basename(path))[0]


def _answers_path(program):
    return os.path.join(GOLDEN, "answers", _name(program) + ".json")


def _load_answers(program):
    path = _answers_path(program)
    assert os.path.exists(path), (
        "no recorded answers for %s; record them with: %s %s" % (_name(program), REGENERATE,
                                                                  _name(program)))
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_corpus_is_not_empty():
    assert len(PROGRAMS) >= 40


def test_no_orphan_answers():
    programs = {_name(p) for p in PROGRAMS}
    answers = {_name(p) for p in glob.glob(os.path.join(GOLDEN, "answers", "*.json"))}
    assert answers <= programs, "answers without a program: %s" % sorted(answers - programs)


@pytest.mark.parametrize("program", PROGRAMS, ids=_name)
def test_golden_answers_are_fresh(program):
    """The stored answers were recorded from this exact program text."""
    doc = _load_answers(program)
    assert doc["sha256"] == golden_format.sha256_of(program), (
        "%s changed since its answers were recorded under TensorFlow %s; regenerate with: %s %s"
        % (os.path.basename(program), doc.get("tensorflow_version"), REGENERATE, _name(program)))
    assert doc["answers"], "no answers recorded for %s" % _name(program)


@pytest.fixture(scope="module")
def run_under_tapeviz():
    """run(program, out): run ``program`` under ``import tapeviz as tf`` into ``out``, as a
    new interpreter would (``golden_format.py run``), in a process forked from one that
    imported tapeviz once (``golden/fork_runner.py``; a new interpreter per program where
    there is no fork). Returns (exit code, the program's error output)."""
    import tapeviz  # an ImportError here is a real failure until tapeviz exists

    env = dict(os.environ)
    pkg_dir = (os.path.dirname(tapeviz.__file__) if getattr(tapeviz, "__file__", None)
               else list(tapeviz.__path__)[0])
    tv_root = os.path.dirname(os.path.abspath(pkg_dir))
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (tv_root, ROOT, GOLDEN, env.get("PYTHONPATH", "")) if p)
    if not hasattr(os, "fork"):
        def run(program, out):
            proc = subprocess.run(
                [sys.executable, os.path.join(GOLDEN, "golden_format.py"), "run", "tapeviz",
                 program, str(out)], env=env, capture_output=True, text=True, timeout=600,
                cwd=ROOT)
            return proc.returncode, proc.stderr
        yield run
        return
    server = subprocess.Popen([sys.executable, os.path.join(GOLDEN, "fork_runner.py")],
                              env=env, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)

    def run(program, out):
        server.stdin.write(f"{program}\t{out}\n")
        server.stdin.flush()
        code = server.stdout.readline()
        assert code, "the golden runner stopped"
        err = pathlib.Path(f"{out}.err")
        return int(code), err.read_text(errors="replace") if err.exists() else ""
    yield run
    server.stdin.close()
    server.wait(timeout=60)


@pytest.mark.parametrize("program", PROGRAMS, ids=_name)
def test_golden(program, tmp_path, run_under_tapeviz):
    """tapeviz gives TensorFlow's answers for this program."""
    expected = _load_answers(program)
    out = tmp_path / "answers.json"
    code, stderr = run_under_tapeviz(program, out)
    assert code == 0 and out.exists(), (
        "the runner failed (exit %d):\n%s" % (code, stderr[-4000:]))
    result = json.loads(out.read_text(encoding="utf-8"))
    mismatches = golden_format.compare(expected, result["answers"])
    problems = []
    if result["crash"]:
        problems.append("the program raised under tapeviz (answers after that point are "
                        "missing):\n" + result["crash"])
    if mismatches:
        problems.append("%d of %d answers differ from TensorFlow %s:\n  " % (
            len(mismatches), len(expected["answers"]), expected.get("tensorflow_version"))
            + "\n  ".join(mismatches))
    assert not problems, "\n".join(problems)


# --------------------------------------------------------------------------
# the normalising / comparing helpers themselves (no TensorFlow, no tapeviz)
# --------------------------------------------------------------------------

class _FakeDType:
    def __init__(self, name):
        self.name = name


class _FakeTensor:
    """Anything with .numpy() and .dtype.name normalises like a tensor."""

    def __init__(self, value, dtype):
        self._v = np.asarray(value, dtype=dtype)
        self.dtype = _FakeDType(self._v.dtype.name)
        self.shape = self._v.shape

    def numpy(self):
        return self._v


def test_normalize_shapes_and_specials():
    t = golden_format.normalize(_FakeTensor([[1.0, math.nan], [math.inf, -math.inf]], np.float32))
    assert t == {"type": "tensor", "dtype": "float32", "shape": [2, 2],
                 "value": [[1.0, "nan"], ["inf", "-inf"]]}
    assert golden_format.normalize(None) == {"type": "none"}
    assert golden_format.normalize(True) == {"type": "py", "pytype": "bool", "value": True}
    assert golden_format.normalize(3) == {"type": "py", "pytype": "int", "value": 3}
    assert golden_format.normalize((1.5, [None])) == {
        "type": "tuple", "items": [{"type": "py", "pytype": "float", "value": 1.5},
                                   {"type": "list", "items": [{"type": "none"}]}]}
    assert golden_format.normalize(np.int64(2))["dtype"] == "int64"
    s = golden_format.normalize(np.array([b"a", b"bc"], dtype=object))
    assert s["dtype"] == "string" and s["value"] == ["a", "bc"]
    d = golden_format.normalize({"k": np.zeros((0,), np.float32)})
    assert d["items"]["k"]["shape"] == [0]


def test_compare_rules():
    n = golden_format.normalize
    assert golden_format.compare(n(_FakeTensor([1.0, math.nan], np.float32)),
                                 n(_FakeTensor([1.00001, math.nan], np.float32))) == []
    assert golden_format.compare(n(_FakeTensor([1.0], np.float32)),
                                 n(_FakeTensor([1.1], np.float32)))
    assert golden_format.compare(n(_FakeTensor([1.0], np.float32)),
                                 n(_FakeTensor([1.0], np.float64)))
    assert golden_format.compare(n(_FakeTensor([1.0], np.float32)),
                                 n(_FakeTensor([[1.0]], np.float32)))
    assert golden_format.compare(n(None), n(_FakeTensor(0.0, np.float32)))
    assert golden_format.compare(n(_FakeTensor([math.inf], np.float32)),
                                 n(_FakeTensor([1e38], np.float32)))
    err = {"type": "error", "class": "InvalidArgumentError", "message": "x"}
    assert golden_format.compare(err, dict(err, message="other")) == []
    assert golden_format.compare(err, dict(err, **{"class": "ValueError"}))
    assert golden_format.compare({"a": n(1.0)}, {"a": n(1.0), "b": n(2.0)})
    assert golden_format.compare({"a": n(1.0)}, {})
    assert golden_format.compare(
        n("tf.Tensor(6.0, shape=(), dtype=float32)"),
        n("tapeviz.Tensor(6.0, shape=(), dtype=float32)")) == []
    assert golden_format.compare(n("<tf.Variable 'x:0' shape=()>"),
                                 n("<tv.Variable 'x:0' shape=()>")) == []
    assert golden_format.compare(n("tf.Tensor(6.0)"), n("tf.Tensor(6.5)"))
    assert golden_format.compare(n(1), n(1.0))  # Python int vs float


def test_recorder_expect_error():
    rec = golden_format.Recorder()
    rec.expect_error("boom", lambda: 1 / 0)
    rec.expect_error("fine", lambda: 2)
    assert rec.answers["boom"]["class"] == "ZeroDivisionError"
    assert rec.answers["fine"] == {"type": "no_error",
                                   "value": {"type": "py", "pytype": "int", "value": 2}}
    with pytest.raises(ValueError):
        rec.report("boom", 1)


_FAKE_RUNNER = """import json, os, sys
value = float(os.environ.get("FAKE_ANSWER") or int.from_bytes(os.urandom(4), "little"))
with open(sys.argv[2], "w") as f:
    json.dump({"answers": {"x": {"type": "py", "pytype": "float", "value": value}},
               "crash": None}, f)
"""


@pytest.mark.parametrize("fixed", [True, False], ids=["repeats", "unseeded"])
def test_recording_twice_refuses_answers_that_do_not_repeat(tmp_path, monkeypatch, fixed):
    import tf_recorder
    runner, program = tmp_path / "runner.py", tmp_path / "prog.py"
    runner.write_text(_FAKE_RUNNER)
    program.write_text("# a program\n")
    monkeypatch.setenv("FAKE_ANSWER", "1.5" if fixed else "")
    name, doc, err = tf_recorder.run_twice(
        lambda path, out: [sys.executable, str(runner), path, out], str(program), {}, {})
    assert name == "prog"
    if fixed:
        assert err is None and doc["answers"]["x"]["value"] == 1.5
    else:
        assert doc is None and "two runs under TensorFlow gave different answers" in err
