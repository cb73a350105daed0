"""Record TensorFlow's answers for the wild corpus (needs TensorFlow, never in CI).

Run with the Python of a virtual environment with tensorflow-cpu and tf-keras::

    python tests/wild/record.py                  # every program
    python tests/wild/record.py fgsm maml_sine   # some programs

Each program in programs/ runs in a fresh process under real TensorFlow (Keras 2 from
tf-keras, TF_USE_LEGACY_KERAS=1, one thread, oneDNN off) and what its main() returns
goes to answers/<program>.json with the TensorFlow version and the program's sha256.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "golden"))

import tf_recorder  # noqa: E402


def runner_command(path, out_path):
    return [sys.executable, os.path.join(HERE, "wild_runner.py"), "tensorflow", path, out_path]


def main(argv):
    # two at a time: the wild programs train models and each wants a core
    return tf_recorder.record_programs(
        os.path.join(HERE, "programs"), os.path.join(HERE, "answers"), argv, runner_command,
        "tests/wild/record.py", jobs=2)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
