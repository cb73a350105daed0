"""Make docs/compare.png, the README's picture of the compare view.

    .venv/bin/python demos/make_compare_screenshot.py [-o docs/compare.png]

Records two runs of tests/diff_runs/mlp.py (the second with ``h = h * 2.0`` added), serves
``tapeviz serve base.tvz --compare extra.tvz``, selects the MatMul that reads the extra op in
headless chromium (through Playwright), and writes the top of the page, scaled to 1000 px
wide and reduced to a palette until it is under 150 KB. Not a demo: `tapeviz gallery` serves
only ``NN_*.py`` and ``index.py``.
"""
from __future__ import annotations

import argparse
import importlib.util
import io
import sys
import tempfile
from pathlib import Path

from headless_chromium import (ROOT, WAIT_GRAPH, env_with_repo, launch_chromium, palette_png,
                               start_server, stop_server)

VIEWPORT = {"width": 1400, "height": 900}
CROP_HEIGHT = 860            # the controls, the first divergence, the graph and the inspector
WIDTH = 1000
LIMIT = 150_000


def record(folder: Path):
    """base.tvz and extra.tvz: the two-layer network, and the same with one op added."""
    sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location("mlp", ROOT / "tests" / "diff_runs" / "mlp.py")
    mlp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mlp)
    mlp.train(str(folder / "base.tvz"))
    mlp.train(str(folder / "extra.tvz"), extra=True)


def serve(folder: Path):
    command = [sys.executable, "-m", "tapeviz.cli", "serve", "base.tvz", "--compare", "extra.tvz",
               "--port", "0"]
    return start_server(command, folder, env_with_repo(), r"(http://127\.0\.0\.1:\d+/)",
                        "tapeviz serve")


def screenshot(url: str) -> bytes:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = launch_chromium(p)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url)
        page.wait_for_function(WAIT_GRAPH, timeout=90_000)
        page.wait_for_timeout(1500)
        # the MatMul that reads the ghost: both values and their difference in the inspector
        xy = page.evaluate("""() => {
            const d = Bokeh.documents[0], src = d.get_model_by_name('nodes');
            const ghost = src.data.key.findIndex(k => k.startsWith('b'));
            let i = -1;
            for (let j = 0; j < src.data.key.length; j++)
                if (src.data.op[j] === 'MatMul' && src.data.y[j] < src.data.y[ghost]) { i = j; break; }
            const v = Bokeh.index.find_one_by_id(d.get_model_by_name('dag').id);
            const r = v.canvas_view.el.getBoundingClientRect();
            return [r.left + v.frame.x_scale.compute(src.data.x[i]),
                    r.top + v.frame.y_scale.compute(src.data.y[i])]; }""")
        page.mouse.click(*xy)
        page.locator(".tv-compare-node").first.wait_for(timeout=30_000)
        page.mouse.move(1, 1)
        page.wait_for_timeout(1000)
        png = page.screenshot()
        browser.close()
    return png


def shrink(png: bytes) -> bytes:
    """The top CROP_HEIGHT pixels, WIDTH wide, as a palette PNG under LIMIT bytes."""
    from PIL import Image
    img = Image.open(io.BytesIO(png)).convert("RGB")
    img = img.crop((0, 0, img.width, min(CROP_HEIGHT, img.height)))
    img = img.resize((WIDTH, round(img.height * WIDTH / img.width)), Image.LANCZOS)
    return palette_png(img, LIMIT)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-o", "--output", default=str(ROOT / "docs" / "compare.png"))
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tapeviz-compare-") as tmp:
        folder = Path(tmp)
        record(folder)
        proc, url = serve(folder)
        try:
            png = shrink(screenshot(url))
        finally:
            stop_server(proc)
    Path(args.output).write_bytes(png)
    print(f"wrote {args.output} ({len(png) / 1000:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
