"""A Variable given its value by an assignment before the tape (a warm start, `set_weights`,
last step's optimizer update) is read afresh inside it: when its gradient is None, the cause
is what came after, never the assignment that set it. The line a careful human would name is
marked `# expect`; the gradient is None in each, as in TensorFlow."""
import numpy as np
import pytest

import tapeviz as tv

from test_explain import _expected_line


def assigned_then_used_before_the_tape():
    k = tv.Variable(tv.ones([3, 2]))
    k.assign(tv.fill([3, 2], 0.5))              # a warm start
    c = tv.ones([1, 3]) @ k  # expect
    w = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(c * w)
    return tape, y, k


def set_weights_then_layer_called_before_the_tape():
    layer = tv.keras.layers.Dense(2)
    layer(tv.zeros([1, 3]))
    layer.set_weights([np.ones((3, 2), "float32"), np.zeros(2, "float32")])
    c = layer(tv.ones([1, 3]))  # expect
    w = tv.Variable(1.0)
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(c * w)
    return tape, y, layer.kernel


def assigned_then_cast_to_int():
    k = tv.Variable([1.5, 2.5])
    k.assign([0.5, 3.5])
    with tv.GradientTape() as tape:
        y = tv.reduce_sum(tv.cast(tv.cast(k, tv.int32), tv.float32))  # expect
    return tape, y, k


CASES = [
    (assigned_then_used_before_the_tape, "none", "outside_tape"),
    (set_weights_then_layer_called_before_the_tape, "none", "outside_tape"),
    (assigned_then_cast_to_int, "none", "integer_dtype"),
]


@pytest.mark.parametrize("program,verdict,cause", CASES, ids=[c[0].__name__ for c in CASES])
def test_an_earlier_assignment_is_not_the_cause(program, verdict, cause):
    tape, target, source = program()
    (why,) = tape.explain(target, [source])
    assert (why.verdict, why.cause) == (verdict, cause), str(why)
    assert (why.filename, why.lineno) == (__file__, _expected_line(program)), str(why)
    tape, target, source = program()
    assert tape.gradient(target, source) is None


def test_an_assignment_still_cuts_the_value_it_copies_in():
    # by hand: s takes w * 3's value; the target reads s, so w's path is cut there
    w, s = tv.Variable(2.0), tv.Variable(0.0)
    with tv.GradientTape() as tape:
        s.assign(w * 3.0)
        y = s * s
    (why,) = tape.explain(y, [w])
    assert (why.verdict, why.cause) == ("none", "variable_assign"), str(why)
