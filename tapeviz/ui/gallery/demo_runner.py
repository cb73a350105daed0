"""Running a gallery lesson with its events and printed output captured.

:func:`run_lesson` runs ``lesson(tf)`` to the end and returns its events and output;
:class:`LiveLesson` runs it in a thread as an event source the dashboard follows while it
runs (the training demos' charts then grow). Each thread's events and prints are kept apart,
so concurrent sessions of ``panel serve`` do not mix their lessons; they run at the same time,
each in its own thread, since tapes, name scopes and gradient calls are per thread (as
TensorFlow's). Imports: stdlib, ``tapeviz.events`` and ``tapeviz.recording.sources``.
"""
from __future__ import annotations

import contextlib
import inspect
import io
import queue
import sys
import threading

from ...recording.sources import SourceWindows, carry


class _ThreadStdout(io.TextIOBase):
    """``sys.stdout`` that sends what a registered thread prints to that thread's buffer, and
    what other threads print to the real stdout: lessons of concurrent sessions keep their
    output apart, and the page shows it (the server's log is not repeated on each visit)."""

    def __init__(self, fallback):
        self.fallback = fallback
        self.buffers: dict[int, io.StringIO] = {}

    def write(self, s):
        buf = self.buffers.get(threading.get_ident())
        if buf is not None:
            return buf.write(s)
        return self.fallback.write(s)

    def flush(self):
        self.fallback.flush()


_stdout_lock = threading.Lock()


@contextlib.contextmanager
def _printed_into(buffer: io.StringIO):
    """Collect what the current thread prints into ``buffer`` while the block runs."""
    with _stdout_lock:
        if not isinstance(sys.stdout, _ThreadStdout):
            sys.stdout = _ThreadStdout(sys.stdout)
        router = sys.stdout
        router.buffers[threading.get_ident()] = buffer
    try:
        yield
    finally:
        with _stdout_lock:
            router.buffers.pop(threading.get_ident(), None)


@contextlib.contextmanager
def _events_of_this_thread(sink):
    """Send the events emitted by the current thread (and every op definition) to ``sink``."""
    from ... import events as ev

    me = threading.get_ident()

    def deliver(event):
        if event.kind == "op_defined" or threading.get_ident() == me:
            sink(event)
    sub = ev.subscribe(deliver, replay_definitions=True)
    try:
        yield
    finally:
        sub.close()


def _loss_reporter():
    from ... import events as ev

    def on_step(step, loss, grads=None):
        ev.log_scalar("loss", float(loss), step)
    return on_step


def _run(lesson, tf, kwargs):
    """Run the lesson, then ask each tape it returns to explain (the dashboard's Why cards)."""
    if "on_step" in inspect.signature(lesson).parameters and "on_step" not in kwargs:
        kwargs = {**kwargs, "on_step": _loss_reporter()}
    try:
        explained = lesson(tf, **kwargs) or []
    except Exception as exc:       # keep what ran so far: the page says what failed
        print(f"\nThe lesson raised {type(exc).__name__}: {exc}")
        explained = []
    for tape, target, sources, *options in explained:
        try:
            tape.explain(target, sources, **(options[0] if options else {}))
        except Exception as exc:
            sys.__stderr__.write(f"tapeviz gallery: explain failed: {type(exc).__name__}: {exc}\n")


def run_lesson(lesson, tf, **kwargs):
    """Run ``lesson(tf)`` with every tape event captured; also ask each tape the lesson returns
    to explain its gradients, so the dashboard shows the same explanations as the script.

    Returns ``(events, output)``: the list of events and what the lesson printed. A lesson that
    takes ``on_step`` (the training demos) reports its loss through it as a ``scalar`` event.
    """
    events: list = []
    out = io.StringIO()
    with _events_of_this_thread(events.append), _printed_into(out):
        _run(lesson, tf, kwargs)
    return events, out.getvalue()


class LiveLesson:
    """An event source (``poll()``, ``ended``) that runs the lesson in a thread once started,
    so the dashboard updates while it runs: for the training demos, whose charts then grow.

    ``output`` is what the lesson printed so far."""

    def __init__(self, lesson, tf, **kwargs):
        self.lesson, self._tf, self._kwargs = lesson, tf, kwargs
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._out = io.StringIO()
        self._thread: threading.Thread | None = None
        self._done = threading.Event()
        self.sources: dict = {}       # the lesson's own source lines around its events' sites
        self._windows = SourceWindows()

    def start(self):
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="tapeviz-lesson", daemon=True)
            self._thread.start()

    def _work(self):
        try:
            with _events_of_this_thread(self._queue.put), _printed_into(self._out):
                _run(self.lesson, self._tf, self._kwargs)
        finally:
            self._done.set()

    @property
    def output(self) -> str:
        return self._out.getvalue()

    @property
    def running(self) -> bool:
        return self._thread is not None and not self._done.is_set()

    @property
    def ended(self) -> bool:
        return self._done.is_set() and self._queue.empty()

    def poll(self, limit: int = 20_000) -> list:
        out = []
        while len(out) < limit:
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                break
        carry(out, self._windows, self.sources)
        return out
