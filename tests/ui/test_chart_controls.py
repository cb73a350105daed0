"""The Training charts' controls in a real browser (tapeviz serve + chromium), on the run of
tests/broken_runs/live_training.py: a click on a legend entry hides that variable, and the
smoothing slider redraws the lines as moving averages of their points."""
from __future__ import annotations

import pytest

from test_charts import CORPUS, _open_tab, _record_script, _wait_points

pytestmark = pytest.mark.browser


def _legend_entry_xy(page, fig_name, label):
    """The middle of the legend entry ``label`` of figure ``fig_name`` (Bokeh 3 draws a legend
    as HTML: its entries are elements), scrolled into view, once it stays put (the charts'
    note and plots still arriving move it, and a click aimed before lands beside it)."""
    xy = _entry_xy(page, fig_name, label)
    for _ in range(50):
        page.wait_for_timeout(100)
        again = _entry_xy(page, fig_name, label)
        if again == xy:
            return xy
        xy = again
    return xy


def _entry_xy(page, fig_name, label):
    return page.evaluate("""([fig, label]) => {
        const f = Bokeh.documents[0].get_model_by_name(fig);
        const legend = f.right.filter(m => m.items !== undefined)[0];
        const view = Bokeh.index.find_one_by_id(legend.id);
        const entry = view.entries.find(e => e.item.label.value === label);
        entry.el.scrollIntoView({block: 'center'});
        const r = entry.el.getBoundingClientRect();
        return [r.left + r.width / 2, r.top + r.height / 2]; }""", [fig_name, label])


def _drawn(page, name):
    """Whether the line and the points of variable ``name`` are drawn, in each norm figure,
    and the band markers of that variable."""
    return page.evaluate("""(name) => {
        const d = Bokeh.documents[0], out = {band: 0};
        for (const m of d.all_models) {
            if (m.data_source && m.data_source.name && m.data_source.name.startsWith('norm_points')
                    && m.data_source.data.name[0] === name)
                out[m.glyph.type + ' ' + (m.glyph.y.field || '')] = m.visible;
            if (m.name && m.name.startsWith('norm_band_'))
                out.band += Array.from(m.data.name).filter(n => n === name.split(':')[0]).length; }
        return out; }""", name)


@pytest.fixture(scope="module")
def live_run(serve, tmp_path_factory):
    """live_training.py run at full speed: w and b, 40 calls, NaN from the update of 28 on."""
    return serve(_record_script(CORPUS / "live_training.py", tmp_path_factory.mktemp("lt")))


def test_a_click_on_a_legend_entry_hides_that_variable(live_run, watched_page):
    page, watch = watched_page
    _open_tab(page, live_run.url, "Training")
    _wait_points(page, 40)
    shown = _drawn(page, "b:0")
    assert shown["band"] > 0 and all(v for k, v in shown.items() if k != "band"), shown
    page.mouse.click(*_legend_entry_xy(page, "norms_log", "b"))
    # its line and points, in both scales, and its band markers go; w's stay
    page.wait_for_function("""() => { let n = 0; for (const m of Bokeh.documents[0].all_models)
        if (m.name && m.name.startsWith('norm_band_')) n += Array.from(m.data.name)
            .filter(x => x === 'b').length; return n === 0; }""")
    hidden = _drawn(page, "b:0")
    assert len(hidden) == 5 and not any(v for k, v in hidden.items() if k != "band"), hidden
    assert all(v for k, v in _drawn(page, "w:0").items() if k != "band")
    page.get_by_text("(1 shown)").first.wait_for()
    page.mouse.click(*_legend_entry_xy(page, "norms_log", "b"))          # and back
    page.wait_for_function("() => !document.body.innerText.includes('(1 shown)')")
    # (the info line and the plots' models can reach the page in separate messages)
    for _ in range(120):
        if _drawn(page, "b:0") == shown:
            break
        page.wait_for_timeout(250)
    assert _drawn(page, "b:0") == shown
    watch.check()


def _tensorboard_ema(values, weight):
    """TensorBoard's smoothing: an exponential moving average over the finite points, with
    its start-up correction (divided by 1 - weight**n)."""
    out, last, n = [], 0.0, 0
    for v in values:
        if not (v == v and abs(v) != float("inf")):
            out.append(float("nan"))
            continue
        last, n = last * weight + (1 - weight) * v, n + 1
        out.append(last / (1 - weight ** n))
    return out


def test_the_smoothing_slider_redraws_the_lines_as_moving_averages(live_run, watched_page):
    page, watch = watched_page
    _open_tab(page, live_run.url, "Training")
    _wait_points(page, 40)
    read = """() => { const d = Bokeh.documents[0], out = {};
        for (const m of d.all_models)
            if (m.data_source && m.data_source.name && m.data_source.name.startsWith('norm_points')
                    && m.glyph.type === 'Line' && m.glyph.y.field === 's_log') {
                const s = m.data_source.data;
                out[s.name[0]] = {raw: Array.from(s.y_log), line: Array.from(s.s_log)}; }
        return out; }"""
    before = page.evaluate(read)
    assert before["w:0"]["line"] == before["w:0"]["raw"]          # smoothing 0: the points
    # drag the slider's handle most of the way along its track, as a user does
    handle = page.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    box = handle.bounding_box()
    track = page.locator(".noUi-base").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(track["x"] + track["width"] * 0.8, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(read.replace("return out; }", "return out['w:0'].line[5] !== "
                                        "out['w:0'].raw[5]; }"))
    weight = page.evaluate("""() => { for (const m of Bokeh.documents[0].all_models)
        if (m.title === 'smoothing (EMA)' && m.value !== undefined) return m.value; }""")
    assert 0.5 < weight < 0.99, weight
    page.wait_for_timeout(500)
    after = page.evaluate(read)
    for name, series in after.items():
        want = _tensorboard_ema([float("nan") if v is None else v for v in series["raw"]],
                                weight)
        got = [float("nan") if v is None else v for v in series["line"]]
        assert got == pytest.approx(want, rel=1e-9, nan_ok=True), name
        raw = [float("nan") if v is None else v for v in series["raw"]]
        assert got != pytest.approx(raw, rel=1e-3, nan_ok=True), name
    watch.check()
