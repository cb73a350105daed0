"""Recordings: write, load, follow while growing, and survive broken, foreign and hostile files."""
import json
import os
import pickle
import subprocess
import sys
import textwrap
import time
import tracemalloc

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events, recording
from tapeviz.recording import RecordingError, follow_recording, load_recording

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def _clean_state():
    before = events.subscribers()
    yield
    assert events.subscribers() == before, "a test left a subscriber behind"
    assert recording._open_recordings == [] or all(
        r is recording.env_recording for r in recording._open_recordings)


def _env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAPEVIZ_RECORD", recording._ENV_OWNER)}
    env.update(extra)
    return env


def _program():
    """A real program: tapes, nested tapes, watch, assigns, NumPy escapes, stop_recording."""
    v = tv.Variable([1.0, -2.0, 3.0], name="v")
    frozen = tv.Variable(2.0, trainable=False, name="frozen")
    c = tv.constant(0.5)
    with tv.GradientTape(persistent=True) as outer:
        outer.watch(c)
        with tv.GradientTape() as inner:
            y = tv.reduce_sum(v * v * c) * frozen
            with inner.stop_recording():
                tv.exp(y)
            np.tanh(y)
            y.numpy()
        g = inner.gradient(y, v)
        h = tv.reduce_sum(g * g)
    outer.gradient(h, [v, c])
    v.assign_sub(0.1 * g)
    events.log_scalar("loss", h, step=0)
    events.log_scalar("bad", float("nan"), step=1)
    return outer


def _lines(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n")


def _write(path, data: bytes):
    with open(path, "wb") as f:
        f.write(data)
    return path


def _recorded_file(tmp_path, name="run.tvz"):
    path = tmp_path / name
    with tv.record(path, full=True):
        _program()
    return path


# --- round trip -------------------------------------------------------------------------------

def test_round_trip_of_a_real_program(tmp_path):
    path = tmp_path / "run.tvz"
    with events.capture() as seen:
        with tv.record(path, full=True) as rec:
            _program()
    assert rec.closed and events.ACTIVE is False
    loaded = load_recording(path)
    assert loaded.complete and loaded.warnings == []
    # what the in-process subscriber saw, the file holds (after any op definitions replayed)
    replayed = [e for e in loaded if e.seq < seen[0].seq]
    assert all(e.kind == "op_defined" for e in replayed)
    body = loaded[len(replayed):]
    assert [e.kind for e in body] == seen.kinds()
    assert [e.seq for e in body] == [e.seq for e in seen]
    for original, back in zip(seen, body):
        assert type(back) is type(original)
        expected = json.loads(json.dumps(events.sanitize(original.to_dict())))
        assert back.to_dict() == events.from_dict(expected).to_dict()
    assert {"tape_opened", "tape_closed", "watched", "op_recorded", "recording_paused",
            "recording_resumed", "escaped", "variable_assigned", "gradient_started",
            "backward_step", "gradient_finished", "scalar"} <= set(loaded.kinds())
    opened = loaded.of("tape_opened")
    assert len(opened) == 2 and opened[1].outer_tapes == [opened[0].tape]
    assert sorted(e.via for e in loaded.of("escaped")) == ["np.tanh", "numpy()"]
    nan_scalar = [e for e in loaded.of("scalar") if e.name == "bad"][0]
    assert nan_scalar.value != nan_scalar.value
    # the header and the footer
    h = loaded.header
    assert h["format"] == "tapeviz-recording" and h["version"] == events.SCHEMA_VERSION
    assert h["tapeviz"] == tv.TAPEVIZ_VERSION and h["pid"] == os.getpid()
    assert h["argv"] == sys.argv and h["started"].endswith("+00:00")
    assert loaded.footer.reason == "closed" and loaded.footer.events == len(loaded)
    assert rec.events_written == len(loaded)


def test_every_line_is_strict_json_and_ends_with_a_newline(tmp_path):
    path = _recorded_file(tmp_path)
    raw = path.read_bytes()
    assert raw.endswith(b"\n")

    def refuse(name):
        raise AssertionError(f"non-standard JSON constant {name}")

    lines = raw.decode("ascii").splitlines()
    for line in lines:
        json.loads(line, parse_constant=refuse)
    assert json.loads(lines[-1])["kind"] == "recording_closed"


def test_recording_describes_itself_even_when_ops_were_announced_before(tmp_path):
    with events.capture():
        tv.sigmoid(tv.constant(1.0))       # Sigmoid announced outside the recording
    with tv.record(tmp_path / "late.tvz", full=True):
        tv.sigmoid(tv.constant(2.0))
    loaded = load_recording(tmp_path / "late.tvz")
    ops = {e.op for e in loaded.of("op_recorded")}
    defined = {e.op for e in loaded.of("op_defined")}
    assert "Sigmoid" in ops and ops <= defined


def test_record_as_object_close_is_idempotent_and_replaces_old_file(tmp_path):
    path = tmp_path / "r.tvz"
    path.write_text("old content\n")
    r = tv.record(path, full=True)
    assert events.ACTIVE is True
    tv.constant(1.0) + 1.0
    r.close()
    r.close()
    assert events.ACTIVE is False
    loaded = load_recording(path)
    assert loaded.complete and "op_recorded" in loaded.kinds()
    assert "old content" not in path.read_text().splitlines()   # (the source lines quote it)
    assert "closed" in repr(r)


def test_value_limit_of_a_recording(tmp_path):
    before = events.config["value_limit"]
    with tv.record(tmp_path / "v.tvz", value_limit=200, full=True):
        tv.reduce_sum(tv.constant(np.arange(150, dtype=np.float32)))
    assert events.config["value_limit"] == before
    loaded = load_recording(tmp_path / "v.tvz")
    assert loaded.header["value_limit"] == 200
    (op,) = loaded.of("op_recorded")
    assert len(op.inputs[0]["summary"]["value"]) == 150
    keep = tmp_path / "keep.tvz"
    keep.write_text("precious\n")
    with pytest.raises(ValueError, match="value_limit"):
        tv.record(keep, value_limit=-1, full=True)
    assert keep.read_text() == "precious\n" and events.ACTIVE is False


def test_unserialisable_payloads_are_sanitised_not_lost(tmp_path):
    path = tmp_path / "s.tvz"
    with tv.record(path, full=True) as rec:
        events.emit(events.make(events.OpRecorded, op="Weird",
                                attrs={"x": np.float32(1.5), (1, 2): float("inf"),
                                       "o": object()}))
    assert rec.dropped == 0
    (op,) = load_recording(path).of("op_recorded")
    assert op.attrs["x"] == 1.5 and op.attrs["(1, 2)"] == "inf"
    assert op.attrs["o"].startswith("<object object")


def test_events_reach_the_file_before_the_recording_closes(tmp_path):
    path = tmp_path / "live.tvz"
    with tv.record(path, full=True):
        events.log_scalar("loss", 1.0)
        deadline = time.monotonic() + 60        # a guard against a hang, not a speed limit
        while b'"scalar"' not in path.read_bytes() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert b'"scalar"' in path.read_bytes()
        assert load_recording(path).complete is False


def test_forked_child_does_not_write_into_the_parents_recording(tmp_path):
    path = tmp_path / "fork.tvz"
    with tv.record(path, full=True):
        events.log_scalar("parent", 1.0)        # buffered, not yet flushed
        pid = os.fork()
        if pid == 0:                             # the child: ops, then exit with atexit
            try:
                events.log_scalar("child", 2.0)
                tv.constant(1.0) * 2.0
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
        events.log_scalar("parent", 3.0)
    loaded = load_recording(path)
    assert [(e.name, e.value) for e in loaded.of("scalar")] == [("parent", 1.0), ("parent", 3.0)]
    assert loaded.complete and loaded.warnings == []


# --- TAPEVIZ_RECORD and subprocesses ----------------------------------------------------------

SCRIPT = textwrap.dedent("""
    import sys, time
    import numpy as np
    import tapeviz as tv
    steps = int(sys.argv[1]); pause = float(sys.argv[2])
    w = tv.Variable(np.ones((3, 1), np.float32), name="w")
    x = tv.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    step = 0
    while steps < 0 or step < steps:
        with tv.GradientTape() as tape:
            loss = tv.reduce_mean(tv.square(tv.matmul(x, w)))
        g = tape.gradient(loss, w)
        w.assign_sub(0.001 * g)
        tv.events.log_scalar("loss", loss, step)
        step += 1
        time.sleep(pause)
    print("imported:", sorted(m for m in sys.modules if m.split(".")[0] in
                              ("panel", "bokeh", "graphviz", "param")))
""")


def _script(tmp_path):
    p = tmp_path / "train.py"
    p.write_text(SCRIPT)
    return p


def test_tapeviz_record_env_records_a_script_unchanged(tmp_path):
    script, out = _script(tmp_path), tmp_path / "env.tvz"
    proc = subprocess.run([sys.executable, str(script), "5", "0"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120,
                          env=_env(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"))
    assert proc.returncode == 0, proc.stderr
    assert "imported: []" in proc.stdout              # no Panel/Bokeh/Graphviz at import
    loaded = load_recording(out)
    assert loaded.complete and loaded.footer.reason == "exit" and loaded.warnings == []
    assert loaded.header["argv"] == [str(script), "5", "0"]
    assert [e.step for e in loaded.of("scalar")] == [0, 1, 2, 3, 4]
    assert len(loaded.of("gradient_finished")) == 5 and len(loaded.of("variable_assigned")) == 5
    assert all(e.site["file"] == str(script) for e in loaded.of("op_recorded")
               if e.backward_of is None)


def test_subprocess_of_a_recording_process_does_not_overwrite_its_file(tmp_path):
    out = tmp_path / "parent.tvz"
    parent = textwrap.dedent(f"""
        import subprocess, sys
        import tapeviz as tv
        tv.events.log_scalar("parent", 1.0)
        subprocess.run([sys.executable, "-c",
                        "import tapeviz as tv; tv.events.log_scalar('child', 2.0)"], check=True)
        tv.events.log_scalar("parent", 3.0)
    """)
    proc = subprocess.run([sys.executable, "-c", parent], capture_output=True, text=True,
                          env=_env(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"), cwd=ROOT,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    loaded = load_recording(out)
    assert [e.name for e in loaded.of("scalar")] == ["parent", "parent"] and loaded.complete


def test_unwritable_tapeviz_record_warns_and_the_script_still_runs(tmp_path):
    bad = tmp_path / "no_such_dir" / "x.tvz"
    proc = subprocess.run([sys.executable, "-c", "import tapeviz as tv; print(tv.constant(2.0))"],
                          capture_output=True, text=True,
                          env=_env(TAPEVIZ_RECORD=str(bad), TAPEVIZ_RECORD_FULL="1"),
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and "2.0" in proc.stdout
    assert "TAPEVIZ_RECORD" in proc.stderr and "cannot record" in proc.stderr


def test_follow_a_file_while_a_subprocess_writes_it(tmp_path):
    out = tmp_path / "live.tvz"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "30", "0.05"],
                            env=_env(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        follower = follow_recording(out, poll=0.02, idle_timeout=60)
        got, still_running_at_first = [], None
        for event in follower:
            if still_running_at_first is None:
                still_running_at_first = proc.poll() is None
            got.append(event)
        assert proc.wait(timeout=60) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert still_running_at_first is True           # events arrived while it was writing
    assert follower.ended and follower.reason == "closed" and follower.warnings == []
    assert follower.footer.reason == "exit"
    loaded = load_recording(out)
    assert [e.seq for e in got] == [e.seq for e in loaded]
    assert [e.step for e in got if e.kind == "scalar"] == list(range(30))
    assert follower.header == loaded.header


def test_killed_producer_leaves_a_file_that_loads_to_the_last_whole_event(tmp_path):
    out = tmp_path / "killed.tvz"
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "-1", "0"],
                            env=_env(TAPEVIZ_RECORD=str(out), TAPEVIZ_RECORD_FULL="1"), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if out.exists() and out.stat().st_size > 200_000:
                break
            time.sleep(0.05)
        follower = follow_recording(out, poll=0.02)
        first = follower.poll(max_events=50)
        assert len(first) == 50
    finally:
        proc.kill()
        proc.wait(timeout=30)
    loaded = load_recording(out)
    assert not loaded.complete and loaded.footer is None
    assert len(loaded) > 100
    seqs = [e.seq for e in loaded]
    assert seqs == sorted(seqs)
    raw = out.read_bytes()
    body = raw.split(b"\n")[1:]                    # after the header; the last is b"" or torn
    try:
        json.loads(body[-1])
        last_is_whole = True
    except ValueError:
        last_is_whole = False
    whole = body if last_is_whole else body[:-1]
    kinds = [json.loads(line)["kind"] for line in whole]
    tables = kinds.count("site") + kinds.count("refs_cleared")    # table lines, not events
    assert len(loaded) == len(kinds) - tables               # every whole event, nothing else
    assert kinds.count("site") >= 1 and all(type(e.site) is dict for e in loaded.of("op_recorded"))
    assert bool(body[-1]) and not last_is_whole or loaded.warnings == []
    if body[-1] and not last_is_whole:
        assert any("truncated" in w for w in loaded.warnings)
    # a follower of a dead producer ends instead of waiting for ever
    rest = list(follower)
    assert follower.ended and follower.reason == "producer_gone"
    assert [e.seq for e in first + rest] == seqs
    assert any("exited without closing" in w for w in follower.warnings)


# --- broken and foreign files -----------------------------------------------------------------

def test_truncated_last_line_is_tolerated(tmp_path):
    path = _recorded_file(tmp_path)
    full = load_recording(path)
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    cut = b"\n".join(lines[:-2]) + b"\n" + lines[-2][: len(lines[-2]) // 2]   # footer torn
    _write(path, cut)
    loaded = load_recording(path)
    assert not loaded.complete
    assert [e.seq for e in loaded] == [e.seq for e in full]
    assert len(loaded.warnings) == 1 and "truncated" in loaded.warnings[0]
    assert f"line {len(lines) - 1}" in loaded.warnings[0]
    # torn inside an event: that event is dropped, the ones before are kept
    body = b"\n".join(lines[:6]) + b"\n" + lines[6][:30]
    loaded = load_recording(_write(path, body))
    assert [e.seq for e in loaded] == [e.seq for e in full[:5]]
    assert "line 7: truncated" in loaded.warnings[0]


def test_a_complete_last_line_without_newline_is_kept(tmp_path):
    path = _recorded_file(tmp_path)
    raw = path.read_bytes()
    loaded = load_recording(_write(path, raw.rstrip(b"\n")))
    assert loaded.complete and loaded.warnings == []


def test_garbled_middle_lines_are_skipped_with_their_line_numbers(tmp_path):
    path = _recorded_file(tmp_path)
    full = load_recording(path)
    lines = path.read_bytes().split(b"\n")
    # lines no other line refers to (events without tensor refs; not the site table)
    alone = (b'{"kind":"backward_step"', b'{"kind":"tape_', b'{"kind":"op_defined"')
    at = [i for i, line in enumerate(lines) if line.startswith(alone)]
    a, b, c, d, e, f = at[3:9]
    lines[a] = b'{"kind": "op_recorded", "node": '             # broken JSON
    lines[b] = b"\x00\x01\x02\xff garbage"                       # binary noise
    lines[c] = b'{"kind": "tape_closed", "tape": "two"}'        # wrong type
    lines[d] = b"[" * 100_000 + b"]" * 100_000                  # nested too deeply
    lines[e] = b'{"kind": "future_kind", "x": 1}'              # unknown kind
    lines[f] = b""                                              # blank
    loaded = load_recording(_write(path, b"\n".join(lines)))
    assert loaded.complete
    assert len(loaded) == len(full) - 6
    expected = {a + 1, b + 1, c + 1, d + 1}
    assert len(loaded.warnings) == len(expected) + 1
    garbled = [w for w in loaded.warnings if "unknown kind" not in w]
    for n, w in zip(sorted(expected), garbled):
        assert w.startswith(f"line {n}: not a valid event")
    assert "'tape'" in garbled[2]
    assert "nested too deeply" in garbled[3]
    # an unknown kind (a newer tapeviz's) is skipped and named once
    assert [w for w in loaded.warnings if "unknown kind" in w] == [
        f"line {e + 1}: an event of unknown kind 'future_kind' (written by a newer tapeviz?), "
        "skipped; later ones of that kind are skipped without a warning"]


def test_a_lost_site_line_costs_its_events_their_site_only(tmp_path):
    path = _recorded_file(tmp_path)
    full = load_recording(path)
    lines = path.read_bytes().split(b"\n")
    first = next(i for i, line in enumerate(lines) if line.startswith(b'{"kind":"site"'))
    sid = json.loads(lines[first])["id"]
    lines[first] = b'{"kind":"site","id":"one"'                 # torn: the site is lost
    loaded = load_recording(_write(path, b"\n".join(lines)))
    assert len(loaded) == len(full)
    refs = (f'"site":{sid},'.encode(), f'"site":{sid}}}'.encode())
    lost = [i for i, line in enumerate(lines) if any(r in line for r in refs)]
    assert lost and len(loaded.warnings) == 1 + len(lost)
    assert loaded.warnings[0].startswith(f"line {first + 1}: not a valid event")
    assert loaded.warnings[1].startswith(f"line {lost[0] + 1}: refers to site {sid}")
    for back, want in zip(loaded, full):
        assert back.to_dict() == want.to_dict() or (back.site is None and want.site is not None)


def test_empty_file_is_a_clear_error(tmp_path):
    with pytest.raises(RecordingError, match="is empty"):
        load_recording(_write(tmp_path / "e.tvz", b""))


def test_newer_major_version_is_refused_and_older_or_minor_is_read(tmp_path):
    path = _recorded_file(tmp_path)
    lines = path.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    for version in (events.SCHEMA_VERSION + 1, "99.0"):
        header["version"] = version
        lines[0] = json.dumps(header).encode()
        with pytest.raises(RecordingError, match=rf"newer tapeviz.*version {version}.*upgrade"):
            load_recording(_write(path, b"\n".join(lines)))
    header["version"] = f"{events.SCHEMA_VERSION}.7"     # minor additions: readable
    lines[0] = json.dumps(header).encode()
    assert load_recording(_write(path, b"\n".join(lines))).complete
    header["version"] = "banana"
    lines[0] = json.dumps(header).encode()
    with pytest.raises(RecordingError, match="invalid schema version 'banana'"):
        load_recording(_write(path, b"\n".join(lines)))


def test_enormous_line_is_skipped_without_reading_it_whole(tmp_path):
    path = _recorded_file(tmp_path)
    full = load_recording(path)
    lines = path.read_bytes().split(b"\n")
    huge = b'{"kind": "scalar", "name": "' + b"x" * (20 * 1024 * 1024) + b'"}'
    lines.insert(3, huge)
    _write(path, b"\n".join(lines))
    del huge, lines
    tracemalloc.start()
    try:
        loaded = load_recording(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < recording.MAX_LINE_BYTES + 2 * 1024 * 1024
    assert [e.seq for e in loaded] == [e.seq for e in full] and loaded.complete
    assert len(loaded.warnings) == 1
    assert loaded.warnings[0].startswith("line 4: longer than 16.0 MB (20.0 MB)")


@pytest.mark.parametrize("content, seems", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "PNG image"),
    (b"\xff\xd8\xff\xe0\x00\x10JFIF", "JPEG image"),
    (b"PK\x03\x04\x14\x00", "ZIP archive"),
    (b"\x1f\x8b\x08\x00", "gzip"),
    (b"step,loss,accuracy\n0,0.9,0.1\n1,0.7,0.3\n", "CSV"),
    (b"<!DOCTYPE html><html><body>hi</body></html>\n", "HTML"),
    (b'{"name": "tapeviz", "version": 1}\n', 'no "format"'),
    (b"[1, 2, 3]\n", "JSON but not an object"),
    (b"just some notes\n", "plain text"),
    (b"\x00\x00\x00\x01binary", "NUL bytes"),
    (b'{"kind": "scalar", "seq": 1, "name": "x", "value": 1.0}\n', "without the header"),
])
def test_foreign_files_are_refused_saying_what_they_seem(tmp_path, content, seems):
    path = _write(tmp_path / "foreign.tvz", content)
    with pytest.raises(RecordingError) as info:
        load_recording(path)
    message = str(info.value)
    assert seems in message and "foreign.tvz" in message
    with pytest.raises(RecordingError, match="foreign.tvz"):
        list(follow_recording(path, poll=0.01, idle_timeout=5))


def test_a_pickle_is_refused_and_never_executed(tmp_path):
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    path = _write(tmp_path / "evil.tvz", pickle.dumps(Evil(), protocol=4))
    with pytest.raises(RecordingError, match="pickle"):
        load_recording(path)
    # even behind a valid header, a pickle line is just a garbled line
    header = json.dumps({"format": "tapeviz-recording", "version": 1}).encode()
    loaded = load_recording(_write(path, header + b"\n" + pickle.dumps(Evil()) + b"\n"))
    assert len(loaded) == 0 and len(loaded.warnings) == 1
    assert not marker.exists()


def test_truncated_header_says_so(tmp_path):
    path = _recorded_file(tmp_path)
    head = path.read_bytes()[:40]
    with pytest.raises(RecordingError, match="truncated header"):
        load_recording(_write(path, head))


def test_warnings_are_capped_for_a_file_of_garbage(tmp_path):
    header = json.dumps({"format": "tapeviz-recording", "version": 1}).encode()
    path = _write(tmp_path / "g.tvz", header + b"\n" + b"nonsense\n" * 1000)
    loaded = load_recording(path)
    assert len(loaded) == 0
    assert len(loaded.warnings) == recording.MAX_WARNINGS + 1
    assert loaded.warnings[-1] == "... and 900 more warnings"


# --- following --------------------------------------------------------------------------------

def test_follower_waits_for_the_file_and_for_the_newline(tmp_path):
    path = tmp_path / "growing.tvz"
    follower = follow_recording(path, poll=0.01)
    assert follower.poll() == [] and not follower.ended        # no file yet
    header = json.dumps({"format": "tapeviz-recording", "version": 1}).encode() + b"\n"
    e1 = json.dumps(events.make(events.Scalar, name="a", value=1.0).to_dict()).encode()
    e2 = json.dumps(events.make(events.Scalar, name="b", value=2.0).to_dict()).encode()
    end = json.dumps(events.RecordingClosed(events=2).to_dict()).encode() + b"\n"
    with open(path, "wb") as f:
        f.write(header[:10])
        f.flush()
        assert follower.poll() == [] and follower.header is None
        f.write(header[10:] + e1[:7])
        f.flush()
        assert follower.poll() == [] and follower.header["format"] == "tapeviz-recording"
        f.write(e1[7:])
        f.flush()
        assert follower.poll() == []                          # still no newline
        f.write(b"\n" + e2 + b"\n")
        f.flush()
        assert [e.name for e in follower.poll()] == ["a", "b"]
        f.write(end)
        f.flush()
    assert follower.poll() == [] and follower.ended and follower.reason == "closed"
    assert list(follower) == []


def test_follower_idle_timeout_and_truncation(tmp_path):
    path = _recorded_file(tmp_path)
    lines = path.read_bytes().split(b"\n")
    _write(path, b"\n".join(lines[:5]) + b"\n")
    follower = follow_recording(path, poll=0.01, idle_timeout=0.3)
    got = list(follower)
    assert len(got) == 4 and follower.reason == "idle"
    follower = follow_recording(path, poll=0.01)
    assert len(follower.poll()) == 4
    _write(path, lines[0] + b"\n")                             # replaced by a shorter file
    assert follower.poll() == [] and not follower.ended and follower.restarts == 1
    assert "shrank" in follower.warnings[0]


def test_follower_poll_is_bounded_and_memory_stays_flat(tmp_path):
    path = tmp_path / "long.tvz"
    rec = tv.record(path, full=True)
    rec._subscription.close()                      # feed it directly: 40,000 events
    for i in range(40_000):
        rec._on_event(events.Scalar(seq=i + 1, name="loss", value=i * 0.5, step=i))
    rec.close()
    follower = follow_recording(path)
    first = [e for e in follower.poll(max_events=1000) if e.kind == "scalar"]
    assert 900 < len(first) <= 1000 and first[0].step == 0
    tracemalloc.start()
    try:
        n, last = len(first), None
        while not follower.ended:
            batch = follower.poll(max_events=5000)
            assert len(batch) <= 5000
            n += len(batch)
            last = batch[-1] if batch else last
            del batch
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert n == 40_000 and last.step == 39_999 and follower.reason == "closed"
    assert peak < 2 * 1024 * 1024    # keeping the 40,000 events would take ~10 MB


def test_follower_skips_an_enormous_line_in_pieces(tmp_path, monkeypatch):
    monkeypatch.setattr(recording.reader, "MAX_LINE_BYTES", 100_000)
    header = json.dumps({"format": "tapeviz-recording", "version": 1}).encode()
    e = json.dumps(events.Scalar(seq=1, name="ok", value=1.0).to_dict()).encode()
    big = b'{"kind": "scalar", "name": "' + b"y" * 1_000_000 + b'"}'
    end = json.dumps(events.RecordingClosed().to_dict()).encode()
    path = _write(tmp_path / "big.tvz", b"\n".join([header, big, e, end]) + b"\n")
    follower = follow_recording(path, poll=0.01)
    got = list(follower)
    assert [x.name for x in got] == ["ok"] and follower.reason == "closed"
    assert follower.warnings[0].startswith("line 2: longer than")


def test_endless_devices_and_same_path_twice_are_refused(tmp_path):
    for device in ("/dev/zero", "/dev/urandom"):     # (reading them would never end)
        with pytest.raises(RecordingError, match="character device, not a regular file"):
            load_recording(device)
    path = tmp_path / "one.tvz"
    with tv.record(path, full=True):
        with pytest.raises(ValueError, match="already being recorded"):
            tv.record(tmp_path / "." / "one.tvz", full=True)
    assert load_recording(path).complete


def test_events_from_several_threads_all_arrive_as_whole_lines(tmp_path):
    import threading
    path = tmp_path / "threads.tvz"

    def work(name):
        for i in range(2000):
            events.log_scalar(name, i, step=i)

    with tv.record(path, full=True):
        threads = [threading.Thread(target=work, args=(f"t{k}",)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    loaded = load_recording(path)
    assert loaded.complete and loaded.warnings == []
    scalars = loaded.of("scalar")
    assert len(scalars) == 8000 and len({e.seq for e in scalars}) == 8000
    for k in range(4):
        assert [e.step for e in scalars if e.name == f"t{k}"] == list(range(2000))


def test_a_failing_disk_stops_the_recording_with_one_warning_not_the_program(tmp_path):
    class FullDisk:
        def write(self, data):
            raise OSError(28, "No space left on device")

        def flush(self):
            pass

        def close(self):
            pass

    rec = tv.record(tmp_path / "full.tvz", full=True)
    rec._file = FullDisk()
    with pytest.warns(RuntimeWarning, match="No space left on device") as caught:
        for i in range(3 * recording.FLUSH_EVENTS):
            events.log_scalar("loss", i)
        rec.close()
    assert len([w for w in caught if "No space" in str(w.message)]) == 1
    assert rec.dropped >= 3 * recording.FLUSH_EVENTS
    assert events.ACTIVE is False


def test_a_byte_order_mark_and_windows_line_ends_are_tolerated(tmp_path):
    path = _recorded_file(tmp_path)
    full = load_recording(path)
    raw = b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n")
    loaded = load_recording(_write(path, raw))
    assert loaded.complete and loaded.warnings == []
    assert [e.seq for e in loaded] == [e.seq for e in full]
    follower = follow_recording(path, poll=0.01)
    assert [e.seq for e in follower] == [e.seq for e in full] and follower.reason == "closed"


# --- fuzzing: whatever the bytes, a Recording or a RecordingError, quickly --------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

_FUZZ_BASE: dict = {}


def _fuzz_base(tmp_path_factory):
    if "raw" not in _FUZZ_BASE:
        path = tmp_path_factory.mktemp("fuzz") / "base.tvz"
        with tv.record(path, full=True):
            _program()
        _FUZZ_BASE["raw"] = path.read_bytes()
    return _FUZZ_BASE["raw"]


_mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**9), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, 10**9), st.just(0)),
    st.tuples(st.just("insert"), st.integers(0, 10**9), st.binary(min_size=1, max_size=40)),
    st.tuples(st.just("delete"), st.integers(0, 10**9), st.integers(1, 200)),
    st.tuples(st.just("dup_line"), st.integers(0, 10**9), st.just(0)),
)


def _mutate(raw: bytes, mutations) -> bytes:
    data = bytearray(raw)
    for what, at, arg in mutations:
        if not data:
            break
        i = at % len(data)
        if what == "flip":
            data[i] = arg
        elif what == "cut":
            del data[i:]
        elif what == "insert":
            data[i:i] = arg
        elif what == "delete":
            del data[i:i + arg]
        elif what == "dup_line":
            start = data.rfind(b"\n", 0, i) + 1
            end = data.find(b"\n", i)
            end = len(data) if end < 0 else end + 1
            data[end:end] = data[start:end]
    return bytes(data)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.lists(_mutation, min_size=1, max_size=6))
def test_fuzzed_recordings_load_or_raise_recording_error(tmp_path_factory, tmp_path, mutations):
    data = _mutate(_fuzz_base(tmp_path_factory), mutations)
    path = _write(tmp_path / "fuzzed.tvz", data)
    try:
        loaded = load_recording(path)
    except RecordingError as exc:
        assert str(exc)
    else:
        assert all(isinstance(e, events.Event) for e in loaded)
        assert all(isinstance(w, str) and w for w in loaded.warnings)
        for e in loaded:                       # whatever loaded is plain, re-encodable data
            json.dumps(events.sanitize(e.to_dict()), allow_nan=False)
    follower = follow_recording(path, poll=0.001, idle_timeout=0.05)
    try:
        got = list(follower)
    except RecordingError:
        got = None
    else:
        assert follower.ended
        # a mutation may change the header's pid into a process that is not running: the
        # follower then rightly stops waiting for it
        assert follower.reason in ("closed", "idle") or (
            follower.reason == "producer_gone" and follower.header.get("pid") != os.getpid())
    if got is not None and "loaded" in locals():
        assert [e.seq for e in got] == [e.seq for e in loaded][:len(got)]


def test_a_variable_updated_in_place_is_recorded_with_its_new_value(tmp_path):
    # the engine may update a variable's array in place (when nothing else holds it): the
    # summaries in the file must follow its values, step by step (here w = 2 - 0.1 k)
    import numpy as np
    w = tv.Variable(np.full((9, 9), 2.0, np.float32), name="w")       # 81 > value_limit
    x = tv.constant(np.ones((1, 9), np.float32))
    path = tmp_path / "in_place.tvz"
    with tv.record(path, full=True):
        for _ in range(4):
            with tv.GradientTape() as tape:
                loss = tv.reduce_sum(tv.matmul(x, w))
            w.assign_sub(0.1 * tape.gradient(loss, w))          # the gradient is all ones
            del tape, loss
    loaded = load_recording(path)
    watched = [e.tensor["summary"]["mean"] for e in loaded.of("watched")]
    assigned = [e.variable["summary"]["mean"] for e in loaded.of("variable_assigned")]
    assert np.allclose(watched, [2.0, 1.9, 1.8, 1.7]) and np.allclose(assigned, [1.9, 1.8, 1.7, 1.6])
