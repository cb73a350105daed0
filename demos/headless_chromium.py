"""What the picture makers (make_thumbnails.py, make_compare_screenshot.py) share: a tapeviz
server in a subprocess, headless chromium through Playwright, and palette PNGs under a size.
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

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_GRAPH = ("() => { if (!(window.Bokeh && Bokeh.documents.length)) return false;"
              " const m = Bokeh.documents[0].get_model_by_name('nodes');"
              " return !!m && m.data.x.length > 0; }")


def env_with_repo(**extra) -> dict:
    """This environment with the checkout importable, so the server runs this tapeviz."""
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            **extra}


def start_server(command, cwd, env, url_pattern, what, echo=False):
    """Run ``command`` and wait (90 s at most) until it prints a URL matching ``url_pattern``
    (its group 1) and that URL's ``liveness`` answers. Returns ``(process, url)``; exits
    saying ``what`` did not start otherwise. ``echo`` copies the server's output to stderr."""
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    found: list = []

    def read():
        for line in proc.stdout:
            if echo:
                sys.stderr.write(line)
            m = re.search(url_pattern, line)
            if m and not found:
                found.append(m.group(1))
    threading.Thread(target=read, daemon=True).start()
    end = time.time() + 90
    while not found and time.time() < end and proc.poll() is None:
        time.sleep(0.2)
    if not found:
        proc.kill()
        raise SystemExit(f"{what} did not start")
    while time.time() < end:
        try:
            urllib.request.urlopen(found[0] + "liveness", timeout=2)
            break
        except OSError:
            time.sleep(0.3)
    return proc, found[0]


def stop_server(proc):
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


def launch_chromium(playwright):
    """Headless chromium ($TAPEVIZ_CHROMIUM, else the one on PATH) from a Playwright handle."""
    chromium = os.environ.get("TAPEVIZ_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        raise SystemExit("chromium not found (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=chromium, args=ARGS)


def palette_png(img, limit, colors=(128, 64, 32)) -> bytes:
    """``img`` (a PIL image) as a palette PNG with the most of ``colors`` that fits in
    ``limit`` bytes (the fewest when none does)."""
    from PIL import Image
    for count in colors:
        buf = io.BytesIO()
        img.quantize(colors=count, method=Image.Quantize.MEDIANCUT).save(buf, "PNG", optimize=True)
        if buf.tell() < limit:
            break
    return buf.getvalue()
