"""Expected outputs of the demos, from real TensorFlow.

Runs each demo's ``lesson(tf)`` with ``tf`` = TensorFlow (CPU) in its own process and stores
what it prints in ``tests/golden/demo_outputs/<stem>.txt``; ``tests/test_demos.py`` compares
tapeviz's output with these files. TensorFlow is never a dependency of tapeviz: it lives in a
throwaway virtual environment::

    python3 -m venv ../tfvenv && ../tfvenv/bin/pip install tensorflow-cpu numpy scikit-learn
    ../tfvenv/bin/python tests/golden/generate_demo_outputs.py            # every demo
    ../tfvenv/bin/python tests/golden/generate_demo_outputs.py 04 09      # some demos

Settings, the same as the tests use:

- ``TF_USE_LEGACY_KERAS=1``: ``tf.keras`` is Keras 2 (``tf_keras``), the Keras of the
  tutorials (TensorFlow <= 2.15), whose variables are named ``dense/kernel:0`` as in tapeviz's
  API contract. Keras 3 names them ``kernel``.
- ``TAPEVIZ_DEMO_EPOCHS=2``: the MLP demo trains for two epochs, as in the tests.
- ``CUDA_VISIBLE_DEVICES=''``, ``TF_CPP_MIN_LOG_LEVEL=3``: CPU only, no log noise (TensorFlow
  logs go to stderr, which is not stored anyway).
"""
from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ROOT / "demos"
OUT = Path(__file__).resolve().parent / "demo_outputs"

ENV = {
    "TF_USE_LEGACY_KERAS": "1",
    "TAPEVIZ_DEMO_EPOCHS": "2",
    "CUDA_VISIBLE_DEVICES": "",
    "TF_CPP_MIN_LOG_LEVEL": "3",
    "PYTHONHASHSEED": "0",
}


def demo_paths(selected=()) -> list[Path]:
    paths = sorted(DEMOS.glob("[0-9][0-9]_*.py"))
    if selected:
        paths = [p for p in paths if any(p.stem.startswith(s) for s in selected)]
    return paths


def run_one(path: Path) -> str:
    """In this process: import the demo as a plain module and run its lesson with TensorFlow."""
    import tensorflow as tf

    spec = importlib.util.spec_from_file_location(f"demo_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    buffer = io.StringIO()
    with redirect_stdout(buffer):
        module.lesson(tf)
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:                 # child process: one demo, output to stdout
        sys.stdout.write(run_one(Path(argv[1])))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    failed = []
    for path in demo_paths(argv):
        proc = subprocess.run([sys.executable, __file__, "--one", str(path)], cwd=ROOT,
                              env={**os.environ, **ENV}, capture_output=True, text=True)
        if proc.returncode != 0:
            failed.append(path.stem)
            print(f"FAILED {path.stem}:\n{proc.stderr[-3000:]}", file=sys.stderr)
            continue
        (OUT / f"{path.stem}.txt").write_text(proc.stdout)
        print(f"{path.stem}: {len(proc.stdout.splitlines())} lines")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
