"""`einsum`: Einstein summation, with its gradient written as einsums.

The equation is made explicit once (`_explicit`: ellipses become letters, the output is
spelled out), so the VJP of operand i is the einsum of the upstream gradient with the other
operands into operand i's subscripts. Two cases need a constant operand more: a letter
repeated in operand i (a trace `ii`) gets an identity (its gradient lives on the diagonal),
and a letter only operand i has (a sum `ij->i`) gets a vector of ones (its gradient is
broadcast along it).
"""
from __future__ import annotations

import string

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import dtype_mismatch, lead, tensor

_LETTERS = string.ascii_letters


def _forward(*operands, equation):
    return np.einsum(equation, *operands)


def _vjp_for(i):
    def vjp(g, y, *operands, equation):
        return _operand_grad(equation, i, g, operands, lead(g, y))
    return vjp


def _operand_grad(equation, i, g, operands, k):
    """d(sum(g * einsum(equation, operands))) / d operands[i], with `k` leading batch axes."""
    ins, out = equation.split("->")
    subs = ins.split(",")
    used = set(equation)
    spare = iter(c for c in _LETTERS if c not in used)
    batch = "".join(next(spare) for _ in range(k))
    sizes = {}
    for s, x in zip(subs, operands):
        for c, n in zip(s, x._value.shape):
            sizes[c] = max(sizes.get(c, 1), n)
    terms, args = [batch + out], [g]
    terms += [s for j, s in enumerate(subs) if j != i]
    args += [x for j, x in enumerate(operands) if j != i]
    target = ""
    for c in subs[i]:
        if c in target:                   # repeated: a fresh letter tied to c by an identity
            fresh = next(spare)
            target += fresh
            terms.append(c + fresh)
            args.append(_constant(np.eye(sizes[c], dtype=g._value.dtype)))
        else:
            target += c
    present = set("".join(terms))
    for c in set(target) - present:       # summed away in operand i only: broadcast back
        terms.append(c)
        args.append(_constant(np.ones(sizes[c], dtype=g._value.dtype)))
    return _einsum(",".join(terms) + "->" + batch + target, args)


def _constant(value):
    from ..convert import convert_to_tensor
    return convert_to_tensor(value)


_einsum_ops: dict = {}


def _op_for(n):
    """One registered op per operand count (VJPs are per input)."""
    op = _einsum_ops.get(n)
    if op is None:
        op = _einsum_ops[n] = defop(
            "Einsum" if n == 2 else f"Einsum/{n}", _forward, [_vjp_for(i) for i in range(n)],
            "y = einsum(equation, *x)",
            ["∂x_i = einsum of g with the other operands into x_i's subscripts"] * n)
    return op


def _einsum(equation, tensors):
    return apply(_op_for(len(tensors)), tuple(tensors), {"equation": equation})


def einsum(equation, *inputs, **kwargs):
    """Einstein summation over the operands (TensorFlow's `tf.einsum`)."""
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"einsum: unexpected keyword arguments {sorted(kwargs)}. Fix: pass "
                        "the equation and the operands, e.g. tv.einsum('ij,jk->ik', a, b)")
    if not isinstance(equation, str):
        raise TypeError(f"einsum: the equation must be a string, got {equation!r}. Fix: "
                        "tv.einsum('ij,jk->ik', a, b)")
    tensors = [tensor(x) for x in inputs]
    for j, t in enumerate(tensors[1:], 1):
        if t._value.dtype != tensors[0]._value.dtype:
            raise dtype_mismatch("Einsum", tensors[0], t, index=j)
    explicit, dots = _explicit(equation.replace(" ", ""), tensors)
    _check_sizes(explicit, tensors, dots)
    return _einsum(explicit, tensors)


def _explicit(equation, tensors):
    """The equation with ellipses as letters and the output spelled out."""
    ins, arrow, out = equation.partition("->")
    subs = ins.split(",")
    if len(subs) != len(tensors):
        raise ValueError(f'Got {len(tensors)} inputs for equation "{equation}", expecting '
                         f"{len(subs)}. Fix: pass one operand per comma-separated term")
    if any(c not in _LETTERS + "." for c in ins.replace(",", "") + out):
        raise ValueError(f'einsum: invalid equation "{equation}": subscripts are letters, '
                         "'...' and one '->'. Fix: e.g. 'ij,jk->ik'")
    spare = iter(c for c in _LETTERS if c not in equation)
    widths = []
    for s, t in zip(subs, tensors):
        named = len(s.replace("...", ""))
        if ("..." in s and t._value.ndim < named) or ("..." not in s and t._value.ndim != named):
            raise InvalidArgumentError(
                f"Einsum: Expected input {len(widths)} to have rank {named} but got: "
                f"{t._value.ndim} (subscripts {s!r}, shape {tuple(t.shape)}, equation "
                f'"{equation}"). Fix: one letter per axis, or \'...\' for the leading axes '
                "[Op:Einsum]", "Einsum")
        widths.append(t._value.ndim - named if "..." in s else 0)
    dots = "".join(next(spare) for _ in range(max(widths, default=0)))
    subs = [s.replace("...", dots[len(dots) - w:]) for s, w in zip(subs, widths)]
    if not arrow:   # implicit: the ellipsis axes, then the letters used once, sorted
        letters = "".join(subs)
        out = dots + "".join(sorted(c for c in set(letters) - set(dots)
                                    if letters.count(c) == 1))
    else:
        out = out.replace("...", dots)
    return ",".join(subs) + "->" + out, dots


def _check_sizes(equation, tensors, dots):
    """A letter names one size in every operand; only the ellipsis axes broadcast (1 to n)."""
    sizes = {}
    for j, (s, t) in enumerate(zip(equation.split("->")[0].split(","), tensors)):
        for axis, (c, n) in enumerate(zip(s, t._value.shape)):
            if sizes.get(c, n) != n and not (c in dots and 1 in (n, sizes[c])):
                raise InvalidArgumentError(
                    f"Einsum: Expected dimension {sizes[c]} at axis {axis} of the input shaped "
                    f"{list(t.shape)} but got dimension {n} (label {c!r}, operand {j}, "
                    f'equation "{equation}"). Fix: a letter names the same size in every '
                    "operand [Op:Einsum]", "Einsum")
            if n != 1 or c not in sizes:
                sizes[c] = n


__all__ = ["einsum"]
