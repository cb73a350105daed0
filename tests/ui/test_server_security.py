"""What a web page, or a machine on the network, can make a tapeviz server do: the attacks of
docs/security.md, made for real against `tapeviz serve` and `tapeviz gallery` subprocesses.

* Panel's ``/components/<module>/...`` route imported ``<module>`` by the name in the URL: a
  marker module next to the server (in its working folder, and in the folder it serves) must
  never be imported by such a GET, also not from an ``<img>`` of a ``file://`` page.
* On a network address, a websocket asking for the document (PULL-DOC) with another origin
  or without the token must get no document; with the token and an allowed origin it does.
"""
from __future__ import annotations

import asyncio
import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import ROOT, Server, env_with_repo

MARKER = "open(__file__ + '.imported', 'w').write('imported')\n"


def plant_markers(*folders) -> list:
    """A module in each folder that leaves a file behind if anything imports it."""
    names = []
    for i, folder in enumerate(folders):
        folder.mkdir(parents=True, exist_ok=True)
        name = f"tv_marker_{i}"
        (folder / f"{name}.py").write_text(MARKER)
        names.append(name)
    return names


def imported(*folders) -> list:
    return sorted(p.name for f in folders for p in f.glob("*.imported"))


def component_get(url: str, module: str) -> int:
    try:
        with urllib.request.urlopen(f"{url}components/{module}/x/_css/a", timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as exc:
        return exc.code


# ---- no request imports a module ---------------------------------------------------------

@pytest.mark.parametrize("what", ["file", pytest.param("folder", marks=pytest.mark.slow)])
def test_serve_imports_no_module_a_request_names(recordings, tmp_path, what):
    cwd, served = tmp_path / "cwd", tmp_path / "runs"
    names = plant_markers(cwd, served)
    shutil.copy(recordings["main"], served / "run.tvz")
    target = served / "run.tvz" if what == "file" else served
    server = Server(["serve", str(target), "--port", "0"], cwd=cwd)
    try:
        codes = [component_get(server.url, n) for n in names]
    finally:
        server.stop()
    assert imported(cwd, served) == [], "a GET made the server import a module"
    assert codes == [404, 404]


def gallery_demos(folder: Path) -> Path:
    """A demos folder with one demo, whose index page notes the server's ``sys.path``."""
    folder.mkdir()
    shutil.copy(ROOT / "demos" / "01_square.py", folder)
    (folder / "thumbnails").mkdir()
    (folder / "index.py").write_text(
        "import pathlib, sys\n"
        "pathlib.Path(__file__).with_name('sys_path.txt').write_text('\\n'.join(sys.path))\n"
        + (ROOT / "demos" / "index.py").read_text())
    return folder


@pytest.mark.slow
def test_gallery_imports_no_module_a_request_names_and_leaves_its_folder_off_the_path(tmp_path):
    cwd = tmp_path / "cwd"
    demos = gallery_demos(tmp_path / "demos")
    names = plant_markers(cwd, demos)
    server = Server(["gallery", "--port", "0", "--liveness", "--demos", str(demos)], cwd=cwd,
                    start_timeout=90)
    try:
        codes = [component_get(server.url, n) for n in names]
        with urllib.request.urlopen(server.url, timeout=60) as r:     # runs index.py
            assert r.status == 200
    finally:
        server.stop()
    assert imported(cwd, demos) == [], "a GET made the gallery import a module"
    assert codes == [404, 404]
    path = (demos / "sys_path.txt").read_text().splitlines()
    assert "" not in path and str(cwd) not in path, path


@pytest.mark.slow
def test_panel_serve_of_the_app_module_with_warm_imports_no_module(recordings, tmp_path):
    """``panel serve tapeviz/ui/serve/app.py --warm``, as docs/security.md tells: run by ``python -m
    panel`` (the current folder on sys.path) to show that the route itself is closed."""
    cwd = tmp_path / "cwd"
    names = plant_markers(cwd)
    server = Server(["serve", str(ROOT / "tapeviz" / "ui" / "serve" / "app.py"), "--warm", "--liveness",
                     "--address", "127.0.0.1",
                     "--port", "0", "--args", str(recordings["main"])], cwd=cwd, module="panel",
                    url_pattern=r"(http://127\.0\.0\.1:\d+/)app")
    try:
        code = component_get(server.url, names[0])
    finally:
        server.stop()
    assert imported(cwd) == [], "a GET made panel serve import a module"
    assert code == 404


@pytest.mark.browser
def test_a_file_page_cannot_make_the_server_import_a_module(recordings, tmp_path, page):
    cwd = tmp_path / "cwd"
    names = plant_markers(cwd)
    server = Server(["serve", str(recordings["main"]), "--port", "0"], cwd=cwd)
    try:
        attack = tmp_path / "attack.html"
        attack.write_text("".join(f'<img src="{server.url}components/{n}/x/_css/a">'
                                  for n in names))
        page.goto(attack.as_uri())
        page.wait_for_function("() => Array.from(document.images).every(i => i.complete)")
        status = component_get(server.url, names[0])   # the images' requests were answered
    finally:
        server.stop()
    assert imported(cwd) == [], "an <img> on a file:// page made the server import a module"
    assert status == 404


# ---- a network address: origins and token ------------------------------------------------

def own_address() -> str:
    """This machine's first non-loopback IPv4 address."""
    out = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    found = [a for a in out if re.fullmatch(r"\d+\.\d+\.\d+\.\d+", a) and not a.startswith("127.")]
    assert found, "these tests need a non-loopback IPv4 address (hostname -I lists none)"
    return found[0]


def pull_doc(ws_url: str, session_token: str, origin: str | None = None,
             cookie: str | None = None) -> str:
    """The document a websocket client gets for ``session_token`` (Bokeh's PULL-DOC), or
    ``refused: ...``."""
    from bokeh.protocol import Protocol
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    async def run():
        headers = {k: v for k, v in (("Origin", origin), ("Cookie", cookie)) if v}
        try:
            ws = await websocket_connect(HTTPRequest(ws_url, headers=headers),
                                         subprotocols=["bokeh", session_token])
        except Exception as exc:
            return f"refused: {exc}"
        async def frames():
            while True:
                frame = await asyncio.wait_for(ws.read_message(), 60)
                if frame is None:
                    return
                yield frame
        received = frames()
        async for frame in received:       # the server's ACK first (as Bokeh's client waits)
            if isinstance(frame, str) and json.loads(frame).get("msgtype") == "ACK":
                break
        else:
            return "refused: closed before ACK"
        msg = Protocol().create("PULL-DOC-REQ")
        for part in (msg.header_json, msg.metadata_json, msg.content_json):
            await ws.write_message(part)
        async for frame in received:
            if isinstance(frame, str) and frame.startswith('{"doc"'):
                ws.close()
                return frame
        return "refused: closed"
    # in a thread of its own: Playwright's sync API keeps an event loop in this one
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def forged_token() -> str:
    """A session token anyone can make: unsigned, for a session id of their choice."""
    from bokeh.util.token import generate_jwt_token, generate_session_id
    return generate_jwt_token(generate_session_id(), signed=False)


def get(url: str, cookie: str | None = None):
    """(status, body, Set-Cookie) of a GET; redirects are followed."""
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode(), r.headers.get("Set-Cookie")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), None


def check_network_access(base: str, token: str, app: str, expect: str):
    """The attacker's requests against the server at ``base`` (``http://ip:port/``) serving
    ``app`` ('' or a name), then the user's with the token. ``expect``: a string of the
    document (a variable's name, a title)."""
    ws = base.replace("http://", "ws://") + (app + "/" if app else "") + "ws"
    evil = "http://evil.example"
    status, body, _ = get(base + app)
    assert status == 403 and expect not in body, (status, body[:300])
    for origin in (evil, None, base.rstrip("/")):
        answer = pull_doc(ws, forged_token(), origin=origin)
        assert answer.startswith("refused"), f"origin {origin}, no token: {answer[:200]}"
    status, body, cookie = get(f"{base}{app}?token={token}")
    assert status == 200 and cookie, (status, body[:300])
    cookie = cookie.split(";", 1)[0]
    session = re.search(r'"token":"([\w.-]+)"', body).group(1)
    assert pull_doc(ws, session, origin=evil, cookie=cookie).startswith("refused")
    assert pull_doc(ws, forged_token(), origin=base.rstrip("/"), cookie=cookie).startswith("refused")
    status, body, _ = get(base + app, cookie=cookie)            # the cookie alone will do now
    assert status == 200
    session = re.search(r'"token":"([\w.-]+)"', body).group(1)
    doc = pull_doc(ws, session, origin=base.rstrip("/"), cookie=cookie)
    assert doc.startswith('{"doc"') and expect in doc, doc[:200]


def network_server(args, ip, env=None) -> tuple:
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    server = Server([*args, "--address", "0.0.0.0", "--port", str(port), "--allow-origin",
                     f"{ip}:{port}"],
                    url_pattern=rf"(http://{re.escape(ip)}:{port}/)\?token=([\w-]+)",
                    start_timeout=90, env=env)
    return server, server.match.group(2)


@pytest.mark.slow
def test_serve_on_a_network_address_needs_the_token_and_an_allowed_origin(recordings):
    ip = own_address()
    server, token = network_server(["serve", str(recordings["main"])], ip)
    try:
        check_network_access(server.url, token, "", expect="main_prog.tvz")
    finally:
        server.stop()


@pytest.mark.slow
def test_gallery_on_a_network_address_needs_the_token_and_an_allowed_origin(tmp_path):
    ip = own_address()
    demos = gallery_demos(tmp_path / "demos")
    server, token = network_server(["gallery", "--liveness", "--demos", str(demos)], ip)
    try:
        check_network_access(server.url, token, "index", expect="tapeviz gallery")
    finally:
        server.stop()


@pytest.mark.parametrize("command", [pytest.param("serve", marks=pytest.mark.slow), "run",
                                     "gallery"])
def test_a_network_address_without_allowed_origins_is_refused(recordings, tmp_path, command):
    script = tmp_path / "script.py"
    script.write_text("open(__file__ + '.ran', 'w')\n")
    target = {"serve": [str(recordings["main"])], "run": [str(script)], "gallery": []}[command]
    out = subprocess.run([sys.executable, "-m", "tapeviz.cli", command, "--address", "0.0.0.0",
                          *target],
                         capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env=env_with_repo())
    assert out.returncode == 2, out.stdout + out.stderr
    assert "--allow-origin" in out.stderr and "serving" not in out.stdout, out.stderr
    assert not Path(f"{script}.ran").exists(), "tapeviz run started the script anyway"


@pytest.mark.slow
@pytest.mark.parametrize("origin", ["*", "http://*", "[fd00::2]:5006", "host:port"])
def test_an_allowed_origin_must_be_one_host_and_port(recordings, origin):
    out = subprocess.run([sys.executable, "-m", "tapeviz.cli", "serve", str(recordings["main"]),
                          "--address", "0.0.0.0", "--allow-origin", origin],
                         capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env=env_with_repo())
    assert out.returncode == 2, out.stdout + out.stderr
    assert "is not an origin" in out.stderr and "never *" in out.stderr, out.stderr


def test_show_on_a_network_address_opens_the_url_with_the_token(recordings, tmp_path):
    ip = own_address()
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
    env = env_with_repo(BROWSER=f"{sys.executable} {browser} %s")
    server, token = network_server(["serve", str(recordings["main"]), "--show"], ip, env=env)
    try:
        for _ in range(600):
            if opened.exists() and opened.read_text():
                break
            time.sleep(0.1)
    finally:
        server.stop()
    assert opened.read_text() == f"{server.url}?token={token}"


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "127.0.0.1", "localhost"])
def test_a_free_port_is_free_on_the_address_the_server_binds(address):
    from tapeviz.ui.serve.access import free_port
    port = free_port(address)
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as s:
        s.bind((address, port))
