"""The reported scalars follow the Training tab's log-scale control: a diverging loss that
spans many decades is drawn on a log axis (its healthy phase is not a flat line at 0), a
quantity of a narrow range stays linear, and the two charts' x axes say what they count.
Truth: the values the script logged (their span, computed here from the recording)."""
from __future__ import annotations

import math

from tapeviz.recording import load_recording
from tapeviz.ui.dashboard.dashboard import Dashboard
from tapeviz.ui.store.source import store_for

from conftest import record_program

DIVERGING = """
import tapeviz as tv
w = tv.Variable(1.0, name="w")
lr = 0.1
for step in range(30):
    with tv.GradientTape() as tape:
        loss = (w - 3.0) ** 2 + 0.5
    g = tape.gradient(loss, w)
    w.assign_sub(lr * g)
    lr *= 1.6                       # the bug: the rate grows until the loss diverges
    tv.events.log_scalar("loss", loss, step)
    tv.events.log_scalar("accuracy", 0.5 + step / 100, step)
"""


def test_a_loss_spanning_many_decades_is_drawn_on_a_log_axis(tmp_path):
    path = record_program(tmp_path, "diverging", DIVERGING)
    losses = [e.value for e in load_recording(path)
              if e.kind == "scalar" and e.name == "loss" and math.isfinite(e.value)]
    assert math.log10(max(losses) / min(losses)) > 6       # the run did diverge
    d = Dashboard(None, title="t", store=store_for(path))
    tr = d.parts["Training"]
    d.bottom.active = 1                                   # as a click on the tab does
    loss, acc = tr.scalars.figs["loss"], tr.scalars.figs["accuracy"]
    assert loss["log"].visible and not loss["linear"].visible
    assert loss["log"].y_scale.__class__.__name__ == "LogScale"
    # accuracy spans 0.5 .. 0.79: a log axis would show nothing more
    assert acc["linear"].visible and not acc["log"].visible
    tr.log.value = False                                  # the control applies to the scalars
    assert loss["linear"].visible and not loss["log"].visible
    tr.log.value = True
    assert loss["log"].visible
    # the two x axes say what they count: the norms' the gradient call, the scalars' the step
    assert "gradient call" in tr.norms.band.fig.xaxis[0].axis_label
    assert "step" in tr.scalars.band.fig.xaxis[0].axis_label


def test_the_export_draws_a_diverging_loss_on_a_log_axis(tmp_path):
    path = record_program(tmp_path, "diverging", DIVERGING)
    from tapeviz.ui.render.chart_plots import static_charts
    page = static_charts(store_for(path))
    shown = [m for m in page.references() if getattr(m, "name", "") or ""]
    logs = [m for m in shown if m.name.startswith("scalars_") and m.visible]
    assert {m.name.rsplit("_", 1)[1] for m in logs} == {"log", "linear"}   # loss, accuracy
