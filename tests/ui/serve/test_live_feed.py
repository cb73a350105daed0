"""Following one file from several tabs: one follower and one store for all of them, and
ingestion that steps aside while the user waits for an answer."""
from __future__ import annotations

import gc
import time

import tapeviz as tv
from tapeviz.recording import load_recording
from tapeviz.ui.serve import live_feed
from tapeviz.ui.serve.app import open_dashboard
from tapeviz.ui.store.source import ListSource
from tapeviz.ui.store.store import Store


def _steps(path, steps: int, still_open: bool = True):
    """A recording of ``steps`` training steps; ``still_open``: its footer cut off, as a
    producer still writing leaves it."""
    with tv.record(path, full=True):
        x = tv.Variable(1.0, name="x")
        for _ in range(steps):
            with tv.GradientTape() as tape:
                y = x * x
            tape.gradient(y, x)
    if still_open:
        lines = path.read_bytes().split(b"\n")
        path.write_bytes(b"\n".join(lines[:-2]) + b"\n")


def _events(path) -> list:
    """The event lines of a recording (no header, no footer)."""
    return [l for l in path.read_bytes().split(b"\n")[1:] if l and b"recording_closed" not in l]


def test_two_tabs_following_one_file_share_one_follower_and_store(tmp_path):
    path = tmp_path / "run.tvz"
    _steps(path, 2)
    more = tmp_path / "more.tvz"
    _steps(more, 3)
    a = open_dashboard(str(path), True, "a")
    b = open_dashboard(str(path), True, "b")
    assert a.live.source is b.live.source and a.store is b.store       # one follower, one store
    follower = a.live.source
    assert sum(1 for k in live_feed._FEEDS if k[0] == str(path)) == 1
    extra = _events(more)
    with open(path, "ab") as fh:              # the producer writes more
        fh.write(b"\n".join(extra) + b"\n")
    for _ in range(30):                  # as their periodic callbacks do, a period apart
        time.sleep(a.live.period / 1000)
        a.live.tick()
        b.live.tick()
    # every event once (one reading of the file), not once a tab
    assert a.store.n_events == len(load_recording(path))
    # each tab keeps its own view state
    key = next(n["key"] for n in a.plot.graph["nodes"] if n.get("op") == "Mul")
    a.plot.select(key)
    assert a.plot.selected == key and b.plot.selected == ""
    # closing both tabs drops the feed and closes the file
    del a, b
    gc.collect()
    assert not [k for k in live_feed._FEEDS if k[0] == str(path)]
    assert follower._file is None
    c = open_dashboard(str(path), True, "c")                 # a new tab: a new feed
    assert c.live.source is not follower and c.store.n_events == len(load_recording(path))


class Clock:
    """A clock the test moves: ``now`` seconds, plus ``step`` at every reading."""

    def __init__(self, step=0.0):
        self.now, self.step = 100.0, step

    def __call__(self):
        self.now += self.step
        return self.now


def _feed(n=5_000, clock=None):
    events = [{"kind": "scalar", "name": "loss", "value": float(i), "step": i} for i in range(n)]
    return live_feed.Feed(ListSource(events, batch=100), Store(), clock=clock or Clock())


def test_ingestion_waits_while_an_interaction_is_answered():
    clock = Clock(step=0.001)
    feed = _feed(n=20_000, clock=clock)
    assert feed.pump() is False and feed.store.n_events > 0      # a slice, not everything
    taken = feed.store.n_events
    feed.note_interaction()
    assert feed.yielding()
    assert feed.pump() is False and feed.store.n_events == taken   # the user comes first
    clock.now += live_feed.QUIET
    assert not feed.yielding()
    assert feed.pump() is False and feed.store.n_events > taken
    clock.now += 1.0                       # (after a slice the feed rests as long again)
    feed.pump(budget=None)
    assert feed.store.n_events == 20_000


def test_a_view_still_answering_holds_ingestion_back():
    feed = _feed()

    class View:
        busy = True

        def answering(self):
            return self.busy
    view = View()
    feed.watch(view)
    assert feed.pump() is False and feed.store.n_events == 0
    view.busy = False
    feed.pump()
    assert feed.store.n_events > 0


def test_ingestion_takes_small_slices():
    clock = Clock(step=0.001)            # every reading of the clock: 1 ms later
    feed = _feed(clock=clock)
    feed.pump()
    # a slice is SLICE seconds: a few batches, never the whole backlog in one turn
    assert 0 < feed.store.n_events < 5_000
    assert feed.store.n_events <= 100 * (live_feed.SLICE / 0.001 + 1)


def test_a_click_in_a_followed_view_pauses_ingestion_and_its_own_updates_do_not(tmp_path):
    path = tmp_path / "run.tvz"
    _steps(path, 2)
    d = open_dashboard(str(path), True, "live")
    assert not d.live.feed.yielding()          # building and refreshing the view is not the user
    d.refresh()
    d.live.tick()
    assert not d.live.feed.yielding()
    more = tmp_path / "more.tvz"
    _steps(more, 3)
    with open(path, "ab") as fh:
        fh.write(b"\n".join(_events(more)) + b"\n")
    before = d.store.n_events
    d.side.active = 1                      # the user opens the Backward tab
    assert d.live.feed.yielding()
    time.sleep(d.live.period / 1000)
    d.live.tick()
    assert d.store.n_events == before     # nothing ingested while the answer goes out
