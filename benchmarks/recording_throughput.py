"""How fast events are written, what listening costs, and how much memory following takes.

    .venv/bin/python benchmarks/recording_throughput.py            # writer + cost of events
    .venv/bin/python benchmarks/recording_throughput.py --follow   # also: follow 1M events
    .venv/bin/python benchmarks/recording_throughput.py --instructions   # callgrind counts

1. Writer throughput: fresh events of an MLP training loop (each step's payloads built just
   before) are fed to a recording writer (tables, JSON encoding, batching, file writes and
   flushes), then closed: events/s and MB/s, of CPU time and of wall time. Then the same
   with the events unbuilt, as a recording that is their only reader gets them: the writer
   builds each payload (the engine's summaries are computed before, untimed, and the build
   returns them).
2. Cost of events on the MLP step (batch 32, 8-16-16-1, tanh and relu, MSE, gradient of
   five variables): no subscriber (the engine's flag check only), a no-op subscriber (events
   built and delivered), a recording of every event to a file and one with the default
   (flight) policy, each with its size per training step; the writer's share of a recorded
   step is what the full recording adds to the no-op subscriber's step, over that step.
3. With --instructions: what the writer costs a process per event in instructions (callgrind:
   steady where CPU time on a shared VM moves 10-30%). A fresh Python makes 6,000 fresh MLP
   events chunk by chunk, once feeding them to a writer and once not; the difference is the
   writer's whole cost, the garbage collection its tables cause included. Needs valgrind.
4. With --follow: a 1,000,000-event recording is written, then followed in a fresh process
   with ``follow_recording(...).poll()``; its peak resident memory is printed (bounded: the
   file is read in 64 KiB chunks and events are dropped once consumed).
Prints numbers only; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapeviz as tv  # noqa: E402
from tapeviz import events  # noqa: E402
from tapeviz.recording import record, writer  # noqa: E402
from timing import quartiles  # noqa: E402


def mlp():
    rng = np.random.default_rng(0)
    x = tv.constant(rng.normal(size=(32, 8)).astype(np.float32))
    y = tv.constant(rng.normal(size=(32, 1)).astype(np.float32))
    params = [tv.Variable(rng.normal(size=s).astype(np.float32) * 0.3, name=n)
              for s, n in [((8, 16), "w1"), ((16,), "b1"), ((16, 16), "w2"), ((16, 1), "w3"),
                           ((1,), "b3")]]
    w1, b1, w2, w3, b3 = params

    def step():
        with tv.GradientTape() as tape:
            h = tv.tanh(tv.matmul(x, w1) + b1)
            h = tv.nn.relu(tv.matmul(h, w2))
            out = tv.matmul(h, w3) + b3
            loss = tv.reduce_mean(tv.square(out - y))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(0.01 * g)
        return loss
    return step


def per_step(step, n):
    """CPU seconds per step (the machine may be shared: CPU time is steadier than wall)."""
    step()
    t0 = time.process_time()
    for _ in range(n):
        step()
    return (time.process_time() - t0) / n


def engine_events(total, deferred=False):
    """Fresh events of an MLP training loop, one step's at a time, their payloads built just
    before (as the writer's first read would build them, so they are as warm in the CPU's
    caches as in a real recording): every event is a new object with new dicts, so nothing
    repeats by identity that would not repeat in a real run (replaying one captured list
    would flatter identity caches and the writer's tables).

    ``deferred``: the engine's events are left unbuilt, as a recording that is their only
    reader meets them; their payloads (summaries, refs, sites: the engine's work) are
    computed just before, and the writer builds the event from them, as in a recording."""
    step = mlp()
    got = []
    sub = events.subscribe(got.append, replay_definitions=True)
    sent = 0
    try:
        while sent < total:
            step()
            chunk = got[:total - sent]
            got.clear()
            for e in chunk:
                if not deferred or not events.unbuilt(e):
                    events.materialize(e)
                    continue
                build, args = e._build
                object.__setattr__(e, "_build", (_built(build(*args)), ()))
            sent += len(chunk)
            yield chunk
    finally:
        sub.close()


def _built(values):
    return lambda: values


def writer_throughput(total=200_000):
    out, sample = _fresh_events_writer(total, deferred=False)
    out.update(_fresh_events_writer(total, deferred=True)[0])
    return _encoders_and_scalars(total, sample, out)


def _fresh_events_writer(total, deferred):
    sizes, sample = {}, []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bench.tvz")
        rec = record(path, full=True)
        rec._subscription.close()          # feed it directly: measure the writer alone
        # and no background flusher: every flush is then inline (every 2,048 events or
        # 1 MiB, and at close), inside the timed calls, never between them
        writer._open_recordings.remove(rec)
        on_event = rec._on_event
        dt = cpu = 0.0
        segments, seg_events, seg_cpu = [], 0, 0.0    # events/s of CPU time, SEGMENTS of them
        for chunk in engine_events(total, deferred):
            if len(sample) < 200:     # about 5 steps, for the encoders alone below
                sample += chunk
            for e in chunk:
                sizes[e.kind] = sizes.get(e.kind, 0) + 1
            t0, c0 = time.perf_counter(), time.process_time()
            for e in chunk:
                on_event(e)
            c1 = time.process_time()
            dt += time.perf_counter() - t0
            cpu += c1 - c0
            seg_events, seg_cpu = seg_events + len(chunk), seg_cpu + c1 - c0
            if seg_events >= total // SEGMENTS:
                segments.append(seg_events / seg_cpu)
                seg_events, seg_cpu = 0, 0.0
        t0, c0 = time.perf_counter(), time.process_time()
        rec.close()
        c1 = time.process_time()
        dt += time.perf_counter() - t0
        cpu += c1 - c0
        if seg_events:       # the last events (and the close's flush) are the last segment
            segments.append(seg_events / (seg_cpu + c1 - c0))
        size = os.path.getsize(path)
    mid, q1, q3 = _median_and_quartiles(segments)
    spread = (f"median of {len(segments)} segments of about {total // SEGMENTS:,} events "
              f"{mid:,.0f} events/s of CPU time (middle half {q1:,.0f}-{q3:,.0f})")
    if not deferred:
        print(f"writer, real events (fresh from {total:,} events of MLP steps: {sizes}; "
              f"encoded, written, flushed, closed):\n"
              f"  {total:,} events, {size / total:.0f} bytes/event: {total / dt:,.0f} events/s "
              f"wall ({size / dt / 1e6:.1f} MB/s), {total / cpu:,.0f} events/s of CPU time;"
              f"\n  {spread}")
        return {"writer_events": total, "writer_bytes_per_event": size / total,
                "writer_events_per_s_wall": total / dt,
                "writer_events_per_s_cpu_whole": total / cpu,
                "writer_events_per_s_cpu": mid,
                "writer_events_per_s_cpu_spread": [q1, q3]}, sample
    print(f"  the same events unbuilt, as a recording that is their only reader gets them (the "
          f"writer builds their payloads; the engine's summaries computed before, untimed):"
          f"\n  {total / dt:,.0f} events/s wall, {total / cpu:,.0f} events/s of CPU time; "
          f"{spread}")
    return {"writer_deferred_events_per_s_wall": total / dt,
            "writer_deferred_events_per_s_cpu": mid}, sample


#: The writer's pass is timed in this many segments: on a shared machine a neighbour's burst
#: slows one of them, and their median (with its middle half) says what the writer does.
SEGMENTS = 8


def _median_and_quartiles(values):
    if not values:
        return float("nan"), float("nan"), float("nan")
    return (statistics.median(values), *quartiles(values))


def _encoders_and_scalars(total, sample, out):
    dicts = [e.to_dict() for e in sample]
    n = max(1, 50_000 // len(dicts))
    c0 = time.process_time()
    for _ in range(n):
        for d in dicts:
            json.dumps(d, allow_nan=False)
    cpu = time.process_time() - c0
    print(f"  for scale: json.dumps alone on the same events: "
          f"{n * len(dicts) / cpu:,.0f} events/s of CPU time")
    out["json_dumps_events_per_s"] = n * len(dicts) / cpu
    try:
        import orjson
    except ImportError:
        print("  (orjson is not installed: the writer uses the stdlib encoder)")
    else:
        c0 = time.process_time()
        for _ in range(n):
            for d in dicts:
                orjson.dumps(d)
        cpu = time.process_time() - c0
        print(f"  for scale: orjson.dumps alone on the same events: "
              f"{n * len(dicts) / cpu:,.0f} events/s of CPU time")
        out["orjson_dumps_events_per_s"] = n * len(dicts) / cpu

    small = [events.make(events.Scalar, name="loss", value=0.5 + i, step=i) for i in range(total)]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "small.tvz")
        rec = record(path, full=True)
        rec._subscription.close()
        t0, c0 = time.perf_counter(), time.process_time()
        for e in small:
            rec._on_event(e)
        rec.close()
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        size = os.path.getsize(path)
    print(f"writer, scalar events ({size / total:.0f} bytes/event): {total / dt:,.0f} events/s "
          f"wall, {total / cpu:,.0f} events/s of CPU time")
    out.update(scalar_writer_bytes_per_event=size / total,
               scalar_writer_events_per_s_wall=total / dt,
               scalar_writer_events_per_s_cpu=total / cpu)
    return out


def calibration():
    t0 = time.perf_counter()
    for _ in range(2_000_000):
        pass
    loop = (time.perf_counter() - t0) / 2_000_000 * 1e9
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}, empty Python loop "
          f"{loop:.0f} ns/iteration (a typical 2024 laptop: ~10 ns)")


def cost_of_events(n=300):
    step = mlp()
    off = per_step(step, n)
    with events.subscribe(lambda e: None):
        on = per_step(step, n)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "mlp.tvz")
        with record(path, full=True):
            rec = per_step(step, n)
        size = os.path.getsize(path) / (n + 1)      # per_step runs one step before timing
        path = os.path.join(d, "flight.tvz")
        with record(path):                          # the default (flight) policy
            flight = per_step(step, n)
        flight_size = os.path.getsize(path) / (n + 1)
    with events.capture() as seen:
        step()
    print(f"MLP step, CPU time: events off {off * 1e6:,.0f} us | no-op subscriber {on * 1e6:,.0f} us "
          f"(x{on / off:.2f}) | recording to a file {rec * 1e6:,.0f} us (x{rec / off:.2f}), "
          f"{size / 1024:.1f} KiB of recording per step\n"
          f"  recording adds {(rec - on) * 1e6 / len(seen):.1f} us per event to the no-op "
          f"subscriber's cost ({len(seen)} events a step: payloads built, then written): "
          f"the writer's share of a recorded step {(rec - on) / rec:.0%}\n"
          f"  default (flight) recording {flight * 1e6:,.0f} us (x{flight / off:.2f}), "
          f"{flight_size / 1024:.2f} KiB of recording per step (the first calls and every "
          f"100th in full)")
    return {"events_off_us": off * 1e6, "events_noop_us": on * 1e6,
            "events_recording_us": rec * 1e6, "recording_kib_per_step": size / 1024,
            "events_flight_us": flight * 1e6, "flight_kib_per_step": flight_size / 1024}


_FOLLOW = r"""
import resource, sys, time
from tapeviz.recording import follow_recording
f = follow_recording(sys.argv[1], poll=0.01)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter(); n = 0
while not f.ended:
    n += len(f.poll(max_events=5000))
dt = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(f"follow: {n:,} events in {dt:.1f} s = {n / dt:,.0f} events/s; peak RSS {peak / 1024:.0f} MB "
      f"(after import {base / 1024:.0f} MB, growth {(peak - base) / 1024:.1f} MB), end: {f.reason}")
"""


def follow_memory(total=1_000_000):
    step = mlp()
    with events.capture() as seen:
        step()
    sample = list(seen)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "big.tvz")
        rec = record(path, full=True)
        rec._subscription.close()
        for i in range(total):
            rec._on_event(sample[i % len(sample)])
        rec.close()
        print(f"follow: wrote {total:,} events, {os.path.getsize(path) / 1e6:,.0f} MB")
        subprocess.run([sys.executable, "-c", _FOLLOW, path], check=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _fed_or_not(write, deferred, total):
    """The process --instructions counts: ``total`` fresh events, written or not."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "counted.tvz")
        rec = record(path, full=True)
        rec._subscription.close()
        writer._open_recordings.remove(rec)
        for chunk in engine_events(total, deferred):
            if write:
                for e in chunk:
                    rec._on_event(e)
        rec.close()
        print(f"bytes {os.path.getsize(path)}")


def writer_instructions(total=6000):
    import re
    if not shutil.which("valgrind"):
        print("--instructions needs valgrind (apt-get install valgrind)")
        return {}
    env = dict(os.environ, PYTHONHASHSEED="0", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = {}
    for deferred, label in ((False, "built"), (True, "unbuilt")):
        counts = []
        for write in (False, True):
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                 sys.executable, os.path.abspath(__file__), "--count-child",
                 f"{int(write)}{int(deferred)}{total}"], capture_output=True, text=True, env=env)
            refs = re.search(r"refs:\s*([\d,]+)", run.stderr)
            if run.returncode or not refs:
                raise SystemExit(f"callgrind failed:\n{run.stderr[-2000:]}")
            counts.append((int(refs.group(1).replace(",", "")),
                           int(run.stdout.split()[-1])))
        per_event = (counts[1][0] - counts[0][0]) / total
        print(f"writer, {label} MLP events: {per_event:,.0f} instructions an event "
              f"(callgrind), {counts[1][1] / total:,.0f} bytes an event")
        out[f"writer_{label}_instructions_per_event"] = per_event
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--follow", action="store_true", help="also follow 1M events")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the writer's instructions an event (valgrind)")
    parser.add_argument("--count-child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", default=None, help="also write the numbers to this file")
    args = parser.parse_args()
    if args.count_child:     # WDN: write 0/1, deferred 0/1, then the number of events
        c = args.count_child
        _fed_or_not(c[0] == "1", c[1] == "1", int(c[2:]))
        sys.exit(0)
    calibration()
    numbers = writer_throughput()
    numbers.update(cost_of_events())
    if args.instructions:
        numbers.update(writer_instructions())
    if args.follow:
        follow_memory()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(numbers, fh, indent=1)
