"""The source lines a recording carries, so that a viewer never reads its own disk.

A site names a file and a line; the dashboard shows that line with a few around it. Reading
them from the viewer's disk would show whatever file a recording names (a ``.py`` symlink
reaches any file) and the export would embed it. So the writer records, once per file and
line, the lines around each site it writes (``CONTEXT`` either side), from the source the
process ran (``linecache``, where the site's own ``code`` came from), as lines

    {"kind": "source", "file": "/home/me/train.py", "start": 9, "lines": ["...", ...]}

(table lines, like ``site``: readers collect them in ``sources``). A site whose ``code`` is not
the file's line there (a hand-made event) carries nothing. In-process views (a tape's live
view, a lesson) collect the same windows with :func:`carry`. Imports: stdlib only.
"""
from __future__ import annotations

import json
import linecache

#: Lines recorded on each side of a site's line (the dashboard shows at most 3).
CONTEXT = 3
#: A longer source line is cut, ending ``...[cut]``.
LONGEST_LINE = 1000
#: At most this many lines are carried per file (a generated file with many sites).
MAX_LINES_PER_FILE = 20_000


class SourceWindows:
    """Which lines of which files were already carried; the new ones around a site."""

    __slots__ = ("carried",)

    def __init__(self):
        self.carried: dict = {}      # file -> set of line numbers already carried

    def runs(self, site) -> list:
        """``[(file, start, [lines])]``: the lines around ``site`` not carried yet, in
        contiguous runs (none for a site whose code is not its file's line)."""
        if type(site) is not dict:
            return []
        fname, lineno, code = site.get("file"), site.get("line"), site.get("code")
        if type(fname) is not str or type(lineno) is not int or type(code) is not str:
            return []
        done = self.carried.get(fname)
        if done is not None and lineno in done:
            return []
        lines = linecache.getlines(fname)
        if not code or not 0 < lineno <= len(lines) or lines[lineno - 1].strip() != code:
            return []
        return self._window(fname, lineno, lines)

    def runs_for_results(self, results) -> list:
        """The lines around each explanation's ``filename:lineno`` (a ``gradient_finished``
        event's ``results``): a Variable made before any tape has no event of its own, and
        its card shows the line that made it. A result names no code to check its line
        against, so only a file this process already read for a site (in ``linecache``)
        is carried: a hand-made result cannot make the writer copy an arbitrary file."""
        out = []
        for r in results if type(results) is list else ():
            fname, lineno = (r.get("filename"), r.get("lineno")) if type(r) is dict else (0, 0)
            if type(fname) is not str or type(lineno) is not int or fname not in linecache.cache:
                continue
            if lineno in self.carried.get(fname, ()):
                continue
            lines = linecache.getlines(fname)
            if 0 < lineno <= len(lines):
                out += self._window(fname, lineno, lines)
        return out

    def _window(self, fname, lineno, lines) -> list:
        done = self.carried.get(fname)
        if done is None:
            done = self.carried[fname] = set()
        out, run_start, run = [], None, []
        for n in range(max(1, lineno - CONTEXT), min(len(lines), lineno + CONTEXT) + 1):
            if n in done or len(done) >= MAX_LINES_PER_FILE:
                if run:
                    out.append((fname, run_start, run))
                run_start, run = None, []
                continue
            done.add(n)
            if run_start is None:
                run_start = n
            text = lines[n - 1].rstrip("\r\n")
            run.append(text if len(text) <= LONGEST_LINE else text[:LONGEST_LINE] + "...[cut]")
        if run:
            out.append((fname, run_start, run))
        return out

    def lines_for(self, site) -> bytes:
        """The ``source`` lines to write before the first event at ``site`` (or ``b""``)."""
        return _source_lines(self.runs(site))

    def lines_for_results(self, results) -> bytes:
        """The ``source`` lines to write before a ``gradient_finished`` event (or ``b""``)."""
        return _source_lines(self.runs_for_results(results))


def _source_lines(runs) -> bytes:
    return b"".join(json.dumps({"kind": "source", "file": f, "start": start, "lines": lines},
                               separators=(",", ":")).encode("ascii") + b"\n"
                    for f, start, lines in runs)


def take(sources: dict, data: dict) -> bool:
    """Add a ``source`` line's lines to ``sources`` (file -> {line number: text}); False when
    ``data`` is not one. ValueError for one with the wrong types."""
    if data.get("kind") != "source":
        return False
    fname, start, lines = data.get("file"), data.get("start"), data.get("lines")
    if (type(fname) is not str or type(start) is not int or start < 1
            or type(lines) is not list or not all(type(t) is str for t in lines)):
        raise ValueError('a "source" line needs a "file" string, a "start" line number '
                         'and a list of "lines"')
    known = sources.setdefault(fname, {})
    for i, text in enumerate(lines):
        known[start + i] = text
    return True


def carry(events, windows: SourceWindows, sources: dict) -> None:
    """For in-process views: the lines around each event's site into ``sources``, as a
    recording carries them (the process's own source, through ``linecache``)."""
    for event in events:
        # (a tape's view replays its past calls as plain dicts: those are read alike)
        field = event.get if isinstance(event, dict) else lambda name: getattr(event, name, None)
        runs = windows.runs(field("site"))
        if field("kind") == "gradient_finished":
            runs += windows.runs_for_results(field("results"))
        for fname, start, lines in runs:
            known = sources.setdefault(fname, {})
            for i, text in enumerate(lines):
                known[start + i] = text
