"""The notebook widget on runs of the broken-runs corpus (tests/broken_runs/): scripts pasted
into cells and run by a real kernel (nbclient): every run's views checked in the kernel, and
three runs' notebook converted by nbconvert and opened offline in chromium, as
tests/ui/test_notebook.py does. Sources name their cell; the
Why cards, the graph's marks and the Training band give the scripts' `# truth:` markers."""
from __future__ import annotations

import json
import re

import nbclient   # the test extra installs these: a missing one is a failure, not a skip
import nbformat
import pytest

import corpus_truth
from conftest import ROOT
from test_notebook import _open_offline


CORPUS = ROOT / "tests" / "broken_runs"

# what each view of a notebook run says, as JSON: per gradient call (in order), the Why
# card of each source, for the recording's view and for `tape.show()` (the last call only)
CARDS_CELL = """\
import json
from tapeviz.ui.render.cards import why_card_html
rec.close()
def cards(view, call):
    return {r["tensor"]["name"].split(":")[0]: why_card_html(view.store, r)
            for r in view.store.calls[call]["results"]}
recorded = tv.show(rec.path)
calls = sorted(recorded.store.calls)
shown = tape.show()
print(json.dumps({"recorded": [cards(recorded, c) for c in calls],
                  "tape": cards(shown, shown.state.call),
                  "lines": list(recorded.parts["Inspector"].line_select.options)}))"""


def _corpus_notebook(name: str, work) -> tuple:
    """A notebook that records the corpus script ``name`` run as its second cell (as a user
    pastes a script into a notebook), executed by a real kernel; returns (the notebook, the
    script's lines)."""
    script = (CORPUS / f"{name}.py").read_text()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                          "import tapeviz as tv\n"
                                          f"rec = tv.record({str(work / (name + '.tvz'))!r}, full=True)"),
                nbformat.v4.new_code_cell(script)]
    return nb, script.splitlines()


def _card_shows(card: str, cell: int, line: int, code: str) -> bool:
    """The card names ``cell [n], line k`` and shows that line's code (HTML-escaped)."""
    import html
    return (f"cell [{cell}], line {line}</div>" in card and
            f'<span class="hit" data-line="{line}"><span class="ln">{line}</span>'
            f"{html.escape(code.rstrip(), quote=False)}</span>" in card.replace("&#x27;", "'"))


def test_notebook_sources_name_the_cell_and_show_its_code(tmp_path):
    """mlp_three_bugs pasted into a cell and run by a real kernel: every recorded site names
    that cell by its execution count, and every Why card that names a line says `cell [2],
    line k` and shows line k of the cell (in the recording's view, and in `tape.show()` after
    the run, where the update that wrote the NaN is no event of the tape), with the verdict
    and cause its `# truth:` marker gives."""
    truths = importlib_truths()
    nb, lines = _corpus_notebook("mlp_three_bugs", tmp_path)
    nb.cells.append(nbformat.v4.new_code_cell(CARDS_CELL))
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    out = json.loads("".join(o.get("text", "") for o in nb.cells[2].outputs
                             if o.get("name") == "stdout"))
    from tapeviz.recording import load_recording
    sites = [e.site for e in load_recording(str(tmp_path / "mlp_three_bugs.tvz"))
             if getattr(e, "site", None)]
    assert sites and {s.get("cell") for s in sites} == {2}, {s.get("cell") for s in sites}
    assert all(label.startswith("cell [2], line ") for label in out["lines"][1:]), out["lines"]
    recorded = out["recorded"]
    for source, verdict, cause, options, line in truths(CORPUS / "mlp_three_bugs.py"):
        for call in _which_calls(options.get("call"), len(recorded)):
            card = recorded[call - 1][source]
            assert f"<span class=\"tv-badge\">{cause}</span>" in card, (call, source, card)
            if line is not None:
                assert _card_shows(card, 2, line, lines[line - 1]), (call, source, line, card)
    named = [card for card in out["tape"].values() if "tv-where" in card]
    assert len(named) == 5, out["tape"]       # b2's escape, the update that wrote NaN in 4
    for card in named:
        line = int(card.split("cell [2], line ")[1].split("<")[0])
        assert _card_shows(card, 2, line, lines[line - 1]), card
        assert "not in the recording" not in card


# what each view of a notebook run shows, for every gradient call a marker names: the Why cards
# of the call the view is on, and the columns of the graph it draws (written to a JSON file)
VIEWS_CELL = """\
import json
from tapeviz.ui.render.cards import why_card_html
import corpus_truth
shown = {}
for name in corpus_truth.SCRIPTS:
    path = f"{work}/{name}.tvz"
    calls = [e.call for e in tv.load_recording(path) if e.kind == "gradient_finished"]
    view = tv.show(path, max_tapes=500, max_calls=1000)       # (every tape: each is checked)
    for k in corpus_truth.marked_places(corpus_truth.CORPUS / f"{name}.py", len(calls)):
        view.select_call(calls[k - 1])
        nodes = view.plot.nodes.data
        shown[f"{name}:{k}"] = {
            "call": view.state.call,
            "cards": [why_card_html(view.store, r) for r in view.store.calls[view.state.call]["results"]],
            "nodes": {c: list(nodes[c]) for c in ("key", "op", "flag", "summary")}}
with open(f"{work}/shown.json", "w") as fh:
    json.dump(shown, fh)"""


def _card_text(card: str) -> tuple:
    """(the name on a Why card, its text with whitespace folded), from its HTML."""
    import html
    name = re.search(r'<b class="tv-why-name">(.*?)</b>', card).group(1)
    text = html.unescape(re.sub(r"<[^>]+>", " ", card))
    return html.unescape(name), " ".join(text.split())


@pytest.mark.slow
def test_every_corpus_run_tells_its_truth_in_a_notebook(tmp_path):
    """Every corpus script pasted into its own cell of one notebook and recorded by one real
    kernel (as a user pastes a script into a notebook), then a view of each recording shown
    on each gradient call a `# truth:` marker names: the view is on that call, its Why card
    of the marked source gives the cause, names `cell [n], line k`, shows that line's code
    and which instance of a loop's op; its graph marks the op the cause names."""
    from tapeviz.recording import load_recording
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                          f"sys.path.insert(0, {str(ROOT / 'tests' / 'ui')!r})\n"
                                          f"import tapeviz as tv\nwork = {str(tmp_path)!r}")]
    script_cell = {}
    for name in corpus_truth.SCRIPTS:
        # (a new process names its first Keras layer `dense`: so does each script here)
        nb.cells.append(nbformat.v4.new_code_cell(
            f"tv.keras.backend.clear_session()\nrec = tv.record(work + '/{name}.tvz', full=True)"))
        script_cell[name] = len(nb.cells)
        nb.cells.append(nbformat.v4.new_code_cell((CORPUS / f"{name}.py").read_text()))
        nb.cells.append(nbformat.v4.new_code_cell("rec.close()"))
    nb.cells.append(nbformat.v4.new_code_cell(VIEWS_CELL))
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=900,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    shown = json.loads((tmp_path / "shown.json").read_text())
    checked, expected, wrong = 0, 0, []
    for name in corpus_truth.SCRIPTS:
        script = CORPUS / f"{name}.py"
        cell = nb.cells[script_cell[name]]
        lines = cell.source.splitlines()
        events = list(load_recording(str(tmp_path / f"{name}.tvz")))
        finished = [e for e in events if e.kind == "gradient_finished"]
        expected += corpus_truth.count(script, len(finished))
        for place in corpus_truth.marked_places(script, len(finished)):
            call, view = finished[place - 1], shown[f"{name}:{place}"]
            assert view["call"] == call.call, (name, place, view["call"])
            cards = [_card_text(c) for c in view["cards"]]
            for source, verdict, cause, options, line in corpus_truth.marked_at(
                    script, place, len(finished)):
                checked += 1
                card = [t for n, t in cards if corpus_truth.names_source(n, source)]
                if len(card) != 1:
                    wrong.append(f"{name} call {place}: {len(card)} cards for {source}")
                    continue
                wrong += [f"{name} call {place} {source}: {w}: {card[0]}" for w in
                          corpus_truth.card_problems(
                              card[0], cause, options, line,
                              f"cell [{cell.execution_count}], line {line}",
                              lines[line - 1] if line else "")]
                op = options.get("op", "").split("#")[0]
                if op and cause in corpus_truth.FLAG_OF_CAUSE:
                    ops = corpus_truth.instances(events, call.tape, op, line)
                    if not corpus_truth.marked_on_graph(view["nodes"], ops, options,
                                                        corpus_truth.FLAG_OF_CAUSE[cause]):
                        wrong.append(f"{name} call {place} {source}: {options['op']} not "
                                     "marked on the graph")
    assert not wrong, "\n".join(wrong)
    assert checked == expected, (checked, expected)     # every marker, at every call it names


def importlib_truths():
    """``truths(path)`` of tests/test_broken_runs.py (the `# truth:` markers' parser)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("broken_runs_truths",
                                                  ROOT / "tests" / "test_broken_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.truths


def _which_calls(option, n) -> list:
    if option in (None, "last"):
        return [n]
    if option == "first":
        return [1]
    return list(range(1, n + 1)) if option == "all" else [int(option)]


# the graph's mark for a cause an explanation gives (the legend: tape_graph.FLAGS)
FLAG_OF_CAUSE = {"dead_relu": "dead_relu", "nan_origin": "nonfinite", "inf_origin": "nonfinite",
                 "saturated": "saturated", "clipped": "clipped"}
# (script, the gradient calls to open a view on, by their place in the run)
NOTEBOOK_CASES = [("mlp_three_bugs", (1, 3, 4)), ("exploding_adam", (1, 2)),
                  ("clip_at_bound", ("last",))]


def _finished_calls(work, name) -> list:
    """The ids of the gradient calls recorded in ``work/name.tvz``, in order."""
    from tapeviz.recording import load_recording
    return [e.call for e in load_recording(str(work / f"{name}.tvz"))
            if e.kind == "gradient_finished"]


def _view_cell(name, path, k) -> str:
    """A cell showing the recording at ``path`` on its ``k``th gradient call, Training tab
    open (the charts draw when it is): as a user picks them in a live notebook."""
    pick = "-1" if k == "last" else str(k - 1)
    return (f"view = tv.show({str(path)!r}, title='nbview-{name}-{k}-', max_tapes=500)\n"
            f"view.select_call([e.call for e in tv.load_recording({str(path)!r})\n"
            f"                  if e.kind == 'gradient_finished'][{pick}])\n"
            "view.bottom.active = 1\nview")


def _doc_of(page, title):
    """The graph nodes, norm points and band markers of the view titled ``title``."""
    return page.evaluate("""(title) => {
        const d = Bokeh.documents.find(d => Array.from(d.all_models).some(
            m => typeof m.text === 'string' && m.text.includes(title)));
        const data = (m) => { const o = {}; for (const k in m.data) o[k] = Array.from(m.data[k]);
                              return o; };
        const out = {nodes: data(d.get_model_by_name('nodes')), band: {}, points: []};
        for (const m of d.all_models) {
            if (m.name && m.name.startsWith('norm_band_')) out.band[m.name.slice(10)] = data(m);
            if (m.name && m.name.startsWith('norm_points_')) out.points.push(data(m)); }
        return out; }""", title)


@pytest.mark.browser
@pytest.mark.filterwarnings("ignore:Your element with mimetype")
def test_the_notebook_widget_tells_the_truth_of_corpus_runs(tmp_path, watched_page):
    """Corpus scripts pasted into notebook cells and recorded by a real kernel, a view of each
    chosen gradient call displayed in its own cell, the notebook converted to one HTML file
    and opened offline in chromium: for every `# truth:` marker of the call it shows, the
    view's Why card gives the cause, names `cell [n], line k` and shows that line's code; the
    graph marks the op the cause names; the Training band marks the source's NaN, Inf, None
    or zero norm at that call. `tape.show()` of the finished last tape is not live."""
    page, watch = watched_page
    truths = importlib_truths()
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(ROOT)!r})\n"
                                          "import tapeviz as tv")]
    script_cell = {}
    for name, calls in NOTEBOOK_CASES:
        path = tmp_path / f"{name}.tvz"
        nb.cells.append(nbformat.v4.new_code_cell(f"rec = tv.record({str(path)!r}, full=True)"))
        script_cell[name] = len(nb.cells)
        nb.cells.append(nbformat.v4.new_code_cell((CORPUS / f"{name}.py").read_text()))
        nb.cells.append(nbformat.v4.new_code_cell("rec.close()"))
        nb.cells += [nbformat.v4.new_code_cell(_view_cell(name, path, k)) for k in calls]
    nb.cells.append(nbformat.v4.new_code_cell("tape.show(title='nbview-finished-tape-')"))
    nbclient.NotebookClient(nb, kernel_name="python3", timeout=600,
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    blocked = _open_offline(page, nb, tmp_path / "corpus.html")
    views = sum(len(calls) for _, calls in NOTEBOOK_CASES) + 1
    page.wait_for_function("(n) => window.Bokeh && Bokeh.documents.filter(d => "
                           "d.get_model_by_name('nodes') && "
                           "d.get_model_by_name('nodes').data.x.length > 0).length === n",
                           arg=views, timeout=180_000)
    checked = 0
    for name, calls in NOTEBOOK_CASES:
        cell = nb.cells[script_cell[name]]
        lines = cell.source.splitlines()
        finished = _finished_calls(tmp_path, name)
        for k in calls:
            place = len(finished) if k == "last" else k
            title = f"nbview-{name}-{k}-"
            view = page.locator(".tv-dashboard", has=page.locator(".tv-status", has_text=title))
            drawn = _doc_of(page, title)
            for source, verdict, cause, options, line in truths(CORPUS / f"{name}.py"):
                if place not in _which_calls(options.get("call"), len(finished)):
                    continue
                checked += 1
                named = re.escape(source)        # "w1 (w1:0)", or "w1:0" with no user name
                card = view.locator(".tv-card", has=page.locator(
                    ".tv-why-name", has_text=re.compile(rf"^{named} \(|^{named}:0$")))
                text = " ".join(card.first.text_content().split())
                assert cause in text, (title, source, text)
                if line is not None:
                    assert f"cell [{cell.execution_count}], line {line}" in text, (title, text)
                    assert " ".join(lines[line - 1].split()) in text, (title, line, text)
                op = options.get("op", "").split("#")[0]
                if op and cause in FLAG_OF_CAUSE:
                    marked = set(zip(drawn["nodes"]["op"], drawn["nodes"]["flag"]))
                    assert (op, FLAG_OF_CAUSE[cause]) in marked, (title, source, marked)
                if verdict in ("nan", "inf", "none", "zero"):
                    band = drawn["band"][verdict]
                    assert (source, finished[place - 1]) in zip(band["name"], band["call"]), \
                        (title, source, verdict, band)
                else:
                    norms = [p for p in drawn["points"] if p["name"][0] == f"{source}:0"][0]
                    at = norms["call"].index(finished[place - 1])
                    assert norms["y_lin"][at] == pytest.approx(norms["norm"][at]), norms
    # markers checked, counted by hand: mlp_three_bugs 5 at call 1, 3 at call 3, 3 at call 4;
    # exploding_adam 2 at each of its calls; clip_at_bound 1
    assert checked == 16, checked
    status = page.locator(".tv-status", has_text="nbview-finished-tape-").first.evaluate(
        "e => e.shadowRoot ? e.shadowRoot.textContent : e.textContent")
    assert "tape finished" in status and "live" not in status, status
    assert blocked == [], blocked
    watch.check()
