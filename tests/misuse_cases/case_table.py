"""How a misuse case is written down (`Case`, `raises`, `value`, `T`) and compared
(`summarize`, `same`), and the helpers the cases share; see the package's docstring."""
from __future__ import annotations

import math
import re

import numpy as np

NAN, INF = float("nan"), float("inf")
#: how a message says what to do (a bare "must" or "should" restates the rule, not the fix)
FIX = re.compile(r"\b(fix|use)\b", re.IGNORECASE)


class Case:
    def __init__(self, fn, family, tf_raises=None, must=(), expect=None, differs=None):
        self.fn = fn
        self.id = fn.__name__.replace("_", "-")
        self.family = family
        self.tf_raises = tf_raises          # TensorFlow's exception class name, or None
        self.must = tuple(must)             # fragments the message must contain
        self.expect = expect                # TensorFlow's value (when it does not raise)
        self.differs = differs              # (tapeviz class name, why) when tapeviz differs

    def __repr__(self):
        return f"<Case {self.id}>"


CASES: list[Case] = []
_FAMILY = ["?"]


def family(name):
    _FAMILY[0] = name


def raises(tf_class, *must, differs=None):
    def deco(fn):
        CASES.append(Case(fn, _FAMILY[0], tf_class, must, differs=differs))
        return fn
    return deco


def value(expect, tf_value=None, why=None):
    """TensorFlow does not raise; tapeviz returns `expect`. When TensorFlow's value is wrong
    (`tf_value`, with `why`), `expect` is the right one and the oracle checks TF's."""
    def deco(fn):
        case = Case(fn, _FAMILY[0], None, expect=expect)
        case.tf_value, case.why = tf_value, why
        CASES.append(case)
        return fn
    return deco


def T(shape, dtype, values):
    """A tensor outcome: shape, dtype name and values (nested lists)."""
    return ("T", tuple(shape), dtype, values)


def summarize(x):
    """A framework-independent picture of a result (tensors, None, lists, numbers)."""
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return [summarize(v) for v in x]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        values = a.tolist()
        if a.dtype.kind == "O":
            values = np.vectorize(lambda b: b.decode() if isinstance(b, bytes) else b,
                                  otypes=[object])(a).tolist() if a.ndim else \
                (a.item().decode() if isinstance(a.item(), bytes) else a.item())
        return T(a.shape, x.dtype.name, values)
    if isinstance(x, (bool, int, float, str)):
        return x
    return repr(x)


def same(actual, expected, rtol=1e-6) -> bool:
    if isinstance(expected, tuple) and expected and expected[0] == "T":
        return (isinstance(actual, tuple) and actual[:3] == expected[:3]
                and same(actual[3], expected[3], rtol))
    if isinstance(expected, list):
        return (isinstance(actual, list) and len(actual) == len(expected)
                and all(same(a, e, rtol) for a, e in zip(actual, expected)))
    if isinstance(expected, float) and isinstance(actual, (int, float)):
        if math.isnan(expected):
            return math.isnan(actual)
        return math.isclose(actual, expected, rel_tol=rtol, abs_tol=rtol)
    return actual == expected


# ---------------------------------------------------------------------------------------------
# helpers shared by cases (work with either framework)


def grad_of(tf, fn, *xs):
    """d fn(*xs) / d xs, the xs watched constants."""
    xs = [tf.constant(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = fn(*xs)
    return tape.gradient(y, xs)


def keras_of(tf):
    """`tf.keras` under tapeviz; tf-keras (Keras 2) under real TensorFlow."""
    if tf.__name__ == "tensorflow":
        import tf_keras
        return tf_keras
    return tf.keras
