"""The two places where tapeviz's servers must reach into Panel's non-public API.

Each is a small patch with a test in tests/ui/test_compat.py that fails if a Panel upgrade
moves what it relies on.

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
"""
from __future__ import annotations

import html
import sys

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
