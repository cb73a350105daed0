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

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import golden_format  # noqa: E402
import tf_recorder  # noqa: E402


def runner_command(path, out_path):
    return [sys.executable, os.path.join(HERE, "golden_format.py"), "run", "tensorflow", path,
            out_path]


def main(argv):
    return tf_recorder.record_programs(
        os.path.join(HERE, "programs"), os.path.join(HERE, "answers"), argv, runner_command,
        "tests/golden/generate.py", jobs=max(1, min(4, os.cpu_count() or 1)),
        extra_fields={"format_version": golden_format.FORMAT_VERSION})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
