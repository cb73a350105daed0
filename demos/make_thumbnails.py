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
import sys
from pathlib import Path

from headless_chromium import (ROOT, WAIT_GRAPH, env_with_repo, launch_chromium, palette_png,
                               start_server, stop_server)

HERE = Path(__file__).resolve().parent
OUT = HERE / "thumbnails"
SIZE = (400, 250)            # 16:10, as the index's cards
VIEWPORT = {"width": 1440, "height": 900}
LIMIT = 40_000


def serve():
    sys.path.insert(0, str(ROOT))
    from tapeviz.ui.gallery.gallery import build_command
    command = build_command(["--port", "0", "--liveness"])
    return start_server(command.argv, ROOT,
                        env_with_repo(TAPEVIZ_DEMO_EPOCHS="4", **command.env),
                        r"Bokeh app running at: (http://127\.0\.0\.1:\d+/)", "the gallery",
                        echo=bool(os.environ.get("TAPEVIZ_THUMBNAILS_LOG")))


def shrink(png: bytes) -> bytes:
    """Scale to SIZE and quantize to a palette until the file is under LIMIT bytes."""
    from PIL import Image
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img = img.resize(SIZE, Image.LANCZOS)
    return palette_png(img, LIMIT, colors=(128, 64, 32, 16))


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
    stems = [p.stem for p in sorted(HERE.glob("[0-9][0-9]_*.py"))
             if not selected or any(p.stem.startswith(s) for s in selected)]
    OUT.mkdir(exist_ok=True)
    proc, url = serve()
    try:
        with sync_playwright() as p:
            browser = launch_chromium(p)
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
        stop_server(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
