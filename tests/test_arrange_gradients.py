"""Gradients of the reordering ops (`tapeviz/engine/ops/arrange.py`), the tensor scatters,
`nn.bias_add` and eager control flow, against central finite differences in float64.

These functions are built from registered ops (gather, reshape, concat, where, scatter_nd),
so `tests/test_op_gradients.py` checks their pieces; here each whole function is checked,
index arithmetic included. TensorFlow's own gradients for them are in the golden programs
`ops_arrange` and `control_flow_ops`.
"""
import numpy as np
import pytest

import tapeviz as tv

RNG = np.random.default_rng(7)
X = RNG.permutation(12).reshape(3, 4) * 0.37 - 2.0 + RNG.uniform(-0.05, 0.05, (3, 4))

CASES = {
    "pad_constant": lambda x: tv.pad(x, [[1, 2], [0, 3]], constant_values=0.5),
    "pad_reflect": lambda x: tv.pad(x, [[2, 1], [3, 3]], "REFLECT"),
    "pad_symmetric": lambda x: tv.pad(x, [[3, 0], [4, 2]], "SYMMETRIC"),
    "slice": lambda x: tv.slice(x, [1, 1], [-1, 2]),
    "reverse": lambda x: tv.reverse(x, [0, 1]),
    "roll": lambda x: tv.roll(x, [2, -1, 1], [1, 0, 1]),
    "sort_rows": lambda x: tv.sort(x),
    "sort_columns_descending": lambda x: tv.sort(x, axis=0, direction="DESCENDING"),
    "top_k": lambda x: tv.math.top_k(x, 3).values,
    "meshgrid_xy": lambda x: tv.meshgrid(x[0], x[1, :3], x[2, :2])[0] * 2.0,
    "tensor_scatter_nd_update": lambda x: tv.tensor_scatter_nd_update(
        x, [[0, 1], [2, 3]], x[1, :2] * 3.0),
    "tensor_scatter_nd_add": lambda x: tv.tensor_scatter_nd_add(x, [[1], [1]], x[:2] ** 2),
    "bias_add": lambda x: tv.nn.bias_add(x, x[0] * x[1]),
    "map_fn": lambda x: tv.map_fn(lambda r: tv.reduce_sum(r * r) * r, x),
    "while_loop": lambda x: tv.while_loop(lambda i, p: i < 3, lambda i, p: (i + 1, p * x),
                                          (0, tv.ones_like(x)))[1],
    "cond": lambda x: tv.cond(tv.reduce_sum(x) > 0.0, lambda: tv.sin(x), lambda: x ** 3),
}


def _objective(fn, x, weights):
    return float(np.sum(fn(tv.constant(x)).numpy() * weights))


@pytest.mark.parametrize("name", sorted(CASES))
def test_gradient_matches_central_differences(name):
    fn = CASES[name]
    weights = np.random.default_rng(1).normal(size=fn(tv.constant(X)).shape)
    x = tv.constant(X)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.reduce_sum(fn(x) * weights)
    analytic = tape.gradient(y, x).numpy()
    numeric = np.zeros_like(X)
    for index in np.ndindex(X.shape):
        step = np.zeros_like(X)
        step[index] = 1e-6
        numeric[index] = (_objective(fn, X + step, weights)
                          - _objective(fn, X - step, weights)) / 2e-6
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["pad_reflect", "sort_rows", "top_k", "roll", "map_fn"])
def test_float32_in_float32_gradient_out(name):
    x = tv.constant(X.astype(np.float32))
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.reduce_sum(CASES[name](x))
    assert tape.gradient(y, x).dtype == tv.float32


def test_second_derivative_through_pad_and_sort():
    """d²/dx² Σ sort(pad(x))³ = 6 · (times each x is copied) · x, by the chain rule."""
    x = tv.constant([0.5, -1.5, 2.0], tv.float64)
    copies = np.array([1.0, 3.0, 2.0])   # REFLECT [[2, 1]] of (x0 x1 x2): x2 x1 x0 x1 x2 x1
    with tv.GradientTape() as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            y = tv.reduce_sum(tv.sort(tv.pad(x, [[2, 1]], "REFLECT")) ** 3)
        g = inner.gradient(y, x)
    h = outer.gradient(g, x)
    np.testing.assert_allclose(g.numpy(), 3 * copies * x.numpy() ** 2)
    np.testing.assert_allclose(h.numpy(), 6 * copies * x.numpy())
