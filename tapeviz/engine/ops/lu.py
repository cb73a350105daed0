"""LU with partial pivoting, done the way TensorFlow's CPU kernels do it (Eigen's unblocked
PartialPivLU: the largest magnitude of the column as pivot, the first one on a tie; the column
below divided by the pivot; then a rank-one update), in the matrix's own dtype.
`linalg.solve`, `linalg.inv` and `linalg.det` all factor with it, as TensorFlow's do.

Why not LAPACK (np.linalg.solve, inv, det): TensorFlow calls a matrix singular exactly when
a pivot of *this* factorization is 0, and for a rank-deficient float32 or float64 matrix that
depends on rounding. LAPACK scales by the pivot's reciprocal instead of dividing, so it finds
a zero pivot on other matrices than TensorFlow does; this order of operations finds the same
ones.
"""
from __future__ import annotations

import numpy as np


def lu_factor(a):
    """`a` (..., n, n) factored in place of a copy: (lu, perm, singular), where lu holds L
    (unit diagonal, below) and U (on and above the diagonal) of `a[perm] = L @ U` per matrix,
    and `singular` says whether TensorFlow calls any matrix of the batch not invertible: the
    smallest magnitude of its pivots is not above 0."""
    n = a.shape[-1]
    lu = np.array(a, copy=True).reshape((_batch(a), n, n))
    every = np.arange(lu.shape[0])
    perm = np.tile(np.arange(n), (lu.shape[0], 1))
    for k in range(n):
        p = k + _first_largest(np.abs(lu[:, k:, k]))
        lu[every, k], lu[every, p] = lu[every, p], lu[every, k].copy()
        perm[every, k], perm[every, p] = perm[every, p], perm[every, k].copy()
        pivot = lu[:, k, k]
        nonzero = pivot != 0       # a zero column stays as it is (Eigen skips the division)
        lu[nonzero, k + 1:, k] /= pivot[nonzero, None]
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k, None] * lu[:, None, k, k + 1:]
    smallest = _first_smallest(np.abs(np.diagonal(lu, axis1=-2, axis2=-1)))
    singular = not (smallest > 0).all()
    return lu.reshape(a.shape), perm.reshape(a.shape[:-1]), singular


# Eigen's maxCoeff/minCoeff: the first value, replaced only by a strictly larger (smaller) one,
# so a NaN wins only where it comes first (np.argmax would take any NaN).

def _first_largest(values):
    """Per row, the index Eigen's maxCoeff picks."""
    best = np.argmax(np.where(np.isnan(values), -np.inf, values), axis=1)
    return np.where(np.isnan(values[:, 0]), 0, best) if values.shape[1] else best


def _first_smallest(values):
    """Per row, the value Eigen's minCoeff gives."""
    smallest = values[:, 0] if values.shape[1] else np.ones(values.shape[0])
    for i in range(1, values.shape[1]):
        smallest = np.where(values[:, i] < smallest, values[:, i], smallest)
    return smallest


def lu_inverse(lu, perm):
    """The inverse of each factored matrix: `lu_solve` of the identity, as Eigen's
    PartialPivLU::inverse does."""
    eye = np.broadcast_to(np.eye(lu.shape[-1], dtype=lu.dtype), lu.shape)
    return lu_solve(lu, perm, eye)


def lu_determinant(lu, perm):
    """The determinant of each factored matrix the way TensorFlow's CPU kernel takes it: the
    permutation's sign times the pivots' signs times exp(sum of log |pivot|), in the matrix's
    dtype. A zero pivot's sign counts as +0, so a singular matrix's determinant is +0.0 or -0.0
    by the permutation's parity; a NaN pivot makes it NaN."""
    pivots = np.diagonal(lu, axis1=-2, axis2=-1)
    signs = (pivots > 0).astype(lu.dtype) - (pivots < 0)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_abs = np.sum(np.log(np.abs(pivots)), axis=-1)
        return (permutation_sign(perm).astype(lu.dtype) * np.prod(signs, axis=-1)
                * np.exp(log_abs)).astype(lu.dtype)


def permutation_sign(perm):
    """+1 or -1 per permutation (..., n): the parity of the swaps that sort it."""
    n = perm.shape[-1]
    p = perm.reshape((int(np.prod(perm.shape[:-1], dtype=np.int64)), n)).copy()
    rows = np.arange(p.shape[0])
    sign = np.ones(p.shape[0], np.int64)
    for i in range(n):
        j = i + np.argmax(p[:, i:] == i, axis=1)
        sign[j != i] *= -1
        p[rows, j] = p[rows, i]
        p[rows, i] = i
    return sign.reshape(perm.shape[:-1])


def lu_solve(lu, perm, b):
    """The solution x of `a @ x = b` from `lu_factor(a)`; b is (..., n, k) with a's batch."""
    n, count = lu.shape[-1], _batch(lu)
    lu = lu.reshape((count, n, n))
    x = np.take_along_axis(b.reshape((count, n, b.shape[-1])),
                           perm.reshape((count, n, 1)), axis=1).astype(lu.dtype)
    for i in range(1, n):          # L (unit diagonal), forward
        x[:, i] -= np.einsum("bj,bjk->bk", lu[:, i, :i], x[:, :i])
    for i in range(n - 1, -1, -1):  # U, backward
        x[:, i] -= np.einsum("bj,bjk->bk", lu[:, i, i + 1:], x[:, i + 1:])
        x[:, i] /= lu[:, i, i, None]
    return x.reshape(b.shape)


def _batch(a):
    return int(np.prod(a.shape[:-2], dtype=np.int64))
