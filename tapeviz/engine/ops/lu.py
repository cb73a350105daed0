"""LU with partial pivoting, done the way TensorFlow's CPU kernels do it (Eigen's unblocked
PartialPivLU: the largest magnitude of the column as pivot, the first one on a tie; the column
below divided by the pivot; then a rank-one update), in the matrix's own dtype.

Why not LAPACK (np.linalg.solve): TensorFlow calls a matrix singular exactly when a pivot of
*this* factorization is 0, and for a rank-deficient float32 or float64 matrix that depends on
rounding. LAPACK scales by the pivot's reciprocal instead of dividing, so it finds a zero
pivot on other matrices than TensorFlow does; this order of operations finds the same ones.
"""
from __future__ import annotations

import numpy as np


def lu_factor(a):
    """`a` (..., n, n) factored in place of a copy: (lu, perm, singular), where lu holds L
    (unit diagonal, below) and U (on and above the diagonal) of `a[perm] = L @ U` per matrix,
    and `singular` says whether any matrix of the batch has a pivot equal to 0."""
    n = a.shape[-1]
    lu = np.array(a, copy=True).reshape((_batch(a), n, n))
    every = np.arange(lu.shape[0])
    perm = np.tile(np.arange(n), (lu.shape[0], 1))
    for k in range(n):
        p = k + np.argmax(np.abs(lu[:, k:, k]), axis=1)
        lu[every, k], lu[every, p] = lu[every, p], lu[every, k].copy()
        perm[every, k], perm[every, p] = perm[every, p], perm[every, k].copy()
        pivot = lu[:, k, k]
        nonzero = pivot != 0       # a zero column stays as it is (Eigen skips the division)
        lu[nonzero, k + 1:, k] /= pivot[nonzero, None]
        lu[:, k + 1:, k + 1:] -= lu[:, k + 1:, k, None] * lu[:, None, k, k + 1:]
    singular = bool((np.diagonal(lu, axis1=-2, axis2=-1) == 0).any())
    return lu.reshape(a.shape), perm.reshape(a.shape[:-1]), singular


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
