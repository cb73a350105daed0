"""Every place where tapeviz reaches into a dependency's non-public API: NumPy's, Panel's,
Bokeh's or Tornado's.

Each is a small function or name here with a test in tests/test_private_apis.py that fails if an
upgrade moves what it relies on (then it must be redone, not dropped). Nothing else in
tapeviz touches a private name of those libraries (tests/test_architecture.py checks the
imports). Panel and Bokeh are imported inside the functions, so the engine can import this
module without loading the dashboard's libraries.

1. :func:`close_component_route`. Panel's ``/components/<module>/<class>/<attr>/<file>``
   route (``panel.io.server.ComponentResourceHandler``) imports ``<module>`` by the name in
   the URL, for anyone who asks, before it checks anything: a page elsewhere holding
   ``<img src="http://127.0.0.1:5006/components/train_job/x/_css/a">`` made the server run
   ``train_job.py`` from a folder on ``sys.path``. tapeviz's pages load no resource through
   this route (their CSS and JS come from ``/static``), so the patch only lets through
   modules of Panel, Bokeh and tapeviz that are already imported; nothing is imported for a
   request. Panel's own checks (listed resources only) then run as before.

2. :func:`escape_title_when_served`. Panel's templates put the template's ``title`` into the page
   header as raw HTML (``{{ app_title }}``, not escaped), while ``<title>`` escapes it
   (``{{ title | e }}``): a recording named ``<img src=x onerror=...>.tvz`` ran its script
   in the header. The template variables of the session's document (Bokeh's public
   ``Document.template_variables``) get the escaped text; the names of those variables are
   Panel's.

3. :func:`skip_mathjax` and :func:`skip_webgl`: pages without the MathJax and WebGL bundles
   they do not use (``panel.io.resources._panel_use_mathjax``, ``panel.io.server.
   bundle_resources``). If either moves, pages merely load those bundles again.

4. :func:`wrap_get_session` and :func:`token_payload`: the warm first session of ``tapeviz
   serve`` (:mod:`tapeviz.ui.serve.warm_session`) hooks Panel's ``DocHandler.get_session``
   and builds a session token as Panel does (``DocHandler._generate_token_payload``).

5. :func:`hold_sending_last`: Bokeh's held document events (``doc.callbacks._held_events``) are
   reordered so a graph's data goes out last in a held message.

6. :data:`KEEP_VIEW_JS`: BokehJS ranges' ``have_updated_interactively`` flag, set in the
   graph's scripts so a repaint does not re-fit a view the user (or a fit) placed.

7. :data:`PLOT_ELEMENT_JS`: the DOM element BokehJS drew a plot in, found through BokehJS's
   view index (``Bokeh.index``) and the view's ``el``, so the graph's scripts can scroll the
   page to it. (A plot's size in pixels they read from the public ``inner_width`` and
   ``inner_height`` properties.)

8. :data:`NUMPY_ERRSTATE` and :data:`IGNORE_ALL`: NumPy's error state is a context variable
   (``numpy._core._ufunc_config._extobj_contextvar``); the engine runs kernels in a context
   where it holds "ignore everything" (NaN and Inf are results to explain, not warnings to
   print, as in TensorFlow). Entering a ready-made context costs about a tenth of
   ``np.errstate`` around each kernel. On a NumPy without it (1.x), a stand-in variable of
   our own: kernels then run as the user's error state says, and NumPy's warnings show.

9. :func:`lock_panel_events`: Panel's ``Syncable._event_coroutine`` (how Panel handles a
   widget's event, a button's click, while a change from the same page is pending) is
   marked with the public ``pn.io.with_lock``, so it runs with the session's document locked.
"""
from __future__ import annotations

import contextvars
import html
import sys
from contextlib import contextmanager

# ---- 8. NumPy's error state --------------------------------------------------------------------
try:
    from numpy._core._ufunc_config import _extobj_contextvar as NUMPY_ERRSTATE
    from numpy._core.umath import _make_extobj
    #: the value of NUMPY_ERRSTATE under ``np.errstate(all="ignore")``
    IGNORE_ALL = _make_extobj(all="ignore")
except ImportError:  # NumPy 1.x: no cheap switch; NumPy's warnings then show
    NUMPY_ERRSTATE = contextvars.ContextVar("tapeviz_quiet", default=None)
    IGNORE_ALL = True

#: Packages whose already-imported modules the component route may still serve.
SERVED_PACKAGES = ("panel", "bokeh", "tapeviz")

#: Panel's template variables that are written into the page as raw HTML.
RAW_TITLE_VARIABLES = ("app_title", "meta_name", "site_title")


def component_route_allows(module: str) -> bool:
    """Whether the component route may look at ``module``: one of :data:`SERVED_PACKAGES`'
    modules, and imported already (the route must never import one)."""
    return module in sys.modules and module.split(".", 1)[0] in SERVED_PACKAGES


def close_component_route() -> None:
    """Make Panel's component-resource route refuse (404) any module it would have to import
    or that is not Panel's, Bokeh's or tapeviz's. Applies to every server in this process,
    also one already running (Tornado makes a handler per request); calling it again does
    nothing."""
    from tornado.web import HTTPError
    from panel.io.server import ComponentResourceHandler

    original = ComponentResourceHandler.parse_url_path
    if getattr(original, "tapeviz_closed", False):
        return

    def parse_url_path(self, path: str) -> str:
        if not component_route_allows(path.split("/", 1)[0]):
            raise HTTPError(404, "Module not found")
        return original(self, path)

    parse_url_path.tapeviz_closed = True
    parse_url_path.__wrapped__ = original
    ComponentResourceHandler.parse_url_path = parse_url_path


def escape_header_title(doc) -> None:
    """Escape the title in ``doc``'s template variables that Panel's templates write as raw
    HTML (call it after the template's ``server_doc``). The browser tab's ``<title>`` is
    escaped by Panel itself and stays the plain text."""
    variables = doc.template_variables
    for name in RAW_TITLE_VARIABLES:
        value = variables.get(name)
        if isinstance(value, str):
            variables[name] = html.escape(value)


def escape_title_when_served(page):
    """Have ``page`` (a Panel template) escape its header title in each document it is served
    into: wraps ``page.server_doc``, which ``.servable()`` and ``pn.serve`` call. Returns
    ``page``."""
    server_doc = page.server_doc

    def escaped_server_doc(doc=None, title=None, location=True):
        doc = server_doc(doc, title=title, location=location)
        escape_header_title(doc)
        return doc

    page.server_doc = escaped_server_doc
    return page


# ---- 3. bundles a page does not need -----------------------------------------------------------
def skip_mathjax() -> None:
    """Panel sends its 1.8 MB MathJax bundle with every page and notebook output holding an
    HTML pane (``panel.io.resources._panel_use_mathjax``), though HTML panes disable math by
    default. tapeviz renders no math and the bundle costs a page load about 0.1 s, so pages
    built in this process go without it unless ``pn.extension("mathjax")`` asked for it."""
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
    without it unless one of their plots asks for WebGL. Wraps
    ``panel.io.server.bundle_resources``, which Panel's server page functions call by that
    module's global name."""
    try:
        from panel.io import server
    except ImportError:
        return
    original = getattr(server, "bundle_resources", None)
    if not callable(original) or getattr(original, "tapeviz_no_gl", False):
        return

    def bundle_resources(roots, resources, *args, **kw):
        bundle = original(roots, resources, *args, **kw)
        files = getattr(bundle, "js_files", None)
        if files and not _uses_webgl(roots):
            bundle.js_files = [f for f in files if "/bokeh-gl" not in str(f)]
        return bundle

    bundle_resources.tapeviz_no_gl = True
    bundle_resources.__wrapped__ = original
    server.bundle_resources = bundle_resources


def _uses_webgl(roots) -> bool:
    from bokeh.models import Plot
    roots = list(roots or ())
    doc = roots[0].document if roots else None
    models = doc.models if doc is not None else [m for r in roots for m in r.references()]
    return any(isinstance(m, Plot) and m.output_backend == "webgl" for m in models)


# ---- 4. the warm first session ------------------------------------------------------------------
def wrap_get_session(get_session) -> bool:
    """Make Panel's ``DocHandler.get_session`` (the coroutine that makes or finds the session
    a page request is answered with) call ``get_session(handler, original)`` instead. False
    (and nothing changed) when Panel no longer has what this and :func:`token_payload` use."""
    try:
        from panel.io.server import DocHandler
        original = DocHandler.get_session
        DocHandler._generate_token_payload      # noqa: B018 (token_payload calls it)
    except (ImportError, AttributeError):
        return False

    async def wrapped(handler):
        return await get_session(handler, original)

    wrapped.__wrapped__ = original
    DocHandler.get_session = wrapped
    return True


def token_payload(handler) -> dict:
    """The extra payload Panel puts in the session token of a page request to ``handler``
    (its headers, cookies and arguments), for a session built as Panel builds one."""
    return handler._generate_token_payload()


# ---- 5. the order of a held message -----------------------------------------------------------
@contextmanager
def hold_sending_last(doc, models):
    """Hold ``doc`` (``pn.io.hold``) meanwhile and send what changed as one message, with the
    changes of ``models`` at its end (Bokeh keeps the held events in
    ``doc.callbacks._held_events``; if that moves, the order is Bokeh's)."""
    import panel as pn
    mine = {id(m) for m in models}
    with pn.io.hold(doc):
        yield
        held = getattr(doc.callbacks, "_held_events", None)
        if isinstance(held, list):
            ours = [e for e in held if id(getattr(e, "model", None)) in mine]
            if ours:
                held[:] = [e for e in held if id(getattr(e, "model", None)) not in mine] + ours


# ---- 6. BokehJS ------------------------------------------------------------------------------
#: JavaScript (ranges ``xr`` and ``yr`` in scope): mark the ranges as placed by the user, as a
#: wheel zoom does, so BokehJS's own fit on a later repaint or data change leaves them alone
KEEP_VIEW_JS = "xr.have_updated_interactively = yr.have_updated_interactively = true;"

#: JavaScript defining ``plot_element(fig)``: the DOM element BokehJS drew the plot ``fig`` in,
#: or null (BokehJS has no public way from a model to its element)
PLOT_ELEMENT_JS = """const plot_element = (fig) => {
  const view = Bokeh.index.find_one_by_id(fig.id);
  return view ? view.el : null;
};
"""


# ---- 9. Panel's events with the document locked ----------------------------------------------
def lock_panel_events() -> bool:
    """Have Panel handle a widget's event (a button's click) with the session's document
    locked, as Bokeh runs every callback it schedules (False: Panel moved it).

    When a change from the same page is still pending (Panel waits 50 ms after a tab, a
    select or a slider moves, longer on a busy server), Panel runs the event, and the
    pending changes before it, as a task of its own without that lock
    (``Syncable._event_coroutine``, scheduled through ``pn.state.execute``). Panel's widgets
    cope; a callback that writes a Bokeh model directly, as the graph, the player and the
    charts do, fails there ("_pending_writes should be non-None when we have a document
    lock"): the click, or the tab picked just before it, does nothing. Panel's scheduler
    takes the lock for a coroutine marked by ``pn.io.with_lock``; the method is so marked
    here, once per process (every Panel app of the process then gets its events locked, as
    it does when nothing is pending)."""
    try:
        import panel as pn
        from panel.reactive import Syncable
        method = Syncable._event_coroutine
    except (ImportError, AttributeError):
        return False
    if not getattr(method, "lock", False):
        Syncable._event_coroutine = pn.io.with_lock(method)
    return True
