"""The tapeviz dashboard (Panel + Bokeh): built from events and recordings only.

    >>> import tapeviz as tv
    >>> tv.show("run.tvz")                    # doctest: +SKIP   (a notebook cell)
    >>> tv.ui.Dashboard(events, title="demo") # doctest: +SKIP   (a Panel viewer)

``show`` loads Panel's JavaScript inline (no CDN), so notebooks render offline.
"""
from __future__ import annotations

__all__ = ["show", "Dashboard", "as_source"]

_extension_loaded = False


def _extension(inline: bool = True) -> None:
    global _extension_loaded
    import panel as pn
    if not _extension_loaded:
        pn.extension("tabulator", inline=inline)
        _extension_loaded = True


def show(obj, follow: bool = False, title: str | None = None, **kw):
    """A Panel object showing ``obj`` (a recording path, a list of events, an event source or a
    tape) for a notebook: it renders inline and offline, and updates while a live source grows.
    """
    from .dashboard.dashboard import Dashboard
    from .store.source import label_of
    _extension(inline=True)
    return Dashboard(obj, title=title or label_of(obj) or "tapeviz", follow=follow, **kw)


def __getattr__(name):
    if name == "Dashboard":
        from .dashboard.dashboard import Dashboard
        return Dashboard
    if name == "as_source":
        from .store.source import as_source
        return as_source
    raise AttributeError(name)
