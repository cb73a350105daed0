"""The gradient calls of a recording made with the flight policy, as the store keeps them.

Such a file has a ``call_summary`` line for every gradient call and the full events of a few
(``tapeviz/recording/flight.py``). :class:`FlightCalls` keeps one row per summary, in call
order: what the timeline draws, what the Training charts read (the summaries cover the whole
run, the full events only some calls), and which call a dashboard opens on: the first with a
NaN or Inf gradient, else the first anomalous one (a diverging run's norm jumps long before
its NaN, and the NaN is what its user came for). A call written as the lead-up of a later anomaly is marked kept when that
later call's summary names it. Imports: stdlib and ``limits``.
"""
from __future__ import annotations

from collections import OrderedDict

from .limits import clip_list, clip_name, number

#: ``why`` of a call kept because something went wrong in it
ANOMALOUS = ("verdict", "jump")
#: what ``why`` says, for people
WHY_WORDS = {"first": "one of the first calls", "every": "a periodic call (every N-th)",
             "verdict": "anomalous: a gradient turned NaN, Inf, None or zero",
             "jump": "anomalous: the gradient norm jumped far above its running median",
             "lead-up": "the lead-up of a later anomalous call"}
VERDICTS = ("value", "none", "zero", "nan", "inf")
#: a verdict other than ``value``, as a note says it ("still had NaN gradients")
VERDICT_WORDS = {"none": "None", "zero": "zero", "nan": "NaN", "inf": "Inf"}


#: what an anomalous call holds, most telling first: the first call of the best rank is the
#: one a view opens on
_RANKS = ("nonfinite", "verdict", "jump")


def nonfinite(row: dict) -> bool:
    """Did some source of the call get a NaN or Inf gradient?"""
    return any(s["verdict"] in ("nan", "inf") for s in row["sources"])


def anomaly_rank(row: dict) -> int:
    """0 for a NaN/Inf gradient, 1 for another anomalous verdict, 2 for a jump of the norm,
    ``len(_RANKS)`` for a call that is not anomalous."""
    if row["why"] not in ANOMALOUS:
        return len(_RANKS)
    return 0 if nonfinite(row) else _RANKS.index(row["why"])


def _int(value):
    return value if type(value) is int else None


class FlightCalls:
    """One row per ``call_summary``, at most ``max_rows`` (the oldest go first)."""

    def __init__(self, max_rows: int):
        self.max_rows = max_rows
        self.rows: OrderedDict = OrderedDict()      # call index -> row
        self.index_of: dict = {}                    # engine call id -> call index
        self.open_on = None                         # call id of the call a view opens on
        self._open_rank = len(_RANKS)
        self._began: dict = {}                      # source -> (verdict, call index it began)

    def __len__(self):
        return len(self.rows)

    def add(self, e: dict) -> dict | None:
        """The row of summary ``e`` (None when it has no call index)."""
        index = _int(e.get("index"))
        if index is None:
            return None
        sources = []
        for s in clip_list(e.get("sources")):
            if isinstance(s, dict):
                verdict = s.get("verdict")
                sources.append({"name": clip_name(s.get("name") or "?"),
                                "norm": number(s.get("norm")),
                                "verdict": verdict if verdict in VERDICTS else "value"})
        why = e.get("why") if isinstance(e.get("why"), str) else ""
        row = {"index": index, "call": _int(e.get("call")), "tape": _int(e.get("tape")),
               "norm": number(e.get("norm")), "why": why if why in WHY_WORDS else "",
               "full": e.get("full") is True, "sources": sources,
               "lead_up_dropped": _int(e.get("lead_up_dropped")) or 0}
        for earlier in clip_list(e.get("lead_up")):
            kept = self.rows.get(earlier) if type(earlier) is int else None
            if kept is not None and not kept["full"]:
                kept.update(full=True, why="lead-up")
        row["still"] = self._still(row)
        self.rows[index] = row
        self.index_of[row["call"]] = index
        while len(self.rows) > self.max_rows:
            _, old = self.rows.popitem(last=False)
            if self.index_of.get(old["call"]) == old["index"]:
                del self.index_of[old["call"]]
        rank = anomaly_rank(row)
        if rank < self._open_rank:
            self.open_on, self._open_rank = row["call"], rank
        return row

    def _still(self, row: dict) -> list:
        """``[{"verdict", "names", "since"}]``, one per verdict other than ``value`` that
        sources of ``row`` kept from an earlier call (``since``: where it began). The recorder
        keeps only the call where a verdict changes, so a dead layer's or a NaN's later calls
        are summaries that still hold it."""
        groups: dict = {}
        for s in row["sources"]:
            name, verdict = s["name"], s["verdict"]
            if verdict == "value":
                self._began.pop(name, None)
                continue
            began = self._began.get(name)
            if began is None or began[0] != verdict:
                if len(self._began) >= self.max_rows:     # (bounded, as the rows are)
                    self._began.clear()
                self._began[name] = (verdict, row["index"])
                continue
            group = groups.setdefault(verdict, {"verdict": verdict, "names": [],
                                                "since": began[1]})
            group["names"].append(name)
            group["since"] = min(group["since"], began[1])
        return list(groups.values())

    def first_seen(self, call_id) -> bool:
        """True when the summary of engine call ``call_id`` came already (a lead-up call's
        events follow it; a kept call's come before)."""
        return call_id in self.index_of

    def by_call(self, call_id) -> dict | None:
        index = self.index_of.get(call_id)
        return None if index is None else self.rows.get(index)


def _who(names: list) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def call_text(row: dict, shown: bool) -> str:
    """What a click on a call of the timeline says (plain text). ``shown``: its full events
    are in the view (its tape can be selected)."""
    head = f"Gradient call #{row['index']} (call {row['call']}, tape {row['tape']})"
    still = "".join(f" {_who(g['names'])} still had {VERDICT_WORDS[g['verdict']]} gradients, "
                    f"as since call #{g['since']}." for g in row.get("still") or ())
    if still:
        still += (" (Kept in full where it began: the recording keeps a call when a source's "
                  "verdict changes, not each repeat.)")
    if row["full"] and shown:
        return f"{head}: kept in full, as {WHY_WORDS.get(row['why'], row['why'])}." + \
            (still or "")
    if still and not row["full"]:
        return (f"{head}: summary only.{still} Its gradient norms and logged scalars are in "
                "the charts.")
    if row["full"]:
        return (f"{head}: kept in full in the file, as {WHY_WORDS.get(row['why'], row['why'])}, "
                "but this view dropped its tape: it holds a bounded number of tapes, those "
                "that tell the story first (where gradients turned NaN/Inf, where a verdict "
                "changed, the first calls, jumps, their lead-up; the first of each kind before "
                "its repeats), then the newest, and this run had more of those than room. "
                "Its numbers are in the charts; serve with a larger --keep-tapes to open it.")
    return (f"{head}: summary only. The recording's policy did not keep its full events: it "
            "was not one of the first calls nor a periodic one, nothing in it was anomalous, "
            "and no anomalous call followed closely enough to keep it as lead-up. Its "
            "gradient norms and logged scalars are in the charts.")
