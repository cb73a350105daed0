"""The recording writer's tables (tapeviz/recording/tables.py) compact an event's refs and site;
checked on real and hand-made events: what it compacts, what it leaves in full, and that a
recording reads back as the events were."""
import copy

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events
from tapeviz.recording import tables


def _engine_event_dicts():
    """The dicts a recording writes for a few training steps (refs repeat, variables change)."""
    w = tv.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="w")
    big = tv.Variable(np.ones((10, 10), np.float32), name="big")       # summary without value
    x = tv.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with events.capture() as got:
        for _ in range(3):
            with tv.GradientTape() as tape:
                y = tv.reduce_sum(tv.tanh(tv.matmul(x, w[:3])) * 2.0) + tv.reduce_mean(big)
            gw, gb = tape.gradient(y, [w, big])
            w.assign_sub(0.1 * gw)
            big.assign_sub(0.1 * gb)
    for e in got:
        events.materialize(e)
    return [(type(e), e.to_dict()) for e in got]


def _compact_all(dicts, max_refs=None):
    t = tables.WriterTables()
    lines, out = [], []
    for cls, data in copy.deepcopy(dicts):
        lines.append(t.compact(cls, data))
        out.append(data)
        if max_refs is not None and len(t.refs) > max_refs:
            lines.append(t.clear())
    return out, lines, t


@pytest.mark.parametrize("max_refs", [None, 3])
def test_real_events_are_compacted(max_refs):
    dicts = _engine_event_dicts()
    c = _compact_all(dicts, max_refs)
    # it did compact: bare ids for repeated refs, site ids, and the site definitions
    assert any(type(r) is int for d in c[0] if d.get("inputs") for r in d["inputs"])
    assert all(type(d["site"]) is int for d in c[0] if d.get("site") is not None)
    assert sum(1 for line in c[1] if line.startswith(b'{"kind":"site"')) >= 2


class _Weird:
    """A hand-made value whose == raises (a recording must not crash the writer's caller)."""
    def __eq__(self, other):
        raise TypeError("no comparing me")
    __hash__ = None


HAND_MADE = [
    ("watched", {"tensor": {"id": 1, "name": "a"}, "site": {"file": "f.py", "line": 3}}),
    ("watched", {"tensor": {"id": 1, "name": "a"}, "site": {"file": "f.py", "line": 3}}),
    ("watched", {"tensor": {"id": 1, "name": "changed"}, "site": {"file": "f.py", "line": 3,
                                                                   "code": "x"}}),
    # equal to the last one, keys in another order (== says equal: a bare id)
    ("watched", {"tensor": {"name": "changed", "id": 1}, "site": None}),
    ("watched", {"tensor": {"id": 12, "summary": {"min": 0.0, "max": 1.0}}, "site": None}),
    ("watched", {"tensor": {"id": 12, "summary": {"max": 1.0, "min": 0.0}}, "site": None}),
    ("watched", {"tensor": {"id": 12, "summary": {"max": 1.0, "min": -0.0}}, "site": None}),
    ("watched", {"tensor": {"id": 12, "summary": {"max": 1.0, "min": float("nan")}},
                 "site": None}),
    ("watched", {"tensor": {"id": True, "name": "bool id"}, "site": None}),
    ("watched", {"tensor": 7, "site": {"file": ["unhashable"], "line": 1}}),
    ("op_recorded", {"inputs": [{"id": 1, "name": "changed"}, {"id": 2}, "text", 5],
                     "outputs": ({"id": 3},), "site": "not a dict"}),
    ("op_recorded", {"inputs": [{"id": 2}, {"id": 2}], "outputs": [{"id": 3}]}),
    ("variable_assigned", {"variable": {"id": 9, "summary": {"min": 1.0}},
                           "value": {"id": 10}, "site": {"file": "g.py", "line": 8}}),
    ("variable_assigned", {"variable": {"id": 9, "summary": {"min": 2.0}},
                           "value": {"id": 10}, "site": {"file": "g.py", "line": 8}}),
    ("tape_opened", {"site": {"file": "f.py", "line": 3}}),
]


def test_hand_made_and_odd_events():
    dicts = [(events.EVENT_TYPES[kind], data) for kind, data in HAND_MADE]
    c = _compact_all(dicts)
    assert c[0][1]["tensor"] == 1                     # repeated: its id
    assert c[0][2]["tensor"]["name"] == "changed"     # changed: in full again
    assert c[0][3]["tensor"] == 1                     # equal, keys in another order
    assert c[0][5]["tensor"] == 12 and c[0][6]["tensor"] == 12     # -0.0 == 0.0
    assert type(c[0][7]["tensor"]) is dict            # nan != 0.0: in full
    assert c[0][9]["site"] == {"file": ["unhashable"], "line": 1}   # not a key: inline
    assert c[0][11]["inputs"] == [2, 2]


def test_a_missing_field_or_a_raising_comparison_is_an_error_the_writer_handles():
    compact = tables.WriterTables.compact
    t = tables.WriterTables()
    with pytest.raises(KeyError):
        compact(t, events.Watched, {"site": None})               # no "tensor" field
    compact(t, events.Watched, {"tensor": {"id": 4, "w": _Weird()}, "site": None})
    with pytest.raises(TypeError, match="no comparing me"):
        compact(t, events.Watched, {"tensor": {"id": 4, "w": _Weird()}, "site": None})


def test_a_compacted_recording_reads_back_as_the_events_were(tmp_path):
    path = tmp_path / "compacted.tvz"
    with events.capture() as live, tv.record(path, full=True):
        _engine_event_dicts()
    back = tv.load_recording(path)
    kept = [e for e in live if e.kind != "op_defined"]
    assert [e.to_dict() for e in kept] == [e.to_dict() for e in back if e.kind != "op_defined"]
    assert b'{"kind":"site"' in path.read_bytes()


class _Clearing:
    """A hand-made value whose == empties a dict the writer is working on, and says equal."""
    def __init__(self):
        self.victim = {}

    def __eq__(self, other):
        self.victim.clear()
        return True
    __hash__ = None


class _HashableClearing(_Clearing):
    def __hash__(self):
        return 0


def test_a_comparison_that_changes_the_event_under_the_writer_is_survived():
    compact = tables.WriterTables.compact
    t = tables.WriterTables()
    compact(t, events.Watched, {"tensor": {"id": 5, "w": _Clearing()}, "site": None})
    clearing = _Clearing()
    ref = {"id": 5, "w": clearing}
    clearing.victim = ref                    # the new ref empties itself while compared
    data = {"tensor": ref, "site": None}
    compact(t, events.Watched, data)
    assert data["tensor"] == 5               # it said equal: the id, as == decided
    site_eq = _HashableClearing()            # a site can be a key: remembered by its line
    data = {"tensor": 7, "site": {"file": "f.py", "line": 1, "x": site_eq}}
    compact(t, events.Watched, data)          # a new site: its definition is made
    site_eq.victim = data                     # the same site again, emptying the event
    again = {"tensor": 7, "site": {"file": "f.py", "line": 1, "x": _HashableClearing()}}
    again["site"]["x"].victim = again
    assert compact(t, events.Watched, again) == b""    # survived, and == said equal:
    assert again["site"] == t.by_line[("f.py", 1)][0]  # the known site's id
