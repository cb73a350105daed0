"""The token check of :mod:`tapeviz.ui.serve.access` as a Bokeh ``--auth-module``, for servers
started by Panel's or Bokeh's command line (``tapeviz gallery`` on a network address, or
``panel serve tapeviz/ui/serve/app.py`` run by hand)::

    TAPEVIZ_TOKEN=... BOKEH_SIGN_SESSIONS=yes BOKEH_SECRET_KEY=... \\
        panel serve ... --auth-module tapeviz/ui/serve/token_auth.py --allow-websocket-origin host:port

Bokeh loads this file by its path, as a module of its own: absolute imports only.
"""
import os

from tapeviz.ui.serve.access import LOGIN_URL, TOKEN_VARIABLE, TokenRequired, user_for

_TOKEN = os.environ.get(TOKEN_VARIABLE, "")
if len(_TOKEN) < 16:
    raise RuntimeError(f"tapeviz/ui/serve/token_auth.py: set ${TOKEN_VARIABLE} to a secret of 16 "
                       "characters or more (python -c 'import secrets; "
                       "print(secrets.token_urlsafe(24))')")

login_url = LOGIN_URL
LoginHandler = TokenRequired


def get_user(handler):
    return user_for(handler, _TOKEN)
