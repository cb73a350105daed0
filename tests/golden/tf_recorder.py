"""Record real TensorFlow's answers to a folder of programs (needs TensorFlow, never in CI).

The recorders ``tests/golden/generate.py`` and ``tests/wild/record.py`` differ only in the
script that runs one program; the rest lives here: the settings TensorFlow runs under, the
installed versions, choosing programs by name, one fresh process per program, and writing
``answers/<program>.json`` with the TensorFlow version and the program's sha256.

TensorFlow runs with Keras 2 from tf-keras (``TF_USE_LEGACY_KERAS=1``, so layer variables are
named ``dense/kernel:0`` as in TF 2.12 and the tutorials), on the CPU, one thread and oneDNN
off (the same sums in the same order on every run).
"""
from __future__ import annotations

import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import golden_format  # noqa: E402

TENSORFLOW_SETTINGS = {
    "TF_USE_LEGACY_KERAS": "1",
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "CUDA_VISIBLE_DEVICES": "-1",
    "PYTHONHASHSEED": "0",
    "TF_ENABLE_ONEDNN_OPTS": "0",
    "OMP_NUM_THREADS": "1",
    "TF_NUM_INTRAOP_THREADS": "1",
    "TF_NUM_INTEROP_THREADS": "1",
}


def installed_versions():
    """The versions of TensorFlow, tf-keras and NumPy in this Python."""
    from importlib import metadata

    out = {}
    for dist in ("tensorflow-cpu", "tensorflow", "tf-keras", "numpy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def require_tensorflow(versions, script):
    """Exit with a message unless TensorFlow and tf-keras are installed."""
    if not (versions.get("tensorflow-cpu") or versions.get("tensorflow")):
        sys.exit("TensorFlow is not installed for %s; see the docstring of %s"
                 % (sys.executable, script))
    if "tf-keras" not in versions:
        sys.exit("tf-keras is not installed for %s (needed for Keras 2 names like dense/kernel:0)"
                 % sys.executable)


def _stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def select_programs(programs_dir, names):
    """The programs of ``programs_dir`` named in ``names`` (all of them when none is named)."""
    paths = sorted(glob.glob(os.path.join(programs_dir, "*.py")))
    if names:
        wanted = {_stem(a) for a in names}
        paths = [p for p in paths if _stem(p) in wanted]
        missing = wanted - {_stem(p) for p in paths}
        if missing:
            sys.exit("no such program(s): %s" % ", ".join(sorted(missing)))
    return paths


def run_one(runner_command, path, versions, extra_fields):
    """Run one program under TensorFlow in a fresh process: ``(name, answer document, error)``.

    ``runner_command(path, out_path)`` is the command that runs it and writes
    ``{"answers": ..., "crash": ...}`` to ``out_path``.
    """
    name = _stem(path)
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "out.json")
        env = dict(os.environ, **TENSORFLOW_SETTINGS)
        proc = subprocess.run(runner_command(path, out_path), env=env, capture_output=True,
                              text=True, timeout=600)
        if proc.returncode != 0 or not os.path.exists(out_path):
            return name, None, "runner failed (%d):\n%s" % (proc.returncode, proc.stderr[-4000:])
        with open(out_path, encoding="utf-8") as f:
            result = json.load(f)
    if result["crash"]:
        return name, None, result["crash"]
    doc = {
        "program": os.path.basename(path),
        "sha256": golden_format.sha256_of(path),
        "tensorflow_version": versions.get("tensorflow-cpu") or versions.get("tensorflow"),
        "versions": versions,
        **extra_fields,
        "answers": result["answers"],
    }
    return name, doc, None


def run_twice(runner_command, path, versions, extra_fields):
    """`run_one` twice; an error unless both runs give the same answers. A program whose
    answers TensorFlow itself does not repeat (an unseeded shuffle splitting the data into
    other batches on every run) cannot be matched by anyone."""
    name, first, err = run_one(runner_command, path, versions, extra_fields)
    if err:
        return name, None, err
    _, second, err = run_one(runner_command, path, versions, extra_fields)
    if err:
        return name, None, err
    differ = golden_format.compare(first["answers"], second["answers"], rtol=1e-6, atol=0.0)
    if differ:
        return name, None, ("two runs under TensorFlow gave different answers (is something "
                            "unseeded?):\n  " + "\n  ".join(differ[:10]))
    return name, first, None


def record_programs(programs_dir, answers_dir, names, runner_command, script, jobs,
                    extra_fields=None):
    """Record the answers of the named programs (all when none is named); 1 if any failed.
    With `--twice` among the names, each program runs twice and its answers are kept only
    if both runs agree."""
    versions = installed_versions()
    require_tensorflow(versions, script)
    run = run_twice if "--twice" in names else run_one
    paths = select_programs(programs_dir, [n for n in names if n != "--twice"])
    os.makedirs(answers_dir, exist_ok=True)
    failures = []
    total = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        docs = pool.map(lambda p: run(runner_command, p, versions, extra_fields or {}), paths)
        for name, doc, err in docs:
            if err:
                failures.append(name)
                print("FAILED %s\n%s" % (name, err), file=sys.stderr)
                continue
            with open(os.path.join(answers_dir, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
            total += len(doc["answers"])
            print("%-40s %4d answers" % (name, len(doc["answers"])))
    remove_stale_answers(programs_dir, answers_dir)
    print("%d programs, %d answers recorded, %d failed" % (len(paths) - len(failures), total,
                                                          len(failures)))
    return 1 if failures else 0


def remove_stale_answers(programs_dir, answers_dir):
    """Delete the answers whose program is gone."""
    for stale in sorted(glob.glob(os.path.join(answers_dir, "*.json"))):
        if not os.path.exists(os.path.join(programs_dir, _stem(stale) + ".py")):
            os.remove(stale)
            print("removed stale %s" % os.path.basename(stale))
