"""Make the gallery's thumbnails: serve the gallery, screenshot each demo, scale it down.

    .venv/bin/python demos/make_thumbnails.py             # every demo
    .venv/bin/python demos/make_thumbnails.py 04 09       # some demos

Writes ``demos/thumbnails/<stem>.png`` (400x250, palette PNG, under 40 KB each), which the index
page shows and which are committed. Needs Debian's chromium (headless, through Playwright).
Not a demo: `tapeviz gallery` serves only ``NN_*.py`` and ``index.py``.
"""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "thumbnails"
SIZE = (400, 250)            # 16:10, as the index's cards
VIEWPORT = {"width": 1440, "height": 900}
LIMIT = 40_000
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_GRAPH = ("() => { if (!(window.Bokeh && Bokeh.documents.length)) return false;"
              " const m = Bokeh.documents[0].get_model_by_name('nodes');"
              " return !!m && m.data.x.length > 0; }")


def serve():
    sys.path.insert(0, str(ROOT))
    from tapeviz.ui.gallery.gallery import build_command
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "TAPEVIZ_DEMO_EPOCHS": "4"}
    proc = subprocess.Popen(build_command(["--port", "0", "--liveness"]), cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found: list = []

    def read():
        for line in proc.stdout:
            if os.environ.get("TAPEVIZ_THUMBNAILS_LOG"):
                sys.stderr.write(line)
            m = re.search(r"Bokeh app running at: (http://127\.0\.0\.1:\d+/)", line)
            if m and not found:
                found.append(m.group(1))
    threading.Thread(target=read, daemon=True).start()
    end = time.time() + 90
    while not found and time.time() < end and proc.poll() is None:
        time.sleep(0.2)
    if not found:
        proc.kill()
        raise SystemExit("the gallery did not start")
    url = found[0]
    while time.time() < end:
        try:
            urllib.request.urlopen(url + "liveness", timeout=2)
            break
        except OSError:
            time.sleep(0.3)
    return proc, url


def shrink(png: bytes) -> bytes:
    """Scale to SIZE and quantize to a palette until the file is under LIMIT bytes."""
    from PIL import Image
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img = img.resize(SIZE, Image.LANCZOS)
    for colors in (128, 64, 32, 16):
        buf = io.BytesIO()
        img.quantize(colors=colors, method=Image.Quantize.MEDIANCUT).save(buf, "PNG", optimize=True)
        if buf.tell() < LIMIT:
            break
    return buf.getvalue()


def clip(page) -> dict:
    """A 16:10 region from the graph's top-left corner: the graph and the side tabs."""
    r = page.evaluate("""() => { const d = Bokeh.documents[0];
        const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
        const r = v.canvas_view.el.getBoundingClientRect();
        return [r.left, r.top, r.width, r.height]; }""")
    left, top = max(0, r[0] - 8), max(0, r[1] - 8)
    width = min(VIEWPORT["width"] - left, r[2] + 460)
    return {"x": left, "y": top, "width": width, "height": min(VIEWPORT["height"] - top, width / 1.6)}


def main(selected: list[str]) -> int:
    from playwright.sync_api import sync_playwright
    chromium = os.environ.get("TAPEVIZ_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("chromium not found (apt-get install chromium)")
    stems = [p.stem for p in sorted(HERE.glob("[0-9][0-9]_*.py"))
             if not selected or any(p.stem.startswith(s) for s in selected)]
    OUT.mkdir(exist_ok=True)
    proc, url = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page(viewport=VIEWPORT)
            for stem in stems:
                page.goto(url + stem)
                page.wait_for_function(WAIT_GRAPH, timeout=120_000)
                page.wait_for_timeout(1500)          # let the graph and the table settle
                data = shrink(page.screenshot(clip=clip(page)))
                (OUT / f"{stem}.png").write_bytes(data)
                print(f"{stem}.png: {len(data) // 1024} KB")
            browser.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
