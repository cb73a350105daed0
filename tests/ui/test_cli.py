"""The ``tapeviz`` command with bad inputs, and ``tapeviz run``'s temporary recording.

Every command runs in its own session (process group) and is stopped with ``os.killpg``, so a
server or a script it started never outlives the test, even when an assertion fails."""
from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from conftest import ROOT, env_with_repo, next_match, wait_live

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64)
HEADER = b'{"format": "tapeviz-recording", "version": 2}\n'

SCRIPT = """\
import time
import tapeviz as tv
x = tv.Variable(1.0, name="x")
with tv.GradientTape() as t:
    y = x * x
t.gradient(y, x)
time.sleep(600)      # still running when tapeviz run is stopped
"""


class Cli:
    """``python -m tapeviz.cli ARGS`` in a new session; its output read line by line."""

    def __init__(self, args, env=None):
        # -X faulthandler: a command that hangs is made to dump its threads' stacks (stop())
        self.proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-m", "tapeviz.cli",
                                      *map(str, args)],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     cwd=ROOT, env=env or env_with_repo(),
                                     start_new_session=True)
        self.out: list = []
        self.err: list = []
        self.lines: queue.Queue = queue.Queue()
        self._readers = [threading.Thread(target=self._read, args=(s, keep), daemon=True)
                         for s, keep in ((self.proc.stdout, self.out),
                                         (self.proc.stderr, self.err))]
        for t in self._readers:
            t.start()

    def _read(self, stream, keep):
        for line in stream:
            keep.append(line)
            self.lines.put(line)

    def wait_for(self, pattern, timeout=120):
        """The first match of ``pattern`` in its output; fails if it exits first."""
        m = next_match(self.lines, self.proc, pattern, timeout)
        if m:
            return m
        self.kill()
        pytest.fail(f"no {pattern!r} in the output:\n{self.text()}")

    def finish(self, timeout=60):
        """(status, stdout, stderr) of a command that should exit by itself."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"still running after {timeout} s (it started a server?):\n"
                        f"{self.text()}")
        for t in self._readers:
            t.join(10)
        return self.proc.returncode, "".join(self.out), "".join(self.err)

    def stop(self, sig=signal.SIGTERM, timeout=30):
        """Send ``sig`` to the whole process group (as Ctrl-C or a kill of the group does)
        and wait for the command to exit."""
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.kill(self.proc.pid, signal.SIGABRT)      # faulthandler prints where it hangs
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            self.kill()
            for t in self._readers:
                t.join(10)
            pytest.fail(f"did not exit after {sig!r}:\n{self.text()}")
        for t in self._readers:
            t.join(10)

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()

    def text(self):
        return "".join(self.out) + "".join(self.err)


@pytest.fixture
def cli():
    started = []

    def start(*args, env=None):
        c = Cli(args, env=env)
        started.append(c)
        return c
    yield start
    for c in started:        # whatever the test did: nothing it started keeps running
        c.kill()


def _one_line_error(status, out, err):
    assert status == 2, (status, out, err)
    assert "Traceback" not in err and "serving" not in out, out + err
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.fixture
def bad_files(tmp_path):
    (tmp_path / "x.png").write_bytes(PNG)
    (tmp_path / "x.csv").write_text("a,b\n1,2\n")
    (tmp_path / "empty.tvz").write_bytes(b"")
    (tmp_path / "events.tvz").write_text('{"kind": "op_recorded", "op": "Mul"}\n')
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("name, why", [
    ("x.png", "looks like a PNG image"), ("x.csv", "looks like CSV"),
    ("empty.tvz", "is empty"), ("events.tvz", "has no recording header")])
def test_serve_refuses_a_file_that_is_not_a_recording_before_serving(cli, bad_files, name,
                                                                     why):
    status, out, err = cli("serve", bad_files / name, "--port", "0").finish()
    line = _one_line_error(status, out, err)
    assert name in line and why in line and "TAPEVIZ_RECORD=run.tvz python" in line, line
    # only an empty file may be a recording still starting: only there is --follow the fix
    assert ("--follow" in line) == (name == "empty.tvz"), line


@pytest.mark.slow
def test_serve_refuses_a_recording_from_a_newer_tapeviz(cli, tmp_path):
    (tmp_path / "new.tvz").write_bytes(b'{"format": "tapeviz-recording", "version": 999}\n')
    status, out, err = cli("serve", tmp_path / "new.tvz", "--port", "0").finish()
    line = _one_line_error(status, out, err)
    assert "newer tapeviz" in line and "upgrade tapeviz" in line, line


@pytest.mark.slow
def test_serve_follow_waits_for_a_missing_or_empty_file_but_refuses_a_foreign_one(cli,
                                                                                   bad_files):
    status, out, err = cli("serve", bad_files / "x.png", "--follow", "--port", "0").finish()
    assert "x.png" in _one_line_error(status, out, err)
    (bad_files / "partial.tvz").write_bytes(HEADER[:20])     # a header still being written
    for name in ("not-yet.tvz", "empty.tvz", "partial.tvz"):
        c = cli("serve", bad_files / name, "--follow", "--port", "0")
        url = c.wait_for(r"serving .* at (http://127\.0\.0\.1:\d+/)").group(1)
        if not wait_live(url):
            pytest.fail(f"serve --follow {name} never became live:\n{c.text()}")
        c.stop()


@pytest.mark.slow
def test_serve_a_recording_still_works(cli, recordings):
    """The good path beside the refusals: the page answers, and the document its session
    gets is the recording's dashboard (its title and a variable of the program)."""
    import re
    import urllib.request
    from test_server_security import pull_doc
    c = cli("serve", recordings["main"], "--port", "0")
    url = c.wait_for(r"serving main_prog\.tvz at (http://127\.0\.0\.1:\d+/)").group(1)
    assert wait_live(url), c.text()
    with urllib.request.urlopen(url, timeout=60) as r:
        status, body = r.status, r.read().decode()
    assert status == 200
    session = re.search(r'"token":"([\w.-]+)"', body).group(1)
    doc = pull_doc(url.replace("http://", "ws://") + "ws", session,
                   origin=url.rstrip("/"))
    assert doc.startswith('{"doc"') and "main_prog.tvz" in doc and "w:0" in doc, doc[:300]
    c.stop()


# (one served recording stays in the quick loop: following it costs as much again)
@pytest.mark.parametrize("follow", [pytest.param(False, id="file"),
                                    pytest.param(True, id="follow", marks=pytest.mark.slow)])
def test_the_port_accepts_connections_when_serving_is_printed(cli, recordings, follow):
    """A browser opened on the "serving" line connects at once (the line came seconds before
    the port was bound, while the recording and the UI stack loaded)."""
    c = cli("serve", recordings["main"], "--port", "0", *(["--follow"] if follow else []))
    port = int(c.wait_for(r"serving .* at http://127\.0\.0\.1:(\d+)/").group(1))
    with socket.create_connection(("127.0.0.1", port), timeout=1.0):
        pass


def _ctrl_c_after(args, ready, sigint):
    """Start ``python -m tapeviz.cli ARGS`` in its own process group with SIGINT set to
    ``sigint`` (SIG_IGN: as a background job of a script starts it), read its output until a
    line holds ``ready``, send SIGINT to the group at once (as a terminal's Ctrl-C does) and
    return (exit status, output); fails if it is still running 60 s later."""
    proc = subprocess.Popen([sys.executable, "-m", "tapeviz.cli", *map(str, args)], cwd=ROOT,
                            env=env_with_repo(), start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, sigint),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = ""
    try:
        while ready not in out:
            line = proc.stdout.readline()
            if not line:
                pytest.fail(f"exited before printing {ready!r}:\n{out}")
            out += line
        os.killpg(proc.pid, signal.SIGINT)
        out += proc.communicate(timeout=60)[0]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out += proc.communicate()[0]
        pytest.fail(f"still running after a Ctrl-C:\n{out}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, out


@pytest.mark.slow
@pytest.mark.parametrize("follow", [False, True], ids=["serve", "serve --follow"])
def test_a_ctrl_c_right_after_serving_stops_the_server(recordings, follow):
    """Whoever reads "serving" can stop the server with a Ctrl-C at once, also when tapeviz
    was started with SIGINT ignored (a background job of a script, as pytest itself may be):
    Python keeps an ignored SIGINT ignored, and until the server's handler was installed a
    Ctrl-C was then lost and the server ran on (tapeviz installs its handler first)."""
    args = ["serve", recordings["main"], "--port", "0"] + (["--follow"] if follow else [])
    status, out = _ctrl_c_after(args, "serving", signal.SIG_IGN)
    assert status == 0 and "Traceback" not in out, out


def test_a_ctrl_c_right_after_the_gallery_line_stops_the_gallery():
    """The gallery prints its line once ``panel serve`` runs, so a Ctrl-C right after it (to
    the process group, as a terminal sends it) stops both quietly; before, the line came
    first and a Ctrl-C then could land in the middle of starting panel serve (a traceback)."""
    status, out = _ctrl_c_after(["gallery", "--port", "0"], "demos at", signal.SIG_DFL)
    assert "Traceback" not in out, out


def test_read_header_refuses_a_pipe_at_once(tmp_path):
    """The check before serving never waits on a FIFO (opening one blocks until a writer
    comes, and its writer decides when reading ends): it is refused before it is read."""
    from tapeviz.recording.reader import RecordingError, read_header
    fifo = tmp_path / "pipe.tvz"
    os.mkfifo(fifo)
    got = []

    def check():
        try:
            read_header(fifo)
        except RecordingError as exc:
            got.append(str(exc))
    reader = threading.Thread(target=check, daemon=True)
    reader.start()
    reader.join(20)
    assert got and "is a FIFO (named pipe), not a regular file" in got[0], "read_header blocked"


@pytest.mark.slow
@pytest.mark.parametrize("name, why", [
    ("x.csv", "looks like CSV"), ("x.png", "looks like a PNG image"),
    ("empty.tvz", "is empty"), ("missing.tvz", "no such recording"), (".", "folder")])
def test_export_a_bad_input_is_one_line_not_a_traceback(cli, bad_files, name, why):
    status, out, err = cli("export", bad_files / name, "-o", bad_files / "y.html").finish()
    line = _one_line_error(status, out, err)
    assert why in line, line
    assert not (bad_files / "y.html").exists()


@pytest.mark.slow
def test_export_to_a_folder_that_does_not_exist_is_one_line(cli, recordings, tmp_path):
    status, out, err = cli("export", recordings["main"], "-o",
                           tmp_path / "no" / "such" / "y.html").finish(timeout=120)
    line = _one_line_error(status, out, err)
    assert "y.html" in line and "No such file" in line, line


def test_run_a_missing_script_exits_at_once(cli, tmp_path):
    status, out, err = cli("run", "--port", "0", tmp_path / "nope.py").finish()
    assert "nope.py" in _one_line_error(status, out, err)


def _run_until_recorded(cli, tmp_path, *options):
    """Start ``tapeviz run`` (temporary files under tmp_path/tmp) on SCRIPT; return it and its
    recording's path once the server is up and the script's gradient is in the file."""
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    (tmp_path / "tmp").mkdir(exist_ok=True)
    c = cli("run", "--port", "0", *options, script,
            env=env_with_repo(TMPDIR=str(tmp_path / "tmp")))
    rec = c.wait_for(r"recording to (\S+\.tvz)").group(1)
    c.wait_for(r"serving .* at http://127\.0\.0\.1:\d+/")
    for _ in range(300):
        if os.path.exists(rec) and b"gradient_finished" in open(rec, "rb").read():
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the script recorded nothing in {rec}:\n{c.text()}")
    return c, rec


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_run_deletes_its_temporary_recording_at_exit(cli, tmp_path, sig):
    c, rec = _run_until_recorded(cli, tmp_path)
    assert os.path.dirname(rec) == str(tmp_path / "tmp")
    c.stop(sig)
    assert not os.path.exists(rec), c.text()
    assert os.listdir(tmp_path / "tmp") == [], os.listdir(tmp_path / "tmp")
    assert "deleted when tapeviz exits" in c.text() and "-o FILE" in c.text()
    assert "deleted the temporary recording" in c.text()


@pytest.mark.slow
def test_run_with_output_keeps_the_recording(cli, tmp_path):
    out = tmp_path / "kept.tvz"
    c, rec = _run_until_recorded(cli, tmp_path, "-o", out)
    assert rec == str(out) and "(kept)" in c.text()
    c.stop(signal.SIGTERM)
    from tapeviz.recording import load_recording
    assert "gradient_finished" in {e.kind for e in load_recording(out)}
    assert os.listdir(tmp_path / "tmp") == []


FIVE_CALLS = """\
import time
import tapeviz as tv
x = tv.Variable(1.0, name="x")
for _ in range(5):
    with tv.GradientTape() as t:
        y = x * x
    t.gradient(y, x)
time.sleep(600)      # still running when tapeviz run is stopped
"""


@pytest.mark.slow
@pytest.mark.parametrize("full", [False, True], ids=["flight", "full"])
def test_run_full_records_every_event_of_every_call(cli, tmp_path, full):
    """By default ``tapeviz run`` records with the flight policy (calls 4 and 5: summaries
    only); with ``--full`` every call's events are in the file."""
    script, out = tmp_path / "train.py", tmp_path / "run.tvz"
    script.write_text(FIVE_CALLS)
    c = cli("run", "--port", "0", "-o", out, *(["--full"] if full else []), script)
    c.wait_for(r"serving .* at http://127\.0\.0\.1:\d+/")
    last = b'"kind":"gradient_finished"' if full else b'"kind":"call_summary"'
    for _ in range(300):        # until the flusher wrote the fifth call
        if out.exists() and out.read_bytes().count(last) == 5:
            break
        time.sleep(0.2)
    c.stop(signal.SIGTERM)
    from tapeviz.recording import load_recording
    loaded = load_recording(out)
    finished = [e for e in loaded if e.kind == "gradient_finished"]
    summaries = [e for e in loaded if e.kind == "call_summary"]
    if full:
        assert "flight" not in loaded.header and summaries == [] and len(finished) == 5
    else:
        assert loaded.header["flight"]["first"] == 3 and len(finished) == 3
        assert [s.full for s in summaries] == [True, True, True, False, False]


def test_run_output_never_overwrites_a_file_that_is_not_a_recording(cli, tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    status, out, err = cli("run", "--port", "0", "-o", script, script).finish()
    line = _one_line_error(status, out, err)
    assert "train.py" in line and "not a tapeviz recording" in line, line
    assert script.read_text() == SCRIPT


@pytest.mark.slow
def test_export_takes_the_page_as_a_second_argument_too(cli, recordings, tmp_path):
    page = tmp_path / "page.html"
    status, out, err = cli("export", recordings["main"], page).finish(timeout=120)
    assert status == 0 and page.exists() and f"wrote {page}" in out, (status, out, err)
    status, out, err = cli("export", recordings["main"], tmp_path / "a.html", "-o",
                           tmp_path / "b.html").finish()
    line = _one_line_error(status, out, err)
    assert "export writes one page" in line, line
    assert not (tmp_path / "a.html").exists() and not (tmp_path / "b.html").exists()
