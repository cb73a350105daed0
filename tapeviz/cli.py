"""The ``tapeviz`` command.

    tapeviz serve run.tvz [--follow] [--port P] [--address A [--allow-origin H:P]] [--show]
    tapeviz serve DIR                        a folder's recordings, with a picker
    tapeviz serve a.tvz --compare b.tvz [--tape-a N --tape-b M | --call-a N --call-b M]
                                             one graph coloured by where two runs differ
    tapeviz run [-o run.tvz] script.py [args...]
                                             record a script and follow it live
    tapeviz export run.tvz -o run.html       one self-contained HTML page (or: run.tvz run.html)
    (serve, run and export take --keep-tapes N: the tapes a view holds, 50 by default)
    tapeviz gallery [--port P] [--address A] the demo gallery
    tapeviz diff a.tvz b.tvz [--tape-a N --tape-b M | --call-a N --call-b M] [--rtol R --atol A]
                                             where two runs first differ (exit 0 same, 1 differ)

The server binds 127.0.0.1 unless ``--address`` says otherwise, and prints where it listens.
Any other address needs ``--allow-origin`` and prints a URL with a token (docs/security.md).
A bad input (no such file, not a recording) is one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import gc
import os
import signal
import subprocess
import sys
import tempfile


#: How to make a recording, for the messages that refuse a file that is not one.
HOW_TO_RECORD = ("record one with TAPEVIZ_RECORD=run.tvz python script.py, "
                 "or tapeviz run script.py")


def _fail(message: str):
    """A one-line error on stderr and exit status 2 (as argparse does for a bad argument)."""
    print(message, file=sys.stderr, flush=True)
    raise SystemExit(2)


def _check_recording(path, what: str = "open", follow: bool = False,
                     fix: str = HOW_TO_RECORD) -> None:
    """Exit with a one-line error unless ``path`` is a recording this tapeviz can read. Reads
    the header line only. With ``follow``, a file that does not exist yet, is empty, or holds
    the start of a first line that may still become a header is accepted (the follower waits
    for it, as it always did); only a first line that cannot be a header is refused."""
    from .recording.reader import RecordingError, check_followable, read_header
    try:
        (check_followable if follow else read_header)(path)
    except RecordingError as exc:
        if what == "serve" and os.path.isfile(path) and os.path.getsize(path) == 0:
            # a producer that has not written its header yet: following waits for it
            fix = f"if a script is still starting to record it, add --follow to wait; {fix}"
        _fail(f"tapeviz {what}: {exc}" + ("" if "Fix:" in str(exc) else f"; {fix}"))
    except IsADirectoryError:
        _fail(f"tapeviz: cannot {what} {path}: it is a folder; give one .tvz recording file")
    except FileNotFoundError:
        _fail(f"tapeviz: no such recording: {path}; {HOW_TO_RECORD}")
    except OSError as exc:
        _fail(f"tapeviz: cannot {what} {path}: {exc.strerror or exc}")


def _require_origins(host: str, allow_origins) -> bool:
    """Whether ``host`` is a loopback address; exits with a one-line error for a network
    address without ``--allow-origin``."""
    from .ui.serve.access import is_loopback
    if is_loopback(host):
        return True
    if not allow_origins:
        _fail(f"tapeviz: --address {host} makes the dashboard reachable from the network: "
              "name the address browsers will use with --allow-origin HOST:PORT (repeatable); "
              "or keep the default 127.0.0.1 and share through an SSH tunnel or tapeviz export")
    return False


def serve(path, follow=False, port=5006, address="127.0.0.1", show=False, title=None,
          on_stop=None, allow_origins=(), compare=None, compare_options=None,
          keep_tapes=None) -> None:
    """Serve the dashboard on ``path`` until interrupted (one fresh dashboard per session,
    each store keeping ``keep_tapes`` tapes, by default ``limits.KEEP_TAPES``). A non-loopback ``address`` needs ``allow_origins`` (``host:port`` of the pages that may
    connect) and gets a token (:mod:`tapeviz.ui.serve.access`). ``compare``: another
    recording, shown against ``path`` (``compare_options`` as :func:`tapeviz.diff` takes
    them)."""
    import panel as pn
    from .ui.serve import access
    from .ui.serve.app import make_app
    from .ui.serve.stop_request import StopRequest
    from .ui.serve.warm_session import warm_first_session
    from .private_apis import close_component_route

    if not follow and not os.path.exists(path):
        _fail(f"tapeviz: no such recording: {os.path.abspath(path)}")
    if os.path.isdir(path) and follow:
        _fail("tapeviz: --follow takes a recording file, not a folder")
    if not os.path.isdir(path):
        _check_recording(path, "serve", follow=follow)   # the header line only, before serving
    path = os.path.abspath(path)
    if compare is not None:
        compare = _compared(path, compare, follow, compare_options or {})
    host = address or "127.0.0.1"
    local = _require_origins(host, allow_origins)
    if port == 0:
        port = access.free_port(host)
    try:
        origins = access.allowed_origins(allow_origins, port)
    except ValueError as exc:
        _fail(f"tapeviz: {exc}")
    pn.extension("tabulator")
    close_component_route()
    options, url = {}, f"http://{host}:{port}/"
    origins = list(dict.fromkeys(origins + [f"{h}:{port}" for h in ("127.0.0.1", "localhost", host)
                                            if access.is_loopback(h) and ":" not in h]))
    if not local:
        token = access.new_token()
        options = access.network_options(token)
        url = f"http://{origins[0]}/?token={token}"
        scope = (f"REACHABLE FROM THE NETWORK; pages from {', '.join(origins)} only, "
                 "with the token")
    else:
        scope = "only this machine can connect; use --address to expose it"
    what = (f"the recordings in {path}{os.sep}" if os.path.isdir(path)
            else os.path.basename(path))
    if compare is not None:
        what += f" compared with {os.path.basename(compare)}"
    stop = StopRequest()
    # installed before "serving" is printed: whoever reads that line can stop the server with
    # a Ctrl-C, also when this process was started with SIGINT ignored (a background job of
    # a script), which Python would otherwise keep
    previous = stop.install()
    try:
        if not follow:
            # parse the recording, import the UI stack and lay out the graph now, not while
            # the first browser tab waits (the parsed events and layouts are cached per
            # process); a Ctrl-C meanwhile raises KeyboardInterrupt at once
            with stop.interrupting():
                make_app(path, follow, title, compare, compare_options, keep_tapes)
        # What is loaded now (the UI stack, a parsed recording) stays for the server's life:
        # take it out of the cyclic collector's scans, or a full collection walks it all at a
        # random moment (pauses of 0.1-0.3 s in the middle of a click on a 5,000-op recording).
        gc.collect()
        gc.freeze()
        if local and not follow and not os.path.isdir(path) and not stop.requested:
            warm_first_session(path, host, port, compare)
        server = pn.serve(lambda: make_app(path, follow, title, compare, compare_options, keep_tapes),
                          port=port, address=host,
                          show=show and local, title=title or "tapeviz",
                          websocket_origin=origins,
                          verbose=False, liveness=True, threaded=False, start=False,
                          **options)
        stop.install()                  # Panel put in its own; ours also knows of a Ctrl-C
        stop.loop = server.io_loop      # that came before the loop ran
        # printed once the server's socket is bound and listening (pn.serve binds it): a
        # browser opened on this line connects at once, where the line used to come seconds
        # before the port accepted while the recording was loaded
        print(f"tapeviz: serving {what} at {url} (bound to {host}: {scope})", flush=True)
        if show and not local:      # Panel's --show would open the page without the token
            import webbrowser
            server.io_loop.add_callback(webbrowser.open, url)
        if not stop.requested:
            server.start()
            server.io_loop.start()
    except KeyboardInterrupt:           # a Ctrl-C while the recording was being loaded
        pass
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
        if on_stop:
            on_stop()


def _compared(path, other, follow, options) -> str:
    """``other`` as a full path, once the two recordings compare (read and diffed now, and
    kept for the sessions); else a one-line error and exit status 2."""
    from .recording.reader import RecordingError
    if follow:
        _fail("tapeviz: --compare takes two finished recordings, not --follow")
    if os.path.isdir(path) or os.path.isdir(other):
        _fail("tapeviz: --compare takes two recording files; in a folder's view, pick one "
              "and choose the other under \"Compare with\"")
    _check_recording(other, "serve --compare")
    other = os.path.abspath(other)
    from .ui.store.compare_store import comparison_for
    try:
        comparison_for(path, other, **options)
    except (RecordingError, ValueError) as exc:
        _fail(f"tapeviz serve --compare: {exc}")
    except OSError as exc:
        _fail(f"tapeviz serve --compare: {exc.filename or ''}: {exc.strerror or exc}")
    return other


def _cmd_serve(args):
    options = {k: getattr(args, k) for k in ("tape_a", "tape_b", "call_a", "call_b", "rtol",
                                             "atol")}
    if args.compare is None and any(options[k] is not None for k in options
                                    if k not in ("rtol", "atol")):
        _fail("tapeviz serve: --tape-a, --tape-b, --call-a and --call-b go with --compare")
    serve(args.recording, follow=args.follow, port=args.port, address=args.address, show=args.show,
          allow_origins=args.allow_origin, compare=args.compare, compare_options=options,
          keep_tapes=_keep_tapes(args))


def _keep_tapes(args):
    """``--keep-tapes N`` checked: N, passed to every store the command makes (None: the
    default, ``limits.KEEP_TAPES``)."""
    if args.keep_tapes is not None and args.keep_tapes < 1:
        _fail(f"tapeviz: --keep-tapes must be at least 1, not {args.keep_tapes}")
    return args.keep_tapes


def _cmd_run(args):
    if not os.path.exists(args.script):
        _fail(f"tapeviz: no such script: {args.script}")
    keep_tapes = _keep_tapes(args)
    keep, path = bool(args.output), None
    if keep:
        path = os.path.abspath(args.output)
        if os.path.isdir(path):
            _fail(f"tapeviz: -o {args.output} is a folder; give a file name, e.g. -o run.tvz")
        if os.path.exists(path) and os.path.getsize(path) > 0:
            # the recorder truncates it: only ever replace a recording, never another file
            _check_recording(path, "run -o", fix="-o replaces only a recording: give "
                                                  "another file name")
    _require_origins(args.address, args.allow_origin)
    proc = None

    def stop():
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    # SIGTERM (kill, a service manager) and SIGHUP (the terminal closed) stop tapeviz run as
    # Ctrl-C does: the script is stopped and the temporary recording deleted. A signal that
    # is ignored (nohup) stays ignored.
    def terminate(signum, frame):
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler) and handler is not signal.default_int_handler:
            handler(signum, frame)      # the server's own Ctrl-C handler: a clean stop
        else:
            raise KeyboardInterrupt
    previous = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) == signal.SIG_DFL:
            previous[sig] = signal.signal(sig, terminate)
    try:
        if keep:
            if os.path.exists(path):
                os.unlink(path)     # a recording it replaces: the follower must not read it
            where = f"recording to {path} (kept)"
        else:
            # created here (no one else can take the name); the recorder writes into it
            fd, path = tempfile.mkstemp(prefix="tapeviz-", suffix=".tvz")
            os.close(fd)
            where = (f"recording to {path} (a temporary file, deleted when tapeviz exits; "
                     "-o FILE keeps the recording)")
        env = dict(os.environ, TAPEVIZ_RECORD=path)
        env.pop("_TAPEVIZ_RECORD_PID", None)
        if args.full:       # every event of every call, not the flight policy's choice
            env["TAPEVIZ_RECORD_FULL"] = "1"
        proc = subprocess.Popen([sys.executable, args.script, *args.args], env=env)
        print(f"tapeviz: running {args.script} (pid {proc.pid}), {where}", flush=True)
        serve(path, follow=True, port=args.port, address=args.address, show=args.show,
              title=f"tapeviz · {os.path.basename(args.script)}", on_stop=stop,
              allow_origins=args.allow_origin, keep_tapes=keep_tapes)
    except KeyboardInterrupt:
        pass
    finally:
        stop()
        if not keep and path is not None:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
            else:
                print(f"tapeviz: deleted the temporary recording {path}", flush=True)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _cmd_export(args):
    from .recording.reader import RecordingError
    from .ui.export import TapesNotDrawn, export
    if args.page and args.output and args.page != args.output:
        _fail(f"tapeviz: export writes one page: got {args.page} and -o {args.output}")
    _check_recording(args.recording, "export")      # the header line: a one-line error
    keep = _keep_tapes(args)
    try:
        out = export(args.recording, args.output or args.page, title=args.title, keep_tapes=keep)
    except (RecordingError, TapesNotDrawn) as exc:
        _fail(f"tapeviz: cannot export {args.recording}: {exc}")
    except OSError as exc:
        name = exc.filename if exc.filename is not None else args.recording
        _fail(f"tapeviz: cannot export {args.recording}: {name}: {exc.strerror or exc}")
    print(f"tapeviz: wrote {out}")


def _cmd_diff(args) -> int:
    """Print the report; 0 when the runs agree, 1 when they differ, 2 on an error (as diff)."""
    from .recording.reader import RecordingError
    from .rundiff import diff
    for path in (args.a, args.b):
        _check_recording(path, "diff")      # the header line: a one-line error
    try:
        result = diff(args.a, args.b, tape_a=args.tape_a, tape_b=args.tape_b,
                      call_a=args.call_a, call_b=args.call_b, rtol=args.rtol, atol=args.atol)
    except (RecordingError, ValueError) as exc:
        _fail(f"tapeviz diff: {exc}")
    except OSError as exc:
        _fail(f"tapeviz diff: {exc.filename or ''}: {exc.strerror or exc}")
    except Exception as exc:      # a recording no reader check caught: 2, never 1 ("differ")
        _fail(f"tapeviz diff: cannot compare {args.a} and {args.b}: "
              f"{type(exc).__name__}: {str(exc)[:200]}")
    try:
        print(result, flush=True)
    except BrokenPipeError:      # `tapeviz diff a b | head`: the status still tells
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 1 if result.differ else 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "gallery":
        from .ui.gallery import gallery
        return gallery.main(argv[1:]) or 0
    p = argparse.ArgumentParser(prog="tapeviz", description="record, serve and share tape runs")
    sub = p.add_subparsers(dest="command", required=True)

    def net(sp):
        sp.add_argument("--port", type=int, default=5006, help="port (0: any free port)")
        sp.add_argument("--address", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
        sp.add_argument("--allow-origin", action="append", default=[], metavar="HOST:PORT",
                        help="with a network --address: where browsers reach this server "
                             "(repeatable; required there; a token is printed in the URL)")
        sp.add_argument("--show", action="store_true", help="open a browser")

    def keep(sp):
        sp.add_argument("--keep-tapes", type=int, default=None, metavar="N",
                        help="tapes the view holds (default 50): those that tell the run's "
                             "story (NaN/Inf began, a verdict changed, the first calls, "
                             "jumps, their lead-up) first, then the newest")

    def diff_options(sp):
        for side in "ab":
            sp.add_argument(f"--tape-{side}", type=int, default=None, metavar="N",
                            help=f"compare only tape N of {side} (give both --tape-a and "
                                 "--tape-b)")
        for side in "ab":
            sp.add_argument(f"--call-{side}", type=int, default=None, metavar="N",
                            help=f"compare only gradient call N of {side} and its tape")
        sp.add_argument("--rtol", type=float, default=1e-5,
                        help="relative tolerance: |a - b| <= atol + rtol * |b| agrees (1e-5)")
        sp.add_argument("--atol", type=float, default=1e-8, help="absolute tolerance (1e-8)")

    sp = sub.add_parser("serve", help="serve the dashboard on a recording (or a folder of them)")
    sp.add_argument("recording", help="a .tvz file, or a folder: a picker lists its .tvz files")
    sp.add_argument("--follow", action="store_true", help="follow the file while it grows")
    sp.add_argument("--compare", default=None, metavar="B",
                    help="another recording: one graph coloured by where the two differ")
    diff_options(sp)
    net(sp)
    keep(sp)
    sp.set_defaults(fn=_cmd_serve)
    sp = sub.add_parser("run", help="run a script with recording on and follow it live")
    sp.add_argument("script")
    sp.add_argument("args", nargs=argparse.REMAINDER)
    sp.add_argument("-o", "--output", default=None, metavar="FILE",
                    help="record to FILE and keep it (default: a temporary file, deleted "
                         "when tapeviz exits); options go before the script")
    sp.add_argument("--full", action="store_true",
                    help="record every event of every gradient call (default: the flight "
                         "policy: a summary of every call, the full events of the first "
                         "ones, every 100th, the anomalous ones and their lead-up)")
    net(sp)
    keep(sp)
    sp.set_defaults(fn=_cmd_run)
    sp = sub.add_parser("export", help="write one self-contained HTML page")
    sp.add_argument("recording")
    sp.add_argument("page", nargs="?", help="the HTML file to write (as -o)")
    sp.add_argument("-o", "--output", default=None)
    sp.add_argument("--title", default=None)
    keep(sp)
    sp.set_defaults(fn=_cmd_export)
    sub.add_parser("gallery", help="serve the demo gallery")
    sp = sub.add_parser("diff", help="compare two runs: where they first differ (exit status "
                        "0: they agree, 1: they differ, 2: an error)")
    sp.add_argument("a", help="a .tvz recording")
    sp.add_argument("b", help="another (or the same one, with --tape-* or --call-*)")
    diff_options(sp)
    sp.set_defaults(fn=_cmd_diff)
    args = p.parse_args(argv)
    return args.fn(args) or 0


if __name__ == "__main__":
    sys.exit(main())
