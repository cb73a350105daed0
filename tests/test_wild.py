"""The wild corpus: public TensorFlow 2 programs run unchanged under tapeviz.

Each program in tests/wild/programs/ follows a public source named at its top, adapted
only in what it loads (small seeded data, fixed starting weights). tests/wild/record.py
ran it under real TensorFlow and stored what its main() returned in tests/wild/answers/;
here the same file runs with its `tensorflow` imports swapped for `tapeviz`, in a process
forked from one that imported tapeviz and nothing else (tests/golden/fork_runner.py --wild; a
new interpreter per program where there is no fork), and the answers must match within float
tolerances.

A program that needs a feature tapeviz lacks is marked xfail(strict=True) with the
feature named: once the feature lands the test passes, strict xfail turns that into a
failure, and the mark is to be removed.

The programs of the blind trials (tests/wild/trial*/, recorded the same way with
`record.py --folder` and first run by `run_trial.py`) run here too, so what was fixed for
them stays fixed; those a trial's `not_imitated.json` names (they need what README lists
as not imitated) are marked so.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
WILD = os.path.join(HERE, "wild")
ROOT = os.path.dirname(HERE)
PROGRAMS = sorted(glob.glob(os.path.join(WILD, "programs", "*.py")))
TRIALS = sorted(glob.glob(os.path.join(WILD, "trial*", "")))
#: the blind trials' programs (the files there that name a source)
TRIAL_PROGRAMS = sorted(p for t in TRIALS for p in glob.glob(os.path.join(t, "*.py"))
                        if open(p, encoding="utf-8").read(9) == "# After: ")
RECORD = "tests/wild/record.py (under a Python with tensorflow-cpu and tf-keras)"

sys.path.insert(0, os.path.join(HERE, "golden"))
import golden_format  # noqa: E402

# Long training runs accumulate float32 rounding differences step by step.
RTOL, ATOL = 2e-3, 1e-5

#: program (of the corpus or a trial) -> the missing feature it needs
NEEDS: dict = {}

#: the programs the quick loop (`./run.sh test --fast`) still runs, each under a second: a
#: Keras fit, a hand-written training loop, second-order gradients, and one trial program.
#: The rest of the corpus is marked slow (together several minutes of the programs' own
#: training) and runs in the full suite and CI.
QUICK = {"keras_mnist_convnet", "tutorial_custom_training_walkthrough", "pinn_burgers",
         "yunyang_gradienttape"}


sys.path.insert(0, WILD)
import trial_notes  # noqa: E402

#: trial program -> what it needs that README lists as not imitated
NOT_IMITATED = {k: v for t in TRIALS for k, v in trial_notes.not_imitated(t).items()}
#: trial program -> the answers TensorFlow itself changes under a last-digit perturbation
FLOAT_SENSITIVE = {k: v["answers"] for t in TRIALS
                   for k, v in trial_notes.float_sensitive(t).items()}


def _name(path):
    return os.path.splitext(os.path.basename(path))[0]


def _params():
    out = []
    for path in PROGRAMS + TRIAL_PROGRAMS:
        need = NEEDS.get(_name(path)) or NOT_IMITATED.get(_name(path))
        marks = [pytest.mark.xfail(strict=True, reason="needs " + need)] if need else []
        if _name(path) not in QUICK:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(path, id=_name(path), marks=marks))
    return out


def _answers(program):
    # (the corpus keeps its answers in tests/wild/answers, a trial in its own answers/)
    folder = os.path.dirname(program)
    if folder == os.path.join(WILD, "programs"):
        folder = WILD
    path = os.path.join(folder, "answers", _name(program) + ".json")
    assert os.path.exists(path), "no answers for %s; record them with %s" % (_name(program),
                                                                             RECORD)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def test_corpus_has_thirty_programs_with_sources():
    assert len(PROGRAMS) >= 30
    for path in PROGRAMS:
        with open(path, encoding="utf-8") as f:
            head = f.read(400)
        assert head.startswith("# After: http"), "%s does not name its source" % path
        text = open(path, encoding="utf-8").read()
        # `import tensorflow as tf`, or only `from tensorflow(.keras) import ...` as some sources
        assert "import tensorflow as tf" in text or "\nfrom tensorflow" in text, path


def test_needs_names_only_programs_of_the_corpus():
    assert set(NEEDS) <= {_name(p) for p in PROGRAMS + TRIAL_PROGRAMS}
    assert QUICK <= {_name(p) for p in PROGRAMS + TRIAL_PROGRAMS} - set(NEEDS) - set(NOT_IMITATED)
    assert set(NOT_IMITATED) | set(FLOAT_SENSITIVE) <= {_name(p) for p in TRIAL_PROGRAMS}
    assert len(TRIAL_PROGRAMS) >= 25


@pytest.mark.parametrize("program", PROGRAMS + TRIAL_PROGRAMS, ids=_name)
def test_answers_are_fresh(program):
    doc = _answers(program)
    assert doc["sha256"] == golden_format.sha256_of(program), (
        "%s changed since TensorFlow %s answered it; record again with %s"
        % (_name(program), doc.get("tensorflow_version"), RECORD))


def test_import_swap_rewrites_only_imports():
    sys.path.insert(0, WILD)
    import wild_runner
    src = ("import tensorflow as tf\nfrom tensorflow import keras\n"
           "from tensorflow.keras import layers\nx = 'tensorflow'\n")
    assert wild_runner.swap_imports(src, "tapeviz") == (
        "import tapeviz as tf\nfrom tapeviz import keras\n"
        "from tapeviz.keras import layers\nx = 'tensorflow'\n")


@pytest.fixture(scope="module")
def run_under_tapeviz():
    """run(program, tmp_path): what ``program``'s main() returned with its imports swapped for
    tapeviz. The program runs as ``wild_runner.py tapeviz PROGRAM OUT`` would, in a process
    forked from one that imported tapeviz once: a new interpreter's import cost half a
    second of each program's run (a new interpreter per program where there is no fork)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (ROOT, os.environ.get("PYTHONPATH", "")) if p))

    def result_of(code, out, err):
        assert code == 0 and out.exists(), err[-4000:]
        result = json.loads(out.read_text(encoding="utf-8"))
        assert not result["crash"], "raised under tapeviz:\n" + result["crash"]
        return result["answers"]

    if not hasattr(os, "fork"):
        def run(program, tmp_path):
            out = tmp_path / "answers.json"
            proc = subprocess.run(
                [sys.executable, os.path.join(WILD, "wild_runner.py"), "tapeviz", str(program),
                 str(out)], env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
            return result_of(proc.returncode, out, proc.stderr)
        yield run
        return
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "golden", "fork_runner.py"),
                               "--wild"], env=env, cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)

    def run(program, tmp_path):
        out = tmp_path / "answers.json"
        server.stdin.write(f"{program}\t{out}\n")
        server.stdin.flush()
        code = server.stdout.readline()
        assert code, "the wild runner stopped"
        err = tmp_path / "answers.json.err"
        return result_of(int(code), out, err.read_text(errors="replace") if err.exists() else "")
    yield run
    server.stdin.close()
    server.wait(timeout=60)


@pytest.mark.parametrize("program", _params())
def test_wild_program_matches_tensorflow(program, tmp_path, run_under_tapeviz):
    recorded = _answers(program)
    answers = run_under_tapeviz(program, tmp_path)
    expected, answers, missing = trial_notes.without_sensitive(
        recorded, answers, FLOAT_SENSITIVE.get(_name(program), []))
    assert not missing, "float-sensitive answers no longer reported: %s" % missing
    mismatches = golden_format.compare(expected, answers, rtol=RTOL, atol=ATOL)
    assert not mismatches, "%d answers differ from TensorFlow %s:\n  %s" % (
        len(mismatches), recorded.get("tensorflow_version"), "\n  ".join(mismatches))
