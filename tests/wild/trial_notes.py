"""What a blind trial's folder says about its programs, read by run_trial.py and
tests/test_wild.py alike:

- ``not_imitated.json``: program -> what it uses that the README lists as not imitated
  (those programs are left out of the trial's rate and marked as expected failures);
- ``float_sensitive.json``: program -> ``{"answers": [...], "why": ...}``, answers that
  TensorFlow itself changes when its input is perturbed in the last float32 digits (shown by
  the experiment ``why`` describes), so no other implementation's rounding can be expected
  to reproduce them. They are left out of the comparison; every other answer of the
  program still must match, and the left-out ones must still be reported.
"""
from __future__ import annotations

import json
import os


def _read(folder, name) -> dict:
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def not_imitated(folder) -> dict:
    return _read(folder, "not_imitated.json")


def float_sensitive(folder) -> dict:
    return _read(folder, "float_sensitive.json")


def without_sensitive(expected: dict, actual: dict, names) -> tuple:
    """``(expected, actual, missing)``: both answer dicts without the float-sensitive
    ``names``, and those of them the program did not report."""
    exp = dict(expected.get("answers", expected))
    act = dict(actual.get("answers", actual))
    missing = [n for n in names if n not in act]
    for n in names:
        exp.pop(n, None)
        act.pop(n, None)
    return exp, act, missing
