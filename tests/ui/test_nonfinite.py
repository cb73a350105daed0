"""A real run that makes NaN and Inf (the log of zero, a division by zero, an overflowing exp)
in arrays of several sizes: every view draws it, exported and served, and an export that truly
cannot draw a tape says so and fails."""
from __future__ import annotations

import math
import subprocess
import sys

import pytest

from conftest import ROOT, select_node, env_with_repo, node_data, open_dashboard, record_program

NAN_PROGRAM = """\
import numpy as np
import tapeviz as tv

x = tv.Variable([0.0, 1.0, 2.0], name="x")                         # 3 elements
w = tv.Variable(np.linspace(-1, 1, 12).reshape(3, 4).astype("float32"), name="w")   # 12
z = tv.Variable(np.zeros(40, dtype="float32"), name="z")          # 40
big = tv.Variable(np.zeros(100, dtype="float32"), name="big")     # 100: a summary only
s = tv.Variable(0.0, name="s")                                    # a scalar
with tv.GradientTape(persistent=True) as tape:
    logx = tv.math.log(x)                                         # -inf, 0, log 2
    ratio = (x - 1.0) / (x * 0.0)                                 # -inf, nan, inf
    blown = tv.exp(w * 1000.0)                                    # overflows to inf
    logz = tv.math.log(z)                                         # 40 times -inf
    logbig = tv.math.log(big)
    logs = tv.math.log(s)
    loss = (tv.reduce_sum(logx) + tv.reduce_sum(ratio) + tv.reduce_sum(blown)
            + tv.reduce_sum(logz) + tv.reduce_sum(logbig) + logs)
grads = tape.gradient(loss, [x, w, z, big, s])
tv.events.log_scalar("loss", float("nan"), step=0)
"""


@pytest.fixture(scope="module")
def nan_run(tmp_path_factory):
    return record_program(tmp_path_factory.mktemp("nan"), "nan_run", NAN_PROGRAM)


def _store(path):
    from tapeviz.ui.store.source import store_for
    return store_for(str(path))


def test_the_inspector_draws_every_node_of_a_run_with_nan_and_inf(nan_run):
    from tapeviz.ui.render.cards import node_html
    store = _store(nan_run)
    graph = store.graph(store.latest_tape())
    pages = {(n["op"], n["shapes"]): node_html(store, n) for n in graph["nodes"]}
    # the non-finite cells of the value heatmaps, named as the recording writes them:
    # log(x) of [0, 1, 2], [-1, 0, 1] / 0, exp(1000 w), log of 40 zeros
    assert 'title="-inf"' in pages["Log", "(3,)"]
    assert all(f'title="{v}"' in pages["RealDiv", "(3,)"] for v in ("inf", "nan", "-inf"))
    assert 'title="inf"' in pages["Exp", "(3, 4)"]
    assert pages["Log", "(40,)"].count('title="-inf"') == 40
    # a summary only (100 elements) and a scalar: their statistics, no map
    assert "inf=100" in pages["Log", "(100,)"] and 'title="' not in pages["Log", "(100,)"]
    assert "-inf" in pages["Log", "()"]


@pytest.mark.slow
def test_a_nan_run_exports_every_tape(nan_run, tmp_path):
    out = tmp_path / "nan.html"
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(nan_run), "-o",
                           str(out)], capture_output=True, text=True, cwd=ROOT,
                          env=env_with_repo(), timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page = out.read_text()
    assert "could not be drawn" not in page
    assert "inf_origin" in page                       # the why cards of the gradients
    assert 'title=\\"inf\\"' in page                  # and their heatmaps' Inf cells


def test_export_fails_naming_a_tape_it_cannot_draw(nan_run, tmp_path, monkeypatch, capsys):
    """The page is still written with the other tapes, but the exit status says it is not
    whole (it used to print "wrote" and exit 0)."""
    from tapeviz import cli
    from tapeviz.ui import export as export_mod
    real = export_mod._tape_view

    def broken(store, tid, *rest):
        if tid == store.latest_tape():
            raise ValueError("a view that cannot be drawn")
        return real(store, tid, *rest)
    monkeypatch.setattr(export_mod, "_tape_view", broken)
    out = tmp_path / "broken.html"
    with pytest.raises(SystemExit) as stop:
        cli.main(["export", str(nan_run), "-o", str(out)])
    assert stop.value.code != 0
    err = capsys.readouterr().err
    assert "tape 1 could not be drawn: ValueError: a view that cannot be drawn" in err
    assert str(out) in err and out.exists()


@pytest.mark.parametrize("norm", ["inf", 10 ** 400])
def test_a_norm_written_as_inf_reads_as_a_number_everywhere(norm):
    """A norm that overflows is written "inf" (docs/events.md), and another writer may write
    an integer no float holds; the variables table of the exported page formatted it with
    "{:.4g}" and raised, the training chart compared it."""
    from tapeviz.ui.export import _variables
    from tapeviz.ui.store.store import Store
    x = {"id": 1, "name": "x:0", "shape": [], "dtype": "float32", "kind": "variable",
         "trainable": True, "node": None, "summary": {"shape": [], "dtype": "float32", "size": 1}}
    store = Store()
    store.ingest([{"kind": "tape_opened", "tape": 1, "seq": 1},
                  {"kind": "gradient_started", "call": 1, "tape": 1, "sources": [x], "seq": 2},
                  {"kind": "gradient_finished", "call": 1, "tape": 1, "seq": 3,
                   "results": [{"tensor": x, "grad": {"shape": [], "dtype": "float32", "size": 1,
                                                      "inf": 1, "value": "inf"},
                                "norm": norm, "verdict": "inf", "cause": "inf_origin"}]}])
    assert store.unknown == 0
    assert store.history[-1]["norm"] == math.inf
    assert "<td>inf</td><td>inf</td><td>inf_origin</td>" in _variables(store)


@pytest.mark.parametrize("bad, text", [(math.nan, "nan"), (math.inf, "inf"), (-math.inf, "-inf")])
def test_summaries_holding_non_finite_floats_read_as_the_recordings_write_them(bad, text):
    """In memory (a notebook's tape, another writer's events through ``from_dict``) a summary
    may hold a float NaN where a file holds "nan": both read the same."""
    from tapeviz.ui.render.html import heatmap
    from tapeviz.ui.store.summaries import summary_text
    stats = {"shape": [30], "dtype": "float64", "size": 30, "nan": 1, "inf": 0,
             "min": bad, "max": bad, "mean": bad, "norm": bad}
    assert summary_text(stats) == f"min={text} max={text} mean={text} norm={text} nan=1"
    small = {"shape": [3], "dtype": "float64", "size": 3, "value": [1.0, bad, 2.0]}
    assert summary_text(small) == f"[1, {text}, 2]"
    assert f'title="{text}"' in heatmap(small)


@pytest.mark.browser
def test_the_served_inspector_shows_nan_and_inf(serve, nan_run, watched_page):
    page, watch = watched_page
    server = serve(nan_run)
    open_dashboard(page, server.url)
    data = node_data(page)
    for op, want in (("RealDiv", "nan"), ("Log", "-inf"), ("Exp", "inf")):
        i = data["op"].index(op)
        select_node(page, data["key"][i])
        page.locator(".tv-node-title").first.wait_for()
        text = page.locator(".tv-inspector").first.evaluate(
            "e => e.shadowRoot ? e.shadowRoot.innerHTML : e.innerHTML")
        assert f'title="{want}"' in text, (op, text[:2000])
    watch.check()
