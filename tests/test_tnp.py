"""tf.experimental.numpy beyond the golden answers: its gradients against central finite
differences in float64 (an independent truth for every function built on the ops), and what
tapeviz says about the parts of tf.experimental it does not imitate.

(Tests that switch on experimental_enable_numpy_behavior run in the golden programs, each in
a fresh process: the switch is for the whole process, as TensorFlow's.)
"""
from __future__ import annotations

import numpy as np
import pytest

import tapeviz as tv
import tapeviz.experimental.numpy as tnp

_RNG = np.random.default_rng(7)
X = _RNG.uniform(0.5, 2.0, size=(3, 4))
W = _RNG.uniform(-1.0, 1.0, size=(4, 2))

#: name -> a scalar function of two float64 arrays, written with tnp only
FUNCTIONS = {
    "matmul_maximum_sum": lambda x, w: tnp.sum(tnp.maximum(tnp.matmul(x, w), 0.1) ** 2),
    "dot_tanh_mean": lambda x, w: tnp.mean(tnp.tanh(tnp.dot(x, w))),
    "exp_log_sqrt": lambda x, w: tnp.sum(tnp.exp(-x) * tnp.log(x) + tnp.sqrt(x)) + tnp.sum(w),
    "where_clip": lambda x, w: tnp.sum(tnp.where(x > 1.0, x, tnp.square(x))
                                       * tnp.clip(x, 0.7, 1.5)) + tnp.sum(tnp.abs(w)),
    "reshape_transpose_concatenate": lambda x, w: tnp.sum(
        tnp.concatenate([tnp.reshape(x, [4, 3]), tnp.transpose(w)[:, :3]], axis=0) ** 3),
    "stack_max_var_std": lambda x, w: tnp.sum(tnp.max(tnp.stack([x, 2.0 - x]), axis=0))
    + tnp.var(x) + tnp.std(w),
    "outer_einsum_tensordot": lambda x, w: tnp.sum(tnp.outer(x[0], w[:, 0]))
    + tnp.einsum("ij,jk->", x, w) + tnp.tensordot(x, x, axes=2),
    "sort_diff_pad_average": lambda x, w: tnp.sum(tnp.diff(tnp.pad(tnp.sort(x), [[1, 0], [0, 1]],
                                                                   "reflect")) ** 2)
    + tnp.sum(tnp.average(x, axis=1, weights=w[:, 0] ** 2)),
    "prod_cumsum_mean": lambda x, w: tnp.prod(x[0]) + tnp.sum(tnp.cumsum(w, axis=0) ** 2)
    + tnp.mean(x, axis=(0, 1)),
}


def _gradients(f, x, w):
    xs = [tv.constant(x), tv.constant(w)]
    with tv.GradientTape() as tape:
        tape.watch(xs)
        y = f(*xs)
    return [g.numpy() for g in tape.gradient(y, xs)]


def _finite_differences(f, x, w, eps=1e-6):
    out = []
    for i, value in enumerate((x, w)):
        grad = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            args = [x.copy(), w.copy()]
            args[i][index] += eps
            up = float(f(*args))
            args[i][index] -= 2 * eps
            grad[index] = (up - float(f(*args))) / (2 * eps)
        out.append(grad)
    return out


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_gradients_through_tnp_match_finite_differences(name):
    f = FUNCTIONS[name]
    for got, want in zip(_gradients(f, X, W), _finite_differences(f, X, W)):
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_tnp_results_are_tensors_the_tape_records():
    x = tv.constant(X)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(tnp.square(x))
    assert isinstance(y, tnp.ndarray) and y.dtype == tv.float64
    assert isinstance(tape.gradient(y, x), tnp.ndarray)


def test_other_experimental_names_say_what_is_imitated():
    with pytest.raises(AttributeError, match=r"tf\.experimental\.numpy only"):
        tv.experimental.dtensor


def test_numpy_methods_before_the_switch_name_it():
    with pytest.raises(AttributeError, match="experimental_enable_numpy_behavior"):
        tv.constant([1.0]).reshape(-1)


def test_star_import_gives_tensorflows_names_not_submodules():
    names = {}
    exec("from tapeviz.experimental.numpy import *", names)
    assert {"sum", "matmul", "float32", "random", "ndarray"} <= set(names)
    assert "math" not in names and "shapes" not in names   # (would shadow Python's math)


def test_a_tensorflow_tnp_name_that_is_not_imitated_says_so():
    with pytest.raises(AttributeError, match="does not imitate tf.experimental.numpy.kron"):
        tnp.kron
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        tnp.no_such_name
