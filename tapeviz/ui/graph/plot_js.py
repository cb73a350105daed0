"""The graph view's scripts, run in the browser where the plot's real size is known (see
:class:`tapeviz.ui.graph.plot.GraphView`): fitting the view to the graph, showing labels only when
they can be read, centring on a found node, and scrolling the page to the graph."""
from ...private_apis import KEEP_VIEW_JS, PLOT_ELEMENT_JS

# the one rule of how large a label is drawn, known to both the fit and LABELS_JS (so the fit
# can open a graph at the smallest zoom its labels show at): in a view of ``xs`` by ``ys`` graph
# points on ``fw`` by ``fh`` pixels, ``view_scale`` pixels a point, and a label of ``pt`` points
# is ``label_px`` pixels, in half pixels, at most ``fonts.max_px``; under ``fonts.min_px`` it
# is hidden
LABEL_PX_JS = """const view_scale = (fw, fh, xs, ys) =>
  Math.min(fw / Math.max(xs, 1e-9), fh / Math.max(ys, 1e-9));
const label_px = (pt, scale) => Math.floor(2 * Math.min(pt * scale, fonts.max_px)) / 2;
"""

FIT_JS = LABEL_PX_JS + """
// a new graph, or the Fit button; not a column of the same graph changing (the backward
// player's visited states): that kept the view from staying where the user zoomed
if (cb_obj === src && src.data.key === src._tv_fitted) return;
const fit = () => {
  const d = src.data, c = cl.data;
  if (!d.x || d.x.length === 0) return false;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < d.x.length; i++) {
    x0 = Math.min(x0, d.x[i] - d.w[i] / 2); x1 = Math.max(x1, d.x[i] + d.w[i] / 2);
    y0 = Math.min(y0, d.y[i] - d.h[i] / 2); y1 = Math.max(y1, d.y[i] + d.h[i] / 2);
  }
  const ex = ed.data.xs || [], ey = ed.data.ys || [];
  for (let i = 0; i < ex.length; i++) {
    for (let j = 0; j < ex[i].length; j++) {
      x0 = Math.min(x0, ex[i][j]); x1 = Math.max(x1, ex[i][j]);
      y0 = Math.min(y0, ey[i][j]); y1 = Math.max(y1, ey[i][j]);
    }
  }
  for (let i = 0; i < (c.left || []).length; i++) {
    x0 = Math.min(x0, c.left[i]); x1 = Math.max(x1, c.right[i]);
    y0 = Math.min(y0, c.bottom[i]); y1 = Math.max(y1, c.top[i]);
  }
  let fw = 0, fh = 0;
  try { fw = fig.inner_width; fh = fig.inner_height; } catch (e) {}  // unset until laid out
  if (!(fw > 10 && fh > 10)) return false;
  const pad = 16, dx = x1 - x0 + 2 * pad, dy = y1 - y0 + 2 * pad;
  let k = Math.max(dx / fw, dy / fh);
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  // a graph a little too large for its labels to be read when all of it shows (a Keras
  // model's stacked layer boxes) opens at the smallest zoom they can be read at, its ends cut
  // by at most fonts.crop of its length: nodes you can name beat a view of every edge. That
  // zoom (the largest points a pixel) is bisected with LABELS_JS's own rule, on the ranges
  // set below: its half pixels and the ranges' rounding decide, not fonts.node / fonts.min_px
  const shown = (q) => {
    const xs = (cx + q * fw / 2) - (cx - q * fw / 2), ys = (cy + q * fh / 2) - (cy - q * fh / 2);
    return label_px(fonts.node, view_scale(fw, fh, xs, ys)) >= fonts.min_px;
  };
  let readable = 0, hidden = 2 * fonts.node / fonts.min_px;   // (labels half min_px there)
  for (let i = 0; i < 64; i++) {
    const mid = (readable + hidden) / 2;
    if (shown(mid)) readable = mid; else hidden = mid;
  }
  if (readable > 0 && k > readable && k <= readable * fonts.crop) k = readable;
  xr.setv({start: cx - k * fw / 2, end: cx + k * fw / 2});
  yr.setv({start: cy - k * fh / 2, end: cy + k * fh / 2});
  // kept, as a wheel zoom is: a repaint (labels resized to the new view) re-ran the ranges'
  // own fit, which knows the nodes but not the edges (the lanes between columns were cut)
  """ + KEEP_VIEW_JS + """
  src._tv_fitted = d.key;
  return true;
};
if (!fit()) { setTimeout(fit, 300); }
"""

# labels drawn at their size in the graph's points (``fonts``: the layout sized each node,
# edge gap and cluster band for it), so they fit their nodes at any zoom: the font follows the
# zoom up to ``max_px``, and a label smaller than ``min_px`` on screen is hidden (unreadable);
# node and edge labels also when more than ``limit`` nodes are in view. Sizes move in half
# pixels and are set only when they change (each change is a message to the server).
LABELS_JS = LABEL_PX_JS + """const x = src.data.x, y = src.data.y; let n = 0;
for (let i = 0; i < x.length; i++) {
  if (x[i] >= xr.start && x[i] <= xr.end && y[i] >= yr.start && y[i] <= yr.end) n++;
}
let fw = 600, fh = 400;
try { fw = fig.inner_width || fw; fh = fig.inner_height || fh; } catch (e) {}  // unset until first paint
const scale = view_scale(fw, fh, xr.end - xr.start, yr.end - yr.start);
const px = (pt) => label_px(pt, scale);
const size = (model, value) => {
  const now = model.text_font_size;
  if (!(now && now.value === value + "px")) model.text_font_size = {value: value + "px"};
};
const node = px(fonts.node), edge = px(fonts.edge), cluster = px(fonts.cluster);
labels.visible = n <= limit && node >= fonts.min_px;
edge_labels.visible = n <= limit && edge >= fonts.min_px;
cluster_labels.visible = cluster >= fonts.min_px;
if (labels.visible) size(labels, node);
if (edge_labels.visible) size(edge_labels.glyph, edge);
if (cluster_labels.visible) size(cluster_labels.glyph, cluster);
"""

# centre on a found node at a readable zoom (at least ``zoom`` pixels per point)
ZOOM_JS = PLOT_ELEMENT_JS + """let fw = 0, fh = 0;
try { fw = fig.inner_width; fh = fig.inner_height; } catch (e) {}  // unset until laid out
if (!(fw > 0 && fh > 0) || !src.data.x.length) return;
const k = Math.min((xr.end - xr.start) / fw, 1 / zoom);    // points per pixel
const x = src.data.x[0], y = src.data.y[0];
xr.setv({start: x - k * fw / 2, end: x + k * fw / 2});
yr.setv({start: y - k * fh / 2, end: y + k * fh / 2});
// as a wheel zoom does: the next data change (a highlight) must not re-fit
""" + KEEP_VIEW_JS + """
const el = plot_element(fig);
if (el) el.scrollIntoView({block: "nearest"});
"""

REVEAL_JS = PLOT_ELEMENT_JS + """const el = plot_element(fig);
if (el) el.scrollIntoView({block: "nearest"});
"""
