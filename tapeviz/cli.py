"""The ``tapeviz`` command.

    tapeviz serve run.tvz [--follow] [--port P] [--address A] [--show]
    tapeviz serve DIR                        a folder's recordings, with a picker
    tapeviz run script.py [args...]          record a script and follow it live
    tapeviz export run.tvz -o run.html       one self-contained HTML page
    tapeviz gallery [--port P] [--address A] the demo gallery

The server binds 127.0.0.1 unless ``--address`` says otherwise, and prints where it listens.
"""
from __future__ import annotations

import argparse
import gc
import os
import socket
import subprocess
import sys
import tempfile


def _free_port(address: str) -> int:
    with socket.socket() as s:
        s.bind((address if address not in ("", "0.0.0.0") else "127.0.0.1", 0))
        return s.getsockname()[1]


def serve(path, follow=False, port=5006, address="127.0.0.1", show=False, title=None,
          on_stop=None) -> None:
    """Serve the dashboard on ``path`` until interrupted (one fresh dashboard per session)."""
    import panel as pn
    from .ui.app import make_app

    path = os.path.abspath(path)
    if not follow and not os.path.exists(path):
        raise SystemExit(f"tapeviz: no such recording: {path}")
    if os.path.isdir(path) and follow:
        raise SystemExit("tapeviz: --follow takes a recording file, not a folder")
    if port == 0:
        port = _free_port(address)
    pn.extension("tabulator")
    host = address or "127.0.0.1"
    origins = [f"{h}:{port}" for h in {"127.0.0.1", "localhost", host}]
    if host in ("0.0.0.0", "::"):
        origins = ["*"]
    scope = ("only this machine can connect" if host in ("127.0.0.1", "localhost", "::1")
             else "REACHABLE FROM THE NETWORK")
    what = (f"the recordings in {path}{os.sep}" if os.path.isdir(path)
            else os.path.basename(path))
    print(f"tapeviz: serving {what} at http://{host}:{port}/ "
          f"(bound to {host}: {scope}{'; use --address to expose it' if 'only' in scope else ''})",
          flush=True)
    if not follow:
        # parse the recording, import the UI stack and lay out the graph now, not while the
        # first browser tab waits (the parsed events and layouts are cached per process)
        make_app(path, follow, title)
    # What is loaded now (the UI stack, a parsed recording) stays for the server's life: take
    # it out of the cyclic collector's scans, or a full collection walks it all at a random
    # moment (pauses of 0.1-0.3 s in the middle of a click on a 5,000-op recording).
    gc.collect()
    gc.freeze()
    if not follow and not os.path.isdir(path):
        _spare_sessions(path, host, port)
    try:
        pn.serve(lambda: make_app(path, follow, title), port=port, address=host, show=show,
                 title=title or "tapeviz", websocket_origin=origins, verbose=False,
                 liveness=True, threaded=False)
    except KeyboardInterrupt:
        pass
    finally:
        if on_stop:
            on_stop()


def _spare_sessions(path, host, port) -> None:
    """Build the first tab's session at start-up (:mod:`tapeviz.ui.spare`); it is dropped
    if the file changed before a tab asks."""
    from .ui.spare import SpareSession, build_first

    def key():
        try:
            st = os.stat(path)
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size

    spare = SpareSession(key=key)
    if spare.install():
        local = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host
        build_first(spare, f"http://{'[' + local + ']' if ':' in local else local}:{port}/")


def _cmd_serve(args):
    serve(args.recording, follow=args.follow, port=args.port, address=args.address, show=args.show)


def _cmd_run(args):
    fd, path = tempfile.mkstemp(prefix="tapeviz-", suffix=".tvz")
    os.close(fd)
    os.unlink(path)     # the recorder creates it; the follower waits for it
    env = dict(os.environ, TAPEVIZ_RECORD=path)
    env.pop("_TAPEVIZ_RECORD_PID", None)
    proc = subprocess.Popen([sys.executable, args.script, *args.args], env=env)
    print(f"tapeviz: running {args.script} (pid {proc.pid}), recording to {path}", flush=True)

    def stop():
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()

    serve(path, follow=True, port=args.port, address=args.address, show=args.show,
          title=f"tapeviz · {os.path.basename(args.script)}", on_stop=stop)


def _cmd_export(args):
    from .ui.export import export
    out = export(args.recording, args.output, title=args.title)
    print(f"tapeviz: wrote {out}")


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "gallery":
        from .ui import gallery
        return gallery.main(argv[1:]) or 0
    p = argparse.ArgumentParser(prog="tapeviz", description="tapeviz: record, serve and share "
                                "GradientTape runs")
    sub = p.add_subparsers(dest="command", required=True)

    def net(sp):
        sp.add_argument("--port", type=int, default=5006, help="port (0: any free port)")
        sp.add_argument("--address", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
        sp.add_argument("--show", action="store_true", help="open a browser")

    sp = sub.add_parser("serve", help="serve the dashboard on a recording (or a folder of them)")
    sp.add_argument("recording", help="a .tvz file, or a folder: a picker lists its .tvz files")
    sp.add_argument("--follow", action="store_true", help="follow the file while it grows")
    net(sp)
    sp.set_defaults(fn=_cmd_serve)
    sp = sub.add_parser("run", help="run a script with recording on and follow it live")
    sp.add_argument("script")
    sp.add_argument("args", nargs=argparse.REMAINDER)
    net(sp)
    sp.set_defaults(fn=_cmd_run)
    sp = sub.add_parser("export", help="write one self-contained HTML page")
    sp.add_argument("recording")
    sp.add_argument("-o", "--output", default=None)
    sp.add_argument("--title", default=None)
    sp.set_defaults(fn=_cmd_export)
    sub.add_parser("gallery", help="serve the demo gallery")
    args = p.parse_args(argv)
    args.fn(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
