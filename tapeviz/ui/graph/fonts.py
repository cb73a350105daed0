"""How wide a label is, in the layout's points, so that nodes and cluster boxes are made wide
enough to hold their labels at the sizes the graph view draws them.

The graph's labels are drawn in Bokeh's default font, ``helvetica``: Helvetica on macOS,
Arial on Windows, Liberation Sans (metric-compatible with Arial) on Linux. The widths below
are Helvetica's advance widths, in thousandths of an em; characters not listed (CJK, symbols)
count as a whole em, which is at least as wide as any of them in these fonts.

The view draws a label ``size`` points high *in the graph's own coordinates* (it scales the
font with the zoom, see :mod:`.graph_js`), so a label's width here is its width on screen at
any zoom, in the same units as the node that holds it.
"""
from __future__ import annotations

#: label sizes, in the layout's points (the graph's coordinates, not screen points)
NODE_FONT = 10.0        # node labels
EDGE_FONT = 8.0         # edge labels (shapes)
CLUSTER_FONT = 10.0     # cluster (name scope, layer) labels
PAD = 6.0               # points between a node's label and its border, on each side

_WIDTHS = dict(zip(
    " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    (278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
     556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015,
     667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778,
     722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333,
     556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556,
     333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584)))
_WIDTHS.update({"×": 584, "…": 1000, "–": 556, "—": 1000, "·": 278})


def text_width(text: str, size: float) -> float:
    """The width of the widest line of ``text`` at font size ``size`` (same units as size)."""
    lines = str(text).split("\n") or [""]
    return max(sum(_WIDTHS.get(ch, 1000) for ch in line) for line in lines) * size / 1000.0


def fit(text: str, width: float, size: float) -> str:
    """``text`` cut short with an ellipsis so that it is at most ``width`` wide."""
    text = str(text)
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text + "…" if text else ""
