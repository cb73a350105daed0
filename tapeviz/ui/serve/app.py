"""The dashboard as a ``panel serve`` app, one fresh session per browser tab::

    panel serve tapeviz/ui/serve/app.py --warm --args run.tvz [--follow]
    panel serve tapeviz/ui/serve/app.py --warm      (no argument: the current folder's recordings)
    panel serve tapeviz/ui/serve/app.py --args runs/       (a folder: a picker of its recordings)
    TAPEVIZ_RECORDING=run.tvz panel serve tapeviz/ui/serve/app.py

``tapeviz serve`` runs the same factory. Each session gets its own views; sessions share
what they read (a finished recording's store, a followed one's feed).

Served this way, Panel's command line is in charge of the server: run the ``panel`` command
(``python -m panel`` puts the current folder on ``sys.path``), keep the default loopback
address, and add ``--warm`` so this module closes Panel's component route
(:func:`.private_apis.close_component_route`) before the first request rather than at the first
session. ``tapeviz serve`` does all of this itself; docs/security.md has the details.
"""
from __future__ import annotations

import os
import sys
import weakref
from functools import partial

import panel as pn

from tapeviz.private_apis import close_component_route, escape_title_when_served


def make_app(path: str | None = None, follow: bool | None = None, title: str | None = None,
             compare: str | None = None, compare_options: dict | None = None,
             keep_tapes: int | None = None):
    """The page for one session: a BootstrapTemplate holding a :class:`Dashboard` (with
    ``compare``, another recording: the compare view of the two, ``compare_options`` as
    :func:`tapeviz.diff` takes them). Its stores keep ``keep_tapes`` tapes (None: the default,
    ``limits.KEEP_TAPES``)."""
    path = path or os.environ.get("TAPEVIZ_RECORDING") or None
    if follow is None:
        follow = os.environ.get("TAPEVIZ_FOLLOW", "") not in ("", "0")
    header, hint = [], None
    if not path:
        # no recording given (`panel serve tapeviz/ui/serve/app.py` alone): the current folder's
        # recordings to pick from, and how to pass one; never an empty page
        here = os.getcwd()
        has_recordings = any(n.endswith(".tvz") for n in os.listdir(here))
        hint = _how_to_pass_one(here, has_recordings)
        path = here if has_recordings else None
    if path and os.path.isdir(path):
        from tapeviz.ui.serve.compare_picker import ComparePicker
        from tapeviz.ui.serve.recording_picker import FolderDashboard
        folder = FolderDashboard(path, keep_tapes=keep_tapes)
        ComparePicker(folder)
        title = title or f"tapeviz · {os.path.basename(os.path.abspath(path))}/"
        main, header = folder.main, [folder.header]
    else:
        name = os.path.basename(path) if path else "no recording"
        if compare:
            name += f" vs {os.path.basename(compare)}"
        title = title or f"tapeviz · {name}"
        try:
            if compare:
                from tapeviz.ui.dashboard.compare_view import compare_dashboard
                main = compare_dashboard(path, compare, title, **(compare_options or {}))
            else:
                main = open_dashboard(path, follow, title, keep_tapes)
        except Exception as exc:      # a broken file: say so on the page, never a blank page
            main = pn.pane.Alert(f"Cannot open {name}: {type(exc).__name__}: {exc}".replace("<", "&lt;"),
                                 alert_type="danger")
    page = pn.template.BootstrapTemplate(title=title, main=[hint, main] if hint else [main],
                                         header=header, header_background="#2b4a6f")
    page.server_doc = partial(_server_doc_frozen, page)
    return escape_title_when_served(page)


def _how_to_pass_one(folder: str, has_recordings: bool):
    """The note shown when no recording was given (the folder's name is text, not HTML)."""
    import html
    where = html.escape(folder)
    how = ("pass one with <code>panel serve tapeviz/ui/serve/app.py --warm --args run.tvz</code> "
           "(or a folder), or run <code>tapeviz serve run.tvz</code>")
    text = (f"No recording was given: pick one of the recordings in {where} above, or {how}."
            if has_recordings else
            f"No recording was given, and {where} holds none (<code>*.tvz</code>): {how}. "
            "Record one with <code>TAPEVIZ_RECORD=run.tvz python train.py</code>.")
    return pn.pane.Alert(text, alert_type="info")


def open_dashboard(path, follow: bool, title: str, keep_tapes: int | None = None):
    """A session's :class:`Dashboard` of one recording file (or of nothing). A finished file
    is ingested once per process and its store shared by every tab (:func:`.source.store_for`);
    a followed one is read once for every tab that follows it (:func:`.live_feed.shared_feed`),
    until the last of them is closed."""
    from tapeviz.ui.dashboard.dashboard import Dashboard
    from tapeviz.ui.store.source import store_for
    if path and not follow:
        return Dashboard(None, title=title, store=store_for(path, keep_tapes))
    if not path:
        return Dashboard(None, title=title)
    from tapeviz.ui.serve.live_feed import release, shared_feed
    feed = shared_feed(path, keep_tapes)
    try:
        view = Dashboard(feed, title=title)
    except BaseException:
        release(feed)
        raise
    # one release, whichever comes first: the session's end, or the view's collection
    released = weakref.finalize(view, release, feed)
    doc = pn.state.curdoc
    if doc is not None and getattr(doc, "session_context", None) is not None:
        doc.on_session_destroyed(lambda context: released())
    return view


def _server_doc_frozen(page, doc=None, title=None, location=True):
    """``page.server_doc`` with the document's model index frozen meanwhile: Panel adds the
    template's roots one at a time and Bokeh re-walks every model after each (about 0.1-0.2 s
    of a session's start here); frozen, it walks them once at the end."""
    if doc is None:
        doc = pn.state.curdoc
        if doc is None:
            from bokeh.io import curdoc
            doc = curdoc()
    with doc.models.freeze():
        return type(page).server_doc(page, doc, title, location)


def _args():
    argv = [a for a in sys.argv[1:]]
    follow = "--follow" in argv
    paths = [a for a in argv if not a.startswith("--")]
    return (paths[0] if paths else None), (follow or None)


if pn.state.served or __name__.startswith("bokeh_app"):
    close_component_route()
    _path, _follow = _args()
    pn.extension("tabulator")
    make_app(_path, _follow).servable()
