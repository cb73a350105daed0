"""benchmarks/run.py's plumbing (not its timings: nothing here times anything, and nothing
imports torch or TensorFlow)."""
import os
import subprocess
import sys

import numpy as np
import pytest

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks")
sys.path.insert(0, BENCH)

import report  # noqa: E402
import timing  # noqa: E402


def test_run_py_help():
    out = subprocess.run([sys.executable, os.path.join(BENCH, "run.py"), "--help"],
                         capture_output=True, text=True, check=True).stdout
    for flag in ("--quick", "--no-dashboard", "--engine-only", "--skip", "--json"):
        assert flag in out


RECORDING = {"writer_events": 400000, "writer_bytes_per_event": 697.0,
             "writer_events_per_s_wall": 82302.0, "writer_events_per_s_cpu": 100234.0,
             "json_dumps_events_per_s": 28681.0, "orjson_dumps_events_per_s": 490469.0,
             "scalar_writer_bytes_per_event": 101.0, "scalar_writer_events_per_s_cpu": 227357.0,
             "events_off_us": 228.0, "events_noop_us": 323.0, "events_recording_us": 1806.0,
             "recording_kib_per_step": 40.0, "a_new_measure": 1.5}

DASHBOARD = [
    {"floor_open_s": 1.0},
    {"ops": 100, "scope": 50, "record_s": 0.4, "events": 207, "ingest_events_per_s": 90000,
     "startup_s": 2.0, "open_s": 1.6, "nodes_drawn": 104, "expand_s": 0.4, "open_warm_s": 1.5},
    {"ops": 5000, "scope": 50, "open_s": 2.0, "open_warm_s": 1.6, "expand_s": 0.5,
     "switch_recording_s": 0.7},
    {"ops": 5000, "scope": 500, "open_s": 2.2, "open_warm_s": 1.9, "expand_s": 0.9},
    {"hose_events": 85003, "hose_written_s": 0.3, "hose_s": 5.0, "hose_events_per_s": 17000,
     "hose_max_roundtrip_ms": 600},
    {"switch_s": 0.8},                                  # a measure this file does not know
]


def _by_name(rows):
    return {r["name"]: r for r in rows}


def test_recording_rows_and_targets():
    rows = _by_name(report.recording_rows(RECORDING))
    real = rows["writer, real MLP events (697 B each), CPU time"]
    assert real["value"] == 100234.0 and report.met(real) is False      # >= 200,000 missed
    scalar = rows["writer, scalar events (101 B each), CPU time"]
    assert report.met(scalar) is True
    noop = rows["small MLP step, no-op subscriber vs events off"]
    assert abs(noop["ratio"] - 323 / 228) < 1e-12 and report.met(noop) is None
    assert report.recording_rows({}) == []


def test_the_default_recording_rows_give_its_ratio_its_size_and_the_writer_share():
    rows = _by_name(report.recording_rows(dict(RECORDING, events_flight_us=342.0,
                                               flight_kib_per_step=0.8)))
    flight = rows["small MLP step, default (flight) recording (0.80 KiB a step) vs events off"]
    assert abs(flight["ratio"] - 342 / 228) < 1e-12
    full = rows["small MLP step, recording every event to a file (40.00 KiB a step) vs events "
                "off"]
    assert abs(full["ratio"] - 1806 / 228) < 1e-12
    share = rows["small MLP step, the writer's share of a step recording every event"]
    assert share["unit"] == "%" and abs(share["value"] - 100 * (1806 - 323) / 1806) < 1e-9


def test_flight_rows_hold_both_targets_of_the_default_recording():
    loop = {"median_us": 100.0, "ratio": 1.0, "mean_ratio": 1.0, "kib_per_step": 0.0}
    numbers = {"dense off": loop, "w3 off": dict(loop, median_us=5000.0),
               "dense default": dict(loop, median_us=140.0, ratio=1.4, kib_per_step=1.09),
               "dense full": dict(loop, median_us=460.0, ratio=4.6, kib_per_step=23.5),
               "w3 default": dict(loop, median_us=5450.0, ratio=1.09, kib_per_step=2.4)}
    rows = _by_name(report.flight_rows(numbers))
    dense = rows["Dense 16-16-4 loop, default (flight) recording (1.09 KiB a step) vs off"]
    assert report.met(dense) is True and dense["peer_value"] == 100.0
    w3 = rows["W3 784-256-256-10 loop, default (flight) recording (2.40 KiB a step) vs off"]
    assert report.met(w3) is False                          # 1.09x misses "at most 1.05x"
    full = rows["Dense 16-16-4 loop, recording every event (23.50 KiB a step) vs off"]
    assert report.met(full) is None and len(rows) == 3      # (no W3 full, no regression)
    assert report.flight_rows({}) == []


def test_dashboard_rows_and_targets():
    rows = _by_name(report.dashboard_rows(DASHBOARD))
    first = rows["open 100 ops (first tab)"]
    assert report.met(first) is False and first["peer_value"] == 1.0 and first["ratio"] == 1.6
    assert report.met(rows["open 5,000 ops (warm, best of 3)"]) is True
    assert report.met(rows["expand a 500-op group (5,000 ops in scopes of 500)"]) is True
    assert report.met(rows["live capacity (a run appended at once), slowest page read 600 ms"])
    assert "open 5,000 ops in scopes of 500 (first tab)" not in rows


def test_diff_row_and_target():
    rows = report.diff_rows({"ops": 1000, "diff_s": 0.13, "open_s": 0.05, "ratio": 2.6,
                             "spread": [2.4, 2.8]})
    assert [r["name"] for r in rows] == ["diff two 1,000-op recordings vs open one"]
    assert report.met(rows[0]) is False                     # 2.6x misses "at most 2x"
    assert report.met(report.diff_rows({"diff_s": 0.1, "open_s": 0.06, "ratio": 1.7})[0])
    assert report.diff_rows({}) == []


def test_unknown_keys_are_listed_not_dropped():
    notes = report.extras(RECORDING, DASHBOARD)
    assert "recording_throughput: a_new_measure = 1.5" in notes
    assert any("switch_recording_s = 0.7" in n and "5000 ops" in n for n in notes)
    assert "dashboard: switch_s = 0.8" in notes


def test_table_has_every_row_and_a_met_column():
    rows = (report.recording_rows(RECORDING) + report.dashboard_rows(DASHBOARD)
            + [report.row("engine", "W1 chain, vs autograd", 6.4, "us", peer="autograd",
                          peer_value=12.3, ratio=0.52, target=("<=", 0.5, "ratio"))])
    text = report.table(rows)
    lines = text.splitlines()
    assert lines[0].split() == ["workload", "tapeviz", "peer", "ratio", "spread", "target",
                                "met"]
    body = [line for line in lines[2:] if not line.startswith("[")]
    assert len(body) == len(rows)
    assert all(line.endswith(("met", "MISSED", "-")) for line in body)
    assert "[engine]" in text and "[dashboard]" in text and "[recording]" in text
    w1 = next(line for line in lines if line.startswith("W1 chain"))
    assert "0.520x" in w1 and "<= 0.50x" in w1 and w1.endswith("MISSED")


def test_agreement_check():
    rng = np.random.default_rng(0)
    ref = [np.float32(2.3), rng.normal(size=(50, 50))]
    near = [np.float32(2.3), ref[1] + 1e-4 * rng.normal(size=(50, 50))]
    assert timing.agree(ref, near, 1e-2, 1e-5) is None
    wrong = [np.float32(2.3), ref[1] * 2]
    assert "difference" in timing.agree(ref, wrong, 1e-2, 1e-5)
    assert "shape" in timing.agree(ref, [ref[0], ref[1][:3]], 1e-2, 1e-5)


def test_round_robin_rotates_and_takes_medians():
    calls = []

    def system(name, t):
        def run():
            calls.append(name)
            return t
        return run
    times, ratios, spreads = timing.round_robin(
        [system("a", 1.0), system("b", 2.0), system("c", 4.0)], rounds=6, warmup=0)
    assert times == [1.0, 2.0, 4.0] and ratios == [1.0, 0.5, 0.25]
    assert spreads == [(1.0, 1.0), (0.5, 0.5), (0.25, 0.25)]      # no noise: no spread
    firsts = {calls[3 * k] for k in range(6)}
    assert firsts == {"a", "b", "c"}                   # each system goes first in some rounds


def test_round_robin_spread_is_the_middle_half_of_the_per_round_ratios():
    a_times = iter([1.0, 1.0, 1.0, 1.0, 1.0])
    b_times = iter([1.0, 2.0, 4.0, 5.0, 10.0])       # ratios a/b: 1, .5, .25, .2, .1
    _, ratios, spreads = timing.round_robin([lambda: next(a_times), lambda: next(b_times)],
                                            rounds=5, warmup=0)
    assert ratios[1] == 0.25
    # statistics.quantiles' exclusive method on (.1, .2, .25, .5, 1): 0.15 and 0.75
    assert spreads[1] == pytest.approx((0.15, 0.75))
    assert timing.quartiles([3.0]) == (3.0, 3.0)


def test_a_sample_of_several_runs_reports_the_cpu_time_of_one(monkeypatch):
    ticks = [0.0]
    monkeypatch.setattr(timing, "clock", lambda: ticks[0])
    calls = []

    def step():                 # each run takes 2 "seconds" on the patched clock
        calls.append(1)
        ticks[0] += 2.0
    assert timing.timed_here(step, repeat=5)() == 2.0 and len(calls) == 5
    assert timing.timed_here(step)() == 2.0 and len(calls) == 6


def _counting_workload():
    runs = [0]

    def step():
        runs[0] += 1
    step.check = lambda: np.array(runs[0])
    return step


def test_a_worker_runs_its_workload_repeat_times_a_sample():
    worker = timing.Worker({"count": _counting_workload}, "count", repeat=4)
    try:
        samples = [worker(), worker()]
        assert all(isinstance(t, float) and t > 0.0 for t in samples), samples
        assert int(worker.check()) == 8          # two samples of four runs
    finally:
        worker.close()


def test_w3_samples_are_several_steps_and_the_rest_one_run():
    import workloads
    assert workloads.runs_per_sample("W3") == workloads.RUNS_PER_SAMPLE["W3"] > 1
    for name in ("tapeviz W3", "numpy W3", "torch W3", "tapeviz W3 events",
                 "tapeviz W3 recording"):
        assert workloads.runs_per_sample(name) == workloads.RUNS_PER_SAMPLE["W3"]
    for name in ("tapeviz W1", "autograd W2", "numpy W4", "tapeviz W6", "W1"):
        assert workloads.runs_per_sample(name) == 1


def test_report_says_when_noise_can_decide_a_verdict():
    target = ("<=", 1.10, "ratio")
    inside = report.row("engine", "W3", 4.3, "ms", ratio=1.106, target=target,
                        spread=(1.08, 1.13))
    clear = report.row("engine", "W1", 5.0, "us", ratio=0.47, target=("<=", 0.5, "ratio"),
                       spread=(0.46, 0.48))
    no_spread = report.row("engine", "W4", 227.0, "ms", ratio=1.02, target=("<=", 1.03, "ratio"))
    assert report.verdict(inside) == "MISSED (noise)" and report.met(inside) is False
    assert report.verdict(clear) == "met" and report.verdict(no_spread) == "met"
    text = report.table([inside, clear, no_spread])
    assert "1.080-1.130" in text and "MISSED (noise)" in text
    assert "does not settle the verdict" in text
    assert "(noise)" not in report.table([clear, no_spread])


def test_a_run_whose_a_a_rows_stray_from_one_is_called_disturbed():
    w3 = report.row("engine", "W3 vs NumPy", 3.9, "ms", ratio=1.08, target=("<=", 1.10, "ratio"),
                    spread=(1.07, 1.09))
    quiet = report.row("engine", "W3 against itself", 3.8, "ms", ratio=1.004,
                       spread=(0.99, 1.02), floor=True)
    shaken = report.row("engine", "W1 against itself", 4.7, "us", ratio=0.628,
                        spread=(0.600, 0.983), floor=True)
    # a workload far from 1 is not a floor row: only rows marked floor count
    far = report.row("engine", "W1 vs autograd", 4.6, "us", ratio=0.43)
    assert report.disturbed([w3, quiet, far]) == []
    assert "DISTURBED" not in report.table([w3, quiet, far])
    assert report.disturbed([w3, quiet, shaken]) == [shaken]
    text = report.table([w3, quiet, shaken])
    assert "DISTURBED: W1 against itself read 0.628x (middle half 0.600-0.983)" in text
    edge = dict(quiet, ratio=1.0 + report.DISTURBED_AT + 0.001)
    assert report.disturbed([edge]) == [edge]
    # a median near 1 whose rounds were not: the 2026-11-26 11:15 run's W1 A/A row
    wide = dict(quiet, ratio=0.983, spread=[0.832, 1.048])
    assert report.disturbed([w3, quiet, wide]) == [wide]
    assert "DISTURBED: W3 against itself read 0.983x (middle half 0.832-1.048)" in \
        report.table([w3, wide])
    reach = 1.0 + report.DISTURBED_SPREAD_AT
    assert report.disturbed([dict(quiet, spread=[0.99, reach - 0.001])]) == []
    assert report.disturbed([dict(quiet, spread=[0.99, reach + 0.001])]) != []
    assert report.disturbed([dict(quiet, spread=[2 - reach - 0.001, 1.01])]) != []


def test_a_value_target_inside_the_spread_of_repeated_values_is_noise():
    rows = _by_name(report.recording_rows(dict(RECORDING, writer_events_per_s_cpu=203000.0,
                                               writer_events_per_s_cpu_spread=[196000.0,
                                                                                208000.0])))
    real = rows["writer, real MLP events (697 B each), CPU time"]
    assert report.met(real) is True and report.verdict(real) == "met (noise)"
    assert "196,000-208,000" in report.table([real])
    clear = dict(real, spread=[201000.0, 208000.0])
    assert report.verdict(clear) == "met"
    listed = "\n".join(report.extras(dict(RECORDING, writer_events_per_s_cpu_spread=[1, 2])))
    assert "a_new_measure" in listed and "writer_events_per_s_cpu_spread" not in listed


def test_the_writer_segments_median_and_quartiles():
    import recording_throughput
    mq = recording_throughput._median_and_quartiles
    mid, q1, q3 = mq([3.0, 1.0, 2.0, 4.0, 100.0])
    assert mid == 3.0 and 1.0 < q1 < 3.0 < q3 < 100.0    # a burst moves no median
    assert mq([5.0]) == (5.0, 5.0, 5.0)
    assert all(x != x for x in mq([]))


def test_instructions_py_help_and_refuses_a_bad_range():
    script = os.path.join(BENCH, "instructions.py")
    out = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert "callgrind" in out and "--tree" in out
    bad = subprocess.run([sys.executable, script, "tapeviz W1", "--few", "5", "--many", "5"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--many must be larger" in bad.stderr   # before valgrind


def test_the_recorded_w3_workload_records_its_steps_and_cleans_up():
    import workloads
    from tapeviz.recording import load_recording
    step = workloads.FACTORIES["tapeviz W3 recording"]()
    try:
        step()
        step()
        path = step.recording.path
        step.recording.flush()
        kinds = [e.kind for e in load_recording(path)]
        assert kinds.count("gradient_finished") == 2 and kinds.count("op_recorded") >= 20
    finally:
        step.close()
    assert not os.path.exists(path)


def test_e1_fit_and_the_hand_written_loop_make_the_same_updates():
    # E1 times model.fit against the guide's GradientTape loop: both must train alike
    import timing
    import workloads
    fit, loop = workloads.FACTORIES["fit E1"](), workloads.FACTORIES["loop E1"]()
    assert timing.agree(fit.check(), loop.check(), 1e-4, 1e-6) is None


def test_e2_epochs_see_every_sample_once_in_a_new_order(monkeypatch):
    # E2 times a tf.data pipeline feeding W3's step: each epoch must be the whole data set
    import training_loops
    seen = []
    make_step = training_loops._w3_step

    def spying_step():
        step = make_step()
        return lambda x, labels: (seen.append(np.asarray(labels)), step(x, labels))[1]
    monkeypatch.setattr(training_loops, "_w3_step", spying_step)
    epoch = training_loops.FACTORIES["tf.data E2"]()
    epoch()
    epoch()
    _, labels = training_loops.epoch_data()
    first, second = np.concatenate(seen[:8]), np.concatenate(seen[8:])
    assert len(seen) == 16
    assert sorted(first) == sorted(second) == sorted(labels)
    assert list(first) != list(second)


def test_markdown_has_every_row_its_verdict_and_escapes_pipes():
    rows = [report.row("engine", "W1 a | b", 6.4, "us", peer="autograd", peer_value=10.0,
                       ratio=0.64, target=("<=", 0.6, "ratio"), spread=(0.62, 0.66)),
            report.row("engine", "W3", 3.7, "ms", peer="numpy", peer_value=3.5, ratio=1.06,
                       target=("<=", 1.10, "ratio"))]
    text = report.markdown(["machine: test box, 2026-01-01 00:00 UTC"], rows, ["a note"])
    lines = text.splitlines()
    assert "machine: test box, 2026-01-01 00:00 UTC" in lines
    table = [ln for ln in lines if ln.startswith("| ")]
    assert table[0] == "| " + " | ".join(report.HEADER) + " |"
    assert "| W1 a \\| b | 6.40 us | autograd 10.00 us | 0.640x | 0.620-0.660 | <= 0.60x | MISSED |" in table
    assert "| W3 | 3.70 ms | numpy 3.50 ms | 1.060x |  | <= 1.10x | met |" in table
    assert lines[-1] == "- a note"
    # every row has as many cells as the header
    assert {ln.count(" | ") for ln in table[:1] + table[2:]} == {len(report.HEADER) - 1}


def test_write_figures_replaces_only_the_block(tmp_path):
    doc = tmp_path / "performance.md"
    doc.write_text(f"# Performance\nprose before\n{report.FIGURES_BEGIN}\nold table\n"
                   f"{report.FIGURES_END}\nprose after\n")
    report.write_figures(doc, "new table\nsecond line")
    assert doc.read_text() == (f"# Performance\nprose before\n{report.FIGURES_BEGIN}\nnew table\n"
                               f"second line\n{report.FIGURES_END}\nprose after\n")
    doc.write_text("# Performance\nno block here\n")
    with pytest.raises(ValueError, match="no figures block"):
        report.write_figures(doc, "x")
    assert doc.read_text() == "# Performance\nno block here\n"


def test_the_performance_page_has_one_figures_block():
    with open(os.path.join(os.path.dirname(BENCH), "docs", "performance.md")) as fh:
        text = fh.read()
    assert text.count(report.FIGURES_BEGIN) == 1 and text.count(report.FIGURES_END) == 1
    assert text.index(report.FIGURES_BEGIN) < text.index(report.FIGURES_END)


def test_the_w7_cnn_step_computes_what_the_hand_written_numpy_step_computes():
    """The timed CNN steps agree (loss and every parameter's update), so W7 compares equals."""
    import cnn_workloads
    import workloads
    assert {"tapeviz W7", "numpy W7"} <= set(workloads.FACTORIES)
    ours = timing.to_numpy(cnn_workloads.tapeviz_cnn().check())
    theirs = cnn_workloads.numpy_cnn().check()
    assert timing.agree(ours, theirs, *workloads.TOLERANCES["W7"]) is None
    assert all(np.abs(update).max() > 0 for update in theirs[1:])   # every parameter moved
