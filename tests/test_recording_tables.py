"""The recording writer's tables (tapeviz/recording/tables.py) compact an event's refs and site;
`WriterTables.compact` runs in C (tapeviz/recording/_tables.c) when that was built, and in
Python otherwise. Both must leave the same dicts, tables and definition lines, event after
event: a difference would be a recording that reads back wrong."""
import copy
import os

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import events
from tapeviz.events.deferred import _DICT_MAKERS, _dict_maker
from tapeviz.recording import tables


def test_the_c_tables_are_built():
    if os.environ.get("TAPEVIZ_PURE_PYTHON", "") not in ("", "0"):
        assert tables._c_compact is None
        return
    assert tables._c_compact is not None, (
        "tapeviz/recording/_tables.c was not built (no C compiler when `pip install -e .` "
        "ran?): recordings are still written, by the Python version, more slowly")
    assert tables.WriterTables.compact is tables.WriterTables._compact_c


@pytest.fixture
def c_tables(monkeypatch):
    """The C module itself, behind `_compact_c` in the tests that compare, also where
    TAPEVIZ_PURE_PYTHON=1 left it unused. Not built, this import fails the test: the two
    versions are compared, never one of them skipped."""
    from tapeviz.recording._tables import compact
    monkeypatch.setattr(tables, "_c_compact", compact)
    return compact


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
    return [(type(e), (_DICT_MAKERS.get(type(e)) or _dict_maker(type(e)))(e)) for e in got]


def _compact_all(method, dicts, max_refs=None):
    t = tables.WriterTables()
    lines, out = [], []
    for cls, data in copy.deepcopy(dicts):
        lines.append(method(t, cls, data))
        out.append(data)
        if max_refs is not None and len(t.refs) > max_refs:
            lines.append(t.clear())
    return out, lines, t


@pytest.mark.parametrize("max_refs", [None, 3])
def test_c_and_python_compact_real_events_the_same_way(max_refs, c_tables):
    dicts = _engine_event_dicts()
    c = _compact_all(tables.WriterTables._compact_c, dicts, max_refs)
    py = _compact_all(tables.WriterTables._compact_python, dicts, max_refs)
    assert c[0] == py[0] and c[1] == py[1]
    assert c[2].refs == py[2].refs and c[2].sites == py[2].sites
    assert c[2].by_line == py[2].by_line
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


def test_c_and_python_agree_on_hand_made_and_odd_events(c_tables):
    dicts = [(events.EVENT_TYPES[kind], data) for kind, data in HAND_MADE]
    c = _compact_all(tables.WriterTables._compact_c, dicts)
    py = _compact_all(tables.WriterTables._compact_python, dicts)
    assert c[0] == py[0] and c[1] == py[1] and c[2].refs == py[2].refs
    assert c[0][1]["tensor"] == 1                     # repeated: its id
    assert c[0][2]["tensor"]["name"] == "changed"     # changed: in full again
    assert c[0][3]["tensor"] == 1                     # equal, keys in another order
    assert c[0][5]["tensor"] == 12 and c[0][6]["tensor"] == 12     # -0.0 == 0.0
    assert type(c[0][7]["tensor"]) is dict            # nan != 0.0: in full
    assert c[0][9]["site"] == {"file": ["unhashable"], "line": 1}   # not a key: inline
    assert c[0][11]["inputs"] == [2, 2]


@pytest.mark.parametrize("method", ["_compact_c", "_compact_python"])
def test_a_missing_field_or_a_raising_comparison_is_an_error_the_writer_handles(method, c_tables):
    compact = getattr(tables.WriterTables, method)
    t = tables.WriterTables()
    with pytest.raises(KeyError):
        compact(t, events.Watched, {"site": None})               # no "tensor" field
    compact(t, events.Watched, {"tensor": {"id": 4, "w": _Weird()}, "site": None})
    with pytest.raises(TypeError, match="no comparing me"):
        compact(t, events.Watched, {"tensor": {"id": 4, "w": _Weird()}, "site": None})


def test_a_recording_written_with_either_reads_back_the_same(tmp_path, monkeypatch, c_tables):
    loaded = {}
    for which in ("_compact_python", "_compact_c"):
        monkeypatch.setattr(tables.WriterTables, "compact",
                            getattr(tables.WriterTables, which))
        path = tmp_path / f"{which}.tvz"
        with events.capture() as live, tv.record(path):
            _engine_event_dicts()
        back = tv.load_recording(path)
        kept = [e for e in live if e.kind != "op_defined"]
        assert [e.to_dict() for e in kept] == [e.to_dict() for e in back
                                               if e.kind != "op_defined"]
        loaded[which] = path.read_bytes().count(b"\n")
    assert len(set(loaded.values())) == 1            # the same number of lines either way


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


@pytest.mark.parametrize("method", ["_compact_c", "_compact_python"])
def test_a_comparison_that_changes_the_event_under_the_writer_is_survived(method, c_tables):
    compact = getattr(tables.WriterTables, method)
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
