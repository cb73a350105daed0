"""What a recording writes once and then names: source sites and tensor refs (version 2),
and a backward step's total that is its gradient (version 3).

An event repeats what earlier events already said: the source line of every op in a loop,
and the same tensor ref (with its summary) as one op's output, the next op's input, a
watched variable, a gradient's source. The writer writes each site once, as a line
``{"kind": "site", "id": 3, "site": {...}}``, and an event's ``site`` is then that id; a
tensor ref identical to the last one written for the same tensor id is written as the bare
id. Readers substitute both back, so the events they hand out equal the emitted ones.

Both tables stay bounded: after :data:`MAX_REFS` tensor ids the writer forgets its refs and
writes ``{"kind": "refs_cleared"}``, and readers forget theirs there too.

In a ``backward_step``, an input's first gradient is also its running total: the engine hands
the same summary for both, and the writer leaves ``total`` out (:func:`totals_once`; a
summary with its value is a sixth of a training step's bytes). Readers put it back.

The source lines around each new site go before its definition (``sources.py``).

Imports: stdlib, ``events``, ``encode`` and ``sources``.
"""
from __future__ import annotations


from .. import events as _events
from ..events import SCHEMA_VERSION, sanitize
from .encode import _encode
from .sources import SourceWindows, take

#: The writer forgets its tensor refs (and says so in the file) past this many tensor ids.
#: Small on purpose: every ref it holds is an event's dicts kept alive, which the garbage
#: collector then traverses again and again as they age (4,096 refs cost a process writing
#: fresh MLP events 58.8k instructions an event, 256 cost 47.3k, callgrind); most refs are
#: named again within a few ops, and a forgotten one is only written in full once more
#: (1,025 -> 1,033 bytes an event).
MAX_REFS = 256

#: Per event kind, the fields that hold tensor refs: (name, holds a list of them).
REF_FIELDS = {
    "watched": (("tensor", False),),
    "escaped": (("tensor", False),),
    "variable_assigned": (("variable", False), ("value", False)),
    "op_recorded": (("inputs", True), ("outputs", True)),
    "gradient_started": (("targets", True), ("sources", True)),
}
_REF_FIELDS_BY_CLASS = {_events.EVENT_TYPES[k]: v for k, v in REF_FIELDS.items()}
_GradientFinished = _events.GradientFinished
_WITH_REFS = frozenset(_REF_FIELDS_BY_CLASS) | {_GradientFinished}

CLEARED = b'{"kind":"refs_cleared"}\n'

class WriterTables:
    """The writer's half: replaces sites and repeated refs in an event's dict (a fresh
    ``to_dict()``: its top level is replaced, nothing it shares with the event is changed)."""

    __slots__ = ("sites", "by_line", "refs", "windows")

    def __init__(self):
        self.sites: dict = {}        # site items -> id
        self.by_line: dict = {}      # (file, line) -> (id, site): the usual hit, checked by ==
        self.refs: dict = {}         # tensor id -> the ref last written in full
        self.windows = SourceWindows()   # the source lines already carried

    def site(self, site: dict):
        """``(id, definition line to write first or b"")`` for a site; ``(site, b"")`` (written
        inline) for a hand-made one that cannot be a key. The engine hands out a fresh copy of
        a site per event: (file, line) finds it without hashing all its items."""
        try:
            key = (site.get("file"), site.get("line"))
            hit = self.by_line.get(key)
            if hit is not None and hit[1] == site:
                return hit[0], b""
            items = tuple(site.items())
            sid = self.sites.get(items)
        except TypeError:             # an unhashable value in a hand-made site
            return site, b""
        line = b""
        if sid is None:     # remembered only once its definition line exists
            sid = len(self.sites) + 1
            # the source lines around it first (sources.py): viewers read no disk
            line = self.windows.lines_for(site) + _encode(
                sanitize({"kind": "site", "id": sid, "site": site})).encode("ascii") + b"\n"
            self.sites[items] = sid
        self.by_line[key] = (sid, dict(site))
        return sid, line

    def compact(self, cls, data: dict) -> bytes:
        """Replaces ``data``'s site and repeated refs by their ids, remembering the refs it
        leaves in full at once (a later ref of the same tensor in this event names it: readers
        resolve fields in the same order). Returns the line to write before the event (a new
        site's definition) or ``b""``. Should the event not be written as compacted here, the
        writer forgets every ref (:meth:`clear`). The site comes last: a ref that raises
        (a hand-made one whose ``==`` does) leaves no site remembered without its line."""
        spec = _REF_FIELDS_BY_CLASS.get(cls)
        carried = b""             # source lines of explanations (sources.py)
        if spec is not None:      # inline, not a call per ref: most events hold two or three
            refs = self.refs
            for name, many in spec:
                value = data[name]
                if not many:
                    if type(value) is dict:
                        tid = value.get("id")
                        if type(tid) is int:
                            known = refs.get(tid)
                            if known is not None and (known is value or known == value):
                                data[name] = tid
                            else:
                                refs[tid] = value
                    continue
                if type(value) is not list:
                    continue
                out = []
                for ref in value:
                    if type(ref) is dict:
                        tid = ref.get("id")
                        if type(tid) is int:
                            known = refs.get(tid)
                            if known is not None and (known is ref or known == ref):
                                out.append(tid)
                                continue
                            refs[tid] = ref
                    out.append(ref)
                data[name] = out
        elif cls is _GradientFinished:
            ref = self._ref
            carried = self.windows.lines_for_results(data["results"])
            data["results"] = [
                {**r, "tensor": ref(r["tensor"])} if type(r) is dict and "tensor" in r
                else r for r in data["results"]]
        site = data.get("site")
        if type(site) is dict:
            try:    # the usual case, without a call: the site the last event at its line had
                hit = self.by_line.get((site.get("file"), site.get("line")))
                if hit is not None and hit[1] == site:
                    data["site"] = hit[0]
                    return carried
            except TypeError:         # an unhashable value in a hand-made site: site() decides
                pass
            data["site"], defined = self.site(site)
            return carried + defined
        return carried

    def _ref(self, ref):
        if type(ref) is dict:
            tid = ref.get("id")
            if type(tid) is int:
                known = self.refs.get(tid)
                if known is not None and (known is ref or known == ref):
                    return tid
                self.refs[tid] = ref
        return ref

    def full(self) -> bool:
        """More tensor ids remembered than :data:`MAX_REFS`: time to :meth:`clear`."""
        return len(self.refs) > MAX_REFS

    def clear(self) -> bytes:
        """Forget every ref (after an event written another way, or a full table); returns
        the line that tells readers to forget theirs."""
        self.refs.clear()
        return CLEARED


def totals_once(input_grads):
    """A backward step's ``input_grads`` as written: an entry whose ``total`` *is* its
    ``grad`` (the engine's own summary, the same object) without ``total``; the list itself
    otherwise unchanged."""
    if type(input_grads) is not list:
        return input_grads
    return [{k: v for k, v in ig.items() if k != "total"}
            if type(ig) is dict and ig.get("total") is ig.get("grad") is not None else ig
            for ig in input_grads]


class ReaderTables:
    """The reader's half: sites and refs back into an event's dict, from the lines so far."""

    __slots__ = ("sites", "refs", "names_refs", "omits_totals", "sources")

    def __init__(self):
        self.sites: dict = {}
        self.refs: dict = {}
        self.sources: dict = {}      # file -> {line number: text}: the source it carries
        self.set_version(SCHEMA_VERSION)

    def set_version(self, major: int) -> None:
        """What a file of that major version leaves for readers to put back."""
        self.names_refs = major >= 2        # version 1 files: nothing to remember
        self.omits_totals = major >= 3

    def define(self, data: dict) -> bool:
        """True when ``data`` is a table line (``site``, ``refs_cleared``, ``source``) and was
        taken in."""
        kind = data.get("kind")
        if kind == "site":
            sid, site = data.get("id"), data.get("site")
            if type(sid) is not int or type(site) is not dict:
                raise ValueError("a 'site' line needs an integer \"id\" and a \"site\" object")
            self.sites[sid] = site
            return True
        if kind == "refs_cleared":
            self.refs.clear()
            return True
        return take(self.sources, data)

    def site(self, sid: int):
        """The site of that id (a copy: each event its own dict), or None if undefined."""
        site = self.sites.get(sid)
        return None if site is None else dict(site)

    def resolve(self, data: dict) -> None:
        """Tensor ids in ref fields become their refs; refs in full are remembered. Raises
        ValueError for an id no earlier line holds (the line that did was lost)."""
        if not self.names_refs:
            return
        kind = data.get("kind")
        if kind == "backward_step":
            if self.omits_totals and type(data.get("input_grads")) is list:
                for ig in data["input_grads"]:
                    if type(ig) is dict and "total" not in ig:
                        grad = ig.get("grad")
                        ig["total"] = dict(grad) if type(grad) is dict else grad
            return
        spec = REF_FIELDS.get(kind)
        if spec is not None:
            for name, many in spec:
                value = data.get(name)
                if many:
                    if type(value) is list:
                        data[name] = [self._ref(r) for r in value]
                elif value is not None:
                    data[name] = self._ref(value)
        elif kind == "gradient_finished" and type(data.get("results")) is list:
            for r in data["results"]:
                if type(r) is dict and "tensor" in r:
                    r["tensor"] = self._ref(r["tensor"])

    def _ref(self, ref):
        if type(ref) is int:
            found = self.refs.get(ref)
            if found is None:
                raise ValueError(f"refers to tensor {ref}, which no earlier line holds")
            copy = dict(found)
            if type(copy.get("summary")) is dict:
                copy["summary"] = dict(copy["summary"])
            return copy
        if type(ref) is dict and type(ref.get("id")) is int:
            self.refs[ref["id"]] = ref
        return ref
