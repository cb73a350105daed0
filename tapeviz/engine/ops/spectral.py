"""The gradient of the spectral norm (`norm(ord=2)` over two axes): σ₁'s derivative is u₁v₁ᵀ,
the outer product of the top singular vectors. `TopSingularOuter` computes it as an op of its
own, whose VJP is the derivative of that pair, so second derivatives of a spectral norm are
exact (when σ₁ is simple, as TensorFlow's SVD gradient assumes too)."""
from __future__ import annotations

import numpy as np

from ..op import defop
from ..tensor import Tensor


def svd(x, axes):
    """The full SVD of every matrix over `axes` (moved last), in float64. A matrix with a NaN
    or an infinity gets NaN singular values and vectors, as TensorFlow's SVD (NumPy's raises)."""
    m = np.moveaxis(np.asarray(x, np.float64), axes, (-2, -1))
    finite = np.isfinite(m).all(axis=(-2, -1))
    u, s, vh = np.linalg.svd(np.where(finite[..., None, None], m, 0.0))
    u[~finite], s[~finite], vh[~finite] = np.nan, np.nan, np.nan
    return u, s, vh


def _top_outer(x, axes):
    """u₁v₁ᵀ, and 0 for a zero matrix (σ₁ = 0 has no top singular pair; TensorFlow's
    gradient of the norm is 0 there, one of its subgradients)."""
    u, s, vh = svd(x, axes)
    outer = u[..., :, :1] * vh[..., :1, :] * (s[..., :1, None] != 0)
    return np.moveaxis(outer, (-2, -1), axes).astype(x.dtype)


def _outer(a, b):
    return a[..., :, None] * b[..., None, :]


def _top_outer_vjp(h, out, x, axes):
    """d<H, u₁v₁ᵀ>/dA from the perturbation of singular vectors: with a = H v₁, b = Hᵀ u₁,
    α = Uᵀa, β = Vᵀb and d_j = σ₁² - σ_j², the sum over j > 1 of
    ((σ₁α_j + σ_jβ_j) u_j v₁ᵀ + (σ_jα_j + σ₁β_j) u₁ v_jᵀ) / d_j, plus the parts of a and b
    outside the singular subspaces, (P a) v₁ᵀ / σ₁ + u₁ (Q b)ᵀ / σ₁."""
    xv = x._value
    k = h._value.ndim - xv.ndim                  # Jacobian batch axes of the upstream
    axes = tuple(a % xv.ndim for a in axes)
    hm = np.moveaxis(np.asarray(h._value, np.float64), tuple(k + a for a in axes), (-2, -1))
    u, s, vh = svd(xv, axes)
    r = s.shape[-1]
    uk, vk = u[..., :, :r], np.swapaxes(vh, -1, -2)[..., :, :r]
    u1, v1, s1 = u[..., :, 0], vh[..., 0, :], s[..., :1]
    a = np.einsum("...mn,...n->...m", hm, v1)
    b = np.einsum("...mn,...m->...n", hm, u1)
    alpha = np.einsum("...mj,...m->...j", uk, a)
    beta = np.einsum("...nj,...n->...j", vk, b)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = np.where(np.arange(r) > 0, s1 * s1 - s * s, np.inf)     # j = 1 has no term
        c1 = (s1 * alpha + s * beta) / d
        c2 = (s * alpha + s1 * beta) / d
        pa = a - np.einsum("...mj,...j->...m", uk, alpha)
        qb = b - np.einsum("...nj,...j->...n", vk, beta)
        grad = (_outer(np.einsum("...mj,...j->...m", uk, c1), v1)
                + _outer(u1, np.einsum("...nj,...j->...n", vk, c2))
                + (_outer(pa, v1) + _outer(u1, qb)) / s1[..., None])
    grad = np.where(s1[..., None] == 0, 0.0, grad)   # u₁v₁ᵀ is 0 at a zero matrix, as above
    grad = np.moveaxis(grad, (-2, -1), tuple(k + a for a in axes))
    return Tensor(grad.astype(xv.dtype))


top_singular_outer = defop(
    "TopSingularOuter", _top_outer, [_top_outer_vjp],
    "y = u₁ v₁ᵀ, the top singular vectors of x over two axes",
    ["∂x = the derivative of u₁v₁ᵀ (perturbation of the singular vectors)"])
