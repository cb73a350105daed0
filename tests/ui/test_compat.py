"""The patches of tapeviz/ui/compat.py against the installed Panel: each test fails if an
upgrade moves what the patch relies on (then the patch must be redone, not dropped)."""
from __future__ import annotations

import html
import re
import sys
import warnings

import pytest

from tapeviz.ui import compat


def test_panel_still_serves_components_through_the_handler_compat_patches():
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
    compat.close_component_route()
    compat.close_component_route()                                 # (twice: wrapped once)
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
    compat.escape_header_title(doc)
    page = rendered()
    assert "<b id=x>" not in page
    assert re.search(r'class="title"[^>]*>(&nbsp;)?' + re.escape(html.escape(title)), page)
    assert doc.title == title                  # the tab's title: Panel escapes it itself
    assert "<title>&lt;b id=x&gt;" in page
