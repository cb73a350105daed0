"""The Lines tab (no browser): one row per line of the user's code that the shown tape ran
ops from, with the ops it made and the cause an explanation names there; a row click selects
the line's first op, and selecting an op selects its line. The truth is marked by hand on
the program's lines."""
from __future__ import annotations

import inspect

import pytest

import tapeviz.ui as ui

from conftest import run_events


def _program():
    import tapeviz as tv
    w = tv.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
    b = tv.Variable([-50.0, -50.0], name="b")
    x = tv.constant([[1.0, 2.0]])
    with tv.GradientTape() as tape:
        h = tv.nn.relu(x @ w + b)          # lines: MatMul, AddV2, Relu; dead_relu
        for _ in range(3):
            h = h * 0.5                    # lines: Mul x3
        loss = tv.reduce_sum(h)            # lines: Sum
    tape.gradient(loss, [w, b])


def _marked():
    """{line number: (op names, op count, cause)} from the `# lines:` comments."""
    lines, start = inspect.getsourcelines(_program)
    out = {}
    for i, text in enumerate(lines):
        if "# lines:" not in text:
            continue
        ops, _, cause = text.split("# lines:")[1].partition(";")
        names = [n.strip().split(" x")[0] for n in ops.split(",")]
        count = sum(int(n.split(" x")[1]) if " x" in n else 1 for n in ops.split(","))
        out[start + i] = (names, count, cause.strip())
    return out


@pytest.fixture(scope="module")
def dashboard():
    return ui.Dashboard(run_events(_program))


def test_one_row_per_line_with_its_ops_and_the_cause_named_there(dashboard):
    lines = dashboard.parts["Lines"]
    lines.refresh()
    frame = lines.table.value
    marked = _marked()
    assert [int(w.rsplit(":", 1)[1]) for w in frame["where"]] == sorted(marked)
    for (_, row), line in zip(frame.iterrows(), sorted(marked)):
        names, count, cause = marked[line]
        assert row["made"].split(", ") == names and row["ops"] == count, row.to_dict()
        assert row["where"] == f"test_source_lines.py:{line}"
        assert row["code"].startswith(inspect.getsource(_program).splitlines()[
            line - inspect.getsourcelines(_program)[1]].strip()[:20])
        if cause:
            assert row["causes"] == f"{cause} (w (w:0)); {cause} (b (b:0))", row["causes"]
        else:
            assert row["causes"] == ""


def test_a_row_click_selects_the_lines_first_op_and_back(dashboard):
    lines = dashboard.parts["Lines"]
    lines.refresh()
    frame = lines.table.value
    mul_row = next(i for i, made in enumerate(frame["made"]) if made == "Mul")
    lines.table.selection = [mul_row]                  # the user's click on the row
    first_mul = dashboard.state.node
    assert dashboard.plot.node(first_mul)["op"] == "Mul"
    assert dashboard.plot.selected == first_mul        # the graph selected it
    muls = [k for k, op in zip(dashboard.plot.keys, dashboard.plot.nodes.data["op"])
            if op == "Mul"]
    assert first_mul == min(muls, key=lambda k: int(k[2:]))   # the earliest of the three
    relu = next(k for k, op in zip(dashboard.plot.keys, dashboard.plot.nodes.data["op"])
                if op == "Relu")
    dashboard.plot.select(relu)                        # a click on the graph
    relu_row = next(i for i, made in enumerate(frame["made"]) if "Relu" in made)
    assert lines.table.selection == [relu_row]


def test_a_hidden_lines_tab_is_filled_when_shown():
    """Hidden, the tab computes and sends no rows (a recording switch would send them for
    nobody); shown, it has the shown tape's lines."""
    d = ui.Dashboard(run_events(_program))
    lines = d.parts["Lines"]
    assert len(lines.table.value) == 0 and not lines.shown()
    d.state.bring_forward("Lines")
    assert lines.shown() and len(lines.table.value) == len(_marked())
    d.state.bring_forward("Variables")
    d.load([], title="empty")
    d.state.bring_forward("Lines")
    assert len(lines.table.value) == 0


def test_another_run_empties_the_table():
    d = ui.Dashboard(run_events(_program))
    d.state.bring_forward("Lines")
    assert len(d.parts["Lines"].table.value) > 0
    d.load([], title="empty")
    assert len(d.parts["Lines"].table.value) == 0


def test_the_inspectors_line_picker_names_itself_and_lights_a_lines_nodes(dashboard):
    """The picker's first entry asks for a line (an empty first entry looked like a broken
    box); its other entries are the marked lines, in order; choosing the `h * 0.5` line
    lights its three Mul nodes and nothing else, and the prompt clears the light."""
    picker = dashboard.parts["Inspector"].line_select
    labels = list(picker.options)
    assert labels[0] == "Choose a line of your code: its nodes light up"
    assert picker.options[labels[0]] == "" and picker.value == ""
    marked = _marked()
    assert [int(label.split(":")[1].split()[0]) for label in labels[1:]] == sorted(marked)
    mul_line = next(line for line, (names, _, _) in marked.items() if names == ["Mul"])
    picker.value = next(label for label in labels[1:]
                        if int(label.split(":")[1].split()[0]) == mul_line)
    assert _lit(dashboard.plot) == ["Mul"] * 3
    picker.value = ""
    assert _lit(dashboard.plot) == []


def _lit(plot) -> list:
    """The ops of the nodes the graph draws a line's highlight around (what the page gets)."""
    nodes, lit = plot.nodes.data, plot.hl_nodes.data
    at = {(x, y): op for x, y, op in zip(nodes["x"], nodes["y"], nodes["op"])}
    return sorted(at[x, y] for x, y, role in zip(lit["x"], lit["y"], lit["role"])
                  if role == "line")


def test_a_tape_with_no_line_of_user_code_says_so():
    d = ui.Dashboard([])
    d.parts["Inspector"]._list_lines()
    assert list(d.parts["Inspector"].line_select.options) == ["No line of your code on this tape"]
