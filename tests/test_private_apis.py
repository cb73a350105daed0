"""The patches of tapeviz/private_apis.py against the installed Panel: each test fails if an
upgrade moves what the patch relies on (then the patch must be redone, not dropped)."""
from __future__ import annotations

import html
import re
import sys
import warnings

import pytest

from tapeviz import private_apis


def test_panel_still_serves_components_through_the_handler_patches():
    from panel.io.server import ComponentResourceHandler, get_static_routes
    routes = [(pattern, handler) for pattern, handler, *_ in get_static_routes({})]
    assert ("/components/(.*)", ComponentResourceHandler) in routes


def test_the_closed_component_route_imports_nothing_and_still_serves_panel(tmp_path, monkeypatch):
    from panel.io.server import ComponentResourceHandler
    from tornado.web import HTTPError
    import panel as pn
    (tmp_path / "tv_compat_marker.py").write_text("open(__file__ + '.imported', 'w')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    handler = ComponentResourceHandler.__new__(ComponentResourceHandler)   # (no request needed)
    template_css = "panel.template.bootstrap/BootstrapTemplate/_css/bootstrap.css"
    served = ComponentResourceHandler.parse_url_path(handler, template_css)
    assert served == str(pn.template.BootstrapTemplate._css[0])    # Panel's own lookup
    private_apis.close_component_route()
    private_apis.close_component_route()                                 # (twice: wrapped once)
    assert not hasattr(ComponentResourceHandler.parse_url_path.__wrapped__, "__wrapped__")
    for module in ("tv_compat_marker", "panel.io.jupyter_server_extension"):
        with pytest.raises(HTTPError) as refused:
            ComponentResourceHandler.parse_url_path(handler, f"{module}/x/_css/a")
        assert refused.value.status_code == 404
    assert not (tmp_path / "tv_compat_marker.py.imported").exists()
    assert "panel.io.jupyter_server_extension" not in sys.modules
    assert ComponentResourceHandler.parse_url_path(handler, template_css) == served


def test_panel_templates_still_write_the_escaped_header_title_variables():
    import panel as pn
    from bokeh.document import Document
    from bokeh.embed import file_html
    from bokeh.resources import CDN
    title = "<b id=x>run\"'.tvz</b>"
    doc = Document()
    pn.template.BootstrapTemplate(title=title).server_doc(doc)

    def rendered():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return file_html(doc, CDN, doc.title, template=doc.template,
                             template_variables=doc.template_variables)
    assert "<b id=x>" in rendered()            # what Panel does on its own
    private_apis.escape_header_title(doc)
    page = rendered()
    assert "<b id=x>" not in page
    assert re.search(r'class="title"[^>]*>(&nbsp;)?' + re.escape(html.escape(title)), page)
    assert doc.title == title                  # the tab's title: Panel escapes it itself
    assert "<title>&lt;b id=x&gt;" in page


def _bundle_files(bundle_resources, roots):
    from bokeh.resources import CDN
    return [str(f) for f in bundle_resources(roots, CDN).js_files]


def test_panel_still_asks_its_mathjax_predicate_and_skip_mathjax_answers_no(monkeypatch):
    import panel as pn
    from panel.io import resources
    monkeypatch.setattr(resources, "_panel_use_mathjax", resources._panel_use_mathjax)
    roots = [pn.pane.HTML("<b>x</b>").get_root()]
    monkeypatch.setattr(resources, "_panel_use_mathjax", lambda roots: True)
    assert any("mathjax" in f.lower() for f in _bundle_files(resources.bundle_resources, roots))
    private_apis.skip_mathjax()
    assert resources._panel_use_mathjax(roots) is False
    assert not any("mathjax" in f.lower() for f in _bundle_files(resources.bundle_resources, roots))


def test_panel_server_pages_still_bundle_through_the_name_skip_webgl_wraps(monkeypatch):
    from bokeh.plotting import figure
    from panel.io import server
    monkeypatch.setattr(server, "bundle_resources", server.bundle_resources)
    for page in (server.server_html_page_for_session, server.autoload_js_script):
        assert "bundle_resources" in page.__code__.co_names      # looked up in server's globals
    original = getattr(server.bundle_resources, "__wrapped__", server.bundle_resources)
    roots = [figure()]
    assert any("/bokeh-gl" in f for f in _bundle_files(original, roots))
    private_apis.skip_webgl()
    private_apis.skip_webgl()                                       # (twice: wrapped once)
    assert server.bundle_resources.__wrapped__ is original
    assert not any("/bokeh-gl" in f for f in _bundle_files(server.bundle_resources, roots))
    assert any("/bokeh-gl" in f for f in _bundle_files(server.bundle_resources,
                                                       [figure(output_backend="webgl")]))


def test_panel_page_requests_still_go_through_get_session_and_its_token_payload(monkeypatch):
    import asyncio
    import concurrent.futures
    import inspect
    from panel.io.server import DocHandler
    monkeypatch.setattr(DocHandler, "get_session", DocHandler.get_session)
    assert "get_session" in inspect.unwrap(DocHandler.get).__code__.co_names
    original = DocHandler.get_session
    assert inspect.iscoroutinefunction(inspect.unwrap(original))
    seen = []

    async def hook(handler, wrapped):
        seen.append((handler, wrapped))
        return "session"
    assert private_apis.wrap_get_session(hook)
    # (in a thread of its own: a browser test earlier in the session may leave an event loop
    # running in this one, where asyncio.run refuses to start)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        got = pool.submit(asyncio.run, DocHandler.get_session("handler")).result()
    assert got == "session"
    assert seen == [("handler", original)]

    class App:
        include_headers = exclude_headers = include_cookies = exclude_cookies = None

    class Context:
        class application:
            @staticmethod
            def process_request(request):
                return {}

    class Request:
        headers = {"X-Test": "1"}
        cookies = {}
        arguments = {"a": [b"1"]}
    handler = DocHandler.__new__(DocHandler)
    handler.application, handler.application_context, handler.request = App(), Context(), Request()
    assert private_apis.token_payload(handler) == {"headers": {"X-Test": "1"}, "cookies": {},
                                             "arguments": {"a": [b"1"]}}


def test_a_held_message_still_sends_the_named_models_last():
    from bokeh.document import Document
    from bokeh.models import ColumnDataSource
    doc = Document()
    graph, other = ColumnDataSource({"x": [0]}), ColumnDataSource({"x": [0]})
    doc.add_root(graph)
    doc.add_root(other)
    order = []
    doc.on_change(lambda event: order.append(event.model))
    doc.hold("combine")         # as a served session's document is held while it updates
    with private_apis.hold_sending_last(doc, [graph]):
        graph.data = {"x": [1]}
        other.data = {"x": [1]}
    doc.unhold()
    assert order == [other, graph]


def test_bokehjs_ranges_still_have_the_flag_the_graph_scripts_set():
    import pathlib
    import bokeh
    from tapeviz.ui.graph.plot_js import FIT_JS, ZOOM_JS
    js = (pathlib.Path(bokeh.__file__).parent / "server" / "static" / "js" / "bokeh.js").read_text()
    # a DataRange1d's update leaves a range the user (or a script) placed alone
    assert re.search(r"if \(this\.have_updated_interactively\)", js)
    assert private_apis.KEEP_VIEW_JS in FIT_JS and private_apis.KEEP_VIEW_JS in ZOOM_JS


def _bokehjs():
    import pathlib
    import bokeh
    return (pathlib.Path(bokeh.__file__).parent / "server" / "static" / "js" / "bokeh.js").read_text()


def test_bokehjs_still_finds_a_plots_element_the_way_plot_element_js_does():
    js = _bokehjs()
    # `Bokeh.index` is the view manager of every view on the page ...
    assert re.search(r"exports\.index = new Proxy\(new view_manager_1\.ViewManager\(", js)
    # ... which finds a model's view by the model's id ...
    assert re.search(r"class ViewManager extends AbstractViewQuery", js)
    assert re.search(r"\n\s+find_one_by_id\(id\) \{", js)
    # ... and a view keeps the element it is drawn in as `el`
    assert re.search(r"\n\s+get el\(\) \{", js)
    assert "Bokeh.index.find_one_by_id(fig.id)" in private_apis.PLOT_ELEMENT_JS
    assert "view.el" in private_apis.PLOT_ELEMENT_JS


def test_the_graph_scripts_read_a_plots_size_from_its_public_inner_width_and_height():
    from bokeh.plotting import figure
    from tapeviz.ui.graph.plot_js import FIT_JS, ZOOM_JS
    assert {"inner_width", "inner_height"} <= figure().properties()
    # BokehJS sets them to its frame's size once the plot is laid out
    assert re.search(r"inner_width: Math\.round\(this\.frame\.bbox\.width\)", _bokehjs())
    for script in (FIT_JS, ZOOM_JS):
        assert "fig.inner_width" in script and "fig.inner_height" in script


def test_no_script_outside_private_apis_reaches_into_bokehjs_views():
    """BokehJS's views (`Bokeh.index`, a view's `frame`, `el`, `model_views`...) are not its
    public API: only private_apis.py's snippets use them, each checked above."""
    import pathlib
    import tapeviz.ui
    ui = pathlib.Path(tapeviz.ui.__file__).parent
    internals = re.compile(r"Bokeh\.index|find_one_by_id|\.frame\.bbox|model_views|"
                           r"renderer_views?\b|child_views")
    offenders = [str(p.relative_to(ui)) for p in sorted(ui.rglob("*.py"))
                 if p.name != "private_apis.py" and internals.search(p.read_text())]
    assert offenders == []
    from tapeviz.ui.graph.plot_js import REVEAL_JS, ZOOM_JS
    assert private_apis.PLOT_ELEMENT_JS in REVEAL_JS and private_apis.PLOT_ELEMENT_JS in ZOOM_JS


# ---- 8. NumPy's error state -------------------------------------------------------------------
def test_numpy_errstate_is_numpys_own_context_variable():
    import numpy as np
    outside = private_apis.NUMPY_ERRSTATE.get()
    with np.errstate(all="ignore"):
        inside = private_apis.NUMPY_ERRSTATE.get()
    assert inside is not outside          # np.errstate sets this very variable


def test_a_kernel_in_the_ignore_all_context_warns_of_nothing():
    import contextvars
    import numpy as np
    big = np.float32(3e38)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning):           # NumPy's own state warns on overflow
            with np.errstate(over="warn"):
                np.multiply(big, np.float32(10))
        quiet = contextvars.Context()
        quiet.run(private_apis.NUMPY_ERRSTATE.set, private_apis.IGNORE_ALL)
        with np.errstate(over="warn"):                # (the context has its own state)
            assert np.isinf(quiet.run(np.multiply, big, np.float32(10)))


def test_panel_still_schedules_a_pending_event_through_the_method_lock_panel_events_marks(
        monkeypatch):
    """Panel handles a widget's event while a change is pending through
    ``Syncable._event_coroutine``, scheduled by ``pn.state.execute``; its server executor
    leaves a coroutine without the document lock unless the method is marked ``lock``."""
    import inspect
    from functools import partial
    import panel as pn
    from panel.io import server
    from panel.reactive import Syncable
    source = inspect.getsource(Syncable._server_event)
    assert "self._event_coroutine" in source and "state.execute" in source
    assert private_apis.lock_panel_events()
    assert Syncable._event_coroutine.lock is True
    assert inspect.iscoroutinefunction(Syncable._event_coroutine)
    assert private_apis.lock_panel_events()                       # once: not wrapped twice
    assert not hasattr(Syncable._event_coroutine.__wrapped__, "lock")

    # what Panel's executor schedules for such a partial, in a served session's document
    scheduled = []
    widget = pn.widgets.Button()

    class Doc:
        session_context = object()

        def add_next_tick_callback(self, callback):
            scheduled.append(callback)
    monkeypatch.setattr(type(pn.state), "curdoc", property(lambda self: Doc()))
    server.async_execute(partial(widget._event_coroutine, None, None))
    assert len(scheduled) == 1 and not getattr(scheduled[0], "nolock", False)
    unmarked = partial(Syncable._event_coroutine.__wrapped__, widget, None, None)
    server.async_execute(unmarked)
    assert getattr(scheduled[1], "nolock", False)      # (what it did before: no lock)
