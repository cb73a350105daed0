"""Diffing two recordings against opening one (not a test): ``tapeviz diff``'s work beside
``tapeviz serve``'s parse and ingest.

    .venv/bin/python benchmarks/diff_speed.py [--ops 1000] [--rounds 9] [--json out.json]

Records two runs of a chain of ``--ops`` scalar ops in name scopes of 50 (the dashboard
benchmark's program, one tape and its gradient), the second with one factor changed halfway
along, then times in this process, round-robin (timing.py): *open* = ``tv.load_recording``
and a dashboard ``Store`` ingesting it, as ``tapeviz serve`` does; *diff* = ``tv.diff`` of
the two files (both read, aligned, compared). Prints CPU-time medians and the median of the
per-round ratios diff/open (the target is at most 2: reading two files is 2 already).

With ``--page`` it also measures the compare view against the single-run view of the same
recording: *build* = what ``tapeviz serve`` does before its first page, in this process, CPU
time, the caches of recordings and comparisons emptied each run (the graph's layout stays
cached, as it does on disk for a served recording): ``make_app(a)`` against
``make_app(a, compare=b)``; *page* = a browser's cold page open, ``page.goto`` until the
graph is painted (``benchmarks/page_open.py``'s measure, headless chromium, a new context
each time), the two servers opened in turn ``--pages`` times: the median of the per-pair
ratios compare/single.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import timing  # noqa: E402


def record_chain(path, n, changed_at=None, scope=50):
    import tapeviz as tv
    with tv.record(str(path), full=True):
        x = tv.Variable(1.0, name="x")
        with tv.GradientTape() as tape:
            y = x
            for b in range(max(n // scope, 1)):
                with tv.name_scope(f"layer{b}"):
                    for i in range(min(scope, n)):
                        k = b * scope + i
                        factor = 1.0002 if k == changed_at else 1.0001
                        y = y * factor if i % 2 else y + 0.001
        tape.gradient(y, x)


def view_build(a, b, rounds) -> dict:
    """CPU time of building the single-run page and the compare page, nothing cached but
    the layout (which both share)."""
    from tapeviz.ui.store import compare_store, source
    from tapeviz.ui.serve.app import make_app

    def single():
        source._STORES.clear()
        make_app(str(a))

    def compare():
        source._STORES.clear()
        compare_store._CACHE.clear()
        make_app(str(a), compare=str(b))
    medians, ratios, spreads = timing.round_robin(
        [timing.timed_here(compare), timing.timed_here(single)], rounds)
    print(f"page build (what serve does before the first page): single {medians[1] * 1e3:.0f} "
          f"ms, compare {medians[0] * 1e3:.0f} ms: ratio {ratios[1]:.2f} (middle half "
          f"{spreads[1][0]:.2f}-{spreads[1][1]:.2f})")
    return {"build_single_s": round(medians[1], 4), "build_compare_s": round(medians[0], 4),
            "build_ratio": round(ratios[1], 3), "build_spread": [round(s, 3) for s in spreads[1]]}


def page_open(a, b, runs) -> dict:
    """Browser page opens of ``serve a`` and ``serve a --compare b``, in turn."""
    import statistics
    import time
    from dashboard import ARGS, CHROMIUM, serve, stop
    from page_open import open_once
    from playwright.sync_api import sync_playwright
    procs = []
    try:
        procs.append(serve(a))
        procs.append(serve(a, "--compare", str(b)))
        urls = [url for _, url in procs]
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for url in urls:                  # a server's first session pays its imports
                open_once(browser, url, True)
            walls = [[], []]
            for k in range(runs):
                for i in ((0, 1) if k % 2 == 0 else (1, 0)):
                    time.sleep(1.0)
                    walls[i].append(open_once(browser, urls[i], True)["wall"])
            browser.close()
    finally:
        for proc, _ in procs:
            stop(proc)
    ratios = [c / s for s, c in zip(*walls)]
    med = [statistics.median(w) for w in walls]
    spread = timing.quartiles(ratios)
    print(f"page open in chromium (goto to graph painted): single {med[0]:.0f} ms, compare "
          f"{med[1]:.0f} ms: ratio {statistics.median(ratios):.2f} (middle half "
          f"{spread[0]:.2f}-{spread[1]:.2f})")
    return {"page_single_ms": round(med[0]), "page_compare_ms": round(med[1]),
            "page_ratio": round(statistics.median(ratios), 3),
            "page_spread": [round(s, 3) for s in spread]}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ops", type=int, default=1000)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--json", default=None)
    p.add_argument("--page", action="store_true",
                   help="also the compare page against the single-run page (build, browser)")
    p.add_argument("--pages", type=int, default=7, help="browser opens of each page")
    args = p.parse_args(argv)
    import tapeviz as tv
    from tapeviz.ui.store.store import Store
    with tempfile.TemporaryDirectory(prefix="tapeviz-diff-") as tmp:
        a, b = pathlib.Path(tmp) / "a.tvz", pathlib.Path(tmp) / "b.tvz"
        record_chain(a, args.ops)
        record_chain(b, args.ops, changed_at=args.ops // 2 + 1)
        result = tv.diff(a, b)
        assert result.differ and len(result.pairs) == args.ops, result   # did the real work

        def open_one():
            Store().ingest(tv.load_recording(a))

        def diff_two():
            tv.diff(a, b)
        medians, ratios, spreads = timing.round_robin(
            [timing.timed_here(diff_two), timing.timed_here(open_one)], args.rounds)
        out = {"ops": args.ops, "diff_s": round(medians[0], 4), "open_s": round(medians[1], 4),
               "ratio": round(ratios[1], 3), "spread": [round(s, 3) for s in spreads[1]]}
        print(f"{args.ops:,}-op recordings: open one (load + store ingest) "
              f"{medians[1] * 1e3:.1f} ms, diff two {medians[0] * 1e3:.1f} ms: ratio "
              f"{ratios[1]:.2f} (middle half {spreads[1][0]:.2f}-{spreads[1][1]:.2f}; "
              "target <= 2)")
        if args.page:
            out.update(view_build(a, b, args.rounds))
            out.update(page_open(a, b, args.pages))
    print(json.dumps(out))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
