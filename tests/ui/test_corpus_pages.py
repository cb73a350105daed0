"""Every run of the broken-runs corpus (tests/broken_runs/) on the exported page and on the
served dashboard, in a real browser: for each gradient call a `# truth:` marker names, the
Why card of the marked source and the graph's marks tell that truth (the checks are in
corpus_truth.py, shared with the notebook's test)."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

import corpus_truth
from conftest import env_with_repo, node_data, open_dashboard
from test_broken_run_page import CORPUS, broken  # noqa: F401  (the corpus recordings, a fixture)

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("name", corpus_truth.SCRIPTS)
def test_the_exported_page_tells_each_tapes_truth(name, broken, tmp_path, watched_page):
    """`tapeviz export` of a corpus run, opened from file:// in chromium: on each tape's tab,
    the Why tab's cards give every `# truth:` marker of that tape's call (cause, line, the
    line's code, which instance of a loop's op), and the graph marks the op the cause names.
    A marked call whose tape the page leaves out (it holds the newest tapes and those where
    NaN began) is named as left out at the top of the page."""
    page, watch = watched_page
    out = tmp_path / f"{name}.html"
    proc = subprocess.run([sys.executable, "-m", "tapeviz.cli", "export", str(broken(name)),
                           "-o", str(out)], capture_output=True, text=True, timeout=300,
                          env=env_with_repo())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run = _CorpusRun(name, broken)
    page.goto(out.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length > 0")
    checked, wrong = 0, []
    for call, marked in run.marked_calls():
        # ("tape 3" or, where the NaN began, "tape 3 · NaN began")
        tab = page.locator(".bk-tab", has_text=re.compile(rf"^tape {call.tape}( ·|$)"))
        if not tab.count():
            note = page.locator(".tv-export-omitted").first.inner_text()
            assert re.search(rf"tapes [\d, ]*\b{call.tape}\b", note) is None, note
            assert "tapeviz serve" in note, note
            checked += len(marked)
            continue
        tab.first.click()
        side = f"side_{call.tape}"
        page.wait_for_function(f"() => Bokeh.documents[0].get_model_by_name('{side}') !== null")
        page.locator(".bk-tab", has_text=re.compile("^Why$")).locator("visible=true").first.click()
        assert f"Why: gradient call {call.call} " in page.locator(
            ".tv-h", has_text="Why:").locator("visible=true").first.inner_text()
        page.locator(".tv-card").locator("visible=true").first.wait_for()
        # the ok cards are folded under the summary line: open them, as a reader does
        for fold in page.locator("details.tv-ok-fold:not([open]) > summary").locator(
                "visible=true").all():
            fold.click()
        checked += len(marked)
        wrong += run.problems_shown(page, call, marked, f"nodes_{call.tape}")
    assert not wrong, "\n".join(wrong)
    # every marker, at every call it names, was checked
    assert checked == run.marker_count()
    watch.check()


def _shown_tape(page) -> str:
    return page.locator("select").first.evaluate("s => s.options[s.selectedIndex].text")


def _pick_tape(page, tape, call):
    """Pick ``tape`` in the Tape selector and wait until the Gradient call selector is on its
    ``call`` (a tape may record no op: its graph alone does not show the pick is done)."""
    select = page.locator("select").first
    label = next(o for o in select.locator("option").all_inner_texts()
                 if o.startswith(f"tape {tape} "))
    select.select_option(label=label)
    _wait_call(page, call)


def _wait_call(page, call):
    """Wait until the Gradient call selector is on ``call``."""
    calls = page.locator("select").nth(1)
    shown = ""
    for _ in range(600):
        shown = calls.evaluate("s => s.selectedIndex < 0 ? '' : s.options[s.selectedIndex].text")
        if shown.startswith(f"call {call}:"):
            break
        page.wait_for_timeout(100)
    assert shown.startswith(f"call {call}:"), (call, shown)
    page.wait_for_timeout(500)


@pytest.mark.parametrize("name", corpus_truth.SCRIPTS)
def test_the_served_page_tells_each_tapes_truth(name, serve, broken, watched_page):
    """`tapeviz serve` of a corpus run: for each marked gradient call, its tape picked in the
    Tape selector as a user does, the Why tab (ok cards unfolded) gives every `# truth:`
    marker of the call (cause, line, the line's code, which instance of a loop's op), and the
    graph marks the op the cause names."""
    page, watch = watched_page
    page.set_viewport_size({"width": 1600, "height": 1000})
    # (every tape on the page: this checks each tape's truth; which tapes a view keeps when
    # there are more than it holds is tests/ui/store/test_story_tapes.py's)
    server = serve(broken(name), "--keep-tapes", "500")
    run = _CorpusRun(name, broken)
    open_dashboard(page, server.url)
    _wait_call(page, run.opening_call())
    checked, wrong = 0, []
    for call, marked in run.marked_calls():
        if not _shown_tape(page).startswith(f"tape {call.tape} "):
            _pick_tape(page, call.tape, call.call)
        page.locator(".bk-tab", has_text=re.compile("^Why$")).first.click()
        summary = page.locator(".tv-why-summary").locator("visible=true")
        summary.first.wait_for()
        ok = page.locator(".tv-why-ok .bk-btn").locator("visible=true")
        if ok.count() and "bk-active" not in (ok.first.get_attribute("class") or ""):
            ok.first.click()
        # the server redraws the graph and the cards for the pick, and unfolds the ok
        # cards: round trips a loaded machine can make slow; what they show is read again
        # until it tells the truth or 30 s pass
        for attempt in range(60):
            found = run.problems_shown(page, call, marked, "nodes")
            if not found or attempt == 59:
                break
            page.wait_for_timeout(500)
        checked += len(marked)
        wrong += found
    server.stop()
    assert not wrong, "\n".join(wrong)
    assert checked == run.marker_count()
    watch.check()


class _CorpusRun:
    """A corpus script's recording, its gradient calls and its `# truth:` markers."""

    def __init__(self, name, broken):
        from tapeviz.recording import load_recording
        self.name = name
        self.events = list(load_recording(str(broken(name))))
        self.finished = [e for e in self.events if e.kind == "gradient_finished"]
        self.script = CORPUS / f"{name}.py"
        self.lines = self.script.read_text().splitlines()

    def opening_call(self) -> int:
        """The call a page opens on: the newest of a tape opened inside no other (a GAN's
        `with gen_tape, disc_tape:` opens the generator's; a higher-order gradient's outer
        tape answers last anyway), else the newest."""
        outermost = {e.tape for e in self.events
                     if e.kind == "tape_opened" and not e.outer_tapes}
        return next((e.call for e in reversed(self.finished) if e.tape in outermost),
                    self.finished[-1].call)

    def marked_calls(self):
        """Each gradient call a marker names, with its markers."""
        for place, call in enumerate(self.finished, 1):
            marked = corpus_truth.marked_at(self.script, place, len(self.finished))
            if marked:
                yield call, marked

    def marker_count(self):
        return corpus_truth.count(self.script, len(self.finished))

    def problems_shown(self, page, call, marked, nodes_name) -> list:
        """What the page fails to show of the markers ``marked`` of gradient call ``call``:
        its visible Why cards and its graph (the data source ``nodes_name``) as drawn now."""
        cards = page.locator(".tv-card").locator("visible=true")
        texts = {" ".join(c.locator(".tv-why-name").inner_text().split()):
                 " ".join(c.inner_text().split()) for c in cards.all()}
        nodes, wrong = node_data(page, nodes_name), []
        for source, verdict, cause, options, line in marked:
            card = [t for n, t in texts.items() if corpus_truth.names_source(n, source)]
            if len(card) != 1:
                wrong.append(f"tape {call.tape}: {len(card)} cards for {source}: {list(texts)}")
                continue
            code = self.lines[line - 1] if line else ""
            wrong += [f"tape {call.tape} {source}: {w}: {card[0]}" for w in
                      corpus_truth.card_problems(card[0], cause, options, line,
                                                 f"{self.name}.py:{line}", code)]
            op = options.get("op", "").split("#")[0]
            if op and cause in corpus_truth.FLAG_OF_CAUSE:
                ops = corpus_truth.instances(self.events, call.tape, op, line, f"{self.name}.py")
                if not corpus_truth.marked_on_graph(nodes, ops, options,
                                                    corpus_truth.FLAG_OF_CAUSE[cause]):
                    wrong.append(f"tape {call.tape} {source}: {options['op']} not marked "
                                 f"{corpus_truth.FLAG_OF_CAUSE[cause]} on the graph")
        return wrong
