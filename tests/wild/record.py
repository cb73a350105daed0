"""Record TensorFlow's answers for the wild corpus (needs TensorFlow, never in CI).

Run with the Python of a virtual environment with tensorflow-cpu and tf-keras::

    python tests/wild/record.py                  # every program
    python tests/wild/record.py fgsm maml_sine   # some programs

Each program in programs/ runs in a fresh process under real TensorFlow (Keras 2 from
tf-keras, TF_USE_LEGACY_KERAS=1, one thread, oneDNN off) and what its main() returns
goes to answers/<program>.json with the TensorFlow version and the program's sha256.
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
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "golden"))

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
    env.update(TF_USE_LEGACY_KERAS="1", TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="-1",
               PYTHONHASHSEED="0", TF_ENABLE_ONEDNN_OPTS="0", OMP_NUM_THREADS="1",
               TF_NUM_INTRAOP_THREADS="1", TF_NUM_INTEROP_THREADS="1")
    return env


def run_one(path, versions):
    name = os.path.splitext(os.path.basename(path))[0]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        proc = subprocess.run([sys.executable, os.path.join(HERE, "wild_runner.py"),
                               "tensorflow", path, out],
                              env=_env(), capture_output=True, text=True, timeout=600)
        if proc.returncode != 0 or not os.path.exists(out):
            return name, None, "runner failed (%d):\n%s" % (proc.returncode, proc.stderr[-4000:])
        with open(out, encoding="utf-8") as f:
            result = json.load(f)
    if result["crash"]:
        return name, None, result["crash"]
    return name, {
        "program": os.path.basename(path),
        "sha256": golden_format.sha256_of(path),
        "tensorflow_version": versions.get("tensorflow-cpu") or versions.get("tensorflow"),
        "versions": versions,
        "answers": result["answers"],
    }, None


def main(argv):
    versions = _versions()
    if not (versions.get("tensorflow-cpu") or versions.get("tensorflow")):
        sys.exit("TensorFlow is not installed for %s" % sys.executable)
    if "tf-keras" not in versions:
        sys.exit("tf-keras is not installed for %s" % sys.executable)
    paths = sorted(glob.glob(os.path.join(PROGRAMS, "*.py")))
    if argv:
        wanted = {os.path.splitext(os.path.basename(a))[0] for a in argv}
        paths = [p for p in paths if os.path.splitext(os.path.basename(p))[0] in wanted]
        missing = wanted - {os.path.splitext(os.path.basename(p))[0] for p in paths}
        if missing:
            sys.exit("no such program(s): %s" % ", ".join(sorted(missing)))
    os.makedirs(ANSWERS, exist_ok=True)
    failed = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for name, doc, err in pool.map(lambda p: run_one(p, versions), paths):
            if err:
                failed.append(name)
                print("FAILED %s\n%s" % (name, err), file=sys.stderr)
                continue
            with open(os.path.join(ANSWERS, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
            print("%-40s %3d answers" % (name, len(doc["answers"])))
    for stale in sorted(glob.glob(os.path.join(ANSWERS, "*.json"))):
        base = os.path.splitext(os.path.basename(stale))[0]
        if not os.path.exists(os.path.join(PROGRAMS, base + ".py")):
            os.remove(stale)
            print("removed stale %s" % os.path.basename(stale))
    print("%d recorded, %d failed" % (len(paths) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
