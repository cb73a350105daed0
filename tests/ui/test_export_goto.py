"""The exported page's "Go to gradient call" menu: every call the page holds, marked with
its worst verdict; choosing one opens its tape's tab with that call in the player. Truth by
hand: the program below takes six gradient calls, each on its own tape, and the fourth is
the first whose gradient is NaN (`sqrt` of a negative number)."""
from __future__ import annotations

import pytest

from conftest import block_requests_except, record_program
from test_export_player import _export, _open

# w falls by 0.5 a step: sqrt(w - 1.0) is real for steps 1-3 (w = 2.5, 2.0, 1.5) and
# NaN from step 4 (w = 1.0 gives an infinite gradient, 0.5 a NaN: step 4's verdict is inf)
PROGRAM = """\
import tapeviz as tv

w = tv.Variable(2.5, name="w")
for step in range(6):
    with tv.GradientTape() as tape:
        loss = tv.sqrt(w - 1.0)
    g = tape.gradient(loss, w)
    w.assign_sub(0.5)
"""


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("goto")
    out = folder / "goto.html"
    _export(record_program(folder, "goto_prog", PROGRAM), out)
    return out


@pytest.mark.browser
def test_go_to_gradient_call_opens_its_tape_and_call(page_file, page):
    blocked = block_requests_except(page, ("file:",))
    page.goto(page_file.as_uri())
    page.wait_for_function("() => window.Bokeh && Bokeh.documents.length && "
                           "Bokeh.documents[0].get_model_by_name('goto_call')")
    goto = page.locator("select").first
    labels = goto.locator("option").all_inner_texts()
    assert labels[0] == "6 gradient calls held"
    calls = labels[1:]
    assert len(calls) == 6 and all(c.startswith("call ") for c in calls)
    # by hand: calls 1-3 have a gradient, call 4 an infinite one, calls 5-6 NaN
    assert [c.rsplit(" · ", 1)[-1] if " · " in c else "" for c in calls] == \
        ["", "", "", "Inf", "NaN", "NaN"]
    goto.select_option(label=calls[3])
    page.wait_for_function("(t) => { const tabs = Bokeh.documents[0].get_model_by_name('tapes');"
                           " return tabs.tabs[tabs.active].title.startsWith('tape ' + t); }",
                           arg=calls[3].split(":")[0].split()[1])
    tab = page.evaluate("() => { const tabs = Bokeh.documents[0].get_model_by_name('tapes');"
                        " return [tabs.active, tabs.tabs[tabs.active].title]; }")
    assert tab[0] == 3, tab
    # the player of that tape shows the chosen call
    tid = tab[1].split()[1]
    shown = page.evaluate(f"() => {{ const s = Bokeh.documents[0].get_model_by_name("
                          f"'call_select_{tid}'); return s.options.find(o => o[0] == s.value)[1]; }}")
    assert calls[3].startswith(shown), (shown, calls[3])
    # the one variables table of the page says which call its gradients are from: the last
    heading = page.locator(".tv-h", has_text="Watched variables").first.inner_text()
    assert heading == ("Watched variables at the last gradient call (6), whichever tab is "
                       "open above"), heading
    assert blocked == []


PERSISTENT = """\
import tapeviz as tv

x = tv.Variable(3.0, name="x")
w = tv.Variable(2.0, name="w")
with tv.GradientTape(persistent=True) as tape:
    y1 = x * x
    y2 = 3.0 * w
g1 = tape.gradient(y1, [x, w])
g2 = tape.gradient(y2, [x, w])
"""


@pytest.mark.browser
def test_a_persistent_tapes_calls_each_show_their_own_why_cards(tmp_path, page):
    # by hand: call 1 differentiates x * x (x: 6, w: None), call 2 3 * w (x: None, w: 3);
    # the page opens on the last call, and choosing call 1 shows call 1's cards
    out = tmp_path / "persistent.html"
    _export(record_program(tmp_path, "persistent_prog", PERSISTENT), out)
    tid, blocked = _open(page, out)

    def verdicts():
        text = page.evaluate(f"() => Bokeh.documents[0].get_model_by_name('why_{tid}').text")
        head = text.split("Why: gradient call ")[1].split(" ")[0]
        cards = {}
        for name in ("x", "w"):
            at = text.index(f'tv-why-name">{name} ')
            cards[name] = "none" if "gradient is None" in text[at:at + 300] else "value"
        return head, cards
    assert verdicts()[1] == {"x": "none", "w": "value"}
    last = verdicts()[0]
    goto = page.locator("select").first
    first = next(o for o in goto.locator("option").all_inner_texts() if o.startswith("call ")
                 and o.split(":")[0] != f"call {last}")
    goto.select_option(label=first)
    page.wait_for_function(f"() => !Bokeh.documents[0].get_model_by_name('why_{tid}').text"
                           f".includes('Why: gradient call {last} ')")
    assert verdicts() == (first.split(":")[0].split()[1], {"x": "value", "w": "none"})
    assert blocked == []
