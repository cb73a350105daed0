"""Argument conversion shared by every op family.

An op function turns what the user passed into tensors before `apply` sees them: any
tensor-like into a Tensor (`tensor`; a Variable gives a read the tapes see), two operands
into one dtype (`pair`: a Python number takes the dtype of the tensor beside it, and two
tensors of different dtypes are refused, as TensorFlow refuses them), a dtype an op has no
kernel for into TensorFlow's error (`require`), and axis and shape arguments into tuples of
ints (`norm_axis`, `shape_list`). `lead(g, y)` counts the Jacobian batch axes in front of a
VJP's upstream gradient.
"""
from __future__ import annotations

import numpy as np

from ..errors import InvalidArgumentError
from ..convert import _cannot, _to_array, convert_to_tensor, float_scalar, like
from ..tensor import Tensor, Variable, _Operand, _read_variable


def tensor(x, dtype_hint=None) -> Tensor:
    """Any tensor-like as a Tensor (a Variable gives a watched read)."""
    t = type(x)
    if t is Tensor:
        return x
    if t is Variable or isinstance(x, Variable):
        return _read_variable(x)
    return convert_to_tensor(x, dtype_hint=dtype_hint)


_PY_NUMBERS = (float, int)
#: (Python number, NumPy dtype) -> that number as a NumPy scalar: the `2.0` of `x * 2.0` in a
#: loop is converted once (a conversion costs about three dict lookups). A zero is never
#: taken from it (`or` falls through: 0.0 and -0.0 are equal keys but differ), and it is
#: emptied when full, so NaN keys (never equal to each other) cannot make it grow.
SCALARS: dict = {}


def scalar(y, dtype):
    """`y` as a scalar of the float dtype `dtype` (`convert.float_scalar`: inf when too
    large), remembered (see `SCALARS`)."""
    value = float_scalar(y, dtype)
    if len(SCALARS) >= 512:
        SCALARS.clear()
    SCALARS[(y, dtype)] = value
    return value


def pair(x, y, op_name: str, compare=False):
    """Two operands of one dtype: a Python value takes the dtype of the tensor beside it
    (`compare`: as a comparison's, `exact_operand`)."""
    tx, ty = type(x), type(y)
    if tx is Tensor:   # fast paths: the common cases of `x * y` and `x * 2.0`
        if ty is Tensor:
            if x._value.dtype is y._value.dtype:
                return x, y
        elif ty in _PY_NUMBERS and x._value.dtype.kind == "f":
            dtype = x._value.dtype
            return x, Tensor(SCALARS.get((y, dtype)) or scalar(y, dtype))
        elif ty is Variable and x._value.dtype is y._value.dtype:   # a layer's `h @ w + b`
            return x, _read_variable(y)
    # the first operand that is a tensor sets the dtype; a Python or NumPy value beside it is
    # converted to that dtype (a float into an int dtype is refused, as TF refuses it), so
    # tf.maximum(0, x) of a float x is float.
    other = exact_operand if compare else like
    if isinstance(y, _Operand) and not isinstance(x, _Operand):
        y = tensor(y)
        x = other(x, y, op_name)
    else:
        x = tensor(x) if isinstance(x, _Operand) else convert_to_tensor(x)
        y = tensor(y) if isinstance(y, _Operand) else other(y, x, op_name)
    if x._value.dtype != y._value.dtype:
        raise dtype_mismatch(op_name, x, y)
    return x, y


def exact_operand(value, t, op_name):
    """A comparison's other operand as TensorFlow's Equal, Less, ... convert it: into `t`'s
    dtype or an error, with no fallback to the value's own dtype. A NumPy value is cast
    (TensorFlow converts arrays with NPY_ARRAY_FORCECAST: np.float64(2.5) is 2 beside int32);
    a Python value must convert exactly (`i32 == 2.0` and `i32 < [1.5]` are TypeErrors)."""
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "biuf" and \
            t._value.dtype.kind in "biuf":
        return Tensor(np.asarray(value).astype(t._value.dtype))
    if not isinstance(value, (int, float, complex, str, bytes, list, tuple)):
        return like(value, t, op_name)      # (a tensor-like object: its own rules)
    if isinstance(value, complex) and t._value.dtype.kind != "c":
        raise _cannot(value, t.dtype, op_name)
    return Tensor(_to_array(value, t._value.dtype, strict=True, op=op_name))


def same_dtype(tensors, op_name: str):
    """Convert a list of operands to tensors that share the first tensor's dtype."""
    first = next((t for t in tensors if isinstance(t, _Operand)), None)
    hint = tensor(first).dtype if first is not None else None
    out = [tensor(t, hint) for t in tensors]
    for i, t in enumerate(out[1:], 1):
        if t._value.dtype != out[0]._value.dtype:
            raise dtype_mismatch(op_name, out[0], t, index=i)
    return out


def dtype_mismatch(op_name, x, y, index=1) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"cannot compute {op_name} as input #{index}(zero-based) was expected to be a "
        f"{x.dtype.name} tensor but is a {y.dtype.name} tensor (shapes {tuple(x.shape)} and "
        f"{tuple(y.shape)}). tapeviz, like TensorFlow, never converts dtypes silently. "
        f"Fix: cast one operand, e.g. tv.cast(y, tv.{x.dtype.name}) [Op:{op_name}]", op_name)


def require(t: Tensor, op_name: str, kinds: str, what: str):
    """Reject dtypes an op has no kernel for (TensorFlow raises at the op)."""
    if t._value.dtype.kind not in kinds:
        raise InvalidArgumentError(
            f"{op_name} needs {what} input, got dtype {t.dtype.name} with shape "
            f"{tuple(t.shape)}. Fix: tv.cast(x, tv.float32) first [Op:{op_name}]", op_name)
    return t


FLOAT = "f"
NUMERIC = "fiu"


def flag(value, name: str, op: str, shape=None) -> bool:
    """A bool attribute (`transpose_a`, `reverse`...): TF refuses anything but a bool (None
    reads as False), rather than reading the truth of a string."""
    if value is None or type(value) is bool or isinstance(value, np.bool_):
        return bool(value)
    shape_text = f" (input shape {tuple(shape)})" if shape is not None else ""
    raise TypeError(f"{op}: Expected bool for argument {name!r} not {value!r}{shape_text}. "
                    f"Fix: pass True or False, e.g. {name}=True")


def norm_axis(axis, ndim: int, op: str = "axis", shape=None, reduction=False):
    """An axis argument as a tuple of non-negative ints, or None for all axes. `op` and `shape`
    (the input's) name the call in the error. A `reduction` refuses an axis listed twice
    (`[0, 0]`, `[1, -1]`), as TensorFlow's reduction kernels do."""
    if axis is None:
        return None
    if isinstance(axis, _Operand):
        if axis._value.dtype.kind not in "iu":
            raise InvalidArgumentError(
                f"{op}: Value for attr 'Tidx' of {axis.dtype.name} is not in the list of allowed "
                f"values: int32, int64 (axis {axis!r} for an input with {ndim} dimensions). "
                f"Fix: pass integer axes, e.g. tv.cast(axis, tv.int32) [Op:{op}]", op)
        axis = np.asarray(axis._value).tolist()
    if type(axis) is int:
        axes = (axis,)
    elif type(axis) in (list, tuple) and all(type(a) is int for a in axis):
        axes = axis                                               # flat already (the engine's)
    else:
        axes = np.asarray(axis, dtype=object).reshape(-1).tolist() \
            if isinstance(axis, (list, tuple)) else [axis]        # TF flattens [[0]]
    out = []
    for a in axes:
        if not isinstance(a, (int, np.integer)) or not -ndim <= int(a) < ndim:   # () has none
            _bad_axis(a, ndim, op, shape)
        out.append(int(a) % ndim if ndim else 0)
    if not out:
        return _NoAxis(op, ndim, shape)     # fine for reductions (reduce nothing)
    unique = tuple(sorted(set(out)))
    if reduction and len(unique) != len(out):
        twice = next(a for a in out if out.count(a) > 1)
        raise InvalidArgumentError(
            f"{op}: Invalid reduction arguments: Axes contains duplicate dimension: {twice} "
            f"(axis={list(axes)} for an input of shape {tuple(shape) if shape is not None else '?'}"
            f"). Fix: list each axis once [Op:{op}]", op)
    return unique


class _NoAxis(tuple):
    """An empty axis list: reductions reduce nothing (as TF); an op that needs one axis and
    takes `[0]` gets a clear error instead of an IndexError."""

    def __new__(cls, op, ndim, shape):
        self = super().__new__(cls)
        self.op, self.ndim, self.shape = op, ndim, shape
        return self

    def __getitem__(self, i):
        shape_text = f" (shape {tuple(self.shape)})" if self.shape is not None else ""
        raise InvalidArgumentError(
            f"{self.op}: axis must be one int, got an empty list for an input with {self.ndim} "
            f"dimensions{shape_text}. Fix: pass an axis in [-{self.ndim}, {self.ndim}) "
            f"[Op:{self.op}]", self.op)


def _bad_axis(a, ndim, op, shape):
    """Raise the error for an axis `norm_axis` refused (built only when it is needed)."""
    shape_text = f" (shape {tuple(shape)})" if shape is not None else ""
    if a is None or isinstance(a, str):    # TF: ValueError (no tensor of None), op error
        cls = ValueError if a is None else InvalidArgumentError
        raise cls(f"{op}: axis must be an int or a list of ints, got {a!r} for an input with "
                  f"{ndim} dimensions{shape_text}. Fix: use integer axes in [-{ndim}, {ndim}), "
                  f"or axis=None for all of them [Op:{op}]", *([op] if a is not None else []))
    if not isinstance(a, (int, np.integer)):
        raise TypeError(f"{op}: axis must be an int or a list of ints, got {a!r} for an "
                        f"input with {ndim} dimensions{shape_text}. Fix: use an integer "
                        f"axis in [-{ndim}, {ndim}) [Op:{op}]")
    raise InvalidArgumentError(
        f"{op}: Invalid reduction dimension {int(a)} for input with {ndim} dimensions"
        f"{shape_text}; axis must be in [-{ndim}, {ndim}). Fix: use an axis in that "
        f"range (negative axes count from the end) [Op:{op}]", op)


def lead(g, y) -> int:
    """Extra leading (Jacobian batch) dimensions the upstream gradient carries."""
    return g._value.ndim - y._value.ndim


def shape_list(shape):
    """A shape argument (list, tuple, int, tensor) as a list of ints (-1 for None)."""
    if hasattr(shape, "_value"):
        shape = np.asarray(shape._value).tolist()
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    if shape is None:
        raise ValueError("Attempt to convert a value (None) to a shape. Fix: pass a list of ints, "
                         "e.g. [2, -1]")
    if isinstance(shape, (str, bytes)) or any(isinstance(s, (str, bytes, list, tuple))
                                              for s in shape):
        raise InvalidArgumentError(f"a shape (or perm, multiples) must be a vector of int32 or "
                                   f"int64, got {shape!r}. Fix: pass a list of ints, e.g. [2, -1]",
                                   "shape")
    return [int(s) if s is not None else -1 for s in shape]


def check_rank(rank: int, op_name: str):
    """NumPy (hence tapeviz) arrays have at most 64 dimensions; TensorFlow allows 254."""
    if rank > 64:
        raise InvalidArgumentError(
            f"{op_name}: the requested shape has {rank} dimensions, but tapeviz tensors are NumPy "
            f"arrays, which have at most 64. Fix: use fewer dimensions (reshape some together) "
            f"[Op:{op_name}]", op_name)
