"""`Tensor`, `Variable` and `TensorShape`: values, and the operators that make new ones.

A `Tensor` is an immutable NumPy value, an id the tapes know it by, and the `Node` (node.py)
of the op call that made it. A `Variable` is mutable state with an id of its own; reading it
gives a Tensor with that id, so a tape that watches the variable sees its reads.

Everything else in the engine is built on these classes, so this module comes first: the op
functions (`ops/`), conversion (convert.py), escapes (refs.py) and assignment (assign.py)
import it. Its methods call back into them through the package, `engine.ops.add(...)`,
looked up when the method runs (when all of the engine is loaded).
"""
from __future__ import annotations

import itertools

import numpy as np

from .. import engine
from . import dtypes as _dt
from .errors import InvalidArgumentError
from .node import Node, mark_copy
from .call_site import user_site
from .threadstate import _local, current_scope
from .variable_args import check_shape, constructor_args

_ids = itertools.count(1)


class TensorShape(tuple):
    """A tuple of dimensions that prints like TensorFlow's."""

    @property
    def rank(self) -> int:
        return len(self)

    @property
    def ndims(self) -> int:
        return len(self)

    def as_list(self) -> list:
        return list(self)

    def num_elements(self) -> int:
        return int(np.prod(self, dtype=np.int64))

    def __repr__(self) -> str:
        return f"TensorShape({list(self)})"

    def __str__(self) -> str:
        return tuple.__repr__(self)

    def __getitem__(self, key):
        out = tuple.__getitem__(self, key)
        return TensorShape(out) if isinstance(key, slice) else out


class ValueNotKept:
    """A tape's stand-in for an array no VJP of its op reads: shape and dtype, no data (the
    array itself can be freed as soon as the user's code drops it, as NumPy code would)."""

    __slots__ = ("shape", "dtype", "ndim", "size")

    def __init__(self, value):
        self.shape, self.dtype, self.ndim, self.size = (value.shape, value.dtype, value.ndim,
                                                        value.size)

    def __repr__(self):
        return f"<value not kept: shape={self.shape} dtype={self.dtype}>"


class _Operand:
    """Operators shared by `Tensor` and `Variable`; all of them dispatch to ops."""

    __slots__ = ()
    __array_priority__ = 100   # `ndarray + tensor` defers to us and gives a Tensor, as in TF

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._value.shape)

    @property
    def dtype(self) -> _dt.DType:
        return _dt.from_numpy(self._value.dtype)

    @property
    def ndim(self) -> int:
        return self._value.ndim

    device = property(lambda self: "/job:localhost/replica:0/task:0/device:CPU:0")  # as TF's CPU

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """Check that the (always fully known) shape fits `shape`, whose None entries match
        any size, as TensorFlow's `set_shape`; an eager tensor's shape does not change."""
        wanted = None if shape is None else list(TensorShape(shape))
        have = self._value.shape
        if wanted is not None and (len(wanted) != len(have) or any(
                w is not None and int(w) != h for w, h in zip(wanted, have))):
            raise ValueError(f"Tensor's shape {tuple(have)} is not compatible with supplied "
                             f"shape {wanted}.")

    def numpy(self):
        """The value as NumPy (a copy; a string scalar as bytes, as TF's). It leaves the tape."""
        value = self._read()
        engine.refs.note_escape(self, "numpy()")
        return value[()] if value.dtype == object and not value.ndim else value.copy()

    def __array__(self, dtype=None, copy=None):
        engine.refs.note_escape(self, None)
        # a copy: NumPy may write into what it gets, and a tensor is immutable
        return np.array(self._read(), dtype=dtype, copy=True)

    def __float__(self):
        engine.refs.note_escape(self, "float()")
        return float(self._scalar("float"))

    def __int__(self):
        engine.refs.note_escape(self, "int()")
        return int(self._scalar("int"))

    def __index__(self):
        if self.dtype.is_integer and self._value.ndim == 0:
            return int(self._value)
        raise TypeError(f"only integer scalar tensors can be used as an index, "
                        f"got shape={tuple(self._value.shape)} dtype={self.dtype.name}. Fix: "
                        f"an int32 or int64 tensor of shape () (tv.cast(i, tv.int32), or "
                        f"tv.gather for several indices)")

    def __bool__(self):
        engine.refs.note_escape(self, "bool()")
        return bool(self._scalar("bool"))

    def item(self):
        engine.refs.note_escape(self, "item()")
        return self._scalar("item").item()

    def tolist(self):
        engine.refs.note_escape(self, "tolist()")
        return np.asarray(self._read()).tolist()

    def _scalar(self, what):
        value = self._read()
        if what in ("float", "int") and np.ndim(value) != 0:
            raise TypeError(f"only 0-dimensional tensors can be converted to Python scalars "
                            f"with {what}(); got shape={tuple(np.shape(value))}. Fix: index one "
                            "element (t[0]) or reduce it (tv.reduce_sum)")
        if np.size(value) != 1:
            error = ValueError if what == "bool" else TypeError   # as NumPy and TF
            raise error(f"{what}() needs a tensor with exactly one element, got "
                        f"shape={tuple(np.shape(value))}. Fix: reduce it first "
                        "(tv.reduce_any, tv.reduce_all, tv.reduce_sum) or index one element")
        return np.asarray(value).reshape(())[()]

    def __iter__(self):
        if self._value.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor. Fix: iterate over a tensor "
                            "with at least one dimension, or use the scalar directly")
        return iter(engine.ops.unstack(self, axis=0))

    def __hash__(self):
        return id(self)

    # arithmetic: each operator is one line calling the op function (in engine/ops)
    def __add__(self, other): return engine.ops.add(self, other)
    def __radd__(self, other): return engine.ops.add(_like(other, self), self)
    def __sub__(self, other): return engine.ops.subtract(self, other)
    def __rsub__(self, other): return engine.ops.subtract(_like(other, self), self)
    def __mul__(self, other): return engine.ops.multiply(self, other)
    def __rmul__(self, other): return engine.ops.multiply(_like(other, self), self)
    def __truediv__(self, other): return engine.ops.divide(self, other)
    def __rtruediv__(self, other): return engine.ops.divide(_like(other, self), self)
    def __floordiv__(self, other): return engine.ops.floordiv(self, other)
    def __rfloordiv__(self, other): return engine.ops.floordiv(_like(other, self), self)
    def __mod__(self, other): return engine.ops.floormod(self, other)
    def __rmod__(self, other): return engine.ops.floormod(_like(other, self), self)
    def __pow__(self, other): return engine.ops.pow(self, other)
    def __rpow__(self, other): return engine.ops.pow(_like(other, self), self)
    def __matmul__(self, other): return engine.ops.matmul(self, other)
    def __rmatmul__(self, other): return engine.ops.matmul(_like(other, self), self)
    def __neg__(self): return engine.ops.negative(self)
    def __pos__(self): return self
    def __abs__(self): return engine.ops.abs(self)
    def __lt__(self, other): return engine.ops.less(self, other)
    def __le__(self, other): return engine.ops.less_equal(self, other)
    def __gt__(self, other): return engine.ops.greater(self, other)
    def __ge__(self, other): return engine.ops.greater_equal(self, other)
    def __and__(self, other): return engine.ops.logical_and(self, other)
    def __rand__(self, other): return engine.ops.logical_and(_like(other, self), self)
    def __or__(self, other): return engine.ops.logical_or(self, other)
    def __ror__(self, other): return engine.ops.logical_or(_like(other, self), self)
    def __invert__(self): return engine.ops.logical_not(self)
    def __getitem__(self, key): return engine.ops.getitem(self, key)

    def __eq__(self, other):
        return _equality(self, other, "Equal", False)

    def __ne__(self, other):
        return _equality(self, other, "NotEqual", True)


def _equality(x, other, op_name, unequal):
    """TF's `==` and `!=` (Equal with incompatible_shape_error=False): None and operands of
    shapes that do not broadcast compare unequal; a dtype that cannot meet raises as there
    (a TypeError for `i32 == 2.0`, an InvalidArgumentError for two tensors' dtypes)."""
    if other is None:
        return unequal
    x, y = engine.ops._base.pair(x, other, op_name, compare=True)
    try:
        np.broadcast_shapes(x._value.shape, y._value.shape)
    except ValueError:
        return engine.convert.constant(unequal)
    return (engine.ops.not_equal if unequal else engine.ops.equal)(x, y)


class Tensor(_Operand):
    """An immutable value with an id the tapes know it by."""

    # (set only when there is one: _keras_mask, the Keras mask a layer left on its output;
    # _metric_obj, the metric whose call returned this tensor, for `add_metric`; _sliced_from,
    # (variable, key) of a slice of a variable, for `v[0, 0].assign(x)`; _keras_logits, the
    # input of the Keras softmax or sigmoid that gave it)
    __slots__ = ("_value", "_id", "_node", "_keras_mask", "_metric_obj", "_sliced_from",
                 "_keras_logits", "__weakref__")

    def __init__(self, value, node: Node | None = None, id: int | None = None):
        self._value = value
        self._id = next(_ids) if id is None else id
        self._node = node

    def _read(self): return self._value

    def __len__(self):
        if self._value.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`. Fix: use tv.size(x) or x.shape")
        return self._value.shape[0]

    def __format__(self, spec):
        return format(self._value, spec)   # as TF: f"{t}" formats the NumPy value

    assign = property(lambda self: engine.slice_assign.slice_assigner(self))   # v[0, 0].assign(x)

    @property
    def name(self) -> str:
        node = self._node
        if node is None or isinstance(node.op, str):
            given = node.attrs.get("name") if node is not None and node.attrs else None
            return f"{given}:0" if given else f"{node.op if node else 'Const'}_{self._id}:0"
        return f"{node.op.name}_{node.id}:{node.out_ids.index(self._id) if self._id in node.out_ids else 0}"

    def __str__(self):
        return f"tv.Tensor({_numpy_text(self._value)}, shape={self.shape}, dtype={self.dtype.name})"

    def __repr__(self):
        return (f"<tv.Tensor: shape={self.shape}, dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")


def _numpy_text(value, is_repr=False) -> str:
    if value.dtype.kind == "O":
        text = repr(np.asarray(value).item()) if np.ndim(value) == 0 else (
            repr(value) if is_repr else str(value))
        return "\n" + text if "\n" in text else text
    text = repr(value) if is_repr and np.ndim(value) else str(value)
    if is_repr and not np.ndim(value):
        text = repr(value.item()) if value.dtype.kind != "f" else str(value)
        if value.dtype.kind == "b":
            text = str(bool(value))
    return "\n" + text if "\n" in text else text


class Variable(_Operand):
    """Mutable state. Reading it inside a tape watches it (if trainable); assigning cuts
    history. Arithmetic on a Variable gives a Tensor."""

    __slots__ = ("_value", "_id", "_node", "_name", "trainable", "_serial", "_site",
                 "constraint", "_sync_agg", "__weakref__")
    _serials = itertools.count()

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None, synchronization=None, aggregation=None,
                 shape=None, experimental_enable_variable_lifting=None, **kwargs):
        # (TensorFlow's argument order and checks: variable_args.py)
        trainable, sync, agg = constructor_args(
            initial_value, trainable, name, variable_def, constraint, synchronization, aggregation)
        self._sync_agg = (sync, agg)
        self.constraint = constraint     # applied by Keras optimizers after each update
        if callable(initial_value):
            initial_value = initial_value()
        copied = None
        if isinstance(initial_value, _Operand):
            copied = initial_value      # a copy: the new variable starts a new history
            value = initial_value._read()
            if dtype is not None and _dt.as_dtype(dtype).np != value.dtype:
                raise ValueError(
                    f"Variable: initial_value: Tensor conversion requested dtype "
                    f"{_dt.as_dtype(dtype).name} for a tensor with dtype "
                    f"{initial_value.dtype.name} (shape {tuple(value.shape)}). Fix: "
                    f"tv.Variable(tv.cast(x, tv.{_dt.as_dtype(dtype).name}))")
        else:
            try:
                value = engine.convert._to_array(initial_value, dtype)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"Variable: cannot use {initial_value!r} as initial value: "
                                f"{exc}") from None
        if shape is not None:
            check_shape(value, shape)
        if name is not None and not isinstance(name, str):
            raise ValueError(f"Variable: name must be a string, got {name!r} (a variable of "
                             f"shape {tuple(value.shape)}). Fix: e.g. name=\"w\"")
        self._value = value
        self._id = next(_ids)
        self._node = Node("Variable", (), user_site(2), None)
        self._site = self._node.site     # where it was created, kept across assigns
        # as TensorFlow: a variable made inside name scopes is named under them ('outer/w')
        scope = current_scope()
        self._name = f"{scope}/{name or 'Variable'}" if scope else (name or "Variable")
        self.trainable = bool(trainable)
        # reads share the variable's id and node: the node carries its name for events
        self._node.attrs = {"name": self._name, "trainable": self.trainable}
        if copied is not None:
            mark_copy(self._node, copied)
        self._serial = next(Variable._serials)

    def _read(self): return self._value

    def _read_as(self, read: Tensor) -> Tensor: return read   # (AutoCastVariable casts)

    @property
    def name(self) -> str:
        return f"{self._name}:0"

    synchronization = property(lambda self: self._sync_agg[0])
    aggregation = property(lambda self: self._sync_agg[1])

    def read_value(self) -> Tensor: return _read_variable(self)

    def value(self) -> Tensor: return _read_variable(self)

    def __getitem__(self, key): return engine.slice_assign.slice_of(self, key)

    def assign(self, value, read_value=True):
        return engine.assign._assign(self, value, "assign")

    def assign_add(self, delta, read_value=True):
        return engine.assign._assign(self, delta, "assign_add")

    def assign_sub(self, delta, read_value=True):
        return engine.assign._assign(self, delta, "assign_sub")

    def __str__(self):
        return self.__repr__()

    def __repr__(self):
        return (f"<tv.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, "
                f"numpy={_numpy_text(self._value, True)}>")


def _read_variable(var: Variable) -> Tensor:
    """A snapshot of the variable's value that shares its id, so tapes see it as the variable."""
    watch_on_read(var)
    read = Tensor(var._value, var._node, var._id)
    # (a Keras AutoCastVariable reads as its layer's compute dtype inside the layer's call)
    return read if type(var) is Variable else var._read_as(read)


def watch_on_read(var: Variable) -> None:
    """TensorFlow's rule: a trainable variable read inside a tape is watched by this thread's
    recording tapes, at the user's line (past this, `_read_variable` and its caller)."""
    if var.trainable:
        state = _local.state
        reads = state.variable_reads      # inside a custom_gradient function
        if reads is not None and not any(v is var for v in reads):   # (== is elementwise)
            reads.append(var)
        for ref in state.recording:
            tape = ref()
            if tape is not None and tape._watch_accessed and var._id not in tape._ids:
                tape._watch_variable(var, "auto", user_site(4))


def _like(other, t):
    """`other` (a Python or NumPy value) as `t`'s dtype: a reflected operator's (`2.0 * t`)."""
    return engine.convert.like(other, t)
