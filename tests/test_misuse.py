"""The misuse corpus (tests/misuse_cases/): every misuse gets TensorFlow's answer.

For a case where TensorFlow raises, tapeviz raises the same class (`tv.errors.X` for
TensorFlow's `tf.errors.X`; a builtin class is matched exactly, so a `tv.errors` subclass of
ValueError does not pass for TensorFlow's plain ValueError) and its message names the op or
API function, the shapes and dtypes involved (the case's fragments), and says how to fix it.
For a case where TensorFlow does not raise (NaN inputs, empty arrays, 0-d versus 1-element),
tapeviz returns TensorFlow's value, shape and dtype. Nothing may crash with an internal error.
"""
from __future__ import annotations

import builtins

import pytest

import tapeviz as tv
from misuse_cases import CASES, FIX, same, summarize



def _params():
    out = []
    for case in CASES:
        out.append(pytest.param(case, id=f"{case.family.replace(' ', '-')}:{case.id}"))
    return out


def _is_class(exc, name) -> bool:
    if hasattr(tv.errors, name):
        return isinstance(exc, getattr(tv.errors, name))
    cls = getattr(builtins, name)
    return isinstance(exc, cls) and not isinstance(exc, tv.errors.OpError)


@pytest.mark.parametrize("case", _params())
def test_misuse(case):
    expected = case.differs[0] if case.differs else case.tf_raises
    if expected is None:
        result = case.fn(tv)
        assert same(summarize(result), case.expect), (
            f"TensorFlow gives {case.expect!r}, tapeviz {summarize(result)!r}")
        return
    try:
        result = case.fn(tv)
    except Exception as exc:  # noqa: BLE001  (the class is what is checked)
        message = str(exc)
        assert _is_class(exc, expected), (
            f"expected {expected}, got {type(exc).__module__}.{type(exc).__name__}: {message}")
        missing = [m for m in case.must if m not in message]
        assert not missing, f"message lacks {missing}: {message}"
        assert FIX.search(message), f"message says no fix: {message}"
    else:
        pytest.fail(f"expected {expected}, tapeviz returned {summarize(result)!r}")


def test_corpus_size_and_every_tensorflow_class_recorded():
    assert len(CASES) >= 100
    assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"
    for case in CASES:
        assert case.tf_raises is not None or case.expect is not None or case.differs, case
        if case.differs:
            assert len(case.differs) == 2 and case.differs[1], f"{case.id}: say why it differs"


# --- no internal crash on junk arguments ------------------------------------------------------
# Every public op called with random junk (tensors of every dtype and of empty, scalar and odd
# shapes, NaN/Inf, Python scalars, None, strings, ragged lists, NumPy arrays, dtypes) either
# works or raises one of the classes TensorFlow raises for bad arguments: never AttributeError,
# KeyError, IndexError, ZeroDivisionError, OverflowError or another internal error.
import os  # noqa: E402

import numpy as np  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_OPS = ("add subtract multiply divide floordiv truediv pow square sqrt rsqrt exp log log1p expm1 "
        "sin cos tan tanh sinh cosh asin acos atan sigmoid abs sign negative reciprocal maximum "
        "minimum where clip_by_value reduce_sum reduce_mean reduce_max reduce_min reduce_prod "
        "reduce_logsumexp matmul transpose reshape concat stack unstack split squeeze "
        "expand_dims tile gather gather_nd one_hot cast argmax argmin equal not_equal greater "
        "less greater_equal less_equal logical_and logical_or logical_not cumsum norm zeros ones "
        "zeros_like ones_like fill range linspace eye clip_by_norm clip_by_global_norm "
        "stop_gradient identity constant convert_to_tensor broadcast_to").split()
_NN = ("relu relu6 leaky_relu elu gelu softplus softsign softmax log_softmax l2_loss "
       "sigmoid_cross_entropy_with_logits softmax_cross_entropy_with_logits "
       "sparse_softmax_cross_entropy_with_logits dropout").split()
_FUNCTIONS = ([(n, getattr(tv, n)) for n in _OPS] + [(f"nn.{n}", getattr(tv.nn, n)) for n in _NN]
              + [(f"linalg.{n}", getattr(tv.linalg, n)) for n in "inv det trace diag_part".split()]
              + [("math.reduce_std", tv.math.reduce_std),
                 ("math.reduce_variance", tv.math.reduce_variance)])
_ALLOWED = (tv.errors.OpError, TypeError, ValueError, RuntimeError, NotImplementedError)


@st.composite
def _junk_tensors(draw):
    dtype = draw(st.sampled_from(["float32", "float64", "float16", "int32", "int64", "bool",
                                  "string"]))
    shape = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == "string":
        return tv.constant(np.array(["a"] * n, dtype=object).reshape(shape))
    values = np.random.default_rng(draw(st.integers(0, 99))).normal(size=shape) * 3
    if n and draw(st.booleans()):
        values.flat[0] = draw(st.sampled_from([np.nan, np.inf, -np.inf, 0.0]))
    if dtype in ("int32", "int64"):
        values = np.nan_to_num(values, posinf=7, neginf=-7).astype(dtype)
    elif dtype == "bool":
        values = values > 0
    t = tv.constant(values.astype(dtype) if dtype.startswith("float") else values)
    return tv.Variable(t) if draw(st.integers(0, 5)) == 0 else t


_JUNK = st.one_of(
    _junk_tensors(), _junk_tensors(), _junk_tensors(), st.none(), st.integers(-5, 5),
    st.floats(allow_nan=True), st.sampled_from([2**70, True, "x", "float32", tv.float32,
                                                tv.int32, [[1, 2], [3]], [], (), {"a": 1}]),
    st.lists(st.integers(-3, 3), max_size=4), st.lists(st.floats(-3, 3), max_size=4),
    st.just(np.ones((2, 2))), st.just(np.array(["s"])))
_KEYWORDS = ["axis", "keepdims", "dtype", "perm", "shape", "depth", "multiples", "transpose_b",
             "exclusive", "rate", "labels", "logits", "clip_norm", "axes"]
_FUZZ = settings(max_examples=int(os.environ.get("TAPEVIZ_FUZZ_EXAMPLES", "600")), deadline=None,
                 derandomize=os.environ.get("HYPOTHESIS_PROFILE", "ci") != "long",
                 suppress_health_check=list(HealthCheck), database=None)


@_FUZZ
@given(function=st.sampled_from(_FUNCTIONS), args=st.lists(_JUNK, max_size=3),
       kwargs=st.dictionaries(st.sampled_from(_KEYWORDS), _JUNK, max_size=2))
def test_junk_arguments_raise_tensorflow_classes_never_internal_errors(function, args, kwargs):
    name, fn = function
    try:
        fn(*args, **kwargs)
    except _ALLOWED as exc:
        assert str(exc), f"{name} raised {type(exc).__name__} without a message"
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"{name}(*{args!r}, **{kwargs!r}) crashed with "
                             f"{type(exc).__name__}: {exc}") from exc


# --- tv.events.log_scalar: the same checks with and without a recording -----------------------
# Like tf.summary.scalar, a value is a number or a 0-d tensor (TF's assert_scalar refuses a
# one-element vector too: "Expected scalar shape, saw shape: (1,)"); the checks do not depend
# on whether anyone listens, so a script that runs unrecorded also runs recorded.
_BAD_SCALARS = {
    "string value": (lambda: ("x", "notanumber"), TypeError, ["log_scalar('x')", "str"]),
    "vector": (lambda: ("y", tv.ones([3])), ValueError, ["log_scalar('y')", "(3,)", "float32"]),
    "one-element vector": (lambda: ("y", tv.ones([1])), ValueError, ["(1,)"]),
    "NumPy vector": (lambda: ("y", np.array([2.0, 3.0])), ValueError, ["(2,)"]),
    "string tensor": (lambda: ("y", tv.constant("a")), TypeError, ["string"]),
    "None value": (lambda: ("y", None), TypeError, ["None"]),
    "name not a str": (lambda: (5, 1.0), TypeError, ["name", "5", "int"]),
    "float step": (lambda: ("y", 1.0, 1.5), TypeError, ["step", "1.5"]),
}


@pytest.mark.parametrize("recording", [False, True], ids=["unrecorded", "recorded"])
@pytest.mark.parametrize("case", list(_BAD_SCALARS))
def test_log_scalar_refuses_bad_arguments_whether_or_not_recorded(case, recording, tmp_path):
    make_args, cls, fragments = _BAD_SCALARS[case]
    path = tmp_path / "run.tvz"

    def call():
        with pytest.raises(cls) as info:
            tv.events.log_scalar(*make_args())
        message = str(info.value)
        assert type(info.value) is cls, f"{type(info.value).__name__}: {message}"
        assert all(f in message for f in fragments), message
        assert FIX.search(message), message
        tv.events.log_scalar("after", 2.5, step=3)     # the next good call still works

    if recording:
        with tv.record(path, full=True):
            call()
        scalars = [(e.name, e.value, e.step) for e in tv.load_recording(path).of("scalar")]
        assert scalars == [("after", 2.5, 3)]
    else:
        call()
