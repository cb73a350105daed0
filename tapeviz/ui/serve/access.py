"""Who may use a tapeviz server: the rules for one that listens beyond this machine.

On a loopback address (127.0.0.1, ::1, localhost: the default) only programs of this machine
can connect, and nothing here applies. Any other ``--address`` needs

* the origins browsers will use, named by the user (``--allow-origin host:port``): the
  websocket refuses pages from anywhere else (never ``*``);
* a token, printed in the URL as Jupyter does (``http://host:port/?token=...``): a request
  without it (in the URL once, then in a cookie the server sets) is not answered;
* signed Bokeh sessions (``sign_sessions`` with a random secret key): a websocket can only
  open a session whose id the server handed out in a page, so no client can ask for a
  document without having passed the token check.

All three are Bokeh's public server options; :class:`TokenAuth` is a Bokeh ``AuthProvider``.
For ``panel serve`` and ``bokeh serve``, tapeviz/ui/serve/token_auth.py is the same check as an
``--auth-module`` that reads the token from ``$TAPEVIZ_TOKEN``.
"""
from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

from bokeh.server.auth_provider import AuthProvider
from tornado.web import RequestHandler
from tornado.websocket import WebSocketHandler

TOKEN_VARIABLE = "TAPEVIZ_TOKEN"
LOGIN_URL = "/token-required"


def is_loopback(address: str) -> bool:
    """Whether binding ``address`` keeps the server to this machine."""
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:          # a host name: it may resolve to anything
        return False


def free_port(address: str) -> int:
    """A port that is free on ``address`` now (for ``--port 0`` where the port must be known
    before the server starts)."""
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as s:
        s.bind((address or "127.0.0.1", 0))
        return s.getsockname()[1]


def allowed_origins(given, port: int) -> list:
    """The ``host:port`` origins of ``--allow-origin`` values (``host`` alone means this
    server's port; a URL is cut to its host and port). ValueError for ``*``, an IPv6
    address (Bokeh's origin list cannot hold one) or anything that is not an origin."""
    origins = []
    for value in given:
        text = value.strip()
        if "://" in text:
            text = urlsplit(text).netloc
        host, _, number = text.partition(":")
        if (not host or any(c in text for c in "*/@[] ") or ":" in number
                or (number and not number.isdigit())):
            raise ValueError(f"--allow-origin {value!r} is not an origin: give the host:port "
                             "that browsers will use for this server (a host name or IPv4 "
                             f"address), e.g. --allow-origin myhost.example:{port} (never *)")
        origins.append(f"{host}:{number or port}")
    return origins


def new_token() -> str:
    return secrets.token_urlsafe(24)


def cookie_name(token: str) -> str:
    """One cookie per server (cookies do not tell ports apart): named after a hash of its
    token."""
    return "tapeviz-" + hashlib.sha256(token.encode()).hexdigest()[:12]


def _same(given, token: str) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode(), token.encode())


def user_for(handler: RequestHandler, token: str):
    """The user Bokeh's handlers ask for: ``"tapeviz"`` when the request carries the token
    (``?token=`` in its URL, or the cookie set when it did), else None (refused)."""
    cookie = cookie_name(token)
    if _same(handler.get_query_argument("token", None), token):
        if not isinstance(handler, WebSocketHandler):
            handler.set_cookie(cookie, token, httponly=True, samesite="Strict")
        return "tapeviz"
    if _same(handler.get_cookie(cookie), token):
        return "tapeviz"
    return None


class TokenRequired(RequestHandler):
    """Where a request without the token is sent: 403 and how to get in."""

    def get(self):
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish("This tapeviz server needs its token: open the URL with ?token=... that "
                    "tapeviz printed when it started.\n")


class TokenAuth(AuthProvider):
    """Bokeh's authentication hook: every page, document and websocket request must carry
    ``token`` (see :func:`user_for`)."""

    def __init__(self, token: str):
        self.token = token
        super().__init__()

    @property
    def get_user(self):
        return lambda handler: user_for(handler, self.token)

    @property
    def login_url(self):
        return LOGIN_URL

    @property
    def login_handler(self):
        return TokenRequired


def network_options(token: str) -> dict:
    """The server options (``pn.serve``'s, passed on to Bokeh's server) of a server that
    listens beyond this machine: the token check, and sessions signed with a new secret."""
    from bokeh.util.token import generate_secret_key
    return {"auth_provider": TokenAuth(token), "sign_sessions": True,
            "secret_key": generate_secret_key(), "generate_session_ids": True}
