"""The compare view's data and command line, without a browser: `tapeviz serve --compare`
refuses what it cannot compare in one line, the store opens where the runs part, ghosts are
wired as run b computed, and names from the recordings reach the page as text only."""
from __future__ import annotations

import importlib.util
import pathlib

import pytest

from conftest import record_program

import tapeviz as tv
from tapeviz import cli
from tapeviz.ui.render.compare_cards import detail_html, first_html
from tapeviz.ui.store.compare_store import comparison_for

PROGRAM = pathlib.Path(__file__).resolve().parents[1] / "diff_runs" / "mlp.py"


def marked_line(keyword):
    lines = PROGRAM.read_text().splitlines()
    return [n for n, t in enumerate(lines, 1) if t.rstrip().endswith(f"# first: {keyword}")][0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    spec = importlib.util.spec_from_file_location("diff_runs_mlp_store", PROGRAM)
    mlp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mlp)
    folder = tmp_path_factory.mktemp("compare_store")
    paths = {}
    for name, kwargs in {"base": {}, "extra": {"extra": True}, "lr": {"lr": 0.2}}.items():
        paths[name] = str(folder / f"{name}.tvz")
        mlp.train(paths[name], **kwargs)
    return paths


def test_an_extra_op_is_a_ghost_between_the_ops_it_sits_between(runs):
    store = comparison_for(runs["base"], runs["extra"])
    graph = store.graph(store.latest_tape())
    by_key = {n["key"]: n for n in graph["nodes"]}
    ghost = [n for n in graph["nodes"] if n["key"].startswith("b")]
    assert [n["site"]["line"] for n in ghost] == [marked_line("extra")]
    key = ghost[0]["key"]
    assert store.focus_key == key            # the first divergence, on the tape shown first
    into = [by_key[e["tail"]]["op"] for e in graph["edges"] if e["head"] == key]
    out = [by_key[e["head"]] for e in graph["edges"] if e["tail"] == key]
    # h = h * 2.0 reads the Relu's output, and the next MatMul (the line after the cast) reads it
    assert into == ["Relu"]
    assert [(n["op"], n["site"]["line"]) for n in out] == [("MatMul", marked_line("dtype") + 1)]
    assert all(e["ghost"] for e in graph["edges"] if key in (e["tail"], e["head"]))


def test_two_tapes_of_one_run_open_on_the_first_tape(runs):
    rec = tv.load_recording(runs["lr"])
    tapes = sorted({e.tape for e in rec.of("tape_opened")})
    store = comparison_for(runs["lr"], runs["lr"], tape_a=tapes[0], tape_b=tapes[1])
    assert store.latest_tape() == tapes[0]
    node = store.ops[int(store.focus_key[2:])]
    assert (node["op"], node["site"]["line"]) == ("MatMul", marked_line("seed"))   # w1 moved


def test_a_learning_rate_is_named_off_the_graph(runs):
    store = comparison_for(runs["base"], runs["lr"])
    text = first_html(store)
    assert f"mlp.py:{marked_line('lr')}" in text and "It ran on no tape" in text


HOSTILE_PAIR = """\
import tapeviz as tv

evil = tv.Variable({value}, name="<img src=x onerror=alert(1)>")
other = tv.Variable(2.0, name="<script>alert(2)</script>")
with tv.GradientTape() as tape:
    y = evil * other  # <b onmouseover=alert(3)>
g = tape.gradient(y, [evil, other])
"""


def test_names_and_code_from_a_recording_are_text(tmp_path):
    a = str(record_program(tmp_path, "hostile_a", HOSTILE_PAIR.format(value=1.0)))
    b = str(record_program(tmp_path, "hostile_b", HOSTILE_PAIR.format(value=3.0)))
    store = comparison_for(a, b)
    graph = store.graph(store.latest_tape())
    html = "".join(detail_html(store, n, store.latest_tape()) for n in graph["nodes"])
    html += first_html(store)
    assert "&lt;img src=x onerror=alert(1)&gt;" in html      # the input that differs
    assert "&lt;b onmouseover=alert(3)&gt;" in html          # the line of code
    assert "<img" not in html and "<script" not in html and "<b onmouseover" not in html


def _fails(capsys, argv, says):
    with pytest.raises(SystemExit) as exc:
        cli.main(argv)
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and says in err, err


def test_serve_compare_refuses_in_one_line(runs, tmp_path, capsys):
    _fails(capsys, ["serve", runs["base"], "--compare", str(tmp_path / "none.tvz")],
           "no such recording")
    _fails(capsys, ["serve", runs["base"], "--tape-a", "1", "--tape-b", "2"],
           "go with --compare")
    _fails(capsys, ["serve", runs["base"], "--compare", runs["lr"], "--tape-a", "99999",
                    "--tape-b", "1"], "no tape 99999")
    _fails(capsys, ["serve", runs["base"], "--compare", runs["lr"], "--follow"],
           "two finished recordings")
    _fails(capsys, ["serve", str(tmp_path), "--compare", runs["lr"]], "Compare with")


def test_the_outline_and_the_colouring_outlive_a_change_of_tape(runs):
    from tapeviz.ui.store.compare_store import AGREE
    from tapeviz.ui.dashboard.compare_view import CompareView
    store = comparison_for(runs["base"], runs["extra"])
    view = CompareView(store)
    graph, dash = view.graph, view.dashboard
    first_tape = dash.state.tape
    other = [t for t in store.tape_ids() if t != first_tape][0]
    view.mode = "gradient"
    dash.parts["Tape"].tape_select.value = other
    assert dash.state.tape == other and graph.keys[0] not in ("",)
    dash.parts["Tape"].tape_select.value = first_tape
    outline = graph.hl_nodes.data
    i = graph.index[store.first_keys()["gradient"]]
    j = outline["role"].index("divergence")
    assert (outline["x"][j], outline["y"][j]) == (graph.nodes.data["x"][i],
                                                  graph.nodes.data["y"][i])
    # drawn again in the gradients' colours: the Mean's backward step (d loss / d loss = 1
    # in both runs) agrees, while its forward value differs
    mean = [k for k, op in zip(graph.keys, graph.nodes.data["op"]) if op == "Mean"][0]
    assert graph.nodes.data["fill"][graph.index[mean]] == AGREE
    view.mode = "forward"
    assert graph.nodes.data["fill"][graph.index[mean]] != AGREE


CHAIN = """\
import sys
import tapeviz as tv

changed = int(sys.argv[1])
x = tv.Variable(1.0, name="x")
with tv.GradientTape() as tape:
    y = x
    for b in range(26):
        with tv.name_scope(f"layer{b}"):
            for i in range(50):
                y = y * (1.0002 if b * 50 + i == changed else 1.0001) if i % 2 else y + 0.001
tape.gradient(y, x)
"""


@pytest.mark.slow
def test_a_large_graph_colours_its_groups_and_outlines_the_one_that_parts(tmp_path):
    import subprocess
    import sys
    from conftest import env_with_repo
    from tapeviz.ui.store.compare_store import AGREE, SCALE
    from tapeviz.ui.dashboard.compare_view import CompareView
    (tmp_path / "chain.py").write_text(CHAIN)
    paths = []
    for name, changed in (("a", -1), ("b", 7 * 50 + 11)):      # an op of layer7 changed
        path = tmp_path / f"{name}.tvz"
        subprocess.run([sys.executable, "chain.py", str(changed)], cwd=tmp_path, check=True,
                       env=env_with_repo(TAPEVIZ_RECORD=str(path), TAPEVIZ_RECORD_FULL="1"),
                       timeout=120)
        paths.append(str(path))
    view = CompareView(comparison_for(*paths))
    graph = view.graph
    assert graph.graph.get("collapsed"), "1,300 ops are drawn as groups"
    fills = dict(zip(graph.keys, graph.nodes.data["fill"]))
    assert fills["grp:scope:layer6"] == AGREE          # everything before the change agrees
    assert fills["grp:scope:layer7"] in SCALE and fills["grp:scope:layer8"] in SCALE
    outline = graph.hl_nodes.data
    i = graph.index["grp:scope:layer7"]
    assert "divergence" in outline["role"]
    j = outline["role"].index("divergence")
    assert (outline["x"][j], outline["y"][j]) == (graph.nodes.data["x"][i],
                                                  graph.nodes.data["y"][i])
