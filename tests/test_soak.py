"""benchmarks/soak.py cleans up after itself: its default recording (about 27 KiB a step) goes
to a temporary folder that is deleted at the end unless --keep is given."""
import os
import subprocess
import sys

SOAK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks",
                    "soak.py")


def _soak(tmp_path, *args):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    for var in ("TAPEVIZ_RECORD", "_TAPEVIZ_RECORD_PID"):
        env.pop(var, None)
    return subprocess.run([sys.executable, SOAK, "--steps", "10", *args], capture_output=True,
                          text=True, env=env, timeout=300, check=True).stdout


def test_soak_deletes_its_temporary_recording(tmp_path):
    out = _soak(tmp_path)
    assert os.listdir(tmp_path) == [], out
    assert "deleted the temporary folder" in out and "--keep" in out


def test_soak_keep_keeps_it_and_says_where(tmp_path):
    out = _soak(tmp_path, "--keep")
    (folder,) = os.listdir(tmp_path)
    assert f"kept the recording in {tmp_path / folder}" in out
    assert os.path.getsize(tmp_path / folder / "soak.tvz") > 0


def test_soak_out_is_kept(tmp_path):
    _soak(tmp_path, "--out", str(tmp_path / "mine.tvz"))
    assert os.listdir(tmp_path) == ["mine.tvz"]
