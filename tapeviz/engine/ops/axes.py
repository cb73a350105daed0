"""Ops that move axes: reshape, transpose, squeeze, expand_dims. Their VJPs move `g` back.

`g` may carry extra leading (Jacobian batch) dimensions; `lead(g, y)` counts them and each
rule keeps them in front.
"""
from __future__ import annotations

from math import prod as _prod

import numpy as np

from ..errors import InvalidArgumentError
from ..op import apply, defop
from ._base import check_rank, lead, norm_axis, shape_list, tensor


# --- reshape ---------------------------------------------------------------------------------
_reshape = defop("Reshape", lambda x, shape: np.reshape(x, shape),
                 [lambda g, y, x, shape: reshape(g, g.shape[:lead(g, y)] + x.shape)],
                 "y = reshape(x)", ["∂x = reshape(g, x.shape)"])


def reshape(tensor_, shape, name=None):
    x = tensor(tensor_)
    if type(shape) is tuple and len(shape) <= 64 and \
            all(type(s) is int and s >= 0 for s in shape) and _prod(shape) == x._value.size:
        return apply(_reshape, (x,), {"shape": shape})   # valid as given (the engine's calls)
    requested = np.asarray(shape._value if hasattr(shape, "_value") else shape)
    if requested.size and requested.dtype.kind == "f":   # () is a valid (scalar) shape
        raise InvalidArgumentError(
            f"Reshape: the shape must hold integers (int32 or int64), got {shape!r} for a tensor "
            f"of shape {tuple(x.shape)}. Fix: use ints, e.g. tv.reshape(x, [2, -1]) "
            "[Op:Reshape]", "Reshape")
    shape = tuple(shape_list(shape))
    check_rank(len(shape), "Reshape")
    known = int(np.prod([s for s in shape if s != -1]))
    size = x._value.size
    if (shape.count(-1) > 1 or any(s < -1 for s in shape)
            or (-1 not in shape and known != size)
            or (-1 in shape and (known == 0 or size % known))):
        why = (f"has {known}" if -1 not in shape else
               "has more than one -1" if shape.count(-1) > 1 else
               "has a negative dimension other than -1" if any(s < -1 for s in shape) else
               f"cannot be completed: the known dimensions multiply to {known}, which does not "
               f"divide {size}")
        raise InvalidArgumentError(
            f"Reshape: input to reshape is a tensor with {size} values (shape "
            f"{tuple(x.shape)}, dtype {x.dtype.name}), but the requested shape {list(shape)} "
            f"{why}. Fix: the element counts must match; use -1 for one axis [Op:Reshape]",
            "Reshape")
    return apply(_reshape, (x,), {"shape": shape})


# --- transpose --------------------------------------------------------------------------------
def _transpose_vjp(g, y, x, perm):
    k = lead(g, y)
    inverse = np.argsort(perm)
    return transpose(g, list(range(k)) + [int(p) + k for p in inverse])


_transpose = defop("Transpose", lambda x, perm: np.transpose(x, perm), [_transpose_vjp],
                   "y = transpose(x, perm)", ["∂x = transpose(g, inverse perm)"])


def transpose(a, perm=None, conjugate=False, name=None):
    x = tensor(a)
    n = x._value.ndim
    if perm is None:
        perm = tuple(range(n - 1, -1, -1))
    else:
        raw = np.asarray(perm._value if hasattr(perm, "_value") else perm)
        if raw.size and raw.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"Transpose: perm must hold int32 or int64 axes, got {perm!r} for a tensor with "
                f"shape {tuple(x.shape)}. Fix: pass ints, e.g. perm={list(range(n - 1, -1, -1))}"
                " [Op:Transpose]", "Transpose")
        perm = tuple(shape_list(perm))
        outside = [p for p in perm if not -n <= p < n]
        if outside:
            raise InvalidArgumentError(
                f"Transpose: {outside[0]} is out of range [0 .. {n}) in perm {list(perm)} for a "
                f"tensor with shape {tuple(x.shape)}. Fix: list each axis 0..{n - 1} exactly "
                f"once, e.g. perm={list(range(n - 1, -1, -1))} [Op:Transpose]", "Transpose")
    if sorted(p % max(n, 1) for p in perm) != list(range(n)):
        raise InvalidArgumentError(
            f"Transpose: perm {list(perm)} is not a permutation of the {n} axes of a tensor "
            f"with shape {tuple(x.shape)}. Fix: list each axis 0..{n - 1} exactly once, e.g. "
            f"perm={list(range(n - 1, -1, -1))} [Op:Transpose]", "Transpose")
    return apply(_transpose, (x,), {"perm": tuple(p % n for p in perm)})


def matrix_transpose(a, name=None):
    x = tensor(a)
    n = x._value.ndim
    return transpose(x, list(range(n - 2)) + [n - 1, n - 2])


# --- squeeze, expand_dims ----------------------------------------------------------------------
def squeeze(input, axis=None, name=None):
    x = tensor(input)
    if axis is None:
        shape = [s for s in x.shape if s != 1]
    else:
        axes = norm_axis(axis, x._value.ndim, "Squeeze", x.shape)
        for a in axes:
            if x.shape[a] != 1:
                raise InvalidArgumentError(
                    f"Squeeze: can not squeeze dim[{a}], expected a dimension of 1, got "
                    f"{x.shape[a]} (shape {tuple(x.shape)}). Fix: squeeze only axes of size 1 "
                    f"(or use tv.reshape) [Op:Squeeze]", "Squeeze")
        shape = [s for i, s in enumerate(x.shape) if i not in axes]
    return reshape(x, shape)


def expand_dims(input, axis, name=None):
    x = tensor(input)
    n = x._value.ndim + 1
    if isinstance(axis, (list, tuple)) and len(axis) == 1:    # TF accepts a 1-element axis
        axis = axis[0]
    if not isinstance(axis, (int, np.integer)):
        raise (ValueError if axis is None else TypeError)(   # (TF: None makes no tensor)
            f"ExpandDims: axis must be an int, got {axis!r} (input shape "
            f"{tuple(x.shape)}). Fix: use an integer axis in [-{n}, {n})")
    a = int(axis)
    if not -n <= a < n:
        raise InvalidArgumentError(f"ExpandDims: axis {a} is out of range for a result of rank "
                                   f"{n} (input shape {tuple(x.shape)}). Fix: use an axis in "
                                   f"[-{n}, {n}) [Op:ExpandDims]", "ExpandDims")
    shape = list(x.shape)
    shape.insert(a % n, 1)
    return reshape(x, shape)


__all__ = ["expand_dims", "matrix_transpose", "reshape", "squeeze", "transpose"]
