"""Writers and readers that never lie: one writer per file, special files refused at once,
events the writer could not write counted, no line longer than the reader takes, and a
follower that notices a file replaced, truncated or rotated under it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.recording import RecordingError, follow_recording, load_recording
from tapeviz import events

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# records until its standard input closes, after saying "ready"
HOLDER = """\
import sys
import tapeviz as tv
rec = tv.record(sys.argv[1], full=True)
x = tv.Variable(1.0, name="held")
with tv.GradientTape() as t:
    y = x * x
rec.flush()
print("ready", flush=True)
sys.stdin.read()
rec.close()
"""


def _python(args, **kw):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (os.environ.get("PYTHONPATH"), ROOT) if p))
    env.pop("TAPEVIZ_RECORD", None)
    return subprocess.Popen([sys.executable, *args], env=env, text=True, **kw)


def _program():
    x = tv.Variable(2.0, name="x")
    with tv.GradientTape() as tape:
        y = x * x + 1.0
    tape.gradient(y, x)


# --- one writer per file ------------------------------------------------------------------------

def test_a_second_process_cannot_record_to_the_file_another_one_records_to(tmp_path):
    path = tmp_path / "run.tvz"
    first = _python(["-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert first.stdout.readline().strip() == "ready"
        second = _python(["-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        out, err = second.communicate("", timeout=120)
        assert second.returncode != 0 and "ready" not in out
        assert "RecordingLocked" in err and f"process {first.pid}" in err
        assert "Fix:" in err
        first.stdin.close()
        assert first.wait(timeout=120) == 0
    finally:
        first.kill()
        first.wait()
    rec = load_recording(path)           # the first run, whole and alone
    assert rec.complete and rec.warnings == [] and rec.header["pid"] == first.pid
    assert [e.tensor["name"] for e in rec.of("watched")] == ["held:0"]
    with tv.record(path, full=True):                # its lock went with it
        _program()
    assert load_recording(path).header["pid"] == os.getpid()


def test_a_refused_writer_leaves_the_first_ones_file_untouched(tmp_path):
    path = tmp_path / "run.tvz"
    first = _python(["-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert first.stdout.readline().strip() == "ready"
        before = path.read_bytes()
        from tapeviz.recording.files import RecordingLocked
        with pytest.raises(RecordingLocked, match=f"process {first.pid}"):
            tv.record(path, full=True)
        assert path.read_bytes() == before       # not truncated, nothing appended
    finally:
        first.stdin.close()
        first.wait(timeout=120)


# --- special files --------------------------------------------------------------------------------

def _fifo(tmp_path):
    path = tmp_path / "pipe.tvz"
    os.mkfifo(path)
    return path


def _run_cli(args, timeout=60):
    proc = _python(["-m", "tapeviz.cli", *map(str, args)], stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)    # a hang fails here, never hangs
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
            proc.wait()
    return proc.returncode, out, err


@pytest.mark.parametrize("args", [["serve", "{p}", "--port", "0"],
                                  ["serve", "{p}", "--follow", "--port", "0"],
                                  ["export", "{p}", "-o", "{p}.html"]])
def test_the_cli_refuses_a_fifo_at_once(tmp_path, args):
    fifo = _fifo(tmp_path)
    code, out, err = _run_cli([a.format(p=fifo) for a in args])
    assert code == 2 and "serving" not in out
    assert "is a FIFO (named pipe), not a regular file" in err and "Traceback" not in err


def _in_child(code: str, timeout=60):
    """Run ``code`` in a child process; its output, or a failure if it hangs."""
    proc = _python(["-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"hung: {code}")
    assert proc.returncode == 0, err
    return out


def test_load_recording_and_follow_refuse_special_files_at_once(tmp_path):
    fifo = _fifo(tmp_path)
    out = _in_child(f"""
import tapeviz as tv
from tapeviz.recording import RecordingError
from tapeviz.recording.reader import read_header
for call in (lambda: tv.load_recording({str(fifo)!r}), lambda: read_header({str(fifo)!r}),
             lambda: tv.load_recording("/dev/zero"),
             lambda: tv.follow_recording({str(fifo)!r}).poll()):
    try:
        call()
    except RecordingError as exc:
        print(exc)
""")
    lines = out.splitlines()
    assert len(lines) == 4
    assert all("FIFO (named pipe), not a regular file" in w for w in lines[:2] + lines[3:])
    assert "'/dev/zero' is a character device, not a regular file" in lines[2]


def test_a_follower_that_finds_a_fifo_ends(tmp_path):
    fifo = _fifo(tmp_path)
    out = _in_child(f"""
import tapeviz as tv
from tapeviz.recording import RecordingError
follower = tv.follow_recording({str(fifo)!r})
try:
    follower.poll()
except RecordingError as exc:
    print(follower.ended, follower.reason, "FIFO" in str(exc))
""")
    assert out.split() == ["True", "not_a_recording", "True"]


# --- events the writer could not write ---------------------------------------------------------------

def test_an_op_too_large_to_summarise_is_counted_as_dropped(tmp_path):
    path = tmp_path / "run.tvz"
    with tv.record(path, full=True) as rec:
        one = tv.constant(np.float32(1.0))
        tv.broadcast_to(one, [1 << 20, 1 << 20])    # a view: summarising it needs 8 TiB
        tv.constant(1.0) + 1.0
    loaded = load_recording(path)
    assert [e.op for e in loaded.of("op_recorded")] == ["AddV2"]      # BroadcastTo is lost
    assert rec.dropped == 1 and loaded.footer.dropped == 1
    assert loaded.footer.events == len(loaded)
    assert any("could not write 1 event" in w for w in loaded.warnings)
    assert loaded.footer.dropped_first.startswith("op_recorded: MemoryError"), loaded.footer


def test_an_event_whose_payload_fails_to_build_is_named_not_blamed_on_memory(tmp_path):
    # a bug in building a payload (here a builder that raises, as an explanation did) loses
    # that event: the page must say which event and what went wrong, not "out of memory"
    def broken(*args):
        raise AttributeError("'TapeState' object has no attribute '_watched'")
    path = tmp_path / "run.tvz"
    with tv.record(path, full=True):
        events.emit(events.deferred(events.Note, broken))
        tv.constant(1.0) + 1.0
    loaded = load_recording(path)
    assert loaded.footer.dropped == 1
    assert loaded.footer.dropped_first == (
        "note: AttributeError: 'TapeState' object has no attribute '_watched'")
    (warning,) = [w for w in loaded.warnings if "could not write" in w]
    assert "the first, note: AttributeError: 'TapeState'" in warning, warning
    assert "memory" not in warning, warning


def test_an_event_the_fast_encoder_runs_out_of_memory_on_is_written_the_general_way(tmp_path):
    path = tmp_path / "run.tvz"
    rec = tv.record(path, full=True)
    fast = rec._dumps
    # orjson is a dependency: a writer without its fast encoder is a broken install, and
    # this test must say so rather than skip
    assert fast is not None, "the recording writer has no orjson encoder"

    def failing(data, **kw):      # as orjson does when it cannot allocate the line
        if data.get("kind") == "op_recorded" and data.get("op") == "Mul":
            raise MemoryError
        return fast(data, **kw)
    rec._dumps = failing
    with rec:
        x = tv.Variable(3.0, name="x")
        with tv.GradientTape() as tape:
            y = x * x
            z = y + x
        tape.gradient(z, x)
    loaded = load_recording(path)
    assert rec.dropped == 0 and loaded.footer.dropped == 0 and loaded.warnings == []
    assert [e.op for e in loaded.of("op_recorded")] == ["Mul", "AddV2"]
    assert loaded.footer.events == len(loaded)


# --- no line longer than the reader takes -------------------------------------------------------------

def test_a_large_value_limit_never_writes_a_line_the_reader_skips(tmp_path):
    path = tmp_path / "run.tvz"
    big = np.linspace(0.0, 1.0, 2_000_000)
    with tv.record(path, value_limit=3_000_000, full=True):
        a = tv.constant(big)
        b = a * 2.0
        c = tv.constant([1.0, 2.0]) * 3.0
    loaded = load_recording(path)
    assert loaded.warnings == [] and loaded.complete
    mul, small = loaded.of("op_recorded")
    out = mul.outputs[0]["summary"]
    assert "value" not in out and out["value_cut"] is True
    assert out["max"] == 2.0 and out["size"] == 2_000_000       # the statistics stay
    assert small.outputs[0]["summary"]["value"] == [3.0, 6.0]   # small values are kept
    longest = max(len(line) for line in path.read_bytes().split(b"\n"))
    assert longest <= tv.recording.MAX_LINE_BYTES
    assert list(b.shape) == [2_000_000] and list(c.shape) == [2]


# --- a follower notices the file changing under it --------------------------------------------------

def _recorded(path, name):
    with tv.record(path, full=True):
        tv.events.log_scalar(name, 1.0)


def _names(events):
    return [e.name for e in events if e.kind == "scalar"]


def test_a_follower_reads_a_file_replaced_in_place_as_a_new_run(tmp_path):
    path = tmp_path / "run.tvz"
    _recorded(path, "first")
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:-2]) + b"\n")       # the first run, still open
    follower = follow_recording(path, poll=0.01)
    assert _names(follower.poll()) == ["first"]
    other = tmp_path / "other.tvz"
    _recorded(other, "second")
    os.replace(other, path)                                 # a new file at the path
    assert follower.poll() == []                            # (the old file had no more)
    assert follower.restarts == 1 and "replaced by a new file" in follower.warnings[-1]
    assert _names(follower.poll()) == ["second"] and follower.reason == "closed"


def test_a_follower_reads_a_truncated_file_again_from_its_start(tmp_path):
    path = tmp_path / "run.tvz"
    _recorded(path, "first-run-with-a-long-name")
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:-2]) + b"\n")
    follower = follow_recording(path, poll=0.01)
    assert _names(follower.poll()) == ["first-run-with-a-long-name"]
    with open(path, "r+b") as f:        # the same file (inode), emptied and written again
        f.truncate(0)
        f.write(lines[0] + b"\n")
    assert follower.poll() == [] and not follower.ended
    assert follower.restarts == 1 and "shrank" in follower.warnings[-1]
    with open(path, "ab") as f:
        f.write(json.dumps(tv.events.make(tv.events.Scalar, name="again",
                                          value=2.0).to_dict()).encode() + b"\n")
    assert _names(follower.poll()) == ["again"]


def test_a_follower_notices_a_file_rewritten_in_place_to_a_longer_one(tmp_path):
    path = tmp_path / "run.tvz"
    _recorded(path, "a")
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:-2]) + b"\n")
    follower = follow_recording(path, poll=0.01)
    assert _names(follower.poll()) == ["a"]
    time.sleep(0.002)                           # (a later "started" in the new header)
    other = tmp_path / "other.tvz"
    _recorded(other, "b" * 400)                 # longer: a size check alone misses it
    with open(path, "r+b") as f:
        f.truncate(0)
        f.write(other.read_bytes())
    got = follower.poll() + follower.poll()
    assert _names(got) == ["b" * 400] and follower.restarts == 1
    assert "rewritten in place" in follower.warnings[-1]


def test_a_follower_follows_a_rotated_file_to_the_new_one(tmp_path):
    path = tmp_path / "run.tvz"
    rec = tv.record(path, full=True)
    tv.events.log_scalar("before", 1.0)
    rec.flush()
    follower = follow_recording(path, poll=0.01)
    assert _names(follower.poll()) == ["before"]
    os.rename(path, tmp_path / "run.tvz.1")          # rotated: the writer goes on in .1
    tv.events.log_scalar("late", 2.0)
    rec.flush()
    rec._subscription.close()            # (the new recording below is another run's)
    _recorded(tmp_path / "new.tvz", "new")
    os.rename(tmp_path / "new.tvz", path)             # and a new recording at the path
    first = follower.poll()
    assert _names(first) == ["late"]                 # the rest of the old file first
    assert follower.restarts == 1
    assert "was rotated" in follower.warnings[-1]
    assert _names(follower.poll()) == ["new"] and follower.reason == "closed"
    rec.close()
