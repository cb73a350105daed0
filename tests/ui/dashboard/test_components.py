"""The dashboard as components around one state: a component added to the list is laid out,
refreshed, reset and driven by the state like the built-in ones, and no component module
reaches for another component (no browser)."""
from __future__ import annotations

import ast
import importlib
import pathlib

import panel as pn
import param
import pytest

import tapeviz.ui as ui
from tapeviz.ui.dashboard.dashboard import COMPONENTS
from tapeviz.ui.dashboard.state import Component

from conftest import run_events, sample_program

DASHBOARD = pathlib.Path(ui.__file__).parent / "dashboard"


class CallSteps(Component):
    """A component as CONTRIBUTING.md shows one: the shown call's number of steps."""

    label = "Steps"
    area = "bottom"

    def __init__(self, state, plot, **params):
        super().__init__(state, plot, **params)
        self.text = pn.pane.HTML("")
        self.refreshed = self.resets = 0

    def body(self):
        return [self.text]

    @param.depends("state.call", watch=True)
    def _on_call(self):
        self.guarded(self._show)

    def _show(self):
        call = self.store.calls.get(self.state.call)
        self.text.object = f"call {self.state.call}: {len(call['steps'])} steps" if call else ""

    def refresh(self, force=False):
        self.refreshed += 1
        self._show()

    def reset(self):
        self.resets += 1


def _two_calls():
    import tapeviz as tv
    x = tv.Variable(3.0, name="x")
    with tv.GradientTape(persistent=True) as tape:
        y = x * x
        z = tv.sin(y)
    tape.gradient(y, x)        # 1 step (Mul)
    tape.gradient(z, x)        # 2 steps (Sin, Mul)


@pytest.fixture(scope="module")
def events():
    return run_events(_two_calls)


def test_an_added_component_is_laid_out_refreshed_and_follows_the_state(events):
    d = ui.Dashboard(events, components=[*COMPONENTS, CallSteps])
    steps = d.parts["Steps"]
    assert steps.panel() in d.bottom.objects
    assert steps.refreshed >= 1
    calls = list(d.store.calls)
    assert d.state.call == calls[-1] and steps.text.object.endswith(": 2 steps")
    d.select_call(calls[0])                    # as the training chart's click does
    assert steps.text.object == f"call {calls[0]}: 1 steps"
    d.parts["Tape"].call_select.value = calls[1]        # the user's pick in the toolbar
    assert steps.text.object == f"call {calls[1]}: 2 steps"
    d.load(run_events(sample_program), title="other")
    assert steps.resets == 1 and d.state.call == list(d.store.calls)[-1]
    assert steps.text.object.startswith(f"call {d.state.call}:")


def test_a_component_setting_the_state_moves_the_others(events):
    d = ui.Dashboard(events)
    mul = next(k for k, op in zip(d.plot.keys, d.plot.nodes.data["op"]) if op == "Mul")
    d.state.node = mul                         # what the variables table does on a row click
    assert d.plot.selected == mul
    assert "Mul" in d.parts["Inspector"].html.object
    assert d.side.active == 0                  # the inspector tab came forward
    d.side.active = 1                          # on the player, a click moves the player
    sin = next(k for k, op in zip(d.plot.keys, d.plot.nodes.data["op"]) if op == "Sin")
    d.plot.select(sin)
    call = d.store.calls[d.state.call]
    assert d.side.active == 1 and d.state.step == next(
        i for i, s in enumerate(call["steps"]) if s["op"] == "Sin")


def _component_classes():
    found = {}
    for path in DASHBOARD.glob("*.py"):
        module = importlib.import_module(f"tapeviz.ui.dashboard.{path.stem}")
        for name, value in vars(module).items():
            # (a panel names its tab: a shared base such as NodeTable has no label of its own)
            if (isinstance(value, type) and issubclass(value, Component)
                    and value is not Component and value.__dict__.get("label")
                    and value.__module__ == module.__name__):
                found[name] = path.stem
    return found


def test_no_component_module_imports_another_component():
    classes = _component_classes()
    assert {"GraphPanel", "Inspector", "BackwardPlayer", "WhyCards", "VariablesTable",
            "TrainingCharts", "JacobianView", "LiveFollower", "RunPicker"} <= set(classes)
    offenders = []
    for path in DASHBOARD.glob("*.py"):
        if path.stem == "dashboard":           # the one module that composes them
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                offenders += [(path.stem, a.name) for a in node.names if a.name in classes]
    assert offenders == []
