"""Small HTML builders for the dashboard's text panes.

Every string that may come from user code (names, op labels, messages, source lines, file
names) goes through :func:`esc` before it is put in HTML: it is shown as text, never run.
"""
from __future__ import annotations

import html
import math
import os

from ..store.limits import clip_summary
from ..store.summaries import fmt_num, shape_str, summary_text

CSS = """
.tv-h { font-weight: 600; margin: 4px 0 2px 0; }
.tv-mono { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.tv-small { font-size: 12px; color: #555; }
.tv-table { border-collapse: collapse; font-size: 12px; }
.tv-table td, .tv-table th { border-bottom: 1px solid #e3e3e3; padding: 2px 6px; text-align: left;
  vertical-align: top; }
.tv-code { background: #f6f8fa; border: 1px solid #e1e4e8; border-radius: 4px; padding: 4px 0;
  font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; white-space: pre;
  overflow-x: auto; }
.tv-code .ln { color: #999; display: inline-block; width: 3.5em; text-align: right;
  padding-right: 8px; user-select: none; }
.tv-code .hit { background: #fff3b0; display: block; }
.tv-code .row { display: block; }
.tv-card { border: 1px solid #ddd; border-left: 5px solid #999; border-radius: 4px;
  padding: 6px 8px; margin: 4px 0; font-size: 13px; }
.tv-card.value { border-left-color: #2ca02c; }
.tv-card.none { border-left-color: #d62728; }
.tv-card.zero { border-left-color: #ff7f0e; }
.tv-card.nan, .tv-card.inf { border-left-color: #9467bd; }
/* a run note: not a gradient's card (no verdict), a finding beside them */
.tv-note { border: 1px solid #ddd; border-left: 5px solid #e6a700; border-radius: 4px;
  padding: 6px 8px; margin: 4px 0; font-size: 13px; background: #fffbeb; }
.tv-badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 11px;
  background: #eee; margin-left: 4px; }
.tv-err { color: #a40000; }
/* grey lines: an all-zero value (white cells) still shows as a grid, not as blank space */
.tv-heat td { width: 14px; height: 14px; padding: 0; border: 1px solid #d0d0d0; }
"""


def esc(text) -> str:
    return html.escape("" if text is None else str(text), quote=True)


def table(rows, header=None) -> str:
    out = ['<table class="tv-table">']
    if header:
        out.append("<tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>")
    for r in rows:
        out.append("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _flat(value):
    if isinstance(value, list):
        for v in value:
            yield from _flat(v)
    else:
        yield value


def _num(v):
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, math.nan)
    try:
        return float(v)
    except (TypeError, ValueError):
        return math.nan


def heatmap(summary, max_cells: int = 64) -> str:
    """A small heatmap of a 1-D/2-D value (from ``summary["value"]``), else ''."""
    summary = clip_summary(summary)
    if summary is None or "value" not in summary:
        return ""
    shape = summary.get("shape") or []
    if not shape or summary.get("size", 0) < 2 or summary.get("size", 0) > max_cells:
        return ""
    flat = [_num(v) for v in _flat(summary["value"])]
    width = shape[-1] if len(shape) > 1 else len(flat)
    if len(flat) != summary["size"] or type(width) is not int or width <= 0 or len(flat) % width:
        return ""           # a value that does not fit its shape (another writer's): no map
    rows = [flat[i:i + width] for i in range(0, len(flat), width)]
    finite = [v for r in rows for v in r if math.isfinite(v)]
    hi = max((abs(v) for v in finite), default=1.0) or 1.0
    out = ['<table class="tv-heat" style="border-collapse:collapse">']
    for r in rows:
        out.append("<tr>")
        for v in r:
            if not math.isfinite(v):
                color = "#9467bd"
            else:
                t = v / hi
                if t >= 0:
                    c = int(255 - 180 * t)
                    color = f"rgb(255,{c},{c})"
                else:
                    c = int(255 + 180 * t)
                    color = f"rgb({c},{c},255)"
            out.append(f'<td style="background:{color}" title="{esc(fmt_num(v))}"></td>')
        out.append("</tr>")
    out.append("</table>")
    return "".join(out)


def ref_row(ref, name: str | None = None) -> list:
    s = ref.get("summary") if isinstance(ref, dict) else None
    value = summary_text(s) if s is not None else "(not kept)"   # a lineage-only ref
    return [esc(name if name is not None else ref.get("name", "")), esc(shape_str(ref.get("shape"))),
            esc(ref.get("dtype") or ""), f'<span class="tv-mono">{esc(value)}</span>']


def place(site: dict) -> str:
    """Where a site is, as a reader names it: ``cell [3], line 4`` for a notebook cell (its
    file is a temporary name made from the cell's text), else ``train.py:4``."""
    cell = site.get("cell")
    if type(cell) is int:
        return f"cell [{cell}], line {site.get('line')}"
    return f"{os.path.basename(str(site.get('file') or ''))}:{site.get('line')}"


def code_block(site, context: int = 3, lines_of=None) -> str:
    """The source line of ``site`` with up to ``context`` lines around it, from the lines
    the run carries (``lines_of(file)``: {line number: text}, e.g. ``Store.sources.get``).
    Nothing is read from disk: a recording names any path it likes. Without carried lines,
    the site's own ``code``, and a note that the file's source is not in the recording."""
    if not isinstance(site, dict):
        return ""
    lineno = site.get("line")
    fname = site.get("file") or ""
    carried = lines_of(fname) if lines_of is not None and isinstance(fname, str) else None
    func = site.get("func")
    where = f' in {esc(func)}' if func else ""     # (explanations name a line, not a function)
    out = [f'<div class="tv-small tv-where">{esc(place(site))}{where}</div><div class="tv-code">']
    if carried and isinstance(lineno, int) and lineno in carried:
        for i in range(lineno - context, lineno + context + 1):
            if i in carried:
                cls = "hit" if i == lineno else "row"
                out.append(f'<span class="{cls}" data-line="{i}"><span class="ln">{i}</span>'
                           f'{esc(str(carried[i]).rstrip())}</span>')
        out.append("</div>")
    else:
        out.append(f'<span class="hit"><span class="ln">{esc(lineno)}</span>'
                   f'{esc(site.get("code", ""))}</span></div>')
        out.append('<div class="tv-small tv-no-source">the source of this file is not in the '
                   'recording: only the line of the event is shown</div>')
    return "".join(out)
