"""What golden answers cannot check of `tv.data` and `tv.function`: shuffle's order is
reproducible (TensorFlow's own order is its generator's, not imitated), and a
`@tv.function` training step is recorded and explained like any other code."""
import numpy as np
import pytest

import tapeviz as tv


def _order(ds):
    return [int(x) for x in ds]


def test_shuffle_repeats_under_set_seed_and_reshuffles_each_epoch():
    tv.random.set_seed(7)
    first = tv.data.Dataset.range(30).shuffle(10)
    epochs = [_order(first), _order(first)]
    tv.random.set_seed(7)
    again = tv.data.Dataset.range(30).shuffle(10)
    assert [_order(again), _order(again)] == epochs       # the same run, the same orders
    assert epochs[0] != epochs[1]                          # a new order each epoch
    assert sorted(epochs[0]) == list(range(30))
    fixed = tv.data.Dataset.range(30).shuffle(10, seed=3, reshuffle_each_iteration=False)
    assert _order(fixed) == _order(fixed) != list(range(30))


def test_a_buffer_of_one_keeps_the_order_and_a_small_buffer_moves_elements_only_so_far():
    assert _order(tv.data.Dataset.range(12).shuffle(1)) == list(range(12))
    out = _order(tv.data.Dataset.range(100).shuffle(4, seed=0))
    # an element leaves the buffer no earlier than buffer_size - 1 places before its index
    assert all(pos >= value - 3 for pos, value in enumerate(out))


@pytest.mark.parametrize("buffer", [1, 4, 29, 30, 100])
def test_shuffled_slices_come_in_the_order_of_any_shuffled_dataset_and_batch_as_rows(buffer):
    # slices of arrays shuffle and batch by gathering rows; the order and the batches must
    # be those of the element-by-element pipeline (Dataset.range, or a map in between)
    x = np.arange(60, dtype=np.float32).reshape(30, 2)
    sliced = tv.data.Dataset.from_tensor_slices((x, np.arange(30))).shuffle(
        buffer, seed=5, reshuffle_each_iteration=False)
    order = _order(tv.data.Dataset.range(30).shuffle(buffer, seed=5,
                                                     reshuffle_each_iteration=False))
    assert [int(i) for _, i in sliced] == order
    assert sorted(order) == list(range(30))
    mapped = tv.data.Dataset.from_tensor_slices((x, np.arange(30))).map(
        lambda a, i: (a, i)).shuffle(buffer, seed=5, reshuffle_each_iteration=False)
    assert [int(i) for _, i in mapped] == order
    batches = list(sliced.batch(8))
    assert [tuple(b.shape) for b, _ in batches] == [(8, 2)] * 3 + [(6, 2)]
    assert batches[0][0].dtype == tv.float32 and batches[0][1].dtype == tv.int64
    np.testing.assert_array_equal(np.concatenate([i.numpy() for _, i in batches]), order)
    np.testing.assert_array_equal(np.concatenate([b.numpy() for b, _ in batches]), x[order])
    assert len(list(sliced.batch(8, drop_remainder=True))) == 3


def test_a_function_step_is_recorded_and_explained():
    w = tv.Variable([1.0, 2.0], name="w")
    b = tv.Variable(0.5, name="b")

    @tv.function
    def step(x):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(w * x) + float(b.numpy())
        return tape, loss

    with tv.events.capture() as seen:
        tape, loss = step(tv.constant([3.0, 4.0]))
        grads = tape.gradient(loss, [w, b])
    assert np.allclose(grads[0].numpy(), [3.0, 4.0]) and grads[1] is None
    assert "op_recorded" in seen.kinds()
    why = [e for e in seen if e.kind == "gradient_finished"][0].results
    assert [r["cause"] for r in why] == ["ok", "numpy_escape"]


def test_input_signature_counts_arguments_and_methods_bind():
    spec = [tv.TensorSpec([None], tv.float32)]

    @tv.function(input_signature=spec)
    def f(x):
        return x + 1.0

    with pytest.raises(TypeError, match="input_signature holds 1 TensorSpec"):
        f(tv.constant([1.0]), tv.constant([2.0]))

    class M(tv.Module):
        @tv.function(input_signature=spec)
        def __call__(self, x):
            return x * 2.0
    assert M()(tv.constant([2.0])).numpy().tolist() == [4.0]
