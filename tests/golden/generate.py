"""Record golden answers from real TensorFlow.

Run with a Python that has TensorFlow (never a project dependency), e.g.::

    python3 -m venv ../tfvenv
    ../tfvenv/bin/pip install tensorflow-cpu numpy tf-keras
    ../tfvenv/bin/python tests/golden/generate.py            # all programs
    ../tfvenv/bin/python tests/golden/generate.py ops_reduce  # some programs

Each program in programs/ runs in a fresh process with ``tf`` bound to
``import tensorflow`` (legacy Keras 2 via tf-keras, TF_USE_LEGACY_KERAS=1, so
that layer variables are named ``dense/kernel:0`` as in TF 2.12 and the
tutorials) and its answers go to answers/<program>.json together with the
TensorFlow version and the program's sha256.
"""

from __future__ import annotations

import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "programs")
ANSWERS = os.path.join(HERE, "answers")
sys.path.insert(0, HERE)

import golden_format  # noqa: E402


def _versions():
    from importlib import metadata

    out = {}
    for dist in ("tensorflow-cpu", "tensorflow", "tf-keras", "numpy"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return out


def _env():
    env = dict(os.environ)
    env.update(
        TF_USE_LEGACY_KERAS="1",
        TF_CPP_MIN_LOG_LEVEL="3",
        CUDA_VISIBLE_DEVICES="-1",
        PYTHONHASHSEED="0",
        TF_ENABLE_ONEDNN_OPTS="0",
        OMP_NUM_THREADS="1",
        TF_NUM_INTRAOP_THREADS="1",
        TF_NUM_INTEROP_THREADS="1",
    )
    return env


def run_one(path, versions):
    name = os.path.splitext(os.path.basename(path))[0]
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "out.json")
        proc = subprocess.run(
            [sys.executable, os.path.join(HERE, "golden_format.py"), "run", "tensorflow",
             path, out_path],
            env=_env(), capture_output=True, text=True, timeout=600,
        )
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
        "format_version": golden_format.FORMAT_VERSION,
        "answers": result["answers"],
    }
    return name, doc, None


def main(argv):
    versions = _versions()
    if not (versions.get("tensorflow-cpu") or versions.get("tensorflow")):
        sys.exit("TensorFlow is not installed for %s; see the docstring of generate.py" % sys.executable)
    if "tf-keras" not in versions:
        sys.exit("tf-keras is not installed for %s (needed for Keras 2 names like dense/kernel:0)"
                 % sys.executable)
    paths = sorted(glob.glob(os.path.join(PROGRAMS, "*.py")))
    if argv:
        wanted = {os.path.splitext(os.path.basename(a))[0] for a in argv}
        paths = [p for p in paths if os.path.splitext(os.path.basename(p))[0] in wanted]
        missing = wanted - {os.path.splitext(os.path.basename(p))[0] for p in paths}
        if missing:
            sys.exit("no such program(s): %s" % ", ".join(sorted(missing)))
    os.makedirs(ANSWERS, exist_ok=True)
    failures = []
    total = 0
    jobs = max(1, min(4, os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for name, doc, err in pool.map(lambda p: run_one(p, versions), paths):
            if err:
                failures.append(name)
                print("FAILED %s\n%s" % (name, err), file=sys.stderr)
                continue
            with open(os.path.join(ANSWERS, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1, sort_keys=False)
                f.write("\n")
            total += len(doc["answers"])
            print("%-40s %4d answers" % (name, len(doc["answers"])))
    # answers whose program is gone are stale
    for stale in sorted(glob.glob(os.path.join(ANSWERS, "*.json"))):
        prog = os.path.join(PROGRAMS, os.path.splitext(os.path.basename(stale))[0] + ".py")
        if not os.path.exists(prog):
            os.remove(stale)
            print("removed stale %s" % os.path.basename(stale))
    print("%d programs, %d answers recorded, %d failed" % (len(paths) - len(failures), total,
                                                          len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
