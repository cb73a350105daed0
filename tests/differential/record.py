"""Record TensorFlow's answers to the random programs into answers/*.json.gz.

Run it in a virtual environment with tensorflow-cpu (never a dependency of the project):

    python3 -m venv ../tfvenv && ../tfvenv/bin/pip install tensorflow-cpu numpy
    ../tfvenv/bin/python tests/differential/record.py            # the CI set and the long set

Each file holds the generator's arguments, the TensorFlow version, and for each program the
program itself (plain JSON) and TensorFlow's answers (interpret.run). Floats keep 9
significant digits, enough for float32 and for the tolerances used on float64.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")     # the same sums in the same order
os.environ.setdefault("OMP_NUM_THREADS", "1")

from generate import generate  # noqa: E402
from interpret import run  # noqa: E402

# name: (seed, count). The replay test runs "ci" always and "long" with --differential=long.
SETS = {"ci": (0, 1200), "long": (1, 1600)}


def answers_path(name):
    return os.path.join(HERE, "answers", f"{name}.json.gz")


def record(name):
    import tensorflow as tf

    tf.get_logger().setLevel("ERROR")      # pfor's retracing warnings
    seed, count = SETS[name]
    cases = []
    for program in generate(count, seed):
        try:
            cases.append({"program": program, "answers": run(program, tf)})
        except Exception as e:      # a bug of the interpreter: say which program, go on
            print("cannot record", program["id"], type(e).__name__, e, file=sys.stderr)
    doc = {"tensorflow_version": tf.__version__, "seed": seed, "count": count,
           "cases": cases}
    os.makedirs(os.path.dirname(answers_path(name)), exist_ok=True)
    with gzip.GzipFile(answers_path(name), "wb", mtime=0) as f:
        f.write(json.dumps(doc, separators=(",", ":")).encode())
    return len(cases)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # (no `choices` with a list default: argparse checks the whole list against them)
    parser.add_argument("sets", nargs="*", help=f"some of {sorted(SETS)} (default: all)")
    names = parser.parse_args(argv).sets or sorted(SETS)
    unknown = sorted(set(names) - set(SETS))
    if unknown:
        parser.error(f"unknown sets {unknown}; choose from {sorted(SETS)}")
    for name in names:
        print(name, record(name), "programs ->", os.path.relpath(answers_path(name)))


if __name__ == "__main__":
    main()
