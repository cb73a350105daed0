"""`tv.debug`: gradient checks against central finite differences in float64.

* `gradcheck(fn, inputs)` checks the whole function: the gradient of a random projection
  `Σ fn(*inputs) · R` against finite differences, input by input.
* `check_tape(fn, *inputs)` (or `check_tape(persistent_tape)`) checks every backward step on
  its own: for each recorded op it re-runs the op's NumPy forward in float64 on perturbed
  inputs and compares with the op's VJP, then reports the worst relative error per op, so a
  wrong derivative rule is found by name even deep inside a model.

>>> import tapeviz as tv
>>> report = tv.debug.gradcheck(lambda x: tv.sin(x) * x, [[0.5, -1.0, 2.0]])
>>> report.ok
True
>>> tv.debug.check_tape(lambda x: tv.nn.softplus(x) * x, [0.3, -0.2]).ok
True
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["gradcheck", "check_tape", "GradcheckReport", "TapeCheckReport"]


# --- shared ----------------------------------------------------------------------------------
def _errors(analytic, numeric, rtol, atol):
    """(worst absolute error, worst relative error, all within atol + rtol·|numeric|)."""
    analytic = np.asarray(analytic, dtype=np.float64)
    numeric = np.asarray(numeric, dtype=np.float64)
    diff = np.abs(analytic - numeric)
    if diff.size == 0:
        return 0.0, 0.0, True
    both_nan = np.isnan(analytic) & np.isnan(numeric)
    diff = np.where(both_nan, 0.0, diff)
    scale = np.maximum(np.maximum(np.abs(analytic), np.abs(numeric)), atol)
    rel = diff / scale
    ok = bool(np.all(diff <= atol + rtol * np.abs(numeric)))
    return float(np.nanmax(diff)), float(np.nanmax(rel)), ok


def _table(header, rows) -> str:
    cells = [header] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(x) -> str:
    return f"{x:.2e}" if isinstance(x, float) else str(x)


def _sum_to(g, shape):
    """Sum a broadcast gradient back to `shape` (what the engine's backprop does)."""
    g = np.asarray(g)
    if g.shape == tuple(shape):
        return g
    extra = g.ndim - len(shape)
    if extra > 0:
        g = g.sum(axis=tuple(range(extra)))
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    return g.sum(axis=axes, keepdims=True).reshape(shape) if axes else g.reshape(shape)


def _sample_positions(shape, limit, rng):
    n = int(np.prod(shape)) if len(shape) else 1
    flat = np.arange(n) if n <= limit else np.sort(rng.choice(n, size=limit, replace=False))
    return [np.unravel_index(i, shape) if len(shape) else () for i in flat]


# --- gradcheck -----------------------------------------------------------------------------------
@dataclass
class GradcheckReport:
    """Worst errors per input of `gradcheck`; `ok` when every input is within tolerance."""
    rows: list = field(default_factory=list)   # dicts: input, shape, abs_error, rel_error, ok
    rtol: float = 0.0
    atol: float = 0.0

    @property
    def ok(self) -> bool:
        return all(r["ok"] for r in self.rows)

    @property
    def worst(self) -> float:
        return max((r["rel_error"] for r in self.rows), default=0.0)

    def __bool__(self):
        return self.ok

    def __str__(self):
        rows = [[r["input"], tuple(r["shape"]), _fmt(r["abs_error"]), _fmt(r["rel_error"]),
                 "ok" if r["ok"] else "FAIL"] for r in self.rows]
        return (f"gradcheck (rtol={self.rtol:g}, atol={self.atol:g}, float64 central "
                f"differences)\n" + _table(["input", "shape", "max abs err", "max rel err",
                                            "status"], rows))


def gradcheck(fn, inputs, eps=1e-6, rtol=1e-5, atol=1e-6, seed=0, raise_on_failure=True):
    """Check tapeviz's gradients of `fn` at `inputs` against central finite differences.

    The scalar checked is `Σ fn(*inputs) · R` (summed over every output, R a fixed random
    array per output), so every element of every output matters. Floating inputs are taken
    in float64; integer inputs are passed as they are and not checked. Returns a
    `GradcheckReport`; raises `AssertionError` with its table when an input fails (unless
    `raise_on_failure=False`).
    """
    from . import GradientTape, constant, convert_to_tensor, reduce_sum
    from .engine.tensor import _Operand

    if not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    arrays = []
    for x in inputs:
        a = np.asarray(x._read() if isinstance(x, _Operand) else x)
        arrays.append(a.astype(np.float64) if a.dtype.kind == "f" or a.dtype.kind == "O"
                      else a)
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f"]
    rng = np.random.default_rng(seed)
    outs = _outputs(fn(*[constant(a) for a in arrays]))
    projections = [rng.normal(size=tuple(o.shape)) for o in outs]

    def objective(tensors):
        total = None
        for o, r in zip(_outputs(fn(*tensors)), projections):
            if o._value.dtype.kind != "f":
                continue
            term = reduce_sum(o * constant(r.astype(o._value.dtype)))
            total = term if total is None else total + term
        return total

    def value(arrs):
        out = objective([constant(a) for a in arrs])
        return 0.0 if out is None else float(np.asarray(out._value, dtype=np.float64))

    tensors = [constant(a) for a in arrays]
    with GradientTape() as tape:
        for i in floats:
            tape.watch(tensors[i])
        out = objective(tensors)
    grads = tape.gradient(out, [tensors[i] for i in floats]) if out is not None else \
        [None] * len(floats)
    report = GradcheckReport(rtol=rtol, atol=atol)
    for i, g in zip(floats, grads):
        # (a gather's gradient comes as IndexedSlices: compared as its dense tensor)
        analytic = np.zeros(arrays[i].shape) if g is None else \
            np.asarray(convert_to_tensor(g)._value)
        numeric = np.zeros(arrays[i].shape)
        for idx in np.ndindex(arrays[i].shape):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            numeric[idx] = (value(plus) - value(minus)) / (2 * eps)
        abs_err, rel_err, ok = _errors(analytic, numeric, rtol, atol)
        report.rows.append({"input": i, "shape": arrays[i].shape, "abs_error": abs_err,
                            "rel_error": rel_err, "ok": ok, "gradient_is_none": g is None})
    if raise_on_failure and not report.ok:
        raise AssertionError("gradients differ from finite differences\n" + str(report))
    return report


def _outputs(y):
    from .engine import nest
    return [t for t in nest.flatten(y)]


# --- check_tape ------------------------------------------------------------------------------------
@dataclass
class TapeCheckReport:
    """The worst relative error of each op's VJP on a tape, against finite differences."""
    rows: list = field(default_factory=list)   # dicts: op, calls, abs_error, rel_error, ok, site
    skipped: list = field(default_factory=list)   # (op, reason)
    rtol: float = 0.0
    atol: float = 0.0

    @property
    def ok(self) -> bool:
        return all(r["ok"] for r in self.rows)

    @property
    def worst(self) -> dict:
        """{op name: worst relative error}."""
        return {r["op"]: r["rel_error"] for r in self.rows}

    def __bool__(self):
        return self.ok

    def assert_ok(self):
        if not self.ok:
            raise AssertionError("backward steps differ from finite differences\n" + str(self))

    def __str__(self):
        rows = [[r["op"], r["calls"], _fmt(r["abs_error"]), _fmt(r["rel_error"]),
                 "ok" if r["ok"] else "FAIL", r["site"] or ""] for r in self.rows]
        text = (f"check_tape (rtol={self.rtol:g}, atol={self.atol:g}, each VJP against float64 "
                f"central differences of its op)\n" +
                _table(["op", "calls", "max abs err", "max rel err", "status",
                        "worst at"], rows))
        if self.skipped:
            text += "\nskipped: " + ", ".join(f"{op} ({why})" for op, why in self.skipped)
        return text


def check_tape(tape_or_fn, *inputs, eps=1e-6, rtol=1e-4, atol=1e-6, max_elements=24, seed=0,
               raise_on_failure=False):
    """Check every backward step recorded on a tape against finite differences in float64.

    `tape_or_fn` is either a function, run on `inputs` (as float64 tensors, all watched)
    under a persistent tape, or a persistent `GradientTape` that has recorded ops and not yet
    released them. For each recorded op with a gradient, a random upstream gradient `u` is
    pulled back through the op's VJP and compared with `d<u, forward(x)>/dx` by central
    differences of the op's own NumPy forward in float64 (at most `max_elements` sampled
    positions per input). Returns a `TapeCheckReport` (worst relative error per op).
    """
    from . import GradientTape, constant
    from .engine.op import ValueNotKept
    from .engine.tensor import _Operand

    if isinstance(tape_or_fn, GradientTape):
        tape = tape_or_fn
        # a one-shot tape keeps its records after gradient() with tv.config.keep_values (or
        # when its answer was None, zero or NaN, for explain())
        entries = tape._entries or tape._kept_entries
        if not entries and tape._used:
            raise ValueError("check_tape: this tape released its records after gradient(); "
                             "record with tv.GradientTape(persistent=True) or set "
                             "tv.config.keep_values = True first, or pass the function and "
                             "its inputs: check_tape(fn, *inputs)")
    else:
        tensors = []
        for x in inputs:
            a = np.asarray(x._read() if isinstance(x, _Operand) else x)
            tensors.append(constant(a.astype(np.float64) if a.dtype.kind == "f" else a))
        from . import config
        keep, config.keep_values = config.keep_values, True   # every op's inputs, to re-run it
        try:
            with GradientTape(persistent=True) as tape:
                for t in tensors:
                    if t._value.dtype.kind == "f":
                        tape.watch(t)
                tape_or_fn(*tensors)
        finally:
            config.keep_values = keep
        entries = tape._entries
    rng = np.random.default_rng(seed)
    per_op: dict = {}
    skipped: dict = {}
    for node, ins, outs in list(entries or ()):
        op = node.op
        if op.vjps is None:
            continue
        if op.name.startswith("CustomGradient"):
            skipped[op.name] = "a custom gradient's forward cannot be re-run"
            continue
        if any(type(t._value) is ValueNotKept for t in ins):
            skipped[op.name] = ("the tape kept only what its gradient reads, not its inputs; "
                                "set tv.config.keep_values = True before recording")
            continue
        try:
            result = _check_entry(op, node, ins, outs, eps, rtol, atol, max_elements, rng)
        except Exception as exc:  # an op whose forward cannot run in float64
            skipped[op.name] = f"{type(exc).__name__}: {exc}"
            continue
        if result is None:
            continue
        abs_err, rel_err, ok = result
        row = per_op.get(op.name)
        site = _site_text(node)
        if row is None:
            per_op[op.name] = {"op": op.name, "calls": 1, "abs_error": abs_err,
                               "rel_error": rel_err, "ok": ok, "site": site}
        else:
            row["calls"] += 1
            row["ok"] = row["ok"] and ok
            row["abs_error"] = max(row["abs_error"], abs_err)
            if rel_err > row["rel_error"]:
                row["rel_error"], row["site"] = rel_err, site
    report = TapeCheckReport(rows=sorted(per_op.values(), key=lambda r: -r["rel_error"]),
                             skipped=sorted(skipped.items()), rtol=rtol, atol=atol)
    if raise_on_failure:
        report.assert_ok()
    return report


def _site_text(node):
    site = node.site
    if site is None:
        return None
    code, line = site
    return f"{code.co_filename.rsplit('/', 1)[-1]}:{line}"


def _as64(value):
    a = np.asarray(value)
    return a.astype(np.float64) if a.dtype.kind == "f" else a


def _check_entry(op, node, ins, outs, eps, rtol, atol, max_elements, rng):
    from .engine.op import leaf_node
    from .engine.tensor import Tensor

    attrs = node.attrs or {}
    x64 = [_as64(t._value) for t in ins]
    y = op.forward(*x64, **attrs)
    ys = list(y) if isinstance(y, (tuple, list)) else [y]
    ys = [np.asarray(v) for v in ys]
    float_out = [v.dtype.kind == "f" for v in ys]
    if not any(float_out):
        return None
    # an op that forces a lower precision output (a cast to float32) needs a wider step
    low = min((np.finfo(v.dtype).eps for v in ys if v.dtype.kind == "f"), default=1e-16)
    step = eps if low < 1e-10 else max(eps, float(np.sqrt(low)) * 10)
    tol = rtol if low < 1e-10 else max(rtol, 1e-2)
    ups = [rng.normal(size=v.shape) if f else np.zeros(v.shape) for v, f in zip(ys, float_out)]

    def const(a):
        return Tensor(np.asarray(a), leaf_node("Const"))

    def objective(arrays):
        out = op.forward(*arrays, **attrs)
        outs_ = list(out) if isinstance(out, (tuple, list)) else [out]
        return float(sum(np.sum(np.asarray(o, dtype=np.float64) * u)
                         for o, u, f in zip(outs_, ups, float_out) if f))

    in_t = [const(a) for a in x64]
    y_t = [const(v) for v in ys]
    g_t = [const(u.astype(v.dtype, copy=False)) for u, v in zip(ups, ys)]
    multi = op.n_out != 1
    worst = (0.0, 0.0, True)
    checked = False
    for i, x in enumerate(x64):
        if x.dtype.kind != "f" or op.vjps[i] is None:
            continue
        gx = op.vjps[i](tuple(g_t) if multi else g_t[0], tuple(y_t) if multi else y_t[0],
                        *in_t, **attrs)
        analytic_full = np.zeros(x.shape) if gx is None else _sum_to(np.asarray(gx._value),
                                                                     x.shape)
        positions = _sample_positions(x.shape, max_elements, rng)
        analytic = np.array([analytic_full[p] for p in positions], dtype=np.float64)
        numeric = np.empty(len(positions))
        for k, p in enumerate(positions):
            plus = list(x64)
            minus = list(x64)
            plus[i] = x.copy()
            minus[i] = x.copy()
            plus[i][p] += step
            minus[i][p] -= step
            numeric[k] = (objective(plus) - objective(minus)) / (2 * step)
        err = _errors(analytic, numeric, tol, atol)
        checked = True
        worst = (max(worst[0], err[0]), max(worst[1], err[1]), worst[2] and err[2])
    return worst if checked else None
