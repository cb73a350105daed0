"""`tv.summary`: TensorFlow 2's summary API, writing TensorBoard event files.

    writer = tf.summary.create_file_writer("logs/train")
    with writer.as_default(step=epoch):
        tf.summary.scalar("loss", loss)           # True: written

As TensorFlow's: the default writer, the default step and the recording condition belong to
the thread; a summary with no default writer (or under `record_if(False)`) writes nothing and
returns `False`, a written one `True` (bool tensors); with a writer but no step it raises
`ValueError`. The files are TensorBoard's (event_file.py: TFRecords of hand-encoded `Event`
protocol buffers, no TensorFlow or protobuf needed), and each written `scalar` is also sent
to tapeviz's own charts (`tv.events.log_scalar`, at the same step, named `run/tag` as
TensorBoard lists it, the run being the writer's directory: 'train/loss', 'validation/loss'
share a plot), so a recording shows it in the dashboard's Training charts.

What is not imitated: writes are buffered until `flush`, `close` or the end of `as_default`
(TensorFlow also flushes every 10 summaries or 2 minutes); `max_queue`, `flush_millis`,
`name` and `experimental_*` arguments are accepted and ignored; `trace_on`/`trace_export`
(graphs and profiles) and `graph` do not exist.
"""
from __future__ import annotations

import contextlib
import os
import re
import threading
import types

import numpy as np

from .. import events as _events
from ..engine.convert import constant, convert_to_tensor
from ..engine.errors import NotFoundError, UnimplementedError
from ..engine.threadstate import current_scope
from . import event_file, plugin_data


class _State(threading.local):
    """Per thread, as TensorFlow's: the default writer, step and recording condition."""

    def __init__(self):
        self.writer = None
        self.step = None
        self.is_recording = None


_state = _State()


# --- writers -----------------------------------------------------------------------------------
class _WriterContext:
    """`writer.as_default(step)`: a class, not a generator, so that `set_as_default` can
    enter it for good (as TensorFlow's)."""

    def __init__(self, writer, step):
        self._writer, self._step = writer, step
        self._old_writer = self._old_step = None

    def __enter__(self):
        self._old_writer, _state.writer = _state.writer, self._writer
        if self._step is not None:
            self._old_step, _state.step = _state.step, self._step
        return self._writer

    def __exit__(self, *exc):
        _state.writer.flush()
        _state.writer = self._old_writer
        if self._step is not None:
            _state.step = self._old_step
        return False


class SummaryWriter:
    """A summary writer: `as_default(step=None)` (a context manager), `set_as_default`,
    `flush`, `close`."""

    def set_as_default(self, step=None):
        self.as_default(step).__enter__()

    def as_default(self, step=None):
        return _WriterContext(self, step)

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass


class _FileWriter(SummaryWriter):
    """Writes one event file in `logdir`, created now."""

    def __init__(self, logdir, filename_suffix):
        self.logdir = logdir
        # the run's name, as TensorBoard shows it: the directory's own name ('train')
        self.run = os.path.basename(os.path.abspath(logdir))
        self._file = event_file.EventFileWriter(logdir, filename_suffix)
        self.path = self._file.path

    def _check_open(self):
        if self._file.closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed. Fix: make a new "
                               "one with tf.summary.create_file_writer(logdir)")

    def set_as_default(self, step=None):
        self._check_open()
        super().set_as_default(step)

    def as_default(self, step=None):
        self._check_open()
        return super().as_default(step)

    def flush(self):
        self._file.flush()

    def close(self):
        if not self._file.closed:
            self._file.flush()
            self._file.close()

    def _write(self, event: bytes):
        if self._file.closed:
            raise NotFoundError(f"WriteSummary: the default summary writer for {self.logdir!r} "
                                "is closed. Fix: write before writer.close(), or make a new "
                                "writer the default [Op:WriteSummary]", "WriteSummary")
        self._file.write(event)

    def __repr__(self):
        return f"<tapeviz.summary SummaryWriter logdir={self.logdir!r}>"


class _NoopWriter(SummaryWriter):
    """`create_noop_writer()`: does nothing, not even become the default (as TensorFlow's)."""

    def set_as_default(self, step=None):
        pass

    @contextlib.contextmanager
    def as_default(self, step=None):
        yield


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A writer of a TensorBoard event file in `logdir` (made if missing)."""
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None. Fix: a directory, e.g. 'logs/train'")
    if hasattr(logdir, "numpy"):                       # a string tensor
        logdir = np.asarray(logdir.numpy()).item()
    if not isinstance(logdir, (str, bytes, os.PathLike)):
        raise TypeError(f"create_file_writer: logdir must be a path (a str), got {logdir!r}. "
                        "Fix: e.g. tf.summary.create_file_writer('logs/train')")
    logdir = logdir.decode() if isinstance(logdir, bytes) else os.fspath(logdir)
    return _FileWriter(logdir, ".v2" if filename_suffix is None else str(filename_suffix))


def create_noop_writer():
    return _NoopWriter()


def flush(writer=None, name=None):
    """Flush `writer`, or the default writer."""
    writer = writer if writer is not None else _state.writer
    if writer is not None:
        writer.flush()


# --- the step and the recording condition ------------------------------------------------------
def get_step():
    """The default step of this thread (set by `set_step` or `as_default(step=...)`), or None."""
    return _state.step


def set_step(step):
    _state.step = step


@contextlib.contextmanager
def record_if(condition):
    """Record summaries only while `condition` (a bool, a bool tensor, or a callable giving
    one, asked at each summary) holds."""
    old, _state.is_recording = _state.is_recording, condition
    try:
        yield
    finally:
        _state.is_recording = old


def _recording() -> bool:
    if _state.writer is None:
        return False
    condition = _state.is_recording
    condition = condition() if callable(condition) else condition
    return True if condition is None else bool(np.asarray(getattr(condition, "_value",
                                                                   condition)))


def should_record_summaries():
    """True (a bool tensor) when a summary would be written now."""
    return constant(_recording())


_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


@contextlib.contextmanager
def summary_scope(name, default_name="summary", values=None):
    """`(tag, scope)`: the summary's tag is its name under the open name scopes."""
    name = name or default_name
    scope = current_scope()
    yield (f"{scope}/{name}" if scope else name), (f"{scope}/" if scope else "") + \
        (_INVALID_SCOPE_CHARACTERS.sub("", name) or default_name) + "/"


experimental = types.SimpleNamespace(get_step=get_step, set_step=set_step,
                                     summary_scope=summary_scope)


# --- writing -----------------------------------------------------------------------------------
def _step_int(step) -> int:
    raw = np.asarray(getattr(step, "_value", step))
    if raw.ndim or raw.dtype.kind not in "iu":
        raise TypeError(f"tf.summary: step must be an integer (an int, or a 0-d integer tensor "
                        f"or variable such as optimizer.iterations), got {step!r}. Fix: "
                        "e.g. step=epoch")
    return int(raw)


def _write(tag, make_array, step, metadata: bytes):
    """Write one summary if there is a writer and recording is on: (written?, step)."""
    if step is not None:
        step = _step_int(step)
    if _state.writer is None:
        return False, None
    if step is None and _state.step is not None:
        step = _step_int(_state.step)
    if not _recording():
        return False, None
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument "
                         "or through tf.summary.experimental.set_step()")
    array = make_array()
    _state.writer._write(event_file.summary_event(tag, array, step, metadata))
    return True, step


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write `tensor` (or what the callable `tensor` returns) under `tag`; `metadata` is a
    serialized `SummaryMetadata` (bytes, or an object with `SerializeToString`)."""
    if metadata is not None and hasattr(metadata, "SerializeToString"):
        metadata = metadata.SerializeToString()

    def array():
        value = tensor() if callable(tensor) else tensor
        return np.asarray(convert_to_tensor(value)._value)
    return constant(_write(tag, array, step, metadata or b"")[0])


def scalar(name, data, step=None, description=None):
    """Write one number (as float32) for TensorBoard's scalars, and for tapeviz's charts."""
    value = convert_to_tensor(data)
    _numbers(value._value, "scalar", name)
    if value._value.ndim:
        raise ValueError(f"Expected scalar shape for {name}, saw shape: {tuple(value.shape)}. "
                         "Fix: reduce it first, e.g. tf.reduce_mean(x)")
    number = np.float32(value._value)
    tag = _tag(name)
    written, step = _write(tag, lambda: np.asarray(number),
                           step, event_file.plugin_metadata("scalars", description))
    if written:      # charted as TensorBoard lists it: run/tag ('train/loss', 'eval/loss')
        _events.log_scalar(f"{_state.writer.run}/{tag}", float(number), step)
    return constant(written)


def histogram(name, data, step=None, buckets=None, description=None):
    """Write TensorBoard's histogram of `data` (`buckets` equal-width buckets, default 30)."""
    values = np.asarray(convert_to_tensor(data)._value)

    def buckets_of_numbers():     # (checked only when written, as TensorFlow's)
        _numbers(values, "histogram", name)
        return plugin_data.histogram_buckets(values, buckets)
    return constant(_write(_tag(name), buckets_of_numbers,
                           step, event_file.plugin_metadata("histograms", description))[0])


def text(name, data, step=None, description=None):
    """Write a string tensor (Markdown, shown by TensorBoard's text dashboard)."""
    value = convert_to_tensor(data)
    if value.dtype.name != "string":
        raise TypeError(f"tf.summary.text({name!r}): data must be a string tensor, got dtype "
                        f"{value.dtype.name}. Fix: pass text, e.g. str(x)")
    return constant(_write(_tag(name), lambda: np.asarray(value._value, dtype=object), step,
                           event_file.plugin_metadata("text", description))[0])


def image(name, data, step=None, max_outputs=3, description=None):
    """Write up to `max_outputs` images of a [k, height, width, channels] batch as PNG."""
    values = np.asarray(convert_to_tensor(data)._value)
    return constant(_write(_tag(name),
                           lambda: plugin_data.image_strings(values, int(max_outputs)), step,
                           event_file.plugin_metadata("images", description))[0])


def _numbers(values, function, name):
    if np.asarray(values).dtype.kind not in "biuf":
        raise UnimplementedError(f"tf.summary.{function}({name!r}): Cast string to float is not "
                                 "supported. Fix: pass numbers (tf.summary.text writes strings) "
                                 "[Op:Cast]", "Cast")


def _tag(name) -> str:
    with summary_scope(name) as (tag, _):
        return tag
