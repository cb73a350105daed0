"""tv.nn: TensorFlow's values at the edges, gradient conventions at kinks, errors, dropout."""
import numpy as np
import pytest

import tapeviz as tv
from tapeviz.errors import InvalidArgumentError


def _vg(f, x):
    x = tv.constant(x)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return y.numpy(), tape.gradient(y, x).numpy()


def test_gradients_at_kinks_are_tensorflows():
    x = [-1.0, 0.0, 1.0, 6.0]
    assert _vg(tv.nn.relu, x)[1].tolist() == [0, 0, 1, 1]
    assert _vg(tv.nn.relu6, x)[1].tolist() == [0, 0, 1, 0]
    np.testing.assert_allclose(_vg(tv.nn.leaky_relu, x)[1], [0.2, 0.2, 1, 1])
    assert _vg(tv.nn.elu, x)[1][1:].tolist() == [1, 1, 1]


def test_stable_forms_at_extremes():
    y, g = _vg(tv.nn.softplus, [-100.0, 0.0, 100.0])
    assert y.tolist() == [0.0, pytest.approx(np.log(2)), 100.0] and g.tolist() == [0, 0.5, 1]
    y, g = _vg(tv.nn.softmax, [1000.0, 1000.0, 0.0])
    assert np.all(np.isfinite(y)) and y.tolist() == [0.5, 0.5, 0.0]
    y, _ = _vg(tv.nn.log_softmax, [1000.0, 0.0])
    assert y.tolist() == [0.0, -1000.0]
    y = tv.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[100.0, 100.0])
    assert y.numpy().tolist() == [0.0, 100.0]


def test_gelu_exact_and_approximate_values():
    x = np.array([-1.0, 0.5, 2.0])
    from math import erf
    exact = [0.5 * v * (1 + erf(v / np.sqrt(2))) for v in x]
    np.testing.assert_allclose(tv.nn.gelu(x).numpy(), exact, rtol=1e-12)
    approx = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))
    np.testing.assert_allclose(tv.nn.gelu(x, approximate=True).numpy(), approx, rtol=1e-12)


def test_softmax_cross_entropy_gradients_and_dtypes():
    labels = tv.constant([[0.2, 0.3, 0.5]])
    logits = tv.constant([[0.5, 2.5, -1.0]])
    with tv.GradientTape() as tape:
        tape.watch([labels, logits])
        loss = tv.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    gz, gx = tape.gradient(loss, [labels, logits])
    lsm = logits.numpy() - np.log(np.exp(logits.numpy()).sum())
    np.testing.assert_allclose(gx.numpy(), np.exp(lsm) - labels.numpy(), rtol=1e-6)
    np.testing.assert_allclose(gz.numpy(), -lsm, rtol=1e-6)
    assert loss.dtype == gx.dtype == tv.float32 and loss.shape == (1,)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_sparse_cross_entropy_refuses_every_label_outside_the_classes(dtype):
    # the check reads negative labels as unsigned: -1 as a uint8 is 255, not past 300 classes
    for classes in (3, 300):
        logits = tv.constant(np.zeros((3, classes), np.float32))
        top = min(classes - 1, np.iinfo(dtype).max)     # the last class the dtype can name
        bad = [classes, classes + 1] if np.dtype(dtype).kind == "u" else [-1, classes, -128]
        for label in bad:
            if np.array(label).astype(dtype).item() != label:   # not representable
                continue
            labels = np.array([0, label, top], dtype)
            with pytest.raises(InvalidArgumentError, match=f"label value of {label} "):
                tv.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        good = np.array([0, top, 1], dtype)
        loss = tv.nn.sparse_softmax_cross_entropy_with_logits(labels=good, logits=logits)
        np.testing.assert_allclose(loss.numpy(), np.log(classes), rtol=1e-6)


def test_sparse_cross_entropy_errors_like_tensorflow():
    logits = tv.constant([[2.0, 1.0, 0.1], [0.5, 2.5, -1.0]])
    with pytest.raises(InvalidArgumentError, match="outside the valid range"):
        tv.nn.sparse_softmax_cross_entropy_with_logits(labels=[3, 0], logits=logits)
    with pytest.raises(InvalidArgumentError, match="int32, int64"):
        tv.nn.sparse_softmax_cross_entropy_with_logits(labels=[1.0, 0.0], logits=logits)
    with pytest.raises(ValueError, match=r"Rank mismatch.*\(2, 1\).*\(2, 3\)"):
        tv.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1], [0]], logits=logits)
    with pytest.raises(ValueError, match="Shape mismatch"):
        tv.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0, 2], logits=logits)
    with pytest.raises(InvalidArgumentError, match="broadcastable"):
        tv.nn.softmax_cross_entropy_with_logits(labels=[[1.0, 0.0]], logits=logits)
    with pytest.raises(ValueError, match="same shape"):
        tv.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=logits)
    with pytest.raises(InvalidArgumentError, match="Softmax"):
        tv.nn.softmax(tv.constant([1, 2]))
    r = tv.nn.relu(tv.constant([-1, 2]))          # TF's relu takes integers
    assert r.dtype == tv.int32 and r.numpy().tolist() == [0, 2]


def test_sparse_cross_entropy_labels_get_none_and_int64_labels_work():
    logits = tv.constant([[2.0, 1.0, 0.1], [0.5, 2.5, -1.0]])
    labels = tv.constant([2, 0], dtype=tv.int64)
    with tv.GradientTape() as tape:
        tape.watch(logits)
        loss = tv.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    g = tape.gradient(loss, logits).numpy()
    sm = np.exp(logits.numpy()) / np.exp(logits.numpy()).sum(1, keepdims=True)
    np.testing.assert_allclose(g, sm - np.eye(3)[[2, 0]], rtol=1e-6)


def test_l2_loss_and_its_jacobian():
    x = tv.constant([[1.0, -2.0], [3.0, 0.5]])
    assert float(tv.nn.l2_loss(x)) == pytest.approx(7.125)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = tv.nn.l2_loss(x)
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), x.numpy())


def test_batched_jacobians_through_fused_kernels():
    x = tv.constant(np.random.default_rng(0).normal(size=(3, 4)))
    with tv.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tv.nn.log_softmax(tv.nn.relu(x) + tv.nn.softplus(x))
    jac = tape.batch_jacobian(y, x).numpy()
    full = tape.jacobian(y, x).numpy()
    for b in range(3):
        np.testing.assert_allclose(jac[b], full[b, :, b, :], rtol=1e-12)


def test_dropout_scales_keeps_dtype_and_is_seeded():
    tv.random.set_seed(0)
    x = tv.ones((1000,))
    y = tv.nn.dropout(x, rate=0.25).numpy()
    assert set(np.unique(y).tolist()) <= {0.0, np.float32(1 / 0.75)}
    assert 0.15 < np.mean(y == 0) < 0.35
    tv.random.set_seed(0)
    np.testing.assert_array_equal(tv.nn.dropout(x, rate=0.25).numpy(), y)
    assert tv.nn.dropout(x, rate=0.0) is x
    mask = tv.nn.dropout(tv.ones((4, 5)), rate=0.5, noise_shape=[4, 1]).numpy()
    assert np.all(mask == mask[:, :1])
    with pytest.raises(ValueError, match="rate"):
        tv.nn.dropout(x, rate=1.0)
    with pytest.raises(ValueError, match="floating point"):
        tv.nn.dropout(tv.constant([1, 2]), rate=0.5)
    xv = tv.constant(np.ones((50, 2), np.float32))
    with tv.GradientTape() as tape:
        tape.watch(xv)
        d = tv.nn.dropout(xv, rate=0.5)
    g = tape.gradient(d, xv)
    assert g.dtype == tv.float32
    np.testing.assert_array_equal(g.numpy(), d.numpy())


def test_nn_namespace_has_the_api_and_no_top_level_leak():
    names = ("relu relu6 leaky_relu elu gelu softplus softsign sigmoid tanh softmax log_softmax "
             "l2_loss sigmoid_cross_entropy_with_logits softmax_cross_entropy_with_logits "
             "sparse_softmax_cross_entropy_with_logits dropout").split()
    for n in names:
        assert callable(getattr(tv.nn, n)), n
    assert tv.nn.__name__ == "tapeviz.nn"


def test_docstring_examples_of_the_kit_run():
    import doctest
    import importlib
    for name in ("tapeviz.engine.ops.nn", "tapeviz.engine.ops.clip", "tapeviz.debug",
                 "tapeviz.module", "tapeviz.keras", "tapeviz.keras.layers",
                 "tapeviz.keras.metrics", "tapeviz.engine.ops.conv", "tapeviz.engine.ops.pooling",
                 "tapeviz.engine.ops.normalization", "tapeviz.keras.layers_core",
                 "tapeviz.keras.layers_conv", "tapeviz.keras.layers_pooling",
                 "tapeviz.keras.layers_normalization", "tapeviz.keras.layers_reshaping",
                 "tapeviz.events.capture"):
        tv.keras.backend.clear_session()
        result = doctest.testmod(importlib.import_module(name))
        assert result.failed == 0 and result.attempted > 0, (name, result)


# softmax's shift (the row max) over a short class axis takes the transposed copy's columns:
# the same values as NumPy's own max, including NaN rows, strided and 3-D logits
@pytest.mark.parametrize("shape", [(256, 10), (1000, 2), (4, 64, 3), (64, 1000), (2, 3),
                                   (128, 16), (128, 17), (300, 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_softmax_shift_is_numpys_max_exactly(shape, dtype):
    from tapeviz.engine.ops.nn import _max_kept
    x = (np.random.default_rng(5).normal(size=shape) * 5).astype(dtype)
    if x.size > 100:
        x.flat[7] = np.nan
        x.flat[-3] = -np.inf
    for axis in (-1, x.ndim - 1):
        got = _max_kept(x, axis)
        assert got.dtype == x.dtype
        np.testing.assert_array_equal(got, np.max(x, axis=axis, keepdims=True))
    strided = x[..., ::2]
    np.testing.assert_array_equal(_max_kept(strided, -1), np.max(strided, axis=-1, keepdims=True))


def test_sparse_cross_entropy_of_a_binary_batch_against_float64():
    rng = np.random.default_rng(9)
    logits = (rng.normal(size=(1000, 2)) * 4).astype(np.float32)
    labels = rng.integers(0, 2, size=1000).astype(np.int32)
    x = tv.constant(logits)
    with tv.GradientTape() as tape:
        tape.watch(x)
        loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(labels, x))
    g = tape.gradient(loss, x)
    z = logits.astype(np.float64)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    want_loss = -np.log(p[np.arange(1000), labels]).mean()
    p[np.arange(1000), labels] -= 1
    assert loss.dtype == tv.float32 and g.dtype == tv.float32
    np.testing.assert_allclose(float(loss), want_loss, rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), p / 1000, rtol=1e-5, atol=1e-9)
