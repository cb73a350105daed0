"""The patch of tapeviz/ui/compat.py against the installed Panel: each test fails if an
upgrade moves what the patch relies on (then the patch must be redone, not dropped)."""
from __future__ import annotations

import sys

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

