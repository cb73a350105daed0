"""Gradients held against an independent oracle: central finite differences in float64.

Hypothesis draws a random program (1-6 steps of elementwise, broadcasting, reduction, shape,
indexing and matrix ops, each step possibly bringing a new source of a compatible shape) and
a seed for its input values. Every test then checks one identity on that program:

* `gradient` (with random `output_gradients`) equals central differences of the weighted sum;
* `jacobian` equals a loop of `gradient` over one-hot `output_gradients`;
* the Hessian of nested tapes (`outer.jacobian(inner.gradient(f, x), x)`) equals the loop of
  `outer.gradient` rows, central differences of the gradient, and its own transpose;
* `batch_jacobian` of a row-wise program equals the diagonal blocks of `jacobian`.

Profiles: `ci` (default: 40 derandomized examples per test) and `long`
(`HYPOTHESIS_PROFILE=long pytest tests/test_properties.py`: 2,000 random examples per test).
Values come from a seeded NumPy generator, not from Hypothesis, so the structure shrinks while
the values stay typical; steps with a kink (abs, max, clip, where...) report how close they ran
to it, and programs that ran within 1e-4 of a kink are discarded (finite differences straddle
the kink there).
"""
from __future__ import annotations

import os

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tapeviz as tv

settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.filter_too_much])
settings.register_profile("long", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow,
                                                 HealthCheck.filter_too_much])
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

MAX_SIZE = 36        # elements of any intermediate tensor
KINK_MARGIN = 1e-4   # closer than this to a kink: finite differences are meaningless
EPS = 1e-6           # finite-difference step (float64)

# Distances to kinks seen while a program runs (steps append to it; tests read the minimum).
_KINKS: list = []


def _kink(distance):
    d = np.abs(np.asarray(distance, dtype=np.float64))
    if d.size:
        _KINKS.append(float(d.min()))


# ---------------------------------------------------------------------------------------------
# programs


class Step:
    """One step: `fn(cur, *extras)`, taking `extras` (shapes) new sources."""

    def __init__(self, label, fn, extras=()):
        self.label, self.fn, self.extras = label, fn, tuple(extras)

    def __repr__(self):
        extra = f" with new source(s) {list(self.extras)}" if self.extras else ""
        return f"{self.label}{extra}"


class Program:
    """The source x, then steps; `repr` is the program as a reader would write it."""

    def __init__(self, x_shape):
        self.x_shape, self.steps = tuple(x_shape), []

    @property
    def shapes(self):
        return [self.x_shape] + [s for step in self.steps for s in step.extras]

    def run(self, tensors):
        cur, i = tensors[0], 1
        for step in self.steps:
            n = len(step.extras)
            cur = step.fn(cur, *tensors[i:i + n])
            i += n
        return cur

    def __repr__(self):
        body = "\n    ".join(repr(s) for s in self.steps)
        return f"Program(x{list(self.x_shape)}:\n    {body})"


def _out_shape(fn, shape, extras):
    ones = lambda s: tv.constant(np.full(s, 0.7))  # noqa: E731
    return tuple(fn(ones(shape), *[ones(s) for s in extras]).shape)


def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


# --- unary steps (safe domains by construction) ----------------------------------------------
def _pos(x):
    return x * x + 0.5


UNARY = {
    "sin": tv.sin, "cos": tv.cos, "tanh": tv.tanh, "sigmoid": tv.sigmoid, "atan": tv.atan,
    "square": tv.square, "negative": tv.negative, "-x": lambda x: -x,
    "exp(tanh x)": lambda x: tv.exp(tv.tanh(x)),
    "sinh(tanh x)": lambda x: tv.sinh(tv.tanh(x)),
    "cosh(tanh x)": lambda x: tv.cosh(tv.tanh(x)),
    "expm1(tanh x)": lambda x: tv.expm1(tv.tanh(x)),
    "tan(tanh x)": lambda x: tv.tan(tv.tanh(x)),
    "asin(0.9 tanh x)": lambda x: tv.asin(0.9 * tv.tanh(x)),
    "acos(0.9 tanh x)": lambda x: tv.acos(0.9 * tv.tanh(x)),
    "log(x²+.5)": lambda x: tv.math.log(_pos(x)),
    "log1p(x²)": lambda x: tv.math.log1p(x * x),
    "sqrt(x²+.5)": lambda x: tv.sqrt(_pos(x)),
    "rsqrt(x²+.5)": lambda x: tv.math.rsqrt(_pos(x)),
    "reciprocal(x²+.5)": lambda x: tv.math.reciprocal(_pos(x)),
    "(x²+.5)**1.5": lambda x: _pos(x) ** 1.5,
    "pow(x²+.5, 3)": lambda x: tv.pow(_pos(x), 3.0),
    "x**2": lambda x: x ** 2,
    "2*x - 1": lambda x: 2.0 * x - 1.0,
    "1/(x²+.5)": lambda x: 1.0 / _pos(x),
    "identity": tv.identity,
    "softplus": tv.nn.softplus,
    "softsign": tv.nn.softsign,
    "gelu": tv.nn.gelu,
    "softmax": tv.nn.softmax,
    "log_softmax": tv.nn.log_softmax,
    "l2-normalize": lambda x: x / tv.sqrt(tv.reduce_sum(x * x) + 0.5),
}


def _abs(x):
    _kink(x._value)
    return tv.abs(x)


def _clip(x):
    _kink(x._value - 0.5)
    _kink(x._value + 0.5)
    return tv.clip_by_value(x, -0.5, 0.5)


def _relu(x):
    _kink(x._value)
    return tv.nn.relu(x)


def _elu(x):
    _kink(x._value)
    return tv.nn.elu(x)


def _leaky(x):
    _kink(x._value)
    return tv.nn.leaky_relu(x, 0.3)


KINKED_UNARY = {"abs": _abs, "clip_by_value(-.5, .5)": _clip, "relu": _relu, "elu": _elu,
                "leaky_relu(0.3)": _leaky}


@st.composite
def unary_step(draw, shape, rowwise):
    names = sorted(UNARY) + sorted(KINKED_UNARY)
    if len(shape) < (2 if rowwise else 1):
        # softmax mixes the last axis: not a scalar's, and not the batch axis of a row-wise program
        names = [n for n in names if n not in ("softmax", "log_softmax")]
    if rowwise:
        names = [n for n in names if n != "l2-normalize"]   # mixes rows
    name = draw(st.sampled_from(names))
    fn = UNARY.get(name) or KINKED_UNARY[name]
    return Step(name, lambda x, fn=fn: fn(x))


# --- binary steps with broadcasting ------------------------------------------------------------
@st.composite
def compatible_shape(draw, shape, rowwise):
    """A shape that broadcasts with `shape` (possibly growing it)."""
    out = []
    for i, s in enumerate(shape):
        if rowwise and i == 0:
            out.append(draw(st.sampled_from([s, 1])))
        elif s == 1:
            out.append(draw(st.sampled_from([1, 1, 2, 3])))
        else:
            out.append(draw(st.sampled_from([s, s, 1])))
    cut = draw(st.integers(0, len(out)))
    out = out[cut:]    # a suffix: broadcasting aligns the right
    if not rowwise and cut == 0 and len(shape) < 3 and draw(st.booleans()):
        out = [draw(st.integers(1, 3))] + out       # a new leading axis grows x's rank
    return tuple(out)


def _max_margin(a, b):
    _kink(np.broadcast_to(a._value, np.broadcast_shapes(a._value.shape, b._value.shape)) -
          b._value)


BINARY = {
    "add": lambda a, b: tv.add(a, b), "a + b": lambda a, b: a + b,
    "subtract": lambda a, b: tv.subtract(a, b), "a - b": lambda a, b: a - b,
    "multiply": lambda a, b: tv.multiply(a, b), "a * b": lambda a, b: a * b,
    "a / (b²+.5)": lambda a, b: a / _pos(b),
    "divide(a, b²+.5)": lambda a, b: tv.divide(a, _pos(b)),
    "squared_difference": lambda a, b: tv.math.squared_difference(a, b),
    "pow(a²+.5, b)": lambda a, b: tv.pow(_pos(a), b),
    "(a²+.5) ** tanh(b)": lambda a, b: _pos(a) ** tv.tanh(b),
}


def _maximum(a, b):
    _max_margin(a, b)
    return tv.maximum(a, b)


def _minimum(a, b):
    _max_margin(a, b)
    return tv.minimum(a, b)


def _where(a, b):
    _max_margin(a, b)
    return tv.where(a > b, a * b, a + b)


KINKED_BINARY = {"maximum": _maximum, "minimum": _minimum, "where(a > b, a*b, a+b)": _where}


@st.composite
def binary_step(draw, shape, rowwise):
    name = draw(st.sampled_from(sorted(BINARY) + sorted(KINKED_BINARY)))
    fn = BINARY.get(name) or KINKED_BINARY[name]
    other = draw(compatible_shape(shape, rowwise))
    if draw(st.booleans()):
        return Step(f"{name} (a=x, b=new)", lambda x, e, fn=fn: fn(x, e), (other,))
    return Step(f"{name} (a=new, b=x)", lambda x, e, fn=fn: fn(e, x), (other,))


# --- reductions ------------------------------------------------------------------------------
def _var_margin(x, axes):
    _kink(np.var(x._value, axis=None if axes is None else tuple(axes)))


def _max_gap(x, axes):
    """Distance between the max (min) and the nearest different value, per reduced slice."""
    v = x._value
    axes_t = tuple(range(v.ndim)) if axes is None else tuple(a % v.ndim for a in axes)
    moved = np.moveaxis(v, axes_t, tuple(range(-len(axes_t), 0))) if v.ndim else v
    flat = np.asarray(moved).reshape(-1, max(_size(moved.shape[v.ndim - len(axes_t):]), 1))
    for row in flat:
        u = np.unique(row)
        if u.size > 1:
            _kink(np.diff(u).min())


REDUCTIONS = {
    "reduce_sum": tv.reduce_sum, "reduce_mean": tv.reduce_mean, "reduce_prod": tv.reduce_prod,
    "reduce_logsumexp": tv.reduce_logsumexp, "reduce_max": tv.reduce_max,
    "reduce_min": tv.reduce_min, "reduce_variance": tv.math.reduce_variance,
    "reduce_std": tv.math.reduce_std,
}


@st.composite
def reduction_step(draw, shape, rowwise):
    name = draw(st.sampled_from(sorted(REDUCTIONS)))
    fn = REDUCTIONS[name]
    r = len(shape)
    first = 1 if rowwise else 0
    if r - first <= 0:
        axis = None
        if rowwise:
            return None
    else:
        style = draw(st.sampled_from(["none", "int", "list"]))
        if style == "none" and not rowwise:
            axis = None
        elif style == "int" or style == "none":
            a = draw(st.integers(first, r - 1))
            axis = a - r if draw(st.booleans()) else a
        else:
            axis = draw(st.lists(st.integers(first, r - 1), min_size=1, max_size=r - first,
                                 unique=True))
    keepdims = draw(st.booleans())
    axes = None if axis is None else ([axis] if isinstance(axis, int) else axis)
    if rowwise and not keepdims:
        keepdims = len(axes) == r - 1 and draw(st.booleans()) or False
        if len({a % r for a in axes}) == r:
            keepdims = True

    def fn_(x, fn=fn, name=name, axis=axis, keepdims=keepdims):
        if name in ("reduce_max", "reduce_min"):
            _max_gap(x, axes)
        if name == "reduce_std":
            _var_margin(x, axes)
        return fn(x, axis=axis, keepdims=keepdims)
    return Step(f"{name}(axis={axis}, keepdims={keepdims})", fn_)


# --- shape, joining, indexing ------------------------------------------------------------------
def _factor_shape(draw, n, rank):
    dims = []
    rest = n
    for _ in range(rank - 1):
        divisors = [d for d in range(1, rest + 1) if rest % d == 0]
        d = draw(st.sampled_from(divisors))
        dims.append(d)
        rest //= d
    dims.append(rest)
    return dims


@st.composite
def shape_step(draw, shape, rowwise):
    r = len(shape)
    first = 1 if rowwise else 0
    kinds = ["reshape", "expand_dims", "concat", "stack", "slice", "gather", "tile", "cumsum",
             "split+concat", "unstack+stack", "transpose", "squeeze", "index", "broadcast_to"]
    kind = draw(st.sampled_from(kinds))
    if kind == "reshape":
        if rowwise:
            if r == 0:
                return None
            inner = _factor_shape(draw, _size(shape[1:]), draw(st.integers(1, 2)))
            new = [shape[0]] + inner
        else:
            new = _factor_shape(draw, _size(shape), draw(st.integers(0 if _size(shape) == 1
                                                                     else 1, 3)))
        if new and draw(st.booleans()):
            new[draw(st.integers(first, len(new) - 1)) if len(new) > first else 0] = -1
            if rowwise and new[0] == -1:
                new[0] = shape[0]
        return Step(f"reshape({new})", lambda x, new=new: tv.reshape(x, new))
    if kind == "expand_dims":
        if r >= 3:
            return None
        a = draw(st.integers(first, r)) if r >= first else 0
        a = a - (r + 1) if draw(st.booleans()) and a > 0 else a
        return Step(f"expand_dims(axis={a})", lambda x, a=a: tv.expand_dims(x, a))
    if kind == "squeeze":
        ones = [i for i, s in enumerate(shape) if s == 1 and i >= first]
        if not ones:
            return None
        a = draw(st.sampled_from(ones))
        return Step(f"squeeze(axis={a})", lambda x, a=a: tv.squeeze(x, axis=a))
    if kind == "transpose":
        if r - first < 2:
            return None
        perm = list(range(first)) + draw(st.permutations(list(range(first, r))))
        return Step(f"transpose(perm={perm})", lambda x, perm=perm: tv.transpose(x, perm))
    if kind == "broadcast_to":
        if rowwise or r >= 3:
            return None
        new = [draw(st.integers(1, 3))] + [draw(st.integers(2, 3)) if s == 1 else s
                                            for s in shape]
        return Step(f"broadcast_to({new})", lambda x, new=new: tv.broadcast_to(x, new))
    if r - first < 1:
        return None
    axis = draw(st.integers(first, r - 1))
    dim = shape[axis]
    if kind == "concat":
        other = list(shape)
        other[axis] = draw(st.integers(1, 3))
        if draw(st.booleans()):
            return Step(f"concat([x, new], axis={axis})",
                        lambda x, e, axis=axis: tv.concat([x, e], axis), (tuple(other),))
        return Step(f"concat([new, x], axis={axis - r})",
                    lambda x, e, axis=axis - r: tv.concat([e, x], axis), (tuple(other),))
    if kind == "stack":
        if r >= 3:
            return None
        a = draw(st.integers(first, r))
        return Step(f"stack([x, new], axis={a})",
                    lambda x, e, a=a: tv.stack([x, e], axis=a), (tuple(shape),))
    if kind == "slice":
        start = draw(st.integers(-dim, dim - 1))
        stop = draw(st.one_of(st.none(), st.integers(-dim, dim)))
        step = draw(st.sampled_from([None, 1, 2, -1]))
        key = (slice(None),) * axis + (slice(start, stop, step),)
        if len(range(dim)[key[-1]]) == 0:
            return None
        if draw(st.booleans()) and axis == r - 1 and axis > 0:
            key = (Ellipsis, slice(start, stop, step))
        return Step(f"x[{key}]", lambda x, key=key: x[key])
    if kind == "index":
        if rowwise and r < 2:
            return None
        i = draw(st.integers(-dim, dim - 1))
        key = (slice(None),) * axis + (i,)
        return Step(f"x[{key}]", lambda x, key=key: x[key])
    if kind == "gather":
        idx = draw(st.lists(st.integers(0, dim - 1), min_size=1, max_size=4))
        return Step(f"gather({idx}, axis={axis})",
                    lambda x, idx=idx, axis=axis: tv.gather(x, idx, axis=axis))
    if kind == "tile":
        mult = [1] * r
        mult[axis] = draw(st.integers(1, 3))
        return Step(f"tile({mult})", lambda x, mult=mult: tv.tile(x, mult))
    if kind == "cumsum":
        exclusive, reverse = draw(st.booleans()), draw(st.booleans())
        return Step(f"cumsum(axis={axis}, exclusive={exclusive}, reverse={reverse})",
                    lambda x, a=axis, e=exclusive, rv=reverse: tv.cumsum(x, a, e, rv))
    if kind == "split+concat":
        if dim < 2:
            return None
        k = draw(st.integers(1, dim - 1))
        sizes = [k, dim - k] if draw(st.booleans()) else [k, -1]
        return Step(f"concat(reversed(split(x, {sizes}, axis={axis})))",
                    lambda x, s=sizes, a=axis: tv.concat(tv.split(x, s, axis=a)[::-1], a))
    if kind == "unstack+stack":
        return Step(f"stack(reversed(unstack(x, axis={axis})))",
                    lambda x, a=axis: tv.stack(tv.unstack(x, axis=a)[::-1], axis=a))
    raise AssertionError(kind)


@st.composite
def matrix_step(draw, shape, rowwise):
    r = len(shape)
    kind = draw(st.sampled_from(["matmul", "matmul", "det", "inv", "trace", "diag_part",
                                 "tensordot"]))
    if kind in ("matmul", "tensordot"):
        if r == 0 or (rowwise and r < 2):
            return None
        k = shape[-1]
        m = draw(st.integers(1, 3))
        if kind == "tensordot":
            return Step("tensordot(x, new, 1)", lambda x, w: tv.tensordot(x, w, 1), ((k, m),))
        if r == 1:
            return Step("matmul(reshape(x, [1, -1]), new)",
                        lambda x, w: tv.matmul(tv.reshape(x, [1, -1]), w), ((k, m),))
        tb = draw(st.booleans())
        batch = () if rowwise or r < 3 or draw(st.booleans()) else shape[:-2]
        if tb:
            return Step("matmul(x, new, transpose_b=True)",
                        lambda x, w: tv.matmul(x, w, transpose_b=True), (batch + (m, k),))
        if not rowwise and draw(st.booleans()):
            return Step("new @ transpose(x)",
                        lambda x, w: w @ tv.linalg.matrix_transpose(x), (batch + (m, k),))
        return Step("x @ new", lambda x, w: x @ w, (batch + (k, m),))
    if r < 2 or shape[-1] != shape[-2] or (rowwise and r < 3):
        return None
    n = shape[-1]
    eye = np.eye(n)
    if kind == "det":
        def det(x):
            # TF's (and tapeviz's) det gradient inverts x: a singular x raises (as in TF)
            _kink(np.linalg.det(x._value))
            return tv.linalg.det(x)
        return Step("det(x)", det)
    if kind == "inv":
        return Step("inv(x xᵀ + I)",
                    lambda x: tv.linalg.inv(tv.matmul(x, x, transpose_b=True) + eye))
    if kind == "trace":
        return Step("trace(x)", lambda x: tv.linalg.trace(x))
    return Step("diag_part(x)", lambda x: tv.linalg.diag_part(x))


# --- tv.nn losses and clipping -----------------------------------------------------------------
def _clip_norm(x, axes=None):
    norm = np.sqrt(np.sum(x._value ** 2, axis=None if axes is None else tuple(axes)))
    _kink(norm - 0.7)
    return tv.clip_by_norm(x, 0.7, axes=axes)


def _clip_global(x, e):
    _kink(np.sqrt(np.sum(x._value ** 2) + np.sum(e._value ** 2)) - 1.0)
    clipped, _ = tv.clip_by_global_norm([x, e], 1.0)
    return clipped[0] + clipped[1]


def _relu6(x):
    _kink(x._value)
    _kink(x._value - 6.0)
    return tv.nn.relu6(x)


@st.composite
def loss_step(draw, shape, rowwise):
    r = len(shape)
    kinds = ["sigmoid_xent", "relu6"]
    if r >= (2 if rowwise else 1):
        kinds += ["softmax_xent", "sparse_softmax_xent"]
    if rowwise and r >= 2:
        kinds += ["clip_by_norm(axes=[-1])"]
    if not rowwise:
        kinds += ["l2_loss", "clip_by_norm", "global_norm", "clip_by_global_norm"]
    kind = draw(st.sampled_from(kinds))
    if kind == "sigmoid_xent":
        return Step("sigmoid_cross_entropy_with_logits(labels=sigmoid(new), logits=x)",
                    lambda x, e: tv.nn.sigmoid_cross_entropy_with_logits(
                        labels=tv.sigmoid(e), logits=x), (shape,))
    if kind == "relu6":
        return Step("relu6(4x)", lambda x: _relu6(4.0 * x))
    if kind == "softmax_xent":
        return Step("softmax_cross_entropy_with_logits(labels=softmax(new), logits=x)",
                    lambda x, e: tv.nn.softmax_cross_entropy_with_logits(
                        labels=tv.nn.softmax(e), logits=x), (shape,))
    if kind == "sparse_softmax_xent":
        labels = np.asarray(draw(st.lists(st.integers(0, shape[-1] - 1),
                                          min_size=_size(shape[:-1]),
                                          max_size=_size(shape[:-1]))),
                            dtype=np.int32).reshape(shape[:-1])
        return Step(f"sparse_softmax_cross_entropy_with_logits(labels={labels.tolist()}, "
                    "logits=x)", lambda x, lab=labels: tv.nn.sparse_softmax_cross_entropy_with_logits(
                        labels=tv.constant(lab), logits=x))
    if kind == "clip_by_norm(axes=[-1])":
        return Step(kind, lambda x: _clip_norm(x, [r - 1]))
    if kind == "l2_loss":
        return Step("l2_loss(x)", tv.nn.l2_loss)
    if kind == "clip_by_norm":
        return Step("clip_by_norm(x, 0.7)", _clip_norm)
    if kind == "global_norm":
        return Step("global_norm([x, new])", lambda x, e: tv.global_norm([x, e]),
                    (draw(compatible_shape(shape, False)),))
    return Step("sum(clip_by_global_norm([x, new], 1.0)[0])", _clip_global, (shape,))


@st.composite
def programs(draw, rowwise=False, max_steps=6, max_x=12):
    if rowwise:
        b = draw(st.integers(1, 3))
        rest = draw(st.lists(st.integers(1, 3), min_size=1, max_size=2))
        x_shape = (b,) + tuple(rest)
    else:
        x_shape = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=3)))
    while _size(x_shape) > max_x:
        x_shape = x_shape[1:]
    prog = Program(x_shape)
    shape = x_shape
    n_steps = draw(st.integers(1, max_steps))
    families = [unary_step, binary_step, reduction_step, shape_step, matrix_step, loss_step]
    while len(prog.steps) < n_steps:
        family = draw(st.sampled_from(families))
        step = draw(family(shape, rowwise))
        if step is None:
            continue
        new_shape = _out_shape(step.fn, shape, step.extras)
        if _size(new_shape) > MAX_SIZE or any(_size(s) > MAX_SIZE for s in step.extras):
            continue
        if rowwise and (len(new_shape) < 1 or new_shape[0] != x_shape[0]):
            continue
        prog.steps.append(step)
        shape = new_shape
    return prog


# ---------------------------------------------------------------------------------------------
# the oracle


def _values(prog, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.5, 1.5, size=s) for s in prog.shapes]


def _f(prog, values, weights):
    """The weighted sum of the program's output (no tape): the function differenced."""
    out = prog.run([tv.constant(v) for v in values])
    return float(np.sum(out.numpy() * weights))


def _numeric_gradients(prog, values, weights):
    grads = []
    for k, v in enumerate(values):
        g = np.zeros_like(v)
        for idx in np.ndindex(v.shape):
            plus = [w.copy() for w in values]
            minus = [w.copy() for w in values]
            plus[k][idx] += EPS
            minus[k][idx] -= EPS
            g[idx] = (_f(prog, plus, weights) - _f(prog, minus, weights)) / (2 * EPS)
        grads.append(g)
    return grads


def _run_watched(prog, values, use_variables, persistent=False):
    sources = [tv.Variable(v) if var else tv.constant(v) for v, var in zip(values, use_variables)]
    _KINKS.clear()
    with tv.GradientTape(persistent=persistent) as tape:
        tape.watch([s for s in sources if not isinstance(s, tv.Variable)])
        out = prog.run(sources)
    assume(not _KINKS or min(_KINKS) > KINK_MARGIN)
    assume(np.all(np.isfinite(out.numpy())) and np.abs(out.numpy()).max(initial=0) < 1e6)
    return tape, sources, out


def _close(actual, expected, what, rtol=1e-5):
    scale = max(1.0, float(np.abs(expected).max(initial=0.0)))
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * scale, err_msg=what)


def _dense(g, shape):
    return np.zeros(shape) if g is None else g.numpy()


# ---------------------------------------------------------------------------------------------
# properties


@PROFILE
@given(prog=programs(), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_gradient_matches_central_differences(prog, seed, data):
    values = _values(prog, seed)
    use_variables = data.draw(st.lists(st.booleans(), min_size=len(values),
                                       max_size=len(values)), label="variables")
    tape, sources, out = _run_watched(prog, values, use_variables)
    weights = np.random.default_rng(seed + 1).uniform(-1, 1, size=out.shape)
    grads = tape.gradient(out, sources, output_gradients=tv.constant(weights))
    numeric = _numeric_gradients(prog, values, weights)
    for k, (g, n, v) in enumerate(zip(grads, numeric, values)):
        if g is not None:
            assert g.dtype == tv.float64, f"source {k}: gradient dtype {g.dtype}"
            assert tuple(g.shape) == v.shape, f"source {k}: gradient shape {g.shape}"
        _close(_dense(g, v.shape), n, f"{prog}\nsource {k} of shape {v.shape}")


@PROFILE
@given(prog=programs(max_steps=4), seed=st.integers(0, 2**32 - 1))
def test_jacobian_equals_gradient_of_each_one_hot_output(prog, seed):
    values = _values(prog, seed)
    tape, sources, out = _run_watched(prog, values, [False] * len(values), persistent=True)
    jac = tape.jacobian(out, sources)
    n = _size(out.shape)
    for k, (j, s) in enumerate(zip(jac, sources)):
        if j is not None:
            assert tuple(j.shape) == tuple(out.shape) + tuple(s.shape)
    rows = []
    for i in range(n):
        onehot = np.zeros(n)
        onehot[i] = 1.0
        rows.append(tape.gradient(out, sources,
                                  output_gradients=tv.constant(onehot.reshape(out.shape))))
    for k, (j, s) in enumerate(zip(jac, sources)):
        loop = np.stack([_dense(r[k], s.shape) for r in rows]) if n else np.zeros((0,) + s.shape)
        _close(_dense(j, tuple(out.shape) + s.shape).reshape((n,) + s.shape), loop,
               f"{prog}\nsource {k}", rtol=1e-9)


def _hessians(prog, values, weights):
    """Nested tapes: (jacobian of the gradient, loop of outer gradients, gradient)."""
    x = tv.constant(values[0])
    rest = [tv.constant(v) for v in values[1:]]
    _KINKS.clear()
    with tv.GradientTape(persistent=True) as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            out = prog.run([x] + rest)
            f = tv.reduce_sum(out * weights)
        assume(not _KINKS or min(_KINKS) > KINK_MARGIN)
        g = inner.gradient(f, x)
    n = _size(x.shape)
    if g is None:
        return np.zeros((n, n)), np.zeros((n, n)), np.zeros(x.shape)
    h_jac = outer.jacobian(g, x)
    rows = []
    for i in range(n):
        onehot = np.zeros(n)
        onehot[i] = 1.0
        r = outer.gradient(g, x, output_gradients=tv.constant(onehot.reshape(x.shape)))
        rows.append(_dense(r, x.shape).reshape(n))
    return (_dense(h_jac, tuple(x.shape) * 2).reshape(n, n), np.array(rows).reshape(n, n),
            g.numpy())


@PROFILE
@given(prog=programs(max_steps=4, max_x=8), seed=st.integers(0, 2**32 - 1))
def test_hessian_nested_tapes_is_symmetric_and_matches_differences(prog, seed):
    values = _values(prog, seed)
    out = prog.run([tv.constant(v) for v in values])
    assume(np.all(np.isfinite(out.numpy())) and np.abs(out.numpy()).max(initial=0) < 1e4)
    weights = np.random.default_rng(seed + 1).uniform(-1, 1, size=out.shape)
    h_jac, h_rows, _ = _hessians(prog, values, weights)
    _close(h_jac, h_rows, f"{prog}\njacobian(gradient) vs rows of outer.gradient", rtol=1e-9)
    _close(h_jac, h_jac.T, f"{prog}\nHessian not symmetric", rtol=1e-7)
    # central differences of the (first-order, tape-computed) gradient
    n = h_jac.shape[0]
    fd = np.zeros((n, n))
    for i in range(n):
        plus, minus = [v.copy() for v in values], [v.copy() for v in values]
        plus[0].reshape(-1)[i] += EPS
        minus[0].reshape(-1)[i] -= EPS
        fd[:, i] = (_hessians(prog, plus, weights)[2].reshape(n) -
                    _hessians(prog, minus, weights)[2].reshape(n)) / (2 * EPS)
    _close(h_jac, fd, f"{prog}\nHessian vs differences of the gradient", rtol=1e-4)


@PROFILE
@given(prog=programs(rowwise=True, max_steps=5), seed=st.integers(0, 2**32 - 1))
def test_batch_jacobian_is_the_diagonal_blocks_of_jacobian(prog, seed):
    values = _values(prog, seed)
    tape, sources, out = _run_watched(prog, values, [False] * len(values), persistent=True)
    x = sources[0]
    b = x.shape[0]
    assert out.shape[0] == b, prog
    # TensorFlow's batch_jacobian needs rank 2 or more on both sides (rank 1 is a ValueError,
    # tests/differential holds TensorFlow's answer)
    assume(len(out.shape) >= 2 and len(x.shape) >= 2)
    bj = tape.batch_jacobian(out, x)
    j = tape.jacobian(out, x)
    ys, xs = tuple(out.shape[1:]), tuple(x.shape[1:])
    assert bj is not None and tuple(bj.shape) == (b,) + ys + xs, prog
    full = _dense(j, (b,) + ys + (b,) + xs).reshape((b, _size(ys), b, _size(xs)))
    diag = np.stack([full[i, :, i, :] for i in range(b)]).reshape((b,) + ys + xs)
    _close(bj.numpy(), diag, f"{prog}\nbatch_jacobian vs diagonal of jacobian", rtol=1e-9)
    off = full.copy()
    for i in range(b):
        off[i, :, i, :] = 0
    assert np.abs(off).max(initial=0) == 0, f"{prog}\nprogram mixes batch rows"


def test_profiles_are_registered():
    assert settings.get_profile("ci").max_examples == 40
    assert settings.get_profile("long").max_examples >= 1000
    assert PROFILE.deadline is None


def test_jacobian_when_broadcasting_adds_axes_before_the_source():
    """Regression: the batched unbroadcast once summed the Jacobian batch axis."""
    x = tv.constant([1.0, 2.0])
    b = tv.constant([[3.0, 4.0]])
    with tv.GradientTape() as tape:
        tape.watch(x)
        y = x * b                       # (2,) * (1, 2): broadcasting adds an axis before x
    np.testing.assert_allclose(tape.jacobian(y, x).numpy(), [[[3.0, 0.0], [0.0, 4.0]]])
