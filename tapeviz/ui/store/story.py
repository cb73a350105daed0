"""Which tapes and gradient calls a bounded store keeps: the ones that tell a run's story
before the newest, and the newest before later repeats of the same anomaly.

A diverging run's NaN arrives after many calls, and then every call is NaN: keeping only the
newest tapes would keep 50 identical NaN tapes and drop the steps where the weights blew up,
and a dead layer's first ``None``/zero gradient. So each gradient call gets a rank, and its
tape the best rank of its calls:

- ``TURNED`` (4): gradients turned NaN/Inf after finite ones (or on the first call);
- ``CHANGED`` (3): some source's verdict changed (its first ``none``/``zero``, back to a value);
- ``FIRST`` (2): one of the first ``FIRST_CALLS`` calls, or the norm jumped (a flight
  recording's ``why`` says ``first`` or ``jump``);
- ``LEAD_UP`` (1): written as the lead-up of a later anomalous call (flight recordings);
- 0: anything else: a periodic call, a plain one, a repeat of an anomaly already seen.

When the bound is hit, the newest ``reserve(limit)`` kept ones and the tapes still open are
never dropped (a live view follows them); among the others the lowest rank goes first: in
rank 0 the oldest (the newest say how the run ends), in a story rank the newest (the first
time something happened tells more than its repeats).

>>> victim([1, 2, 3, 4, 5], {1: FIRST, 2: 0, 3: 0, 4: CHANGED}, limit=4)
2
>>> victim([1, 2, 3, 4, 5], {1: FIRST, 2: FIRST, 4: FIRST, 5: 0}, limit=4)
4
"""
from __future__ import annotations

TURNED, CHANGED, FIRST, LEAD_UP = 4, 3, 2, 1
#: calls of a recording that rank FIRST whatever they hold (the start of the story)
FIRST_CALLS = 3
#: sources whose last verdict is remembered (then forgotten all at once)
MAX_SOURCES = 10_000
#: what a rank means, for people
RANK_WORDS = {TURNED: "gradients turned NaN/Inf there", CHANGED: "a source's verdict changed there",
              FIRST: "one of the first calls, or a jump of the gradient norm",
              LEAD_UP: "the lead-up of an anomalous call",
              0: "a periodic call, a plain one, or a repeat of an anomaly already seen"}
#: a flight recording's ``why`` (``call_summary``) as a rank; ``verdict`` is ranked from the
#: call's own results (a NaN repeated on every call is not news)
WHY_RANKS = {"first": FIRST, "jump": FIRST, "lead-up": LEAD_UP}


def reserve(limit: int) -> int:
    """How many of the newest kept ones are never dropped."""
    return max(1, limit // 5)


def victim(kept, rank: dict, limit: int, keep=()):
    """The key of ``kept`` (oldest first) to drop first."""
    keys = list(kept)
    candidates = [k for k in keys[:max(0, len(keys) - reserve(limit))] if k not in keep]
    if not candidates:
        return keys[0]
    low = min(rank.get(k, 0) for k in candidates)
    same = [k for k in candidates if rank.get(k, 0) == low]
    return same[0] if low == 0 else same[-1]


def call_rank(store, call: dict, results: list) -> int:
    """The rank of a finished call from its results (and the verdicts seen before it)."""
    store.calls_seen += 1
    rank = FIRST if store.calls_seen <= FIRST_CALLS else 0
    nonfinite = any(r.get("verdict") in ("nan", "inf") for r in results)
    if nonfinite and not store._last_nonfinite:
        rank = TURNED
    store._last_nonfinite = nonfinite
    seen = store._verdicts
    if len(seen) > MAX_SOURCES:
        seen.clear()
    for r in results:
        ref = r.get("tensor") or {}
        key = r.get("source_name") or ref.get("name") or ref.get("id")
        verdict = r.get("verdict") or "value"
        before = seen.get(key)
        seen[key] = verdict
        if verdict != before and not (before is None and verdict == "value"):
            rank = max(rank, CHANGED)
    return rank


def raise_rank(store, call_id, rank: int) -> None:
    """Call ``call_id`` (and its tape) ranks at least ``rank``."""
    call = store.calls.get(call_id)
    if call is None or rank <= store.call_ranks.get(call_id, 0):
        return
    store.call_ranks[call_id] = rank
    tid = call["tape"]
    if tid in store.tapes and rank > store.tape_ranks.get(tid, 0):
        store.tape_ranks[tid] = rank
