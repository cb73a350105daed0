"""What a page must show for the `# truth:` markers of the broken-runs corpus (tests/broken_runs/,
the marker syntax is in its README): the checks shared by the exported page, the served
dashboard and the notebook widget, so that the three are held to one reading of a marker.

A marker names a source, a verdict, a cause, a line and, optionally, an op instance
(``op=Relu#6``: the 6th ReLU recorded at that line, on that call's tape). On a page, the Why
card of that source gives the cause, names the line and shows its code, says which instance
it is ("the 6th of") when the marker names one, and the graph marks that op, or the closed
group that holds it (its tooltip naming the op), with the cause's flag."""
from __future__ import annotations

import importlib.util
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "broken_runs"
SCRIPTS = sorted(p.stem for p in CORPUS.glob("*.py"))

# the graph's mark for a cause an explanation gives (the legend: tape_graph.FLAGS)
FLAG_OF_CAUSE = {"dead_relu": "dead_relu", "nan_origin": "nonfinite", "inf_origin": "nonfinite",
                 "saturated": "saturated", "clipped": "clipped"}


def truths(script: pathlib.Path) -> list:
    """``[(source, verdict, cause, options, line)]``: tests/test_broken_runs.py's parser."""
    spec = importlib.util.spec_from_file_location("broken_runs_truths",
                                                  ROOT / "tests" / "test_broken_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.truths(script)


def places(option, n: int) -> list:
    """The gradient calls (1-based places in the run) a marker's ``call=`` option names."""
    if option in (None, "last"):
        return [n]
    if option == "first":
        return [1]
    return list(range(1, n + 1)) if option == "all" else [int(option)]


def marked_at(script: pathlib.Path, place: int, n: int) -> list:
    """The markers of ``script`` that hold at its ``place``-th gradient call of ``n``."""
    return [t for t in truths(script) if place in places(t[3].get("call"), n)]


def marked_places(script: pathlib.Path, n: int) -> list:
    """The gradient calls (places) of a run of ``n`` calls that some marker names."""
    return sorted({k for t in truths(script) for k in places(t[3].get("call"), n)})


def count(script: pathlib.Path, n: int) -> int:
    """How many (marker, call) pairs a run of ``n`` gradient calls has to show."""
    return sum(len(places(t[3].get("call"), n)) for t in truths(script))


def names_source(card_name: str, source: str) -> bool:
    """Whether a Why card's name (``w1 (w1:0)``, ``w (w9:0)`` for a loop's variable,
    ``w1:0``) is the source a marker names: by the user's name or the tensor's."""
    m = re.fullmatch(r"(.*) \((.*)\)", card_name.strip())
    user, tensor = (m.group(1), m.group(2)) if m else ("", card_name.strip())
    return source in (user, tensor.rsplit(":", 1)[0])


def ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def card_problems(text: str, cause: str, options: dict, line, where: str, code: str) -> list:
    """What a card's text (whitespace folded) fails to say of its marker; ``where`` is how the
    page names the marker's line (``script.py:20``, ``cell [2], line 20``)."""
    wrong = []
    if cause not in text:
        wrong.append(f"no cause {cause}")
    if line is not None:
        if where not in text:
            wrong.append(f"no {where}")
        if " ".join(code.split()) not in text:
            wrong.append(f"no code {code.strip()!r}")
    _, _, k = options.get("op", "").partition("#")
    if k and f"the {ordinal(int(k))} of" not in text:
        wrong.append(f"not which instance (the {ordinal(int(k))} of)")
    return wrong


def instances(events, tape, op: str, line: int, site_file=None) -> list:
    """The ``op_recorded`` events of ``op`` at ``line`` on ``tape``, in the order recorded
    (``site_file``: the site's file must end with it, when given)."""
    return [e for e in events if e.kind == "op_recorded" and e.op == op and tape in e.tapes
            and (e.site or {}).get("line") == line
            and (site_file is None or str((e.site or {}).get("file", "")).endswith(site_file))]


def marked_on_graph(nodes: dict, ops: list, options: dict, flag: str) -> bool:
    """Whether the drawn graph (``nodes``: the ``nodes`` source's columns) marks with
    ``flag`` the op instance ``options['op']`` names among ``ops`` (those at its line; any of
    them when no instance is named): its own node, or a closed group whose tooltip names it."""
    _, _, k = options.get("op", "").partition("#")
    wanted = [ops[int(k) - 1]] if k else ops
    for e in wanted:
        key = f"op{e.node}"
        if key in nodes["key"]:
            if nodes["flag"][nodes["key"].index(key)] == flag:
                return True
            continue
        out = (e.outputs or [{}])[0].get("name", "")
        if any(kk.startswith("grp:") and f == flag and re.search(rf"\b{re.escape(out)}\b", s)
               for kk, f, s in zip(nodes["key"], nodes["flag"], nodes["summary"])):
            return True
    return False
