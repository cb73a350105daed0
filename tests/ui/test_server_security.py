"""What a web page can make a tapeviz server do: the attack, made for real against
`tapeviz serve`, `tapeviz gallery` and `panel serve` subprocesses.

* Panel's ``/components/<module>/...`` route imported ``<module>`` by the name in the URL: a
  marker module next to the server (in its working folder, and in the folder it serves) must
  never be imported by such a GET, also not from an ``<img>`` of a ``file://`` page.
"""
from __future__ import annotations

import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import ROOT, Server

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

@pytest.mark.parametrize("what", ["file", "folder"])
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


def test_panel_serve_of_the_app_module_with_warm_imports_no_module(recordings, tmp_path):
    """``panel serve tapeviz/ui/app.py --warm``, as docs/security.md tells: run by ``python -m
    panel`` (the current folder on sys.path) to show that the route itself is closed."""
    cwd = tmp_path / "cwd"
    names = plant_markers(cwd)
    server = Server(["serve", str(ROOT / "tapeviz" / "ui" / "app.py"), "--warm", "--liveness",
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
