"""Run notes: bugs whose gradients are finite values, so no verdict shows them. Each is told
when its condition holds and only then (the truth marked by hand below: the line a note
names carries its ``# note:`` comment), once while the same subscribers listen, and a
flight recording keeps it whichever calls it keeps."""
from __future__ import annotations

import inspect
import warnings

import numpy as np

import tapeviz as tv


def _notes(fn):
    seen = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # (the loss's own UserWarning, as Keras's)
        with tv.events.subscribe(seen.append, kinds=["note"]):
            fn()
    return sorted((e.code, e.subject, e.site["line"]) for e in seen)


def _marked(fn):
    lines, start = inspect.getsourcelines(fn)
    return sorted((text.split("# note:")[1].split()[0], text.split("# note:")[1].split()[1],
                   start + i) for i, text in enumerate(lines) if "# note:" in text)


def _model(activation, training_bn=True):
    tv.keras.backend.clear_session()
    layers = [tv.keras.layers.Dense(4, name="hidden")]
    if training_bn:
        layers.append(tv.keras.layers.BatchNormalization(name="bn"))
    layers.append(tv.keras.layers.Dense(3, activation=activation, name="head"))
    return tv.keras.Sequential(layers)


X = tv.constant(np.linspace(-1, 1, 30, dtype=np.float32).reshape(5, 6))
Y = tv.constant([0, 1, 2, 0, 1])


def three_buggy_steps():
    model = _model("softmax")
    loss_fn = tv.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(3):                       # told once each, not three times
        with tv.GradientTape() as tape:
            probs = model(X)                 # note: batchnorm_inference bn
            loss = loss_fn(Y, probs)         # note: softmax_as_logits sparse_categorical_crossentropy
        tape.gradient(loss, model.trainable_variables)


def a_frozen_layer_passed_by_hand():
    tv.keras.backend.clear_session()
    embed = tv.keras.layers.Dense(3, trainable=False, name="embed")
    head = tv.keras.layers.Dense(2, name="head")
    opt = tv.keras.optimizers.SGD(0.1)
    for _ in range(3):
        with tv.GradientTape() as tape:
            loss = tv.reduce_sum(head(embed(X)))
        sources = [embed.kernel, head.kernel]
        opt.apply_gradients(zip(tape.gradient(loss, sources), sources))  # note: frozen_layer_updated embed/kernel:0


def three_right_steps():
    model = _model(None)
    model.layers[0].trainable = False        # frozen, and left out by trainable_variables
    opt = tv.keras.optimizers.SGD(0.1)
    loss_fn = tv.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(3):
        with tv.GradientTape() as tape:
            loss = loss_fn(Y, model(X, training=True))
        variables = model.trainable_variables      # (a frozen layer's are left out)
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
    model(X)                                 # inference after training, outside any tape
    probs = _model("softmax", training_bn=False)(X)
    tv.keras.losses.SparseCategoricalCrossentropy()(Y, probs)   # probabilities, told so


W = tv.Variable([[0.5, -0.25, 1.0, 0.1, 0.2, -0.3]], name="w")
K = tv.Variable(0.7, name="k")


def a_loss_term_through_numpy():
    for _ in range(2):                       # told once, not twice
        with tv.GradientTape() as tape:
            p = tv.sigmoid(tv.reduce_sum(X * W, axis=1) * K)
            loss = -tv.reduce_mean(np.log(p)) + 0.01 * tv.reduce_sum(K * K)  # note: escaped_loss_term np.log
        tape.gradient(loss, [W, K])          # (w: None; k: only its penalty's gradient)


def numpy_beside_the_loss():
    with tv.GradientTape() as tape:
        p = tv.sigmoid(tv.reduce_sum(X * W, axis=1) * K)
        print(np.mean(p), np.log(p + 1.0).max())      # read for a log line: p feeds the loss
        q = p * 2.0
        largest = float(np.max(q))                    # a value the loss does not read
        loss = tv.reduce_mean(tv.square(p - 0.5))
    tape.gradient(loss, [W, K])
    with tv.GradientTape() as tape:                   # the whole loss in NumPy: each source's
        p = tv.sigmoid(tv.reduce_sum(X * W, axis=1) * K)   # card says numpy_escape already
        loss = -tv.reduce_mean(np.log(p))
    tape.gradient(loss, [W, K])
    return largest


def test_each_note_is_told_once_at_its_line():
    assert _notes(three_buggy_steps) == _marked(three_buggy_steps)
    assert _notes(a_frozen_layer_passed_by_hand) == _marked(a_frozen_layer_passed_by_hand)
    assert _notes(a_loss_term_through_numpy) == _marked(a_loss_term_through_numpy)


def test_a_loss_term_through_numpy_leaves_a_gradient_that_reads_ok():
    # the bug the note tells: k's gradient is its penalty's alone, 0.02 k (by hand), and its
    # card reads ok; w's is None and its card names np.log
    with tv.GradientTape(persistent=True) as tape:
        p = tv.sigmoid(tv.reduce_sum(X * W, axis=1) * K)
        loss = -tv.reduce_mean(np.log(p)) + 0.01 * tv.reduce_sum(K * K)
    g_w, g_k = tape.gradient(loss, [W, K])
    assert g_w is None and np.isclose(g_k.numpy(), 0.02 * 0.7)
    causes = [(e.verdict, e.cause) for e in tape.explain(loss, [W, K])]
    assert causes == [("none", "numpy_escape"), ("value", "ok")]


def test_no_note_where_numpy_reads_beside_the_loss(capsys):
    assert _notes(numpy_beside_the_loss) == []


def test_no_note_where_the_code_says_what_it_does():
    assert _notes(three_right_steps) == []


def test_a_new_subscriber_hears_a_note_again():
    first = _notes(three_buggy_steps)
    assert first and _notes(three_buggy_steps) == first


def test_a_flight_recording_keeps_the_notes_of_calls_it_does_not_keep(tmp_path):
    path = tmp_path / "run.tvz"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tv.record(str(path), flight={"first": 0, "every": 0, "before": 0}):
            three_buggy_steps()
    events = list(tv.load_recording(str(path)))
    assert not [e for e in events if e.kind == "op_recorded"]     # no call kept in full
    notes = sorted((e.code, e.subject, e.site["line"]) for e in events if e.kind == "note")
    assert notes == _marked(three_buggy_steps)


def three_steps_of_sgd_nothing_frozen():
    model = _model(None)
    opt = tv.keras.optimizers.SGD(0.1)
    loss_fn = tv.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    for _ in range(3):
        with tv.GradientTape() as tape:
            loss = loss_fn(Y, model(X, training=True))
        variables = model.trainable_variables
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))


def test_no_weight_owner_is_looked_up_until_a_layer_is_frozen(monkeypatch):
    from tapeviz.keras import weight_owners
    # a process where no layer was frozen yet (this one froze some in the tests above)
    monkeypatch.setattr(weight_owners, "ANY_FROZEN", False, raising=False)

    def no_lookup(var):
        raise AssertionError(f"the owner of {var.name} looked up with no layer ever frozen")

    with monkeypatch.context() as patched:
        patched.setattr(weight_owners, "frozen_layer_of", no_lookup)
        assert _notes(three_steps_of_sgd_nothing_frozen) == []
        assert weight_owners.ANY_FROZEN is False
        tv.keras.layers.Dense(2).trainable = True             # (not a freeze)
        assert weight_owners.ANY_FROZEN is False
        tv.keras.layers.Dense(2).trainable = False            # frozen by its setter
        assert weight_owners.ANY_FROZEN is True
    weight_owners.ANY_FROZEN = False
    # frozen when made (trainable=False): the check is on again and the note is told
    assert _notes(a_frozen_layer_passed_by_hand) == _marked(a_frozen_layer_passed_by_hand)
    assert weight_owners.ANY_FROZEN is True
