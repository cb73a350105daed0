"""Threads: each thread's tapes, name scopes and gradient calls are its own, as TensorFlow's.

A stress test runs several threads, each with its own tapes and variables (small and large),
with and without a recording, and checks every gradient against its closed form, every
thread's name scope, and which tape and gradient call each recorded op belongs to. Then the
edges: variables made inside a grad_fn or an event subscriber during a gradient, and a tape
the program drops inside its `with` block.
"""
import gc
import threading
import warnings

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events
from tapeviz.engine.tape import current_backward, current_scope
from tapeviz.recording import load_recording

THREADS = 4
STEPS = 500             # per thread, without a recording
RECORDED_STEPS = 150    # per thread, under a recording (whose events are then read back):
                        # 2,600 steps over the two runs


def _step(i, step, small, big, c, seen):
    """One training-like step of thread `i`: its gradients checked against closed forms."""
    with tv.name_scope(f"t{i}"):
        assert current_scope() == f"t{i}"
        with tv.GradientTape(persistent=step % 3 == 0) as tape:
            loss_small = tv.reduce_sum(small * small * c)              # d/dsmall = 2 small c
            loss_big = tv.reduce_sum(tv.sin(big))                      # d/dbig = cos(big)
        seen["tapes"].add(tape._id)
        entries = tape._entries
        seen["entries"].append(len(entries))
        seen["foreign"] += sum(1 for e in entries if set(e[0].tapes) != {tape._id})
        g_small, g_big = tape.gradient([loss_small, loss_big], [small, big])
        assert current_backward() is None
        if step % 5 == 0:   # a second derivative: the inner gradient recorded by an outer tape
            x = tv.constant(small.numpy())
            with tv.GradientTape() as outer:
                outer.watch(x)
                with tv.GradientTape() as inner:
                    inner.watch(x)
                    y = tv.reduce_sum(x * x * x)
                dy = inner.gradient(y, x)                              # 3 x^2
            seen["tapes"].update((outer._id, inner._id))
            d2 = outer.gradient(dy, x)                                 # 6 x
            seen["second"].append((x.numpy(), None if d2 is None else d2.numpy()))
        assert current_scope() == f"t{i}"
    seen["grads"].append((small.numpy(), c.numpy(), big.numpy(),
                          None if g_small is None else g_small.numpy(),
                          None if g_big is None else g_big.numpy()))


def _run_threads(steps):
    start = threading.Barrier(THREADS)
    seen = [{"tapes": set(), "entries": [], "foreign": 0, "grads": [], "second": [],
             "error": None} for _ in range(THREADS)]

    def work(i):
        try:
            rng = np.random.default_rng(i)
            small = tv.Variable(rng.normal(size=3).astype(np.float32), name=f"small{i}")
            big = tv.Variable(rng.normal(size=(48, 48)).astype(np.float32), name=f"big{i}")
            c = tv.constant(np.float32(i + 1))
            start.wait()
            for step in range(steps):
                _step(i, step, small, big, c, seen[i])
                small.assign_sub(0.001 * small)
        except BaseException as exc:     # reported by the main thread
            seen[i]["error"] = exc

    threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in seen:
        if s["error"] is not None:
            raise s["error"]
    return seen


def _check_gradients(seen):
    for i, s in enumerate(seen):
        nones = sum(1 for *_, gs, gb in s["grads"] if gs is None or gb is None)
        assert nones == 0, f"thread {i}: {nones} of {len(s['grads'])} steps had a None gradient"
        for small, c, big, gs, gb in s["grads"]:
            np.testing.assert_allclose(gs, 2 * small * c, rtol=1e-5)
            np.testing.assert_allclose(gb, np.cos(big), rtol=1e-5, atol=1e-6)
        for x, d2 in s["second"]:
            assert d2 is not None
            np.testing.assert_allclose(d2, 6 * x, rtol=1e-5)
        # each step's tape recorded its five ops (Mul, Mul, Sum, Sin, Sum), all its own
        assert s["entries"] == [5] * len(s["entries"]) and s["foreign"] == 0


def test_threads_with_their_own_tapes_get_their_own_gradients():
    _check_gradients(_run_threads(STEPS))


def test_threads_under_a_recording_record_each_op_with_its_own_tape_call_and_scope(tmp_path):
    path = tmp_path / "threads.tvz"
    with tv.record(path, full=True):
        seen = _run_threads(RECORDED_STEPS)
    _check_gradients(seen)
    thread_of_tape = {tape: i for i, s in enumerate(seen) for tape in s["tapes"]}
    loaded = load_recording(path)
    assert loaded.complete and loaded.warnings == []
    thread_of_call = {e.call: thread_of_tape[e.tape] for e in loaded.of("gradient_started")}
    ops = loaded.of("op_recorded")
    assert len(ops) >= 5 * THREADS * RECORDED_STEPS     # the five forward ops of each step
    wrong = []
    for e in ops:
        if not e.scope:          # the variables' updates, outside the scope: on no tape
            assert e.tapes == [] and e.backward_of is None
            continue
        owner = int(e.scope[1:])   # "t3" -> 3; "t0/t1" (a scope leaked) fails here
        owners = {thread_of_tape[t] for t in e.tapes}
        if e.backward_of is not None:
            owners.add(thread_of_call[e.backward_of])
        if owners - {owner}:
            wrong.append((e.op, e.scope, e.tapes, e.backward_of))
    assert wrong == [], f"{len(wrong)} of {len(ops)} ops attributed to another thread"


def test_another_threads_ops_on_this_threads_watched_tensor_are_not_recorded():
    x = tv.constant(2.0)
    done = {}
    with tv.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x

        def other():
            with tv.name_scope("other"):
                done["z"] = x * 10.0          # on the watched tensor, in another thread
                done["scope"] = current_scope()
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert current_scope() == ""
    assert float(tape.gradient(y, x)) == 4.0
    assert tape.gradient(done["z"], x) is None        # TensorFlow: None (tests/golden)
    assert done["scope"] == "other"


# --- variables made during a gradient ------------------------------------------------------

def test_a_variable_made_inside_a_custom_gradient_grad_fn_works():
    made = []

    @tv.custom_gradient
    def scaled(x):
        def grad(upstream):
            v = tv.Variable(3.0, name="made_in_grad_fn")
            made.append(v)
            return upstream * v
        return x * 2.0, grad

    x = tv.constant(1.5)
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x)
    assert float(tape.gradient(y, x)) == 3.0
    assert made[0].name == "made_in_grad_fn:0" and made[0]._site is not None


def test_a_variable_made_by_an_event_subscriber_during_a_gradient_works():
    made, failed = [], []

    def subscriber(event):
        if event.kind == "backward_step":
            try:
                made.append(tv.Variable(float(len(made)), name="made_in_subscriber"))
            except Exception as exc:
                failed.append(exc)
    x = tv.Variable(2.0)
    with events.subscribe(subscriber, kinds=["backward_step"]):
        with tv.GradientTape() as tape:
            y = tv.sin(x) * x
        g = tape.gradient(y, x)
    assert failed == [] and len(made) >= 2
    assert float(g) == pytest.approx(np.cos(2.0) * 2.0 + np.sin(2.0), rel=1e-6)


# --- a tape never exited --------------------------------------------------------------------

def test_a_tape_dropped_inside_its_block_stops_recording_with_a_resource_warning():
    x = tv.Variable(2.0)

    def forget_to_exit():
        tape = tv.GradientTape()
        tape.__enter__()
        tape.watch(x)
        return tape._id

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dropped = forget_to_exit()
        gc.collect()
    assert [w.category for w in caught] == [ResourceWarning]
    assert "never exited" in str(caught[0].message)
    y = x * 3.0
    assert y._node.tapes == ()                    # recorded by no tape
    assert dropped not in y._node.tapes
    from tapeviz.engine.op import here
    assert here().open == [] and here().recording == []
