"""A random program under construction: its inputs, its steps, and the shapes and dtypes of
its variables, so that each op entry (ops.py) can pick operands that fit.

A program is plain data (JSON):

    {"id": "smooth-0007", "tag": "smooth", "dtype": "float32",
     "inputs": [{"name": "x0", "dtype": "float32", "shape": [2, 3], "value": [...],
                 "watch": true}],
     "steps": [{"out": "v0", "fn": "nn.elu", "args": [{"ref": "x0"}], "kwargs": {}}],
     "checks": ["value", "grad", "grad2", "jacobian", "batch_jacobian"]}

The output is the last step's variable. `{"ref": name}` is a variable; any other argument is a
literal (a number, a dtype name, nested lists for integer indices, `{"slice": [a, b, c]}`).
"""
from __future__ import annotations

import numpy as np

FLOATS = ("float32", "float64")

# Values an input is drawn from: keep every op of the smooth programs finite.
DOMAINS = {
    "real": lambda rng, shape: rng.normal(size=shape),
    "positive": lambda rng, shape: rng.uniform(0.5, 2.0, size=shape),
    "unit": lambda rng, shape: rng.uniform(-0.8, 0.8, size=shape),
    "above_one": lambda rng, shape: rng.uniform(1.2, 3.0, size=shape),
    "open_unit": lambda rng, shape: rng.uniform(0.1, 0.9, size=shape),
    "nonzero": lambda rng, shape: (rng.uniform(0.3, 2.0, size=shape)
                                   * rng.choice([-1.0, 1.0], size=shape)),
    "probability": lambda rng, shape: rng.uniform(0.0, 1.0, size=shape),
    "simplex": lambda rng, shape: _simplex(rng, shape),
    "well_conditioned": lambda rng, shape: (rng.normal(size=shape) * 0.3
                                            + np.eye(shape[-1]) * 2.0),
    "singular": lambda rng, shape: _without_last_row(DOMAINS["well_conditioned"](rng, shape)),
    "mod_safe": lambda rng, shape: (rng.uniform(0.2, 0.8, size=shape)
                                    + rng.integers(-2, 3, size=shape)),
    "separated_singular_values": lambda rng, shape: _spectral(rng, shape, symmetric=False),
    "separated_eigenvalues": lambda rng, shape: _spectral(rng, shape, symmetric=True),
}


def _orthogonal(rng, n):
    q, r = np.linalg.qr(rng.normal(size=(n, n)))
    return q * np.sign(np.diag(r))


def _spectral(rng, shape, symmetric):
    """Matrices whose singular values (or, symmetric, eigenvalues of the lower triangle) are
    at least 0.8 apart (singular values also 0.9 from zero), so that the decompositions'
    gradients, which divide by the gaps (and, for singular vectors of a non-square matrix, by
    the singular values), stay well conditioned."""
    *batch, m, n = shape
    out = np.empty(tuple(shape))
    for index in np.ndindex(*batch):
        k = min(m, n)
        levels = (np.arange(1, k + 1) * 1.0 + rng.uniform(-0.1, 0.1, size=k))
        if symmetric:       # eigenvalues of either sign, still apart from each other and 0
            levels = levels * rng.choice([-1.0, 1.0]) if k == 1 else \
                levels - float(rng.integers(0, k)) - 0.5
        q = _orthogonal(rng, m)
        p = q if symmetric else _orthogonal(rng, n)
        matrix = (q[:, :k] * rng.permutation(levels)) @ p[:, :k].T
        if symmetric and rng.random() < 0.5:    # eigh reads the lower triangle only
            matrix = matrix + np.triu(rng.normal(size=(m, n)), 1)
        out[index] = matrix
    return out


def _without_last_row(matrix):
    matrix[..., -1, :] = 0.0
    return matrix


def _simplex(rng, shape):
    e = rng.uniform(0.1, 1.0, size=shape)
    return e / e.sum(axis=-1, keepdims=True)


def broadcast_shape(a, b):
    try:
        return tuple(np.broadcast_shapes(tuple(a), tuple(b)))
    except ValueError:
        return None


class Builder:
    """Collects inputs and steps; `tag` decides whether special values are planted."""

    def __init__(self, rng, dtype, tag):
        self.rng, self.dtype, self.tag = rng, dtype, tag
        self.inputs, self.steps = [], []
        self.shapes, self.dtypes = {}, {}
        self.floats = []          # names of float variables, in order of creation

    # --- shapes -----------------------------------------------------------------------------
    def random_shape(self, min_rank=0, max_rank=3, min_dim=1):
        rank = int(self.rng.integers(min_rank, max_rank + 1))
        return tuple(int(d) for d in self.rng.integers(min_dim, 4, size=rank))

    def compatible_shape(self, shape):
        """A shape that broadcasts with `shape`: equal, a suffix, or with some axes 1."""
        r = self.rng.random()
        if r < 0.4:
            return tuple(shape)
        keep = int(self.rng.integers(0, len(shape) + 1))
        tail = tuple(shape)[len(shape) - keep:]
        out = tuple(1 if self.rng.random() < 0.3 else d for d in tail)
        if r > 0.85 and len(shape) < 3:
            return (2,) + tuple(shape)      # a new leading axis
        return out

    # --- variables --------------------------------------------------------------------------
    def fresh(self, shape, domain="real", dtype=None, special=(), watch=None, plant=True,
              nonfinite=(np.nan, np.inf, -np.inf)):
        """A new input; `special` values (kinks, ties, zeros, `nonfinite`) replace some entries
        when the program's tag asks for them (and `plant` allows it)."""
        dtype = dtype or self.dtype
        value = np.asarray(DOMAINS[domain](self.rng, tuple(shape)), dtype=np.float64)
        if plant:
            value = self._plant(value, special, nonfinite)
        name = f"x{len(self.inputs)}"
        if watch is None:
            watch = bool(self.rng.random() < 0.85)
        value = value.astype(dtype)
        self.inputs.append({"name": name, "dtype": dtype, "shape": list(shape),
                            "value": _listify(value), "watch": watch})
        self._declare(name, tuple(shape), dtype)
        return name

    def integers(self, values):
        """A literal of int32 indices (labels, gather indices): never differentiated."""
        return np.asarray(values, dtype=np.int64).tolist()

    def _plant(self, value, special, nonfinite):
        if self.tag in ("smooth", "error") or value.size == 0:
            return value
        pool = {"kink": list(special) or [0.0], "tie": None, "zero": [0.0],
                "nonfinite": list(nonfinite)}[self.tag]
        flat = value.reshape(-1).copy()
        if self.tag == "tie":       # a few distinct values, repeated
            levels = np.round(self.rng.normal(size=2), 1)
            flat = self.rng.choice(levels, size=flat.size)
        else:
            k = max(1, flat.size // 2)
            where = self.rng.choice(flat.size, size=k, replace=False)
            flat[where] = self.rng.choice(pool, size=k)
        return flat.reshape(value.shape)

    def _declare(self, name, shape, dtype):
        self.shapes[name], self.dtypes[name] = tuple(shape), dtype
        if dtype in FLOATS:
            self.floats.append(name)

    def pick(self, min_rank=0, dtype=None, shape=None):
        """An existing float variable (newest more likely), or None."""
        dtype = dtype or self.dtype
        names = [n for n in self.floats if self.dtypes[n] == dtype
                 and len(self.shapes[n]) >= min_rank
                 and (shape is None or self.shapes[n] == tuple(shape))]
        if not names:
            return None
        weights = np.arange(1, len(names) + 1, dtype=float) ** 2
        return names[int(self.rng.choice(len(names), p=weights / weights.sum()))]

    def operand(self, min_rank=0, domain="real", special=(), shape=None, min_dim=1):
        """An existing variable for ops defined everywhere, else a fresh input."""
        if domain == "real" and not (special and self.tag != "smooth") \
                and self.rng.random() < 0.7:
            name = self.pick(min_rank, shape=shape)
            if name is not None and min(self.shapes[name] or (min_dim,)) >= min_dim:
                return name
        if shape is None:
            shape = self.random_shape(min_rank=min_rank, max_rank=max(min_rank, 3),
                                      min_dim=min_dim)
        return self.fresh(shape, domain, special=special)

    def step(self, fn, args, kwargs=None, shape=(), dtype=None, index=None):
        name = f"v{len(self.steps)}"
        step = {"out": name, "fn": fn, "args": args, "kwargs": kwargs or {}}
        if index is not None:
            step["index"] = index
        self.steps.append(step)
        self._declare(name, shape, dtype or self.dtype)
        return name


def ref(name):
    return {"ref": name}


def _listify(value):
    out = value.tolist()
    return _clean(out)


def _clean(x):
    if isinstance(x, list):
        return [_clean(v) for v in x]
    if isinstance(x, float) and not np.isfinite(x):
        return "nan" if np.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


def decode_value(value, dtype):
    """The NumPy array of an input's JSON value ("nan"/"inf"/"-inf" as strings)."""
    def undo(x):
        if isinstance(x, list):
            return [undo(v) for v in x]
        return float(x) if isinstance(x, str) else x
    return np.asarray(undo(value), dtype=dtype)
