"""Aligning the forward ops of two runs.

Ops are matched in three passes, each only among the ops the passes before left over:

1. ``line``: the same op type, name scope, file name and line, and the same occurrence of
   that key (the third ``MatMul`` of line 21 with the third), so a training loop's step k
   meets step k whatever else changed.
2. ``code``: the same op type, scope and source text, by occurrence: the code moved (lines
   added above it, another file name) but reads the same.
3. ``graph``: the same op type and scope whose inputs are aligned ops (or leaves of the same
   name and shape): the line moved and was edited, but computes the same thing from the same
   things. Ops are taken in execution order, so producers are aligned before consumers.

What is left are the ops of one run only; two of them from the same line and occurrence (a
``Relu`` where the other run has a ``Tanh``) form a ``changed`` pair: the line was edited.
"""
from __future__ import annotations

import re
from collections import defaultdict

from .runs import site_file


def align(ops_a: list, ops_b: list):
    """``(pairs, only_a, only_b)``: pairs ``(i, j, matched_by)`` of indexes into the two
    timelines, in A's order; the indexes of the unmatched ops of each side."""
    files = _file_map(ops_a, ops_b)
    partner: dict = {}                      # i -> (j, how)
    taken: set = set()

    def line_key(op, file_of=lambda f: f):
        site = op["site"] or {}
        return op["op"], op["scope"], file_of(site_file(site)), site.get("line")

    def code_key(op):
        code = (op["site"] or {}).get("code") or None
        return (op["op"], op["scope"], code) if code else None

    for key_a, key_b, how in ((lambda op: line_key(op, files.get), line_key, "line"),
                              (code_key, code_key, "code")):
        match_by_key(ops_a, ops_b, key_a, key_b, partner, taken, how)
    _match_by_graph(ops_a, ops_b, partner, taken)
    changed_key = (lambda op: (op["scope"], files.get(site_file(op["site"])),
                               (op["site"] or {}).get("line")),
                   lambda op: (op["scope"], site_file(op["site"]), (op["site"] or {}).get("line")))
    match_by_key(ops_a, ops_b, *changed_key, partner, taken, "changed")
    pairs = [(i, j, how) for i, (j, how) in sorted(partner.items())]
    only_a = [i for i in range(len(ops_a)) if i not in partner]
    only_b = [j for j in range(len(ops_b)) if j not in taken]
    return pairs, only_a, only_b


def match_by_key(ops_a, ops_b, key_a, key_b, partner, taken, how) -> None:
    """Pair the k-th unmatched op of each key in A with the k-th of that key in B."""
    waiting = defaultdict(list)
    for j, op in enumerate(ops_b):
        if j not in taken:
            key = key_b(op)
            if key is not None:
                waiting[key].append(j)
    used = defaultdict(int)
    for i, op in enumerate(ops_a):
        if i in partner:
            continue
        key = key_a(op)
        if key is None:
            continue
        queue = waiting.get(key)
        k = used[key]
        if queue and k < len(queue):
            used[key] = k + 1
            partner[i] = (queue[k], how)
            taken.add(queue[k])


def _match_by_graph(ops_a, ops_b, partner, taken) -> None:
    node_b = {}                                 # A's node -> its partner's node in B
    for i, (j, _) in partner.items():
        if ops_a[i]["node"] is not None:
            node_b[ops_a[i]["node"]] = ops_b[j]["node"]
    waiting = defaultdict(list)
    for j, op in enumerate(ops_b):
        if j not in taken:
            waiting[(op["op"], op["scope"], _inputs(op, None))].append(j)
    for i, op in enumerate(ops_a):
        if i in partner:
            continue
        queue = waiting.get((op["op"], op["scope"], _inputs(op, node_b)))
        while queue and queue[0] in taken:
            queue.pop(0)
        if queue:
            j = queue.pop(0)
            partner[i] = (j, "graph")
            taken.add(j)
            if op["node"] is not None:
                node_b[op["node"]] = ops_b[j]["node"]


#: a process-wide counter in a constant's name ("Const_7:0"): runs count differently
_COUNTER = re.compile(r"_\d+(?=:\d+$)")


def _inputs(op, node_b) -> tuple:
    """What an op reads, comparable across runs: the (partner's) producing node of an op
    output, the name and shape of a leaf. ``node_b`` maps A's nodes to B's (None: B's own)."""
    out = []
    for ref in op["inputs"]:
        node = ref.get("node")
        if node is None:
            out.append(("leaf", _COUNTER.sub("", str(ref.get("name"))),
                        str(ref.get("shape"))))
        elif node_b is None:
            out.append(("op", node))
        else:
            out.append(("op", node_b.get(node, ("unaligned", node))))
    return tuple(out)


def _file_map(ops_a, ops_b) -> dict:
    """A's file names to B's: each to itself, and when each run's ops come from one file
    under two names (train_v1.py against train_v2.py), that one to the other."""
    files_a = {site_file(op["site"]) for op in ops_a}
    files_b = {site_file(op["site"]) for op in ops_b}
    mapping = {f: f for f in files_a}
    if len(files_a) == 1 and len(files_b) == 1:
        mapping[next(iter(files_a))] = next(iter(files_b))
    return mapping
