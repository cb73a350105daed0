"""An optimizer's update of a variable: what it allocates, and what the values read before it
keep (TensorFlow's rule, checked in a virtual environment with tensorflow-cpu: a tensor read
from a variable, a reshape of it and an identity of it keep the old value after
`SGD.apply_gradients`)."""
import tracemalloc
import warnings

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events


def _sgd_step(shape=(512, 512), lr=0.5):
    rng = np.random.default_rng(0)
    old = rng.normal(size=shape).astype(np.float32)
    grad = rng.normal(size=shape).astype(np.float32)
    w = tv.Variable(old, name="w")
    opt = tv.keras.optimizers.SGD(learning_rate=lr)
    return w, opt, old, grad, np.float32(lr)


def _update_peak(opt, w, grad) -> int:
    """tracemalloc's peak over one more SGD update (its variables made by a first one)."""
    opt.apply_gradients([(tv.constant(grad), w)])
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        opt.apply_gradients([(tv.constant(grad), w)])
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_sgd_update_makes_one_array_when_no_one_listens():
    # the new value is written into the update `g * lr` the optimizer just made (no one else
    # holds it), not into a second array beside it
    w, opt, old, grad, lr = _sgd_step()
    peak = _update_peak(opt, w, grad)
    assert peak < 1.5 * old.nbytes, f"the update allocated {peak} bytes for a {old.nbytes}-byte variable"
    np.testing.assert_array_equal(w.numpy(), old - lr * grad - lr * grad)


def test_values_read_before_an_update_keep_the_old_value():
    w, opt, old, grad, lr = _sgd_step(shape=(2, 2))
    read, view, same = w.read_value(), tv.reshape(w, [-1]), tv.identity(w)
    opt.apply_gradients([(tv.constant(grad), w)])
    np.testing.assert_array_equal(read.numpy(), old)
    np.testing.assert_array_equal(view.numpy(), old.reshape(-1))
    np.testing.assert_array_equal(same.numpy(), old)
    np.testing.assert_array_equal(w.numpy(), old - lr * grad)


def test_a_listener_gets_the_update_not_the_new_value():
    w, opt, old, grad, lr = _sgd_step(shape=(4, 4))
    seen = []
    with events.subscribe(seen.append, kinds=["variable_assigned"]):
        opt.apply_gradients([(tv.constant(grad), w)])
    (event,) = [e for e in seen if e.variable["name"] == "w:0"]
    assert event.value["summary"]["max"] == float((lr * grad).max())
    np.testing.assert_array_equal(w.numpy(), old - lr * grad)


def test_an_sgd_update_makes_one_array_while_a_listener_keeps_its_event():
    # the event holds what makes the update again (the gradient and the rate), not a copy
    # of it: the new value is still written into the update's own array
    w, opt, old, grad, lr = _sgd_step()
    kept = []
    with events.subscribe(kept.append, kinds=["variable_assigned"]):
        peak = _update_peak(opt, w, grad)
    assert peak < 1.5 * old.nbytes, f"the update allocated {peak} bytes for a {old.nbytes}-byte variable"
    # read only now, after both updates wrote their arrays: each says its own update
    updates = [e.value["summary"] for e in kept if e.variable["name"] == "w:0"]
    assert [u["max"] for u in updates] == [float((lr * grad).max())] * 2
    assert [u["norm"] for u in updates] == [pytest.approx(float(np.linalg.norm(lr * grad)),
                                                          rel=1e-6)] * 2


def test_a_later_read_says_the_update_applied_though_its_numpy_gradient_changed():
    # a NumPy gradient is the user's array: changing it after apply_gradients must not
    # change what the event (read later, as a recording's ring reads it) says was applied
    w, opt, old, grad, lr = _sgd_step(shape=(3, 2))
    given = grad.copy()
    kept = []
    with events.subscribe(kept.append, kinds=["variable_assigned"]):
        opt.apply_gradients([(given, w)])
    given[:] = 100.0
    (event,) = [e for e in kept if e.variable["name"] == "w:0"]
    assert event.value["summary"]["value"] == (lr * grad).tolist()
    assert event.variable["summary"]["value"] == (old - lr * grad).tolist()


def test_an_update_that_overflows_warns_nothing_as_tensorflow():
    # TensorFlow's kernels say nothing when an update overflows or makes NaN: the result is
    # what the next gradient's explanation tells. By hand: 1e30 * 1e30 is Inf in float32, so
    # SGD writes 1 - Inf and 2 - 1e30; Adam's first step with an Inf gradient is Inf / Inf.
    w = tv.Variable([1.0, 2.0], name="w")
    v = tv.Variable([1.0], name="v")
    kept = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with events.subscribe(kept.append, kinds=["variable_assigned"]):
            tv.keras.optimizers.SGD(1e30).apply_gradients([(tv.constant([1e30, 1.0]), w)])
            tv.keras.optimizers.Adam(0.1).apply_gradients([(tv.constant([np.inf]), v)])
        # read now, with the update made again for it: still no warning
        (update,) = [e.value["summary"] for e in kept if e.variable["name"] == "w:0"]
    np.testing.assert_array_equal(w.numpy(), np.float32([-np.inf, 2 - 1e30]))
    assert np.isnan(v.numpy()).all()
    assert update["value"] == ["inf", float(np.float32(1e30))]
