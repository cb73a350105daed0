"""A spare session for ``tapeviz serve``: the first browser tab's page is built before it asks.

A page open waits for the server to build the tab's session (a :class:`Dashboard` and its
~250 Bokeh models in a document: 0.3 s on an idle 2-core VM, over 0.7 s on a busy one)
before the browser gets the page's HTML and starts loading BokehJS. The server does that work
while nobody waits: when it starts, it builds one session ahead (a request to itself), so the
first tab's HTML is answered in a few milliseconds and the session is ready when its
websocket connects. The spare is used once, by the next tab on the same path, and only if
the recording it shows has not changed since (``key``) and it is not older than ``max_age``.

Only at start-up: a spare built again once a page had loaded (tried) made the next tab open
0.2-0.3 s sooner, but the build holds the server's loop for 0.3-1 s just when the user
starts clicking (expanding a group took 0.64-0.73 s instead of 0.31-0.33 s), and a build
while a page loads holds up that page's scripts and document pull (Panel's
``reuse_sessions='warm'`` does that, and made a page open 0.3 s slower here).

The spare is made from the server's own request (its headers become the session's), which is
fine for tapeviz's pages: they read nothing from the request. Only ``tapeviz serve`` of a
finished recording installs it (a followed file or a folder's picker would show what was
there when the spare was built).

This wraps Panel's ``DocHandler.get_session`` (not public API, through
:func:`tapeviz.private_apis.wrap_get_session`); if that moves, :meth:`SpareSession.install` does
nothing and every tab builds its own session as before.
"""
from __future__ import annotations

import os
import secrets
import threading
import time
import urllib.error
import urllib.request

from ...private_apis import token_payload, wrap_get_session

SPARE_HEADER = "X-Tapeviz-Spare"


class SpareSession:
    """One session built ahead per path (see the module docstring)."""

    def __init__(self, key=lambda: None, max_age: float = 1800.0):
        self.key = key              # what the session shows; a spare of another key is dropped
        self.max_age = max_age      # seconds; the spare's token lives this much longer
        self.spares: dict = {}      # path -> (built at, key, session)
        self.building = set()
        self.loading = set()        # pages handed out whose browser has not loaded them yet
        self.built = self.used = self.dropped = 0
        self.secret = secrets.token_hex(16)

    # ---- Panel's hook ---------------------------------------------------------------------
    def install(self) -> bool:
        """Answer page requests through :meth:`_get_session` (False: Panel moved its hook)."""
        return wrap_get_session(self._get_session)

    async def _get_session(self, handler, original):
        request = handler.request
        path = request.path
        if request.headers.get(SPARE_HEADER) == self.secret:
            # the server's request to itself (only this process knows the secret): build the
            # spare now and answer with it (that page goes nowhere, nobody uses its token)
            if path not in self.spares and not self.loading:
                await self._build(handler.application, handler.application_context, request,
                                  token_payload(handler), path)
            hit = self.spares.get(path)
            if hit is None:     # a tab came first: it was built for that tab, no spare
                from tornado.web import HTTPError
                raise HTTPError(503)
            return hit[2]
        session, state = self._take(path) if not request.arguments else (None, "none")
        handler.set_header(SPARE_HEADER, state)     # used, dropped or none (tests read it)
        if session is None:
            session = await original(handler)
        try:
            self._when_ready(session, held=state == "used")
        except Exception:   # (no DocumentReady hook: let Bokeh expire the session as usual)
            if state == "used":
                session.unblock_expiration()
        return session

    # ---- the spare --------------------------------------------------------------------------
    def _take(self, path):
        hit = self.spares.pop(path, None)
        if hit is None:
            return None, "none"
        made, key, session = hit
        if session.destroyed or time.monotonic() - made > self.max_age or key != self.key():
            session.unblock_expiration()    # a normal unused session now: Bokeh drops it
            self.dropped += 1
            return None, "dropped"
        self.used += 1
        return session, "used"

    def _when_ready(self, session, held=False):
        """Count the page of ``session`` as loading until its ``DocumentReady`` event (or 20 s:
        a page closed first); a spare is not built meanwhile. A spare handed out (``held``)
        stays blocked from expiring until then: Bokeh's cleanup drops a session nobody is
        connected to that was made over 15 s ago, and a spare's browser connects only after
        it has loaded BokehJS."""
        from bokeh.events import DocumentReady
        from tornado.ioloop import IOLoop
        released = [not held]
        token = object()
        self.loading.add(token)

        def release(event=None):
            self.loading.discard(token)
            if not released[0]:
                released[0] = True
                session.unblock_expiration()
        session.document.on_event(DocumentReady, release)
        IOLoop.current().call_later(20.0, release)     # a page closed before it loaded

    async def _build(self, app, context, request, payload, path):
        if path in self.spares or path in self.building or self.loading:
            return      # (a page still loading: building now would hold up its scripts and
            #            its document pull)
        from bokeh.util.token import generate_jwt_token, generate_session_id
        self.building.add(path)
        try:
            key = self.key()
            session_id = generate_session_id(secret_key=app.secret_key, signed=app.sign_sessions)
            # the token must still have its usual lifetime when the spare is handed out
            token = generate_jwt_token(session_id, secret_key=app.secret_key,
                                       signed=app.sign_sessions, extra_payload=payload,
                                       expiration=app.session_token_expiration + int(self.max_age))
            session = await context.create_session_if_needed(session_id, request, token)
            session.block_expiration()      # Bokeh drops a session nobody connects to in 15 s
            self.spares[path] = (time.monotonic(), key, session)
            self.built += 1
        finally:
            self.building.discard(path)


def build_first(spare: SpareSession, url: str, timeout: float = 60.0) -> threading.Thread:
    """Ask the server at ``url`` (once it answers) to build its first spare, from a thread."""
    def run():
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                req = urllib.request.Request(url, headers={SPARE_HEADER: spare.secret})
                urllib.request.urlopen(req, timeout=timeout).read()
            except urllib.error.HTTPError:
                return          # a tab came first (503): no spare is needed any more
            except OSError:
                time.sleep(0.1)
                continue
            print("tapeviz: the first tab's page is built ahead", flush=True)
            return
    th = threading.Thread(target=run, name="tapeviz-spare", daemon=True)
    th.start()
    return th


def warm_first_session(path, host, port, compare=None) -> None:
    """Build the first tab's session of ``tapeviz serve`` at start-up; it is dropped if the file (or the one it is compared with) changed before a tab asks."""
    def key():
        try:
            return tuple((st.st_mtime_ns, st.st_size) for st in
                         (os.stat(p) for p in (path, compare) if p is not None))
        except OSError:
            return None

    spare = SpareSession(key=key)
    if spare.install():
        build_first(spare, f"http://{'[' + host + ']' if ':' in host else host}:{port}/")
