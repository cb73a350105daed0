"""Run one program of the wild corpus and store what its ``main()`` returns.

    python wild_runner.py MODULE PROGRAM.py OUT.json

Each program is public TensorFlow 2 code, written with ``import tensorflow as tf``
(and ``from tensorflow import keras`` / ``from tensorflow.keras import layers``). Its
``main()`` returns a dict of answers (tensors, arrays, numbers, lists of them). With
MODULE ``tapeviz`` the imports of ``tensorflow`` are rewritten to ``tapeviz`` and
nothing else in the text changes (line numbers stay), which is the swap a user makes.

This module uses only the standard library and NumPy (and ``golden_format`` for the
answers' normal form), so the same file serves the recorder (under TensorFlow) and the
tests (under tapeviz).
"""
from __future__ import annotations

import json
import os
import re
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "golden"))
sys.path.insert(0, HERE)

import golden_format  # noqa: E402

# `import tensorflow as tf`, `from tensorflow import keras`, `from tensorflow.keras import x`
_IMPORT_RE = re.compile(r"^(\s*(?:import|from)\s+)tensorflow\b", re.MULTILINE)


def swap_imports(source: str, module: str) -> str:
    """The program's text with its `tensorflow` imports naming ``module`` instead."""
    if module == "tensorflow":
        return source
    return _IMPORT_RE.sub(lambda m: m.group(1) + module, source)


def run_program(path: str, module: str):
    """Execute the program with ``tensorflow`` swapped for ``module``; call its main().

    Returns ``(answers, crash)``: the normalised answers (a dict) and a traceback
    string if the program raised (else None)."""
    with open(path, encoding="utf-8") as f:
        source = swap_imports(f.read(), module)
    namespace = {"__name__": "__wild__", "__file__": os.path.abspath(path)}
    try:
        exec(compile(source, os.path.abspath(path), "exec"), namespace)
        result = namespace["main"]()
        if not isinstance(result, dict) or not result:
            raise TypeError("main() must return a non-empty dict of answers, got %r"
                            % type(result).__name__)
        return {str(k): golden_format.normalize(v) for k, v in result.items()}, None
    except Exception:  # noqa: BLE001 - the traceback is the answer
        return {}, traceback.format_exc()


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    module, path, out_path = argv
    answers, crash = run_program(path, module)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"answers": answers, "crash": crash}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
