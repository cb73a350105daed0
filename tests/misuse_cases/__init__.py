"""The misuse corpus as data: programs that misuse the API, and what TensorFlow does with them.

Every case is a function of the framework module, so the very same code runs with
`tapeviz` (tests/test_misuse.py) and with real TensorFlow (oracle.py). Each case
records TensorFlow's outcome:

* `raises("InvalidArgumentError", "MatMul", "(2, 3)", ...)`: TensorFlow raises that class;
  tapeviz must raise the same class (`tv.errors.X` for TensorFlow's `tf.errors.X`, the builtin
  otherwise) with a message that contains every listed fragment (the op or API function, the
  shapes, the dtypes) and says how to fix it;
* `value(T(shape, dtype, values), ...)`: TensorFlow does not raise (NaN inputs, empty arrays,
  0-d versus 1-element arrays...); tapeviz must return TensorFlow's value.

A case where tapeviz deliberately differs from TensorFlow says so with `differs=` (the class
tapeviz raises and why).

Check the table against real TensorFlow (never a dependency of the project):

    python tests/misuse_cases        # in a virtual environment with tensorflow-cpu: prints
                                     # every case where TensorFlow disagrees

One module a kind of misuse; each calls `family(...)` before its cases, and CASES holds them
all in the order the modules are imported below.
"""
from __future__ import annotations

from .case_table import CASES, FIX, Case, T, same, summarize
from . import (shapes, dtypes, gradient_arguments, gradient_edges, special_values,  # noqa: F401
               axes, arguments, op_arguments, keras)

__all__ = ["CASES", "FIX", "Case", "T", "same", "summarize"]
