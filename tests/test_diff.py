"""tv.diff and `tapeviz diff`: pairs of runs with one known change each, checked against the
line marked by hand in tests/diff_runs/mlp.py, through the function and the command."""
import importlib.util
import math
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import cli
from tapeviz.rundiff.compare import compare_summaries

PROGRAM = pathlib.Path(__file__).parent / "diff_runs" / "mlp.py"


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mlp = _load(PROGRAM, "diff_runs_mlp")


def marked_line(keyword, path=PROGRAM):
    """The line marked `# first: keyword` in the program."""
    lines = pathlib.Path(path).read_text().splitlines()
    found = [n for n, text in enumerate(lines, 1) if text.rstrip().endswith(f"# first: {keyword}")]
    assert len(found) == 1, keyword
    return found[0]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Recordings of the base run, a second identical run, and one per change."""
    folder = tmp_path_factory.mktemp("runs")
    changes = {"base": {}, "again": {}, "activation": {"activation": "tanh"}, "lr": {"lr": 0.2},
               "extra": {"extra": True}, "dtype": {"dtype": "float64"}, "seed": {"seed": 1},
               "stop": {"stop": True}}
    paths = {}
    for name, kwargs in changes.items():
        paths[name] = str(folder / f"{name}.tvz")
        mlp.train(paths[name], **kwargs)
    return paths


def _first_line(result, side="b"):
    first = result.first_divergence
    site = first.site_b if side == "b" and first.site_b else first.site_a
    return pathlib.Path(site["file"]).name, site["line"]


def test_identical_runs_agree(runs):
    result = tv.diff(runs["base"], runs["again"])
    assert not result.differ
    assert result.first_divergence is None and result.first_backward is None
    assert result.only_a == [] and result.only_b == []
    assert len(result.pairs) > 10 and {r.matched_by for r in result.pairs} == {"line"}
    assert all(not g.differs for g in result.gradients) and len(result.gradients) == 4
    assert "the runs agree" in str(result)


@pytest.mark.parametrize("change,op,kind", [
    ("activation", "Tanh", "changed"),
    ("lr", "Mul", "value"),
    ("extra", "Mul", "only_b"),
    ("dtype", "Cast", "only_b"),      # a cast to its own dtype is no op
    ("seed", "MatMul", "value"),
    ("stop", "StopGradient", "only_b"),
])
def test_first_divergence_is_the_marked_line(runs, change, op, kind):
    result = tv.diff(runs["base"], runs[change])
    assert result.differ
    first = result.first_divergence
    assert _first_line(result) == ("mlp.py", marked_line(change))
    assert first.op_b == op
    if kind == "changed":
        assert first.matched_by == "changed" and first.op_a == "Relu"
        assert first.inputs_differ == []            # z is the same: the op changed
        assert "its inputs agree" in str(result)
    elif kind == "only_b":
        assert first.op_a is None and first in result.only_b
    else:
        assert first.op_a == op and first.forward_differs and first is result.first_forward
        assert _first_line(result, "a") == ("mlp.py", marked_line(change))
    text = str(result)
    assert f"mlp.py:{marked_line(change)}" in text.split("First divergence")[1].splitlines()[1]


def test_learning_rate_changes_nothing_before_the_update(runs):
    result = tv.diff(runs["base"], runs["lr"])
    first = result.first_divergence
    # the first step's forward ops and gradients agree: everything before the update does
    before = [r for r in result.pairs if r.position < first.position]
    assert [r.op_a for r in before] == ["MatMul", "Relu", "MatMul", "Sub", "Square", "Mean"]
    assert not any(r.forward_differs for r in before)
    first_call = [g for g in result.gradients if g.call_a == result.calls[0][0]]
    assert first_call and not any(g.differs for g in first_call)
    assert math.isclose(first.forward_rel, 0.5, rel_tol=1e-5)     # 0.1 g against 0.2 g


def test_stop_gradient_shows_in_the_gradients(runs):
    result = tv.diff(runs["base"], runs["stop"])
    w1 = [g for g in result.gradients if g.name.startswith("w1")][0]
    assert (w1.verdict_a, w1.verdict_b, w1.differs) == ("value", "none", True)
    assert w1.cause_b == "stop_gradient"
    w2 = [g for g in result.gradients if g.name.startswith("w2")][0]
    assert not w2.differs                       # the first step's forward values are the same
    first_tape = [r for r in result.pairs if r.position < result.first_divergence.position + 8]
    assert first_tape and not any(r.forward_differs for r in first_tape)
    # w1 is never updated in b (no gradient), so the second step's first op differs
    assert result.first_forward.site_a["line"] == marked_line("seed")
    assert result.first_forward.position > result.first_divergence.position
    assert result.first_backward is not None


def test_seed_gradients_differ_with_a_relative_difference(runs):
    result = tv.diff(runs["base"], runs["seed"])
    inputs = result.first_divergence.inputs_differ
    assert [(i["name"], i["kind"], i["index"]) for i in inputs] == [("w1:0", "variable", 1)]
    assert "inputs that differ: w1:0 (variable)" in str(result)
    assert all(g.differs and 0 < g.rel < math.inf for g in result.gradients)
    assert result.first_backward is not None
    step = result.first_backward
    rows = {r.node_a: r for r in result.pairs}
    assert rows[step.node_a].grad_differs


def test_lines_moved_and_renamed_align_by_code_and_graph(runs, tmp_path):
    source = PROGRAM.read_text()
    moved = tmp_path / "mlp_moved.py"
    moved.write_text("\n\n\n" + source.replace("z = tf.matmul(x, w1)", "pre = tf.matmul(x, w1)")
                     .replace("h = act(z)", "h = act(pre)"))
    _load(moved, "diff_runs_moved").train(str(tmp_path / "moved.tvz"))
    result = tv.diff(runs["base"], str(tmp_path / "moved.tvz"))
    assert not result.differ, str(result)
    how = {(r.op_a, r.site_a["line"]): r.matched_by for r in result.pairs if r.site_a}
    assert how[("MatMul", marked_line("seed"))] == "graph"
    assert how[("Relu", marked_line("activation"))] == "graph"
    out_line = marked_line("dtype") + 1             # out = tf.matmul(...): moved, not edited
    assert how[("MatMul", out_line)] == "code"


def test_one_tape_against_another_of_the_same_run(runs):
    rec = tv.load_recording(runs["lr"])
    tapes = sorted({e.tape for e in rec.of("tape_opened")})
    result = tv.diff(rec, rec, tape_a=tapes[0], tape_b=tapes[1])
    assert result.differ and result.only_a == [] and result.only_b == []
    assert _first_line(result) == ("mlp.py", marked_line("seed"))   # w1 was updated between
    calls = sorted({e.call for e in rec.of("gradient_started")})
    same = tv.diff(rec, rec, call_a=calls[0], call_b=calls[0])
    assert not same.differ and same.calls == [[calls[0], calls[0]]]


def test_the_data_is_plain(runs):
    data = tv.diff(runs["base"], runs["activation"]).to_dict()
    assert data["differ"] is True
    pair = data["pairs"][0]
    assert {"node_a", "node_b", "forward_rel", "grad_rel", "matched_by"} <= set(pair)
    assert isinstance(data["only_b"], list) and isinstance(data["gradients"][0]["verdict_a"], str)


def test_large_tensors_compare_by_summary():
    rng = np.random.default_rng(0)
    a = rng.normal(size=1000)
    s = tv.events.summarize
    near = compare_summaries(s(a), s(a * (1 + 1e-3)), rtol=1e-5, atol=0)
    assert near.by == "summary" and near.differs
    assert math.isclose(near.rel, 1e-3 / (1 + 1e-3), rel_tol=1e-6)    # |n - n(1+e)| / n(1+e)
    assert not compare_summaries(s(a), s(a * (1 + 1e-3)), rtol=1e-2, atol=0).differs
    # a permutation keeps every statistic: a summary cannot tell (documented)
    assert not compare_summaries(s(a), s(a[::-1].copy()), rtol=1e-9, atol=0).differs
    nan = a.copy()
    nan[3] = np.nan
    assert compare_summaries(s(a), s(nan), 1e-5, 0).rel == math.inf
    small = compare_summaries(s(np.array([1.0, 2.0])), s(np.array([1.0, 2.5])), 1e-5, 0)
    assert small.by == "value" and math.isclose(small.rel, 0.2)


def test_cli_exit_status_and_report(runs, capsys):
    assert cli.main(["diff", runs["base"], runs["again"]]) == 0
    assert "the runs agree" in capsys.readouterr().out
    assert cli.main(["diff", runs["base"], runs["activation"]]) == 1
    out = capsys.readouterr().out
    assert f"mlp.py:{marked_line('activation')}" in out and "Relu (a) -> Tanh (b)" in out
    assert cli.main(["diff", runs["base"], runs["lr"], "--atol", "1000"]) == 0   # all within


def test_cli_bad_file_is_one_line_and_status_2(runs, tmp_path, capsys):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello, world\n")
    with pytest.raises(SystemExit) as exc:
        cli.main(["diff", runs["base"], str(bad)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "notes.txt" in err and "not a tapeviz recording" in err
    with pytest.raises(SystemExit) as exc:
        cli.main(["diff", runs["base"], runs["again"], "--tape-a", "99999", "--tape-b", "1"])
    assert exc.value.code == 2
    assert "no tape 99999" in capsys.readouterr().err
    for options, says in ((["--tape-a", "1"], "a tape on each side"),
                          (["--rtol", "-1"], "rtol must be a finite number >= 0")):
        with pytest.raises(SystemExit) as exc:
            cli.main(["diff", runs["base"], runs["again"], *options])
        assert exc.value.code == 2 and says in capsys.readouterr().err


def test_command_line_process_exit_status(runs):
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "diff", runs["base"],
                           runs["seed"]], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert f"mlp.py:{marked_line('seed')}" in proc.stdout


def _write_recording(path, ops):
    """A hand-made recording: a header, a tape and the given op_recorded fields."""
    import json
    lines = [{"format": "tapeviz-recording", "version": 3},
             {"kind": "tape_opened", "seq": 1, "time": 0.0, "tape": 1, "persistent": False,
              "watch_accessed_variables": True, "outer_tapes": [], "site": None}]
    for k, fields in enumerate(ops):
        lines.append({"kind": "op_recorded", "seq": 2 + k, "time": 0.0, "node": 10 + k,
                      "tapes": [1], "attrs": {}, "skipped": None, "backward_of": None,
                      "scope": "", **fields})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def test_odd_recordings_are_compared_not_crashed_on(tmp_path, capsys):
    site = {"file": "t.py", "line": 3, "func": "f", "code": "y = odd(x)\x1b[2J"}
    odd = {"shape": 7, "dtype": ["x"], "value": [[1, "nan"], {"a": 1}], "norm": "big"}
    a = _write_recording(tmp_path / "a.tvz", [
        {"op": "Odd\x1b]0;title\x07", "site": site, "inputs": [],
         "outputs": [{"id": 1, "name": "y", "shape": [2], "dtype": "float32", "summary": odd}]},
        {"op": "Neg", "site": site, "inputs": [],
         "outputs": [{"id": 2, "name": "z", "shape": [2], "dtype": "float32",
                      "summary": {"shape": [2], "dtype": "float32", "value": [1.0, 2.0]}}]}])
    b = _write_recording(tmp_path / "b.tvz", [
        {"op": "Odd\x1b]0;title\x07", "site": site, "inputs": [],
         "outputs": [{"id": 1, "name": "y", "shape": [2], "dtype": "float32",
                      "summary": {"shape": [2, 1], "value": "text"}}]},
        {"op": "Neg", "site": site, "inputs": [],
         "outputs": [{"id": 2, "name": "z", "shape": [2], "dtype": "float32",
                      "summary": {"shape": [2], "dtype": "float32", "value": [1.0, 2.5]}}]}])
    assert cli.main(["diff", a, b]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\\x1b" in out
    result = tv.diff(a, b)
    assert result.first_divergence.op_a.startswith("Odd")
    assert [r.op_a for r in result.pairs] == [result.first_divergence.op_a, "Neg"]
    assert math.isclose(result.pairs[1].forward_rel, 0.2)


def test_the_collector_is_left_as_the_program_had_it(runs):
    import gc
    gc.disable()
    try:
        tv.diff(runs["base"], runs["again"])
        assert not gc.isenabled()                      # a program that turned it off
    finally:
        gc.enable()
    kept = [object()]                                  # a program that froze its objects
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        tv.diff(runs["base"], runs["again"])
        assert gc.isenabled() and gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
    assert kept


def test_an_extra_training_step_is_in_one_run_only(runs, tmp_path):
    mlp.train(str(tmp_path / "three.tvz"), steps=3)
    result = tv.diff(runs["base"], str(tmp_path / "three.tvz"))
    assert result.differ and result.only_a == []
    assert {r.op_b for r in result.only_b} >= {"MatMul", "Relu", "Mean", "assign_sub"}
    assert result.first_divergence.op_b == "MatMul"
    assert _first_line(result) == ("mlp.py", marked_line("seed"))
    assert [c[0] for c in result.calls].count(None) == 1       # the third call: b only
    assert "in run b only" in str(result).split("Structural differences:")[1]
    assert not any(r.forward_differs for r in result.pairs)    # the first two steps agree


def test_a_copy_under_another_name_aligns_by_line(runs, tmp_path):
    copy = tmp_path / "mlp_v2.py"
    copy.write_text(PROGRAM.read_text())
    _load(copy, "diff_runs_v2").train(str(tmp_path / "v2.tvz"))
    result = tv.diff(runs["base"], str(tmp_path / "v2.tvz"))
    assert not result.differ
    assert {r.matched_by for r in result.pairs} == {"line"}


@pytest.mark.parametrize("name, content, why", [
    ("x.csv", b"a,b\n1,2\n", "looks like CSV"),
    ("x.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "looks like a PNG image"),
    ("empty.tvz", b"", "is empty"),
    ("missing.tvz", None, "no such recording"),
    ("newer.tvz", b'{"format": "tapeviz-recording", "version": 99}\n', "upgrade tapeviz"),
    (".", None, "folder")])
def test_a_bad_input_on_either_side_is_one_line_and_status_2(runs, tmp_path, capsys, name,
                                                             content, why):
    bad = tmp_path / name
    if content is not None:
        bad.write_bytes(content)
    for pair in ([runs["base"], str(bad)], [str(bad), runs["base"]]):
        with pytest.raises(SystemExit) as exc:
            cli.main(["diff", *pair])
        err = capsys.readouterr()
        assert exc.value.code == 2 and err.out == ""
        assert len(err.err.strip().splitlines()) == 1 and why in err.err, err.err
