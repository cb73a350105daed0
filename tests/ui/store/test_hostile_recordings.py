"""Recordings built to exhaust the viewers (a name scope 3,000 levels deep, megabyte names,
absurd shapes, oversized values, thousands of tapes) cost memory in proportion to the file,
and every cut they force is visible on the page.

``tapeviz export`` runs in a child process under a data limit (so a regression fails here
rather than taking the machine's memory), and its peak resident memory is read back with
``getrusage(RUSAGE_CHILDREN)`` in a wrapper process of its own (the test process's other
children do not count).
"""
from __future__ import annotations

import json
import queue
import re
import resource
import subprocess
import sys
import textwrap
import threading
import urllib.request

import pytest

from tapeviz.recording import load_recording
from tapeviz.ui.store.limits import MAX_DEPTH, MAX_NAME

from conftest import ROOT, env_with_repo, next_match, wait_live

#: the peak resident memory an export may reach on these files (an ordinary export peaks at
#: about 75 MB; a 3,000-level scope took 8.9 GB before the bounds)
PEAK_MB = 300
#: the data limit the child runs under: past it, the export fails instead of swapping
DATA_LIMIT_MB = 1024

_MEASURE = textwrap.dedent("""\
    import resource, subprocess, sys
    limit = int(sys.argv[1]) << 20
    def limited():
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    proc = subprocess.run(sys.argv[2:], preexec_fn=limited, capture_output=True, text=True)
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"{proc.returncode} {peak_kb}")
    sys.stderr.write(proc.stdout + proc.stderr)
""")


def _export_peak(path, out):
    """(exit status, peak MB, output) of ``tapeviz export path -o out``."""
    proc = subprocess.run([sys.executable, "-c", _MEASURE, str(DATA_LIMIT_MB), sys.executable,
                           "-m", "tapeviz.cli", "export", str(path), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT, env=env_with_repo(),
                          timeout=600)
    rc, peak_kb = proc.stdout.split()
    return int(rc), int(peak_kb) / 1024, proc.stderr


def _summary(value=1.0, shape=(), size=1):
    return {"shape": list(shape), "dtype": "float32", "size": size, "nan": 0, "inf": 0,
            "zeros": 0, "min": 1.0, "max": 1.0, "mean": 1.0, "norm": 1.0, "value": value}


def _ref(tid, name, node=None, kind="tensor", summary=None, shape=()):
    return {"id": tid, "name": name, "shape": list(shape), "dtype": "float32", "kind": kind,
            "trainable": True if kind == "variable" else None, "node": node,
            "summary": summary or _summary(shape=shape)}


def _tape(tape, seq, op="Mul", scope="", x_name="x:0", out=None, site=None):
    """The lines of one tape with one op on a variable: opened, the op, closed."""
    node = 1000 + tape
    return [{"kind": "tape_opened", "seq": seq, "time": 0.0, "tape": tape},
            {"kind": "op_recorded", "seq": seq + 1, "time": 0.0, "node": node, "op": op,
             "tapes": [tape], "inputs": [_ref(1, x_name, kind="variable")],
             "outputs": [out or _ref(2 + tape, f"{op}_{tape}:0", node=node)], "attrs": {},
             "site": site, "scope": scope},
            {"kind": "tape_closed", "seq": seq + 2, "time": 0.0, "tape": tape}]


def _write(path, events):
    header = {"format": "tapeviz-recording", "version": 3, "tapeviz": "0.1.0", "value_limit": 64}
    with open(path, "w") as f:
        for line in [header, *events]:
            f.write(json.dumps(line) + "\n")
    return path


def _exported(tmp_path, name, events):
    path = _write(tmp_path / f"{name}.tvz", events)
    out = tmp_path / f"{name}.html"
    rc, peak, output = _export_peak(path, out)
    assert rc == 0, output
    assert peak < PEAK_MB, f"export of {path.stat().st_size:,} bytes peaked at {peak:.0f} MB"
    page = out.read_text()
    assert "could not be drawn" not in page
    return path, page


@pytest.mark.slow
def test_a_scope_of_3000_levels_is_folded_after_32_and_costs_no_memory(tmp_path):
    scope = "/".join(f"level{i}" for i in range(3000))
    path, page = _exported(tmp_path, "deep", _tape(1, 1, scope=scope))
    assert path.stat().st_size < 40_000
    # the 32nd level shown carries the count of those folded into it
    assert f"level{MAX_DEPTH - 1} \\u2026({3000 - MAX_DEPTH:,} more)" in page
    assert f"level{MAX_DEPTH}/" not in page and "level2999" not in page


def test_megabyte_names_are_cut_with_an_ellipsis(tmp_path):
    long_var, long_op, long_line = "v" * 2_000_000, "O" * 1_000_000, "c" * 1_000_000
    site = {"file": "/nowhere/prog.py", "line": 3, "func": "f" * 1_000_000, "code": long_line}
    events = _tape(1, 1, op=long_op, x_name=long_var, site=site)
    path, page = _exported(tmp_path, "names", events)
    assert path.stat().st_size > 4_000_000
    assert "v" * (MAX_NAME - 1) + "\\u2026" in page
    assert "v" * (MAX_NAME + 1) not in page and "O" * (MAX_NAME + 1) not in page
    assert len(page) < path.stat().st_size


@pytest.mark.slow
def test_absurd_shapes_and_oversized_values_keep_their_statistics_only(tmp_path):
    huge = _summary(value=1.5, shape=[10 ** 12] * 3, size=10 ** 36)
    many_dims = _summary(value=2.5, shape=[1] * 1_000_000, size=1)
    big_value = _summary(value=[[0.25] * 1000] * 1000, shape=[2, 2], size=4)  # size says 4
    events = []
    for tape, summary in enumerate((huge, many_dims, big_value), start=1):
        out = _ref(10 + tape, f"y{tape}:0", node=1000 + tape, summary=summary,
                   shape=summary["shape"])
        events += _tape(tape, 10 * tape, out=out)
    path, page = _exported(tmp_path, "shapes", events)
    assert path.stat().st_size > 5_000_000
    assert "(1000000000000, 1000000000000, 1000000000000)" in page   # said as it is
    assert "0.25, 0.25, 0.25, 0.25, 0.25" not in page       # the million values: left out
    assert page.count("min=1 max=1 mean=1 norm=1") >= 1      # their statistics stay


@pytest.mark.slow
def test_thousands_of_tapes_with_deep_scopes_export_the_last_few(tmp_path):
    scope = "/".join(f"s{i}" for i in range(400))
    events = []
    for tape in range(1, 3001):
        events += _tape(tape, 3 * tape, scope=scope)
    _, page = _exported(tmp_path, "tapes", events)
    assert "tape 3000" in page and "50 of 3,000 tapes held" in page   # as served
    assert page.count(f"s{MAX_DEPTH - 1} \\u2026({400 - MAX_DEPTH:,} more)") >= 8   # the tapes shown


def test_the_store_bounds_what_it_keeps_of_a_deep_scope():
    from tapeviz.ui.store.store import Store
    store = Store()
    store.ingest(_tape(1, 1, scope="/".join(f"s{i}" for i in range(3000))))
    graph = store.graph(1)
    assert len(graph["clusters"]) == MAX_DEPTH
    assert max(len(k) for k in graph["clusters"]) < 2000
    (op,) = store.ops.values()
    assert op["scope"].endswith(f"s{MAX_DEPTH - 1} …({3000 - MAX_DEPTH:,} more)")


@pytest.mark.slow
@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_a_foreign_non_finite_literal_costs_nothing_but_a_warning(tmp_path, literal):
    """One summary holding a NaN literal (Python's json.dumps writes them) used to make
    ``tapeviz serve`` refuse the file and export drop the tape."""
    events = _tape(1, 1) + _tape(2, 10)
    path = _write(tmp_path / "nan.tvz", events)
    text = path.read_text().replace('"min": 1.0', f'"min": {literal}', 1)
    path.write_text(text)
    lineno = next(i for i, line in enumerate(text.splitlines(), 1) if literal in line)
    rec = load_recording(path)
    assert len(rec) == len(events)
    want = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[literal]
    assert rec[1].inputs[0]["summary"]["min"] == want
    assert rec.warnings == [f"line {lineno}: holds {literal} (not JSON: tapeviz writes "
                            '"nan", "inf", "-inf"), read as those strings']

    from tapeviz.ui.serve.app import open_dashboard
    dash = open_dashboard(str(path), False, "t")
    assert dash.store.tape_ids() == [1, 2]
    assert "1 recording warning(s)" in dash.live.status.object

    out = tmp_path / "nan.html"
    rc, _, output = _export_peak(path, out)
    page = out.read_text()
    assert rc == 0, output
    assert "could not be drawn" not in page and "tape 2" in page and "tape 1" in page
    assert "1 recording warning(s): line " in page


@pytest.mark.slow
def test_values_of_the_wrong_type_are_left_out_and_the_rest_is_drawn(tmp_path):
    """Another writer's refs, sites and results with fields of the wrong JSON type: each such
    value is dropped (the event kept), and the file serves and exports whole."""
    bad_ref = {"id": 7, "name": ["not", "a", "name"], "shape": "abc", "dtype": 5,
               "kind": "tensor", "node": 1001, "summary": 5}
    site = {"file": 12, "line": "abc", "func": None, "code": ["x"]}
    events = _tape(1, 1, out=bad_ref, site=site)
    events[1]["inputs"].append({"id": 8, "name": "q", "shape": [2, "two"], "dtype": "float32",
                                "kind": "tensor", "summary": {"shape": [2], "size": "four",
                                                              "value": [1.0, 2.0], "min": []}})
    events.insert(2, {"kind": "gradient_started", "seq": 2, "time": 0.0, "call": 1, "tape": 1,
                      "sources": [_ref(1, "x:0", kind="variable")], "targets": [bad_ref]})
    events.insert(3, {"kind": "gradient_finished", "seq": 3, "time": 0.0, "call": 1, "tape": 1,
                      "results": [{"tensor": _ref(1, "x:0", kind="variable"), "grad": [1, 2],
                                   "norm": "abc", "verdict": 3, "message": None}]})
    path, page = _exported(tmp_path, "types", events)
    assert "Mul" in page and "tape 1" in page
    from tapeviz.ui.serve.app import open_dashboard
    from tapeviz.ui.render.cards import node_html
    dash = open_dashboard(str(path), False, "t")
    store = dash.store
    for node in store.graph(1)["nodes"]:
        node_html(store, node)
    assert store.variables_rows()[0]["norm"] is None


@pytest.mark.slow
def test_serving_a_scope_of_3000_levels_stays_small(tmp_path):
    """``tapeviz serve`` builds the dashboard at start and for each tab; its peak resident
    memory (VmHWM) after a tab opened stays within the bound (it ended in MemoryError)."""
    scope = "/".join(f"level{i}" for i in range(3000))
    path = _write(tmp_path / "deep.tvz", _tape(1, 1, scope=scope))
    limit = DATA_LIMIT_MB << 20

    def limited():
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    proc = subprocess.Popen([sys.executable, "-m", "tapeviz.cli", "serve", str(path), "--port",
                             "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            cwd=ROOT, env=env_with_repo(), preexec_fn=limited)
    try:
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()
        m = next_match(lines, proc, r"(http://127\.0\.0\.1:\d+/)", timeout=120)
        assert m, "tapeviz serve did not start"
        assert wait_live(m.group(1), timeout=120)
        with urllib.request.urlopen(m.group(1), timeout=120) as r:     # a tab: a session
            assert r.status == 200
        with open(f"/proc/{proc.pid}/status") as f:
            peak_kb = int(re.search(r"VmHWM:\s+(\d+) kB", f.read()).group(1))
        assert peak_kb / 1024 < PEAK_MB, f"tapeviz serve peaked at {peak_kb / 1024:.0f} MB"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
