"""A graph of 20 to 100 ops (or a long loop drawn collapsed) at first sight, in a real browser: it fills the plot, every label
is drawn and fits inside its node, each variable sits beside the op that reads it, and no
name scope's label lies over a node. Measured on what BokehJS drew: the plot's ranges and
frame, the nodes' boxes, and the labels' widths as the page's canvas measures them in the
font and size they are drawn at."""
from __future__ import annotations

import pytest

from conftest import node_data, open_dashboard, record_program
from test_broken_run_page import broken  # noqa: F401  (the corpus recordings, a fixture)

pytestmark = pytest.mark.browser

#: the drawing (nodes, edges, cluster boxes) spans at least these shares of the fitted plot's
#: range on its long and its short axis. Fitting makes one axis about 0.95 whatever the
#: layout; the other is what the layout's shape decides: a one-column chain covers 0.26 (six
#: Dense layers) to 0.37 of the width. Columns come in whole numbers, and the number that
#: draws the graph largest can leave part of the other axis empty (three columns of the six
#: layers: 0.67 of the height, where two would draw it 10% smaller), so the short axis is
#: held to 0.55, twice what one column gets.
FILL_LONG, FILL_SHORT = 0.85, 0.55
#: the smallest label size (CSS pixels) that counts as readable at first sight
READABLE_PX = 7.0

DEEP = """\
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(0)
x = tf.constant(rng.normal(size=(8, 6)).astype(np.float32))
ws = [tf.Variable(rng.normal(size=(6, 6)).astype(np.float32) * 0.5, name=f"w{i}")
      for i in range(33)]
bs = [tf.Variable(np.zeros(6, np.float32), name=f"b{i}") for i in range(33)]
with tf.GradientTape() as tape:
    h = x
    for w, b in zip(ws, bs):
        h = tf.nn.relu(h @ w + b)
    loss = tf.reduce_mean(h)
grads = tape.gradient(loss, ws + bs)
"""

# what the page drew: the view's scale, the drawing's extent, each label's measured size
GEOMETRY = """() => {
  const d = Bokeh.documents[0];
  const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
  const f = v.frame.bbox, xr = v.model.x_range, yr = v.model.y_range;
  const n = d.get_model_by_name('nodes').data, c = d.get_model_by_name('clusters').data;
  const e = d.get_model_by_name('edges').data;
  const ctx = document.createElement('canvas').getContext('2d');
  const val = (p) => (p !== null && typeof p === 'object' && 'value' in p) ? p.value : p;
  const measure = (texts, props) => {
    const size = val(props.text_font_size), font = val(props.text_font);
    ctx.font = `${val(props.text_font_style)} ${size} ${font}`;
    return {size: parseFloat(size), boxes: texts.map(t => {
      const m = ctx.measureText(String(t));
      return [m.width, m.fontBoundingBoxAscent + m.fontBoundingBoxDescent]; })};
  };
  const labels = d.get_model_by_name('node_labels');
  const cluster = d.get_model_by_name('cluster_labels');
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  const grow = (a, b, p, q) => { x0 = Math.min(x0, a); x1 = Math.max(x1, b);
                                 y0 = Math.min(y0, p); y1 = Math.max(y1, q); };
  for (let i = 0; i < n.x.length; i++)
    grow(n.x[i] - n.w[i] / 2, n.x[i] + n.w[i] / 2, n.y[i] - n.h[i] / 2, n.y[i] + n.h[i] / 2);
  for (let i = 0; i < c.left.length; i++) grow(c.left[i], c.right[i], c.bottom[i], c.top[i]);
  for (let i = 0; i < e.xs.length; i++)
    for (let j = 0; j < e.xs[i].length; j++) grow(e.xs[i][j], e.xs[i][j], e.ys[i][j], e.ys[i][j]);
  return {
    sx: f.width / (xr.end - xr.start), sy: f.height / (yr.end - yr.start),
    fill: [(x1 - x0) / (xr.end - xr.start), (y1 - y0) / (yr.end - yr.start)],
    labels_visible: labels.visible, cluster_visible: cluster.visible,
    labels: measure(n.label, labels), clusters: measure(c.text || c.label, cluster.glyph),   // (the drawn text)
  };
}"""

# the view centred on the drawing at ``scale`` pixels per point (as a wheel zoom leaves it)
ZOOM = """(scale) => {
  const d = Bokeh.documents[0];
  const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
  const f = v.frame.bbox, xr = v.model.x_range, yr = v.model.y_range;
  const cx = (xr.start + xr.end) / 2, cy = (yr.start + yr.end) / 2;
  xr.setv({start: cx - f.width / scale / 2, end: cx + f.width / scale / 2});
  yr.setv({start: cy - f.height / scale / 2, end: cy + f.height / scale / 2});
}"""


@pytest.fixture(scope="module")
def runs(serve, broken, tmp_path_factory):  # noqa: F811
    deep = record_program(tmp_path_factory.mktemp("deep"), "deep", DEEP)
    return {"sequential_six_layers": serve(broken("sequential_six_layers")),
            "vanishing_sigmoid": serve(broken("vanishing_sigmoid")),   # 44 ops
            # 1,204 ops drawn collapsed: 26 loop blocks, each reading w_in and w_rec
            "rnn_unrolled": serve(broken("rnn_unrolled")),
            "deep_mlp": serve(deep)}                                     # 100 ops


def _fitted(page, url):
    open_dashboard(page, url)
    # the fit runs once the page has its size; then the labels are sized for the view
    page.wait_for_function("() => { const d = Bokeh.documents[0], s = d.get_model_by_name('nodes');"
                           " return s._tv_fitted === s.data.key; }")
    page.wait_for_timeout(300)
    return page.evaluate(GEOMETRY)


@pytest.mark.parametrize("run", ["sequential_six_layers", "vanishing_sigmoid", "deep_mlp",
                                 "rnn_unrolled"])
def test_the_graph_fills_the_plot_with_readable_labels(runs, run, watched_page):
    page, watch = watched_page
    geo = _fitted(page, runs[run].url)
    assert max(geo["fill"]) >= FILL_LONG and min(geo["fill"]) >= FILL_SHORT, geo["fill"]
    assert max(geo["fill"]) <= 1.0, geo["fill"]                # and all of it in view
    assert geo["labels_visible"], geo
    assert geo["labels"]["size"] >= READABLE_PX, geo["labels"]["size"]
    watch.check()


@pytest.mark.parametrize("run", ["sequential_six_layers", "vanishing_sigmoid", "rnn_unrolled"])
def test_every_label_fits_inside_its_node(runs, run, watched_page):
    page, watch = watched_page
    geo = _fitted(page, runs[run].url)
    for scale in (None, 1.0, 2.5):          # at first sight, and zoomed in
        if scale is not None:
            page.evaluate(ZOOM, scale)
            page.wait_for_timeout(300)
            geo = page.evaluate(GEOMETRY)
        assert geo["labels_visible"], (scale, geo)
        data = node_data(page)
        for i, (tw, th) in enumerate(geo["labels"]["boxes"]):
            w, h = data["w"][i] * geo["sx"], data["h"][i] * geo["sy"]
            if data["shape"][i] == "ellipse":    # the text's corner inside the ellipse
                assert (tw / w) ** 2 + (th / h) ** 2 <= 1, (scale, data["label"][i], (tw, th), (w, h))
            else:
                assert tw <= w and th <= h, (scale, data["label"][i], (tw, th), (w, h))
    watch.check()


@pytest.mark.parametrize("run", ["sequential_six_layers", "vanishing_sigmoid"])
def test_each_variable_sits_beside_the_op_that_reads_it(runs, run, watched_page):
    page, watch = watched_page
    open_dashboard(page, runs[run].url)
    data, edges = node_data(page), node_data(page, "edges")
    readers = {}
    for t, h in zip(edges["tail"], edges["head"]):
        readers.setdefault(t, set()).add(h)
    at = {k: i for i, k in enumerate(data["key"])}
    variables = [k for k, kind in zip(data["key"], data["kind"]) if kind == "trainable"]
    assert len(variables) >= 12
    for v in variables:
        (op,) = readers[v]                         # each is read by one op (its layer's)
        i, j = at[v], at[op]
        assert data["y"][i] == data["y"][j], (data["name"][i], data["op"][j])   # same rank
        # nearest: no other node on that row between the two
        lo, hi = sorted((data["x"][i], data["x"][j]))
        between = [data["name"][k] for k in range(len(data["key"]))
                   if k not in (i, j) and lo < data["x"][k] < hi
                   and abs(data["y"][k] - data["y"][i]) < data["h"][k] / 2 + data["h"][i] / 2]
        assert between == [], (data["name"][i], between)
    watch.check()


def test_cluster_labels_lie_outside_every_node(runs, watched_page):
    page, watch = watched_page
    geo = _fitted(page, runs["sequential_six_layers"].url)
    assert geo["cluster_visible"], "the layers' names are hidden at first sight"
    for scale in (None, 1.0, 3.0):          # at first sight, and zoomed in
        if scale is not None:
            page.evaluate(ZOOM, scale)
            page.wait_for_timeout(300)
            geo = page.evaluate(GEOMETRY)
        if not geo["cluster_visible"]:
            continue
        data, boxes = node_data(page), node_data(page, "clusters")
        assert len(boxes["label"]) >= 7
        for c, (tw, th) in enumerate(geo["clusters"]["boxes"]):
            # the label's box in the graph's points (drawn from (lx, ly) down and right)
            box = (boxes["lx"][c], boxes["ly"][c] - th / geo["sy"],
                   boxes["lx"][c] + tw / geo["sx"], boxes["ly"][c])
            assert (boxes["left"][c] <= box[0] and box[2] <= boxes["right"][c]
                    and boxes["bottom"][c] <= box[1] and box[3] <= boxes["top"][c]), \
                (scale, boxes["label"][c], box)
            for k in range(len(data["key"])):
                node = (data["x"][k] - data["w"][k] / 2, data["y"][k] - data["h"][k] / 2,
                        data["x"][k] + data["w"][k] / 2, data["y"][k] + data["h"][k] / 2)
                apart = (box[2] <= node[0] or node[2] <= box[0] or box[3] <= node[1]
                         or node[3] <= box[1])
                assert apart, (scale, boxes["label"][c], data["name"][k])
    watch.check()
