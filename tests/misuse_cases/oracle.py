"""The oracle: run every case with real TensorFlow and report where the table disagrees."""
from __future__ import annotations

from . import CASES
from .case_table import same, summarize


def outcome(fn, module):
    try:
        result = fn(module)
    except Exception as exc:  # noqa: BLE001  (any class is an answer here)
        return ("raises", type(exc).__name__, str(exc).splitlines()[0][:160] if str(exc) else "")
    try:
        return ("value", summarize(result), "")
    except Exception as exc:  # noqa: BLE001  (TF's rank > 64 tensors have no NumPy value)
        return ("value", f"<no NumPy value: {type(exc).__name__}>", str(exc)[:160])


def _literal(x) -> str:
    text = repr(x)
    return text.replace("nan", "NAN").replace("inf", "INF")


def main():
    import os
    import sys
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as tf
    bad = 0
    for case in CASES:
        kind, what, text = outcome(case.fn, tf)
        if case.tf_raises is not None:
            ok = kind == "raises" and what == case.tf_raises
        elif case.differs is not None:
            ok = kind == "value"          # TensorFlow computes what tapeviz refuses
        else:
            wanted = case.expect if getattr(case, "tf_value", None) is None else case.tf_value
            ok = kind == "value" and same(what, wanted)
        if not ok or "-v" in sys.argv:
            bad += not ok
            shown = what if kind == "raises" else _literal(what)
            print(f"{'ok  ' if ok else 'DIFF'} {case.id}: TF {kind} {shown} {text}")
    print(f"{len(CASES)} cases, {bad} disagree with TensorFlow {tf.__version__}")
