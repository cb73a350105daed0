"""The demo gallery: every classic ``GradientTape`` lesson as a page with its dashboard.

Each file ``demos/NN_slug.py`` runs as a plain script (the TensorFlow tutorial's output, then
tapeviz's explanations) and as a ``panel serve`` app; ``demos/index.py`` is the index page.
``tapeviz gallery`` (the README's ``./run.sh gallery``) serves them all, as::

    panel serve demos/[0-9]*.py demos/index.py --index index \\
        --static-dirs thumbnails=demos/thumbnails --address 127.0.0.1 --port 5006

run in a child process without the current folder on ``sys.path`` (:data:`PANEL_SERVE`).

What runs in a demo's session: :func:`.lesson.run_lesson` runs the lesson with events captured
and its printed output kept (or :class:`.lesson.LiveLesson` runs it in a thread while the page
follows it), then :func:`demo_page` lays out the text, the :class:`Dashboard` over the events, and the output.
This module reads events only; the demo passes the engine in.
"""
from __future__ import annotations

import argparse
import ast
import html
import inspect
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ...private_apis import escape_title_when_served
from .demo_runner import LiveLesson

DEMO_GLOB = "[0-9][0-9]_*.py"
HEADER_BACKGROUND = "#2b4a6f"


# ---- finding the demos -------------------------------------------------------------------------

def find_demos_dir(explicit: str | os.PathLike | None = None) -> Path:
    """``demos/`` next to the package in a checkout (or ``$TAPEVIZ_DEMOS``, or ``explicit``)."""
    if explicit is not None:
        if not (Path(explicit) / "index.py").is_file():
            raise FileNotFoundError(f"tapeviz gallery: {explicit} has no index.py: not a demos folder")
        return Path(explicit).resolve()
    candidates = [os.environ.get("TAPEVIZ_DEMOS"),
                  Path(__file__).resolve().parents[3] / "demos", Path.cwd() / "demos"]
    for c in candidates:
        if c and (Path(c) / "index.py").is_file():
            return Path(c).resolve()
    raise FileNotFoundError(
        "tapeviz gallery: cannot find the demos folder (demos/index.py). The demos ship with a "
        "checkout of tapeviz, not with the package: run from a clone, or pass --demos DIR "
        "(or set TAPEVIZ_DEMOS).")


def demo_files(demos_dir: Path) -> list[Path]:
    """The demo scripts, in order: ``NN_slug.py``."""
    return sorted(Path(demos_dir).glob(DEMO_GLOB))


def split_doc(doc: str | None) -> tuple[str, str]:
    """A demo docstring's title (first line) and body (the rest)."""
    lines = (doc or "").strip().splitlines()
    if not lines:
        return "", ""
    return lines[0].strip(), "\n".join(lines[1:]).strip()


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    for end in (". ", "! ", "? "):
        i = text.find(end)
        if i != -1:
            text = text[:i + 1]
            break
    return text


@dataclass(frozen=True)
class DemoInfo:
    stem: str
    number: str
    title: str
    summary: str
    path: Path


def demo_info(path: Path) -> DemoInfo:
    """Title and one-line summary from the demo's docstring, read without running the demo."""
    doc = ast.get_docstring(ast.parse(Path(path).read_text(encoding="utf-8")))
    title, body = split_doc(doc)
    return DemoInfo(stem=path.stem, number=path.stem.split("_", 1)[0],
                    title=title or path.stem, summary=first_sentence(body), path=Path(path))


# ---- pages ---------------------------------------------------------------------------------

PAGE_CSS = """
.tv-doc { font-size: 15px; line-height: 1.45; }
.tv-out pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px;
  padding: 10px 12px; font-size: 12.5px; max-height: 420px; overflow: auto; margin: 0; }
.tv-back a { text-decoration: none; font-weight: 600; }
"""


def _dashboard(events, title):
    """The dashboard over a list of events (opened on the lesson's first gradient call) or over
    a :class:`LiveLesson` (following the latest call while the lesson runs)."""
    live = isinstance(events, LiveLesson)
    try:
        from .. import Dashboard
    except Exception as exc:             # the dashboard is missing or broken: say so, clearly
        import panel as pn
        count = "" if live else f"; {len(events)} events were captured"
        return pn.pane.Alert(f"The dashboard is not available ({type(exc).__name__}: "
                             f"{html.escape(str(exc))}){count}.",
                             alert_type="warning", sizing_mode="stretch_width")
    if live:
        return Dashboard(events, title=title)
    from ..store.source import own_events
    dash = Dashboard(own_events(events), title=title)
    # Open on the lesson's first gradient call whose tape recorded something (the dashboard
    # follows the latest by default), so the graph matches the top of the text and the output.
    recorded = {t for e in events if e.kind == "op_recorded" for t in (e.tapes or ())}
    calls = [(e.call, e.tape) for e in events
             if e.kind == "gradient_started" and e.method != "explain"]
    first = next((c for c, t in calls if t in recorded), calls[0][0] if calls else None)
    if first is not None and hasattr(dash, "select_call"):
        dash.select_call(first)
    return dash


def demo_page(doc: str | None, events, output: str | None = None, code=None):
    """One demo's page: its title, its text (Markdown), the dashboard over ``events``, what the
    lesson printed, and its code (``code``: the lesson function, or source text). Returns a
    ``BootstrapTemplate`` (offline-clean) ready for ``.servable()``.

    ``events`` is a list of events (see :func:`run_lesson`) or a :class:`LiveLesson`, which is
    started once the page has loaded; its output then refreshes while it runs.
    """
    import panel as pn

    title, body = split_doc(doc)
    title = title or "tapeviz demo"
    live = events if isinstance(events, LiveLesson) else None
    if live is not None:
        output = live.output
        code = code if code is not None else live.lesson
    sidebar = [
        pn.pane.HTML('<div class="tv-back"><a href="./">&larr; All demos</a></div>',
                     stylesheets=[PAGE_CSS]),
        pn.pane.Markdown(body, css_classes=["tv-doc"], stylesheets=[PAGE_CSS],
                         sizing_mode="stretch_width"),
    ]
    if output is not None:
        printed = pn.pane.HTML(_pre(output, running=live is not None), css_classes=["tv-out"],
                               stylesheets=[PAGE_CSS], sizing_mode="stretch_width",
                               name="lesson_output")
        sidebar += [pn.pane.Markdown("**What the script prints** (as TensorFlow does)",
                                     sizing_mode="stretch_width"), printed]
    if live is not None:
        def refresh():
            if output is not None:
                printed.object = _pre(live.output, running=not live.ended)
            if live.ended and callback is not None:
                callback.stop()
        callback = None

        def start():
            nonlocal callback
            live.start()
            callback = pn.state.add_periodic_callback(refresh, period=500)
        pn.state.onload(start)
    main = [_dashboard(events, title)]
    if code is not None:
        text = code if isinstance(code, str) else inspect.getsource(code)
        main.append(pn.Card(pn.pane.Markdown(f"```python\n{text.rstrip()}\n```",
                                             sizing_mode="stretch_width", name="lesson_code"),
                            title="The lesson: TensorFlow code, run here with import tapeviz as tf",
                            collapsed=False, sizing_mode="stretch_width", margin=(20, 10)))
    page = pn.template.BootstrapTemplate(title=f"tapeviz gallery · {title}", sidebar=sidebar,
                                         main=main, sidebar_width=380,
                                         header_background=HEADER_BACKGROUND)
    return escape_title_when_served(page)     # a demo's title is its docstring's first line


def _pre(output: str, running: bool = False) -> str:
    text = html.escape(output.rstrip()) or ("(running…)" if running else "(nothing)")
    if running and output:
        text += "\n…"
    return f"<pre>{text}</pre>"


INDEX_CSS = """
.tv-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr));
  gap: 18px; }
.tv-card { display: block; border: 1px solid #d0d7de; border-radius: 8px; overflow: hidden;
  color: inherit; text-decoration: none; background: #fff; transition: box-shadow .15s; }
.tv-card:hover { box-shadow: 0 3px 12px rgba(0,0,0,.18); }
.tv-card img, .tv-card .tv-noimg { width: 100%; aspect-ratio: 16 / 10; object-fit: cover;
  object-position: top left; display: block; border-bottom: 1px solid #eaeef2; }
.tv-card .tv-noimg { background: #eef2f7; color: #2b4a6f; font-size: 40px; font-weight: 700;
  display: flex; align-items: center; justify-content: center; }
.tv-card .tv-text { padding: 10px 12px 12px; overflow-wrap: anywhere; }   /* long API names wrap */
.tv-card h3 { font-size: 15px; margin: 0 0 6px; line-height: 1.3; }
.tv-card h3 .tv-num { color: #6e7781; font-weight: 600; margin-right: 4px; }
.tv-card p { font-size: 13px; margin: 0; color: #424a53; line-height: 1.4; }
.tv-intro { font-size: 15px; }
.tv-intro code { background: #f6f8fa; padding: 1px 4px; border-radius: 4px; }
"""


def index_html(demos: list[DemoInfo], thumbnails: Path | None) -> str:
    cards = []
    for d in demos:
        if thumbnails is not None and (thumbnails / f"{d.stem}.png").is_file():
            img = (f'<img src="./thumbnails/{html.escape(d.stem)}.png" '
                   f'alt="{html.escape(d.title)}" loading="lazy">')
        else:
            img = f'<div class="tv-noimg">{html.escape(d.number)}</div>'
        cards.append(
            f'<a class="tv-card" href="./{html.escape(d.stem)}" data-demo="{html.escape(d.stem)}">'
            f'{img}<div class="tv-text"><h3><span class="tv-num">{html.escape(d.number)}</span>'
            f'{html.escape(d.title)}</h3><p>{html.escape(d.summary)}</p></div></a>')
    return f'<div class="tv-grid">{"".join(cards)}</div>'


INTRO = """\
Each page runs a classic `tf.GradientTape` lesson with `import tapeviz as tf` and shows it in
the dashboard: the op graph, the variables, the backward pass step by step, and why each
gradient is what it is (`None`, zero, NaN or a value). Every demo also runs as a plain script,
printing what TensorFlow prints, then tapeviz's explanations: `python demos/04_what_is_watched.py`.
"""


def index_page(demos_dir: str | os.PathLike | None = None):
    """The gallery's index: one card per demo (thumbnail, title, one-line summary) linking to
    ``./<stem>``."""
    import panel as pn

    from ...private_apis import skip_mathjax, skip_webgl
    skip_mathjax()
    skip_webgl()
    demos_dir = find_demos_dir(demos_dir)
    demos = [demo_info(p) for p in demo_files(demos_dir)]
    grid = pn.pane.HTML(index_html(demos, demos_dir / "thumbnails"), stylesheets=[INDEX_CSS],
                        sizing_mode="stretch_width", name="gallery_index")
    intro = pn.pane.Markdown(INTRO, css_classes=["tv-intro"], stylesheets=[INDEX_CSS],
                             sizing_mode="stretch_width")
    page = pn.template.BootstrapTemplate(title=f"tapeviz gallery · {len(demos)} demos",
                                         main=[intro, grid], header_background=HEADER_BACKGROUND)
    return escape_title_when_served(page)


# ---- serving -------------------------------------------------------------------------------

#: What ``tapeviz gallery``'s child process runs (``python -c``): Panel's ``serve`` command
#: without the current folder on ``sys.path`` (``python -m panel`` would put it there, and
#: then anything that imports a module by name could run a file of the folder the gallery
#: was started in; ``-P`` needs Python 3.11), with tapeviz loaded from where the parent has
#: it (argv[1]) and Panel's component route closed.
PANEL_SERVE = """\
import sys
if sys.path[:1] == ['']:
    del sys.path[0]
import importlib.util
package = sys.argv.pop(1)
spec = importlib.util.spec_from_file_location(
    'tapeviz', package + '/__init__.py', submodule_search_locations=[package])
sys.modules['tapeviz'] = module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from tapeviz.ui.gallery.gallery import run_panel_serve
run_panel_serve()
"""


def run_panel_serve() -> None:
    """Panel's ``serve`` command on ``sys.argv[1:]``, in this process, with Panel's component
    route closed first (:func:`.private_apis.close_component_route`)."""
    from panel.command import main as panel_main

    from ...private_apis import close_component_route
    close_component_route()
    sys.argv[0] = "panel"
    panel_main()


@dataclass
class GalleryCommand:
    """How ``tapeviz gallery`` starts ``panel serve``: its command line, what it adds to the
    environment (the token and session signing on a network address) and the URL to open."""
    argv: list
    env: dict
    url: str
    demos: int


def build_command(argv: list[str] | None = None) -> GalleryCommand:
    """The ``panel serve`` command that serves the gallery (see :func:`main`)."""
    from ..serve import access
    p = argparse.ArgumentParser(prog="tapeviz gallery",
                                description="Serve the demo gallery (every demo in demos/ with an "
                                            "index page) with `panel serve`.")
    p.add_argument("--port", type=int, default=5006, help="port (default 5006; 0: any free port)")
    p.add_argument("--address", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="HOST:PORT",
                   help="with a network --address: where browsers reach the gallery "
                        "(repeatable; required there; a token is printed in the URL)")
    p.add_argument("--show", action="store_true", help="open the index in a browser")
    p.add_argument("--demos", default=None, help="the demos folder (default: demos/ of the checkout)")
    args, extra = p.parse_known_args(argv)
    demos_dir = find_demos_dir(args.demos)
    files = [str(f) for f in demo_files(demos_dir)] + [str(demos_dir / "index.py")]
    port, env = args.port, {}
    url = f"http://{args.address}:{port}/" if port else f"{args.address} (a free port)"
    cmd = [sys.executable, "-c", PANEL_SERVE, str(Path(__file__).resolve().parents[2]),
           "serve", *files, "--index", "index",
           "--static-dirs", f"thumbnails={demos_dir / 'thumbnails'}", "--address", args.address]
    if not access.is_loopback(args.address):
        if not args.allow_origin:
            raise ValueError(f"tapeviz gallery: --address {args.address} makes the gallery "
                             "reachable from the network: name the address browsers will use "
                             "with --allow-origin HOST:PORT (repeatable)")
        if args.show:
            raise ValueError("tapeviz gallery: --show would open the gallery without its token "
                             "on a network address: leave it out and open the URL it prints")
        port = port or access.free_port(args.address)    # the origins name it
        origins = access.allowed_origins(args.allow_origin, port)
        token = access.new_token()
        from bokeh.util.token import generate_secret_key
        env = {access.TOKEN_VARIABLE: token, "BOKEH_SIGN_SESSIONS": "yes",
               "BOKEH_SECRET_KEY": generate_secret_key()}
        cmd += ["--auth-module", str(Path(__file__).parents[1] / "serve" / "token_auth.py")]
        for origin in origins + [f"127.0.0.1:{port}", f"localhost:{port}"]:
            cmd += ["--allow-websocket-origin", origin]
        url = f"http://{origins[0]}/?token={token}"
    cmd += ["--port", str(port)]
    if args.show:
        cmd.append("--show")
    return GalleryCommand(cmd + extra, env, url, len(files) - 1)


def main(argv: list[str] | None = None) -> int:
    """``tapeviz gallery [--port P] [--address A [--allow-origin H:P]] [--show]
    [panel serve options]``."""
    try:
        command = build_command(list(sys.argv[1:] if argv is None else argv))
    except (FileNotFoundError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        proc = subprocess.Popen(command.argv, env={**os.environ, **command.env})
    except KeyboardInterrupt:        # Ctrl-C while panel serve was being started
        return 130
    def forward(signum, frame):
        proc.send_signal(signum)

    previous = signal.signal(signal.SIGTERM, forward)
    try:
        # printed once panel serve runs: a Ctrl-C from here on (even one that lands while the
        # line is still being written) reaches it too, and is waited for
        print(f"tapeviz gallery: {command.demos} demos at {command.url} (panel serve; Ctrl-C "
              "stops it)", flush=True)
        return proc.wait()
    except KeyboardInterrupt:        # Ctrl-C reached panel too; let it shut down
        try:
            return proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            return proc.wait()
    finally:
        signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
