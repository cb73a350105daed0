"""Gallery lessons of concurrent sessions run at the same time, each in its own thread: tapes,
name scopes and gradient calls are per thread (as TensorFlow's), so a lesson running while
another lesson's tape is open is not recorded by that tape."""
import threading

from tapeviz.ui.gallery import demo_runner as lesson


def test_a_lesson_run_while_another_lessons_tape_is_open_is_not_recorded_by_it():
    import tapeviz as tf
    a_tape_open, b_done = threading.Event(), threading.Event()
    seen = {}

    def lesson_a(tf):
        va = tf.Variable(1.0, name="va")
        with tf.GradientTape() as tape:
            y = va * 2.0
            a_tape_open.set()
            # lesson b runs now, start to end, while this tape is open
            seen["b_done_while_a_open"] = b_done.wait(timeout=10)
        seen["a_watched"] = [v.name for v in tape.watched_variables()]
        seen["a_grad"] = float(tape.gradient(y, va))

    def lesson_b(tf):
        vb = tf.Variable(3.0, name="vb")
        with tf.GradientTape() as tape:
            y = vb * vb
        seen["b_grad"] = float(tape.gradient(y, vb))
        b_done.set()

    runs = {}

    def session(name, fn):
        runs[name] = lesson.run_lesson(fn, tf)

    thread_a = threading.Thread(target=session, args=("a", lesson_a))
    thread_a.start()
    assert a_tape_open.wait(timeout=10)
    thread_b = threading.Thread(target=session, args=("b", lesson_b))
    thread_b.start()
    thread_a.join(timeout=20)
    thread_b.join(timeout=20)
    assert seen == {"b_done_while_a_open": True, "a_watched": ["va:0"], "a_grad": 2.0,
                    "b_grad": 6.0}
    ops_a = [e.op for e in runs["a"][0] if e.kind == "op_recorded"]
    ops_b = [e.op for e in runs["b"][0] if e.kind == "op_recorded"]
    assert ops_a.count("Mul") == 1 and ops_b.count("Mul") == 1
    tapes_a = {e.tape for e in runs["a"][0] if e.kind == "tape_opened"}
    assert all(set(e.tapes) <= tapes_a for e in runs["a"][0] if e.kind == "op_recorded")


def test_what_a_lesson_prints_goes_to_its_page_only(capsys):
    import io
    page = io.StringIO()
    with lesson._printed_into(page):
        print("lesson output")
        other = threading.Thread(target=print, args=("server thread",))
        other.start()
        other.join()
    print("after the lesson")
    assert page.getvalue() == "lesson output\n"
    out = capsys.readouterr().out
    assert "lesson output" not in out                    # not repeated in the server's log
    assert "server thread" in out and "after the lesson" in out
