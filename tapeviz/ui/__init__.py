"""The tapeviz dashboard (Panel + Bokeh): built from events and recordings only.

    >>> import tapeviz as tv
    >>> tv.show("run.tvz")                    # doctest: +SKIP   (a notebook cell)
    >>> tv.ui.Dashboard(events, title="demo") # doctest: +SKIP   (a Panel viewer)

``show`` loads Panel's JavaScript inline (no CDN), so notebooks render offline.
"""
from __future__ import annotations

__all__ = ["show", "Dashboard", "as_source"]

_extension_loaded = False


def skip_mathjax() -> None:
    """Panel sends its 1.8 MB MathJax bundle with every page and notebook output holding an
    HTML pane (``panel.io.resources._panel_use_mathjax``), though HTML panes disable math by
    default. tapeviz renders no math and the bundle costs a page load about 0.1 s, so pages
    built in this process go without it unless ``pn.extension("mathjax")`` asked for it.
    (A private Panel function: if it moves, pages merely keep loading MathJax.)"""
    try:
        from panel.io import resources
    except ImportError:
        return
    if callable(getattr(resources, "_panel_use_mathjax", None)):
        resources._panel_use_mathjax = _no_math


def _no_math(roots) -> bool:
    return False


def skip_webgl() -> None:
    """Panel's server pages load BokehJS's WebGL bundle (``bokeh-gl``, 190 KB to fetch, parse
    and run before the page's document is pulled) whatever they hold. tapeviz draws on canvas
    (WebGL under a software GPU is far slower), so server pages built in this process go
    without it unless one of their plots asks for WebGL. (Wraps
    ``panel.io.server.bundle_resources``, not public: if it moves, pages keep loading it.)"""
    try:
        from panel.io import server
    except ImportError:
        return
    original = getattr(server, "bundle_resources", None)
    if not callable(original) or getattr(original, "_tapeviz_no_gl", False):
        return

    def bundle_resources(roots, resources, *args, **kw):
        bundle = original(roots, resources, *args, **kw)
        files = getattr(bundle, "js_files", None)
        if files and not _uses_webgl(roots):
            bundle.js_files = [f for f in files if "/bokeh-gl" not in str(f)]
        return bundle

    bundle_resources._tapeviz_no_gl = True
    server.bundle_resources = bundle_resources


def _uses_webgl(roots) -> bool:
    from bokeh.models import Plot
    roots = list(roots or ())
    doc = roots[0].document if roots else None
    models = doc.models if doc is not None else [m for r in roots for m in r.references()]
    return any(isinstance(m, Plot) and m.output_backend == "webgl" for m in models)


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
