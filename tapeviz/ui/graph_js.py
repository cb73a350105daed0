"""The graph view's scripts, run in the browser where the plot's real size is known (see
:class:`tapeviz.ui.graph.GraphView`): fitting the view to the graph, showing labels only when
they can be read, centring on a found node, and scrolling the page to the graph."""

FIT_JS = """
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
  try {
    const v = Bokeh.index.find_one_by_id(fig.id);
    fw = v.frame.bbox.width; fh = v.frame.bbox.height;
  } catch (e) {}
  if (!(fw > 10 && fh > 10)) return false;
  const pad = 16, dx = x1 - x0 + 2 * pad, dy = y1 - y0 + 2 * pad;
  const k = Math.max(dx / fw, dy / fh), cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  xr.setv({start: cx - k * fw / 2, end: cx + k * fw / 2});
  yr.setv({start: cy - k * fh / 2, end: cy + k * fh / 2});
  src._tv_fitted = d.key;
  return true;
};
if (!fit()) { setTimeout(fit, 300); }
"""

# node labels when few nodes are in view and zoomed in enough to read them (a node is about 36
# points high: below 0.35 px per point its 9pt label overflows it); a cluster's label from 0.9
# px per point, where it fits the room dot reserved at the cluster's top
LABELS_JS = """const x = src.data.x, y = src.data.y; let n = 0;
for (let i = 0; i < x.length; i++) {
  if (x[i] >= xr.start && x[i] <= xr.end && y[i] >= yr.start && y[i] <= yr.end) n++;
}
let width = 600;
try { width = fig.inner_width || width; } catch (e) {}   // unset until first paint
const scale = width / Math.max(xr.end - xr.start, 1e-9);
labels.visible = n <= limit && scale >= 0.35;
edge_labels.visible = n <= limit && scale >= 0.5;
cluster_labels.visible = scale >= 0.9;
"""

# centre on a found node at a readable zoom (at least ``zoom`` pixels per point)
ZOOM_JS = """const v = Bokeh.index.find_one_by_id(fig.id);
if (!v || !src.data.x.length) return;
const fw = v.frame.bbox.width, fh = v.frame.bbox.height;
const k = Math.min((xr.end - xr.start) / fw, 1 / zoom);    // points per pixel
const x = src.data.x[0], y = src.data.y[0];
xr.setv({start: x - k * fw / 2, end: x + k * fw / 2});
yr.setv({start: y - k * fh / 2, end: y + k * fh / 2});
// as a wheel zoom does: the next data change (a highlight) must not re-fit
xr.have_updated_interactively = yr.have_updated_interactively = true;
v.el.scrollIntoView({block: "nearest"});
"""

REVEAL_JS = """const v = Bokeh.index.find_one_by_id(fig.id);
if (v) v.el.scrollIntoView({block: "nearest"});
"""
