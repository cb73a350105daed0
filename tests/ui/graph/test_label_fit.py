"""The graph view's fit and its label script agree on when node labels show: a graph a little
too tall for its labels to be read whole opens at the smallest zoom the label script shows
them at (the truth: the label script itself, run in the browser on the ranges the fit set,
then on ranges a billionth wider), at any frame size and wherever the graph lies."""
from __future__ import annotations

import pytest

from tapeviz.ui.graph.columns import FONTS
from tapeviz.ui.graph.plot_js import FIT_JS, LABELS_JS

pytestmark = pytest.mark.browser

# the fit and the label script as BokehJS runs a CustomJS (its code is a function body of its
# arguments), on stand-ins of the models they read and set
HARNESS = """([fit_js, labels_js, fonts, cases]) => {
  const fit = new Function("cb_obj", "src", "cl", "ed", "fig", "xr", "yr", "fonts", fit_js);
  const labels = new Function("src", "labels", "edge_labels", "cluster_labels", "xr", "yr",
                              "fig", "limit", "fonts", labels_js);
  const range = () => ({setv(v) { Object.assign(this, v); }});
  return cases.map(([fw, fh, x, y]) => {
    const src = {data: {key: "g", x, y, w: x.map(() => 0), h: x.map(() => 0)}};
    const fig = {inner_width: fw, inner_height: fh}, xr = range(), yr = range();
    fit({}, src, {data: {}}, {data: {}}, fig, xr, yr, fonts);
    const shown = () => {
      const m = {visible: false, glyph: {}};
      labels(src, m, {glyph: {}}, {glyph: {}}, xr, yr, fig, 1e9, fonts);
      return m.visible;
    };
    const k = (xr.end - xr.start) / fw, cx = (xr.start + xr.end) / 2, cy = (yr.start + yr.end) / 2;
    const at_fit = shown();
    const wider = k * (1 + 1e-9);
    xr.setv({start: cx - wider * fw / 2, end: cx + wider * fw / 2});
    yr.setv({start: cy - wider * fh / 2, end: cy + wider * fh / 2});
    return [k, at_fit, shown()];
  });
}"""

PAD = 16                                   # the fit's margin, in points (FIT_JS)
READABLE = FONTS["node"] / FONTS["min_px"]   # points a pixel at which labels are min_px


def _tall_graph(fw, fh, cx, cy, factor):
    """Two nodes whole-fitted at ``factor`` times READABLE points a pixel (the height decides)."""
    height = factor * READABLE * fh - 2 * PAD
    return [fw, fh, [cx - 10, cx + 10], [cy - height / 2, cy + height / 2]]


FRAMES = [(1200, 700, 0.0, 0.0), (1357, 833, 12345.678, -9876.54321), (999, 1013, 3e5, 7e4),
          (1436, 612, -0.1, 250.25)]


def test_a_graph_a_little_too_tall_opens_at_the_smallest_zoom_its_labels_show_at(page):
    factors = [1.000001, 1.05, 1.2, FONTS["crop"] * 0.999]
    cases = [_tall_graph(*frame, f) for frame in FRAMES for f in factors]
    seen = page.evaluate(HARNESS, [FIT_JS, LABELS_JS, FONTS, cases])
    for (k, at_fit, wider), case in zip(seen, cases):
        assert at_fit, (case, k)            # labels show at the zoom it opened at ...
        assert not wider, (case, k)         # ... and at no smaller zoom
        assert k == pytest.approx(READABLE, rel=1e-6)


def test_a_graph_that_fits_or_is_far_too_tall_opens_whole(page):
    cases = [_tall_graph(*frame, f) for frame in FRAMES for f in (0.7, 1.5)]
    seen = page.evaluate(HARNESS, [FIT_JS, LABELS_JS, FONTS, cases])
    for (k, at_fit, _), case, f in zip(seen, cases, [0.7, 1.5] * len(FRAMES)):
        assert k == pytest.approx(f * READABLE, rel=1e-9), case
        assert at_fit == (f < 1), case      # labels readable whole, or hidden (too small)
