"""The one table benchmarks/run.py prints: rows with medians, ratios, targets and met/missed,
from the engine workloads and from the JSON that recording_throughput.py and dashboard.py
write (``--json``). Unknown keys and entries in that JSON are kept and listed under the table,
so a measure added to those scripts shows up before this file learns its target.
Imports nothing heavy (tests use it without numpy, tapeviz or a browser).
"""
from __future__ import annotations

import operator

_OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def row(section, name, value, unit, label="tapeviz", peer="", peer_value=None, ratio=None,
        target=None, spread=None, floor=False):
    """One line of the table. ``target`` is (op, number, on): on "ratio" it is compared with
    the ratio, otherwise with the value (in ``unit``). ``spread``: the (25th, 75th)
    percentiles of the per-round ratios the ratio is the median of (or, for a target on the
    value, of the repeated values the value is the median of). ``floor``: an A/A row, a
    workload timed against itself, whose ratio is 1 on a quiet machine."""
    return {"section": section, "name": name, "value": value, "unit": unit, "label": label,
            "peer": peer, "peer_value": peer_value, "ratio": ratio, "target": target,
            "spread": list(spread) if spread is not None else None, "floor": floor}


#: how far an A/A ratio may stray from 1 before the run counts as disturbed: quiet runs read
#: 0.988-1.013 (W1, W3) with five-step W3 samples; runs a neighbour disturbed, 0.63-1.06
DISTURBED_AT = 0.03
#: how far either end of an A/A row's middle half may stray from 1: quiet runs' reach
#: 0.975-1.040 at worst; a run whose medians stayed near 1 while its rounds did not (W1
#: 0.983x with a middle half of 0.832-1.048, W3 0.994x with 0.913-1.049) reaches further
DISTURBED_SPREAD_AT = 0.06


def disturbed(rows) -> list:
    """The A/A rows (``floor``) whose ratio strays from 1 by more than DISTURBED_AT, or the
    middle half of whose per-round ratios by more than DISTURBED_SPREAD_AT: the machine's
    speed changed under the run, and its verdicts near a target are not evidence."""
    def shaken(r):
        q = r.get("spread")
        return (abs(r["ratio"] - 1) > DISTURBED_AT or
                (q is not None and max(abs(q[0] - 1), abs(q[1] - 1)) > DISTURBED_SPREAD_AT))
    return [r for r in rows if r.get("floor") and r.get("ratio") is not None and shaken(r)]


def met(r):
    t = r.get("target")
    if not t:
        return None
    op, limit, on = t
    x = r.get("ratio") if on == "ratio" else r.get("value")
    if x is None or x != x:                  # missing or NaN
        return None
    return _OPS[op](x, limit)


def within_spread(r) -> bool:
    """True when the target lies inside the middle half of the per-round ratios (or, for a
    target on the value, of the repeated values): run-to-run noise alone can then turn the
    verdict either way, and a single run does not settle it."""
    t, q = r.get("target"), r.get("spread")
    if not t or not q:
        return False
    return q[0] <= t[1] <= q[1]


def verdict(r) -> str:
    ok = met(r)
    if ok is None:
        return "-"
    word = "met" if ok else "MISSED"
    return f"{word} (noise)" if within_spread(r) else word


def fmt_value(x, unit):
    if x is None:
        return "-"
    if unit == "events/s":
        return f"{x:,.0f} events/s"
    if unit == "s":
        return f"{x:.2f} s" if x >= 0.1 else f"{x:.3f} s"
    if unit in ("us", "ms"):
        return f"{x:.2f} {unit}"
    if unit == "MiB":
        return f"{x:.2f} MiB"
    return f"{x:g} {unit}".strip()


def fmt_target(r):
    t = r.get("target")
    if not t:
        return ""
    op, limit, on = t
    if on == "ratio":
        return f"{op} {limit:.2f}x"
    return f"{op} {fmt_value(limit, r['unit'])}"


HEADER = ("workload", "tapeviz", "peer", "ratio", "spread", "target", "met")


def _cells(rows):
    """Each row's section and its cells, formatted once for the text and markdown tables."""
    cells = []
    for r in rows:
        own = fmt_value(r["value"], r["unit"])
        if r.get("label") and r["label"] != "tapeviz":
            own = f"{r['label']} {own}"
        peer = (f"{r['peer']} {fmt_value(r['peer_value'], r['unit'])}"
                if r.get("peer_value") is not None else r.get("peer") or "")
        ratio = f"{r['ratio']:.3f}x" if r.get("ratio") is not None else ""
        q = r.get("spread")
        on_value = (r.get("target") or (None, None, "ratio"))[2] != "ratio"
        spread = ("" if not q else f"{q[0]:,.0f}-{q[1]:,.0f}" if on_value and abs(q[1]) >= 100
                  else f"{q[0]:.3f}-{q[1]:.3f}")
        cells.append((r["section"], (r["name"], own, peer, ratio, spread, fmt_target(r),
                                     verdict(r))))
    return cells


def _footnotes(rows, cells) -> list:
    out = []
    if any(cs[-1].endswith("(noise)") for _, cs in cells):
        out.append("(noise): the target lies inside the spread, the middle half of the "
                   "per-round ratios (or repeated values); this run alone does not settle "
                   "the verdict")
    for r in disturbed(rows):
        q = r.get("spread")
        within = f" (middle half {q[0]:.3f}-{q[1]:.3f})" if q else ""
        out.append(f"DISTURBED: {r['name']} read {r['ratio']:.3f}x{within}, not 1.00x +- "
                   f"{DISTURBED_AT:.2f} with its middle half within 1.00 +- "
                   f"{DISTURBED_SPREAD_AT:.2f}: the machine's speed moved during this run, so "
                   "its ratios are not evidence either way; run it again")
    return out


def table(rows):
    """The rows as one plain-text table, a section heading before each section's rows."""
    header = HEADER
    cells = _cells(rows)
    widths = [max([len(h)] + [len(c[i]) for _, c in cells]) for i, h in enumerate(header)]
    line = lambda cs: "  ".join(str(c).ljust(w) for c, w in zip(cs, widths)).rstrip()  # noqa: E731
    out = [line(header), line("-" * w for w in widths)]
    section = None
    for sec, cs in cells:
        if sec != section:
            out.append(f"[{sec}]")
            section = sec
        out.append(line(cs))
    return "\n".join(out + _footnotes(rows, cells))


#: the block of docs/performance.md that ``./run.sh bench`` rewrites; the rest is prose
FIGURES_BEGIN = "<!-- figures: written by ./run.sh bench (benchmarks/report.py); edit there -->"
FIGURES_END = "<!-- end of figures -->"


def _md(text: str) -> str:
    return str(text).replace("|", "\\|")


def markdown(head, rows, notes=()) -> str:
    """The run as markdown: the machine and command lines, one table, the notes under it."""
    cells = _cells(rows)
    out = ["```", *head, "```", "",
           "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    section = None
    for sec, cs in cells:
        if sec != section:
            out.append(f"| **{_md(sec)}** |" + " |" * (len(HEADER) - 1))
            section = sec
        out.append("| " + " | ".join(_md(c) for c in cs) + " |")
    extra = _footnotes(rows, cells) + list(notes)
    return "\n".join(out + ([""] + [f"- {_md(n)}" for n in extra] if extra else []))


def write_figures(path, block: str) -> None:
    """Replace what lies between FIGURES_BEGIN and FIGURES_END in ``path`` with ``block``."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    begin, end = text.find(FIGURES_BEGIN), text.find(FIGURES_END)
    if begin < 0 or end < begin:
        raise ValueError(f"{path} has no figures block: put {FIGURES_BEGIN!r} and "
                         f"{FIGURES_END!r} on lines of their own where the figures go")
    text = text[:begin + len(FIGURES_BEGIN)] + "\n" + block.strip("\n") + "\n" + text[end:]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)


# --- benchmarks/recording_throughput.py --json -----------------------------------------------------
WRITER_TARGET = (">=", 200_000, "value")


def recording_rows(d):
    """Rows from recording_throughput.py's JSON (a dict); unknown keys are ignored here and
    listed by `extras`."""
    rows = []
    if "writer_events_per_s_cpu" in d:
        b = d.get("writer_bytes_per_event")
        rows.append(row("recording", f"writer, real MLP events ({b:.0f} B each), CPU time"
                        if b else "writer, real MLP events, CPU time",
                        d["writer_events_per_s_cpu"], "events/s", peer="orjson.dumps alone",
                        peer_value=d.get("orjson_dumps_events_per_s"), target=WRITER_TARGET,
                        spread=d.get("writer_events_per_s_cpu_spread")))
    if "scalar_writer_events_per_s_cpu" in d:
        b = d.get("scalar_writer_bytes_per_event")
        rows.append(row("recording", f"writer, scalar events ({b:.0f} B each), CPU time"
                        if b else "writer, scalar events, CPU time",
                        d["scalar_writer_events_per_s_cpu"], "events/s", target=WRITER_TARGET))
    off = d.get("events_off_us")
    for key, what, size in (("events_noop_us", "no-op subscriber", None),
                            ("events_recording_us", "recording every event to a file",
                             "recording_kib_per_step"),
                            ("events_flight_us", "default (flight) recording",
                             "flight_kib_per_step")):
        if key in d and off:
            kib = f" ({d[size]:.2f} KiB a step)" if size in d else ""
            rows.append(row("recording", f"small MLP step, {what}{kib} vs events off", d[key],
                            "us", label="", peer="off", peer_value=off, ratio=d[key] / off))
    noop, full = d.get("events_noop_us"), d.get("events_recording_us")
    if noop and full:
        # (what the full recording adds to delivering the events: payloads built and written)
        rows.append(row("recording", "small MLP step, the writer's share of a step recording "
                        "every event", 100 * (full - noop) / full, "%"))
    return rows


#: the default (flight) recording's targets: a loop's median step, as a ratio to unrecorded
FLIGHT_TARGETS = {"w3": ("<=", 1.05, "ratio"), "dense": ("<=", 1.5, "ratio")}
FLIGHT_LOOPS = {"dense": "Dense 16-16-4 loop", "w3": "W3 784-256-256-10 loop",
                "regression": "3-4-1 regression loop, a NaN at step 217"}


def flight_rows(d):
    """Rows from flight_recording.py's JSON: each loop's median step recorded with the
    default policy and with every event, as a ratio to unrecorded, and the KiB a step."""
    rows = []
    for key, name in FLIGHT_LOOPS.items():
        off = d.get(f"{key} off")
        for mode, what in (("default", "default (flight) recording"),
                           ("full", "recording every event")):
            m = d.get(f"{key} {mode}")
            if off and m:
                rows.append(row("recording", f"{name}, {what} ({m['kib_per_step']:.2f} KiB a "
                                "step) vs off", m["median_us"], "us", label="", peer="off",
                                peer_value=off["median_us"], ratio=m["ratio"],
                                target=FLIGHT_TARGETS.get(key) if mode == "default" else None))
    return rows


DIFF_TARGET = ("<=", 2.0, "ratio")    # diffing two recordings: at most twice opening one


def diff_rows(d):
    """The row of diff_speed.py's JSON (a dict): ``tv.diff`` of two recordings against
    opening one (``load_recording`` and a dashboard store's ingest), CPU time."""
    if "diff_s" not in d or "open_s" not in d:
        return []
    return [row("diff", f"diff two {d.get('ops', 0):,}-op recordings vs open one", d["diff_s"],
                "s", peer="open one (load + ingest)", peer_value=d["open_s"],
                ratio=d.get("ratio"), target=DIFF_TARGET, spread=d.get("spread"))]


RECORDING_KEYS = {"writer_events_per_s_cpu", "writer_events_per_s_wall", "writer_bytes_per_event",
                  "writer_events_per_s_cpu_whole", "writer_events_per_s_cpu_spread",
                  "orjson_dumps_events_per_s", "json_dumps_events_per_s",
                  "scalar_writer_events_per_s_cpu", "scalar_writer_events_per_s_wall",
                  "scalar_writer_bytes_per_event", "events_off_us", "events_noop_us",
                  "events_recording_us", "recording_kib_per_step", "writer_events",
                  "events_flight_us", "flight_kib_per_step",
                  "machine", "load", "loop_ns"}


# --- benchmarks/dashboard.py --json ----------------------------------------------------------------
OPEN_TARGETS = {100: 0.5, 1000: 1.5, 5000: 3.0}          # seconds
EXPAND_TARGET = ("<=", 1.0, "value")
LIVE_TARGET = (">=", 10_000, "value")
DASHBOARD_KEYS = {"ops", "scope", "record_s", "events", "ingest_events_per_s", "startup_s",
                  "open_s", "nodes_drawn", "expand_s", "open_warm_s", "floor_open_s",
                  "live_steps", "live_events", "live_s", "live_events_per_s", "hose_events",
                  "hose_written_s", "hose_s", "hose_events_per_s", "hose_max_roundtrip_ms",
                  "load_rate_target", "load_rate", "followed_click_median_s",
                  "followed_click_max_s", "followed_clicks_s", "followed_behind_median_events",
                  "followed_behind_max_events", "followed_behind_max_s",
                  "followed_shown_events", "finished_events", "finished_click_median_s",
                  "finished_click_max_s", "finished_clicks_s", "click_ratio_median",
                  "click_ratio_max"}
#: a click in a followed tab is answered within this (two tabs, a 10,000 events/s writer)
CLICK_TARGET = ("<=", 1.0, "value")


def dashboard_rows(results):
    """Rows from dashboard.py's JSON (a list of dicts)."""
    rows = []
    floor = next((r["floor_open_s"] for r in results if "floor_open_s" in r), None)
    if floor is not None:
        rows.append(row("dashboard", "floor: empty Panel page with one figure", floor, "s",
                        label="Panel"))
    for r in results:
        if "ops" not in r or "open_s" not in r:
            continue
        n, scope = r["ops"], r.get("scope", 50)
        limit = OPEN_TARGETS.get(n)
        target = ("<=", limit, "value") if limit and scope == 50 else None
        what = f"{n:,} ops" + (f" in scopes of {scope}" if scope != 50 else "")
        if scope == 50:
            for key, how in (("open_s", "first tab"), ("open_warm_s", "warm, best of 3")):
                if r.get(key) is not None:
                    rows.append(row("dashboard", f"open {what} ({how})", r[key], "s",
                                    peer="floor", peer_value=floor,
                                    ratio=r[key] / floor if floor else None, target=target))
        if r.get("expand_s") is not None:
            rows.append(row("dashboard", f"expand a {scope}-op group ({what})", r["expand_s"],
                            "s", target=EXPAND_TARGET))
    for r in results:
        if "hose_events_per_s" in r:
            rt = r.get("hose_max_roundtrip_ms")
            rows.append(row("dashboard", "live capacity (a run appended at once)"
                            + (f", slowest page read {rt} ms" if rt is not None else ""),
                            r["hose_events_per_s"], "events/s", target=LIVE_TARGET))
        if "click_ratio_median" in r:
            under = f"two tabs following a {r['load_rate']:,} events/s writer"
            for key, how in (("median", "median"), ("max", "slowest")):
                rows.append(row("dashboard", f"click answered ({how}), {under}",
                                r[f"followed_click_{key}_s"], "s", peer="finished file",
                                peer_value=r[f"finished_click_{key}_s"],
                                ratio=r[f"click_ratio_{key}"], target=CLICK_TARGET))
        if "live_events_per_s" in r:
            rows.append(row("dashboard", "live, a producer as fast as it goes",
                            r["live_events_per_s"], "events/s"))
    return rows


def extras(recording=None, dashboard=None):
    """Numbers in the JSON that no row shows (e.g. a measure added to dashboard.py later)."""
    out = []
    for k, v in (recording or {}).items():
        if k not in RECORDING_KEYS:
            out.append(f"recording_throughput: {k} = {v}")
    for r in dashboard or []:
        if not isinstance(r, dict):
            out.append(f"dashboard: {r!r}")
            continue
        rest = {k: v for k, v in r.items() if k not in DASHBOARD_KEYS}
        if rest:
            tag = f" ({r['ops']} ops, scope {r.get('scope')})" if "ops" in r else ""
            out.append(f"dashboard{tag}: " + ", ".join(f"{k} = {v}" for k, v in rest.items()))
    return out
