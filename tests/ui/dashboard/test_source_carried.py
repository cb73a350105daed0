"""The source panel shows only the source a recording carries: never a file of the viewer's
disk that a recording names (a ``.py`` path, a symlink), and a recorded script's lines even
after the script is gone."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import tapeviz as tv
from tapeviz import ui
from tapeviz.ui.export import export

from conftest import env_with_repo

SCRIPT = textwrap.dedent("""\
    import tapeviz as tv
    x = tv.Variable(3.0, name="x")
    with tv.GradientTape() as tape:
        # carried-comment-above: the recording keeps this line
        y = x * x
        # carried-comment-below: and this one
    grad = tape.gradient(y, x)
    """)


def _record_script(tmp_path, text=SCRIPT):
    script = tmp_path / "train.py"
    script.write_text(text)
    path = tmp_path / "run.tvz"
    subprocess.run([sys.executable, str(script)], check=True, timeout=300,
                   env=env_with_repo(TAPEVIZ_RECORD=str(path), TAPEVIZ_RECORD_FULL="1"))
    return script, path


def _inspector_texts(d) -> str:
    """The inspector's HTML for every node of the shown graph, and the why cards."""
    out = []
    for key in d.plot.keys:
        d.plot.nodes.selected.indices = [d.plot.index[key]]     # as a tap does
        out.append(d.parts["Inspector"].html.object)
    out.extend(html.object for _, html, _ in d.parts["Why"].cards)
    return "\n".join(out)


def test_a_recorded_run_shows_its_source_after_the_script_is_deleted(tmp_path):
    script, path = _record_script(tmp_path)
    script.unlink()
    rec = tv.load_recording(path)
    assert rec.sources[str(script)][4] == "    # carried-comment-above: the recording keeps this line"
    d = ui.Dashboard(str(path))
    shown = _inspector_texts(d)
    assert "carried-comment-above" in shown and "carried-comment-below" in shown
    page = export(path, tmp_path / "run.html")
    html = open(page, encoding="utf-8").read()
    assert "carried-comment-above" in html and "carried-comment-below" in html


def _retarget(path, out, target: str):
    """A copy of recording ``path`` whose sites all name ``target`` (lines 1 to 4), without
    the source lines it carried: what an attacker hands to a viewer."""
    lines = []
    for raw in path.read_text().splitlines():
        data = json.loads(raw)
        if data.get("kind") == "source":
            continue
        if data.get("kind") == "site":
            data["site"]["file"] = target
            data["site"]["line"] = 1 + data["id"] % 4
        lines.append(json.dumps(data))
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.mark.slow
def test_a_recording_naming_files_on_the_viewers_disk_shows_none_of_them(tmp_path):
    _, path = _record_script(tmp_path)
    secret_py = tmp_path / "passwd.py"
    secret_py.write_text("".join(f"SECRET_PY_{i} = 'hunter{i}'\n" for i in range(1, 40)))
    private = tmp_path / "id_rsa"
    private.write_text("".join(f"PRIVATE-KEY-LINE-{i}\n" for i in range(1, 40)))
    link = tmp_path / "innocent.py"
    os.symlink(private, link)
    for target in (secret_py, link):
        bad = _retarget(path, tmp_path / f"bad-{target.name}.tvz", str(target))
        d = ui.Dashboard(str(bad))
        shown = _inspector_texts(d)
        assert "source of this file is not in the recording" in shown
        assert "SECRET_PY" not in shown and "PRIVATE-KEY" not in shown
        html = open(export(bad, tmp_path / f"{target.name}.html"), encoding="utf-8").read()
        assert "SECRET_PY" not in html and "PRIVATE-KEY" not in html
        assert "y = x * x" in html          # the line each site carries is still shown


def test_a_recording_carries_source_only_for_sites_whose_code_is_the_files_line(tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("first = 'SECRET-ONE'\nsecond = 'SECRET-TWO'\n")
    path = tmp_path / "run.tvz"
    with tv.record(path, full=True):
        for code in ("not the line", ""):            # a hand-made event naming the file
            tv.events.emit(tv.events.make(tv.events.Escaped, via="numpy()", tensor={},
                                          site={"file": str(secret), "line": 1,
                                                "func": "f", "code": code}))
    assert tv.load_recording(path).sources == {}
    assert b"SECRET" not in path.read_bytes()


def test_a_variable_made_before_any_tape_has_its_line_in_the_recording(tmp_path):
    # a frozen Variable passed as a source: its card points at the line that made it, which
    # no event's site names (no tape was open), so the explanation's line is carried
    script, path = _record_script(tmp_path, textwrap.dedent("""\
        import tapeviz as tv
        # made-before-the-tape: above the line
        scale = tv.Variable(2.0, trainable=False, name="scale")
        x = tv.Variable(3.0, name="x")
        # (far enough from the ops below that their lines
        # do not bring it along)
        #
        #
        #
        with tv.GradientTape() as tape:
            y = x * scale
        grads = tape.gradient(y, [scale, x])
        """))
    script.unlink()
    rec = tv.load_recording(path)
    (card,) = [r for e in rec if e.kind == "gradient_finished" for r in e.results
              if r["source_name"].startswith("scale")]
    assert card["cause"] == "not_trainable" and card["lineno"] == 3
    assert rec.sources[str(script)][3].startswith("scale = tv.Variable(2.0, trainable=False")
    d = ui.Dashboard(str(path))
    assert "made-before-the-tape" in "\n".join(html.object for _, html, _ in d.parts["Why"].cards)


def test_a_hand_made_explanation_naming_a_file_carries_none_of_it(tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("first = 'SECRET-ONE'\nsecond = 'SECRET-TWO'\n")
    path = tmp_path / "run.tvz"
    with tv.record(path, full=True):
        tv.events.emit(tv.events.make(
            tv.events.GradientFinished, call=1, tape=1,
            results=[{"tensor": {}, "grad": None, "norm": None, "source_name": "s",
                      "verdict": "none", "cause": "unconnected", "message": "", "fix": "",
                      "filename": str(secret), "lineno": 1, "path": [], "node": None}]))
    assert tv.load_recording(path).sources == {}
    assert b"SECRET" not in path.read_bytes()


def test_an_old_recording_shows_the_line_it_carries_and_says_the_source_is_missing(tmp_path):
    tests = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    fixture = os.path.join(tests, "fixtures", "recording_v1.jsonl")
    d = ui.Dashboard(fixture)
    shown = _inspector_texts(d)
    codes = {e.site["code"] for e in tv.load_recording(fixture)
             if getattr(e, "site", None) and e.site.get("code")}
    assert any(c in shown for c in codes)
    assert "source of this file is not in the recording" in shown


def test_a_live_tape_view_shows_a_notebook_cells_source(tmp_path):
    # a notebook cell's code is in linecache under a file name that is not on disk (ipykernel)
    import linecache
    cell = str(tmp_path / "ipykernel_cell_1.py")
    text = ("with tv.GradientTape() as tape:\n"
            "    # live-view-comment: from the cell, not from a file\n"
            "    y = x * x\n")
    linecache.cache[cell] = (len(text), None, text.splitlines(True), cell)
    scope = {"tv": tv, "x": tv.Variable(2.0, name="x")}
    exec(compile(text, cell, "exec"), scope)
    source = scope["tape"]._tapeviz_event_source()
    try:
        d = ui.Dashboard(source)
        shown = _inspector_texts(d)
        assert "live-view-comment" in shown
        assert "source of this file is not in the recording" not in shown
    finally:
        source.close()
        linecache.cache.pop(cell, None)
