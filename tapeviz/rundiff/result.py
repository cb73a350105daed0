"""What a diff returns: plain data (dataclasses of numbers, strings, lists and dicts).

Node ids are the recordings' own (``op_recorded.node``), so a view of either run can colour
its graph by ``forward_rel`` or ``grad_rel`` and draw the ops of the other run only as ghosts.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field


@dataclass
class OpDiff:
    """An op of the two runs: an aligned pair, or an op of one run only (the other side's
    fields None). An assignment to a variable (``op`` ``"assign_sub"``...) has no node id."""
    node_a: int | None
    node_b: int | None
    op_a: str | None
    op_b: str | None
    scope: str
    site_a: dict | None                 # {"file", "line", "func", "code"}
    site_b: dict | None
    matched_by: str                     # "line", "code", "graph", "changed" (the line was
                                        # edited: another op type); "" for one run only
    position: int                       # in execution order, over both runs' ops
    forward_rel: float | None = None    # relative difference of its outputs (None: one side)
    forward_differs: bool = False       # beyond tolerance, or dtype or shape differ
    why: str = ""                       # e.g. "values differ", "dtype float32 vs float64"
    compared_by: str = ""               # "value" (elements) or "summary" (statistics)
    grad_rel: float | None = None       # relative difference of the gradients its backward
    grad_differs: bool = False          # step produced (for its inputs), in the aligned calls
    outputs_a: list = field(default_factory=list)   # its outputs' summaries
    outputs_b: list = field(default_factory=list)
    inputs_differ: list | None = None   # for the first divergences only: which inputs differ
                                        # ({"index", "name", "kind", "rel", "why"}); [] none

    @property
    def structural(self) -> bool:
        """In one run only, or from an edited line."""
        return self.op_a is None or self.op_b is None or self.matched_by == "changed"


@dataclass
class StepDiff:
    """A backward step of an aligned pair of gradient calls whose gradients differ (or that
    ran in one call only)."""
    call_a: int | None
    call_b: int | None
    step_a: int | None
    step_b: int | None
    node_a: int | None
    node_b: int | None
    op: str
    site_a: dict | None
    site_b: dict | None
    rel: float
    why: str
    grads_a: list = field(default_factory=list)     # its input gradients' summaries
    grads_b: list = field(default_factory=list)


@dataclass
class GradientDiff:
    """One source's gradient in an aligned pair of calls: both verdicts and their distance."""
    name: str
    call_a: int | None
    call_b: int | None
    rel: float | None                   # None: a gradient on neither side
    differs: bool
    why: str
    verdict_a: str | None               # "value", "none", "zero", "nan", "inf"; None: absent
    verdict_b: str | None
    cause_a: str | None
    cause_b: str | None
    norm_a: float | None
    norm_b: float | None


@dataclass
class RunDiff:
    """Two runs compared: see ``docs/diff.md``. ``str()`` gives the text report."""
    a: str
    b: str
    rtol: float
    atol: float
    pairs: list                          # OpDiff, both sides, in execution order
    only_a: list                         # OpDiff of run a only
    only_b: list                         # OpDiff of run b only
    first_divergence: OpDiff | None      # the first op (execution order) structural or beyond
    first_forward: OpDiff | None         # the first aligned op whose values differ
    first_backward: StepDiff | None
    gradients: list                      # GradientDiff, per call pair and source
    calls: list                          # [call_a, call_b] pairs compared
    warnings: list = field(default_factory=list)

    @property
    def differ(self) -> bool:
        return bool(self.first_divergence or self.first_backward or
                    any(g.differs for g in self.gradients) or
                    any(a is None or b is None for a, b in self.calls))

    def to_dict(self) -> dict:
        """Plain JSON-able data (``inf`` stays a float: write with ``allow_nan`` or convert)."""
        out = dataclasses.asdict(self)
        out["differ"] = self.differ
        return out

    def __str__(self) -> str:
        from .report import report
        return report(self)
