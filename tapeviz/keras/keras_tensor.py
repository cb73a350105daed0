"""`KerasTensor`: the symbolic value of the Keras functional API (`tv.keras.Input(...)`).

A KerasTensor has a shape (None for the batch) and a dtype but no value: calling a layer on
one records the call (a `KerasNode`) instead of computing, and `tv.keras.Model(inputs,
outputs)` later replays those calls on real tensors. It is not a tape tensor: no op runs on
it, so nothing is recorded or explained until the model is called on data.
"""
from __future__ import annotations

from ..engine import dtypes as _dt
from ..engine.tensor import TensorShape


class SymbolicTensorError(TypeError):
    """A KerasTensor was used where a value is needed (a TypeError, as in TensorFlow); the
    public `tf.*` functions catch it to make a layer of the call (see op_layers.py)."""


class KerasNode:
    """One symbolic layer call: the layer, its arguments (KerasTensors among them) and the
    KerasTensors it returned."""

    def __init__(self, layer, args, kwargs, outputs):
        self.layer = layer
        self.args = args           # positional arguments, nested structures of KerasTensors
        self.kwargs = kwargs
        self.outputs = outputs     # a nested structure of KerasTensors
        self._takes_training = None

    def takes_training(self) -> bool:
        """Whether the layer's `call` takes `training=` (asked once: the answer is kept)."""
        if self._takes_training is None:
            from .layers import _accepts
            self._takes_training = _accepts(self.layer.call, "training")
        return self._takes_training

    def parents(self) -> list:
        """The KerasTensors this call read, in argument order."""
        from ..engine import nest
        return [t for t in nest.flatten([self.args, list(self.kwargs.values())])
                if isinstance(t, KerasTensor)]


class KerasTensor:
    """A symbolic tensor: `shape` (batch None), `dtype`, `name`, and the call that made it."""

    def __init__(self, shape, dtype, name=None, node=None, index=0):
        self._shape = tuple(None if d is None else int(d) for d in shape)
        self._dtype = _dt.as_dtype(dtype)
        self.name = name
        self._node = node          # the KerasNode that produced it (None while being made)
        self._index = index        # its position among that node's flattened outputs

    @property
    def shape(self) -> TensorShape:
        return TensorShape(list(self._shape))

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def node(self) -> KerasNode:
        return self._node

    def __repr__(self):
        return (f"<KerasTensor: shape={_shape_text(self._shape)} dtype={self._dtype.name} "
                f"(created by layer '{self._node.layer.name if self._node else '?'}')>")

    def __array__(self, *args, **kwargs):
        raise SymbolicTensorError(
            f"Cannot convert a symbolic KerasTensor (shape {_shape_text(self._shape)}, dtype "
            f"{self._dtype.name}, made by layer "
            f"'{self._node.layer.name if self._node else '?'}') to a NumPy array or tensor: it "
            "has no value until the model is called on data. Fix: pass it to tf.* functions "
            "or layers, or wrap NumPy code in a layer, e.g. tf.keras.layers.Lambda(lambda t: "
            "tf.reduce_sum(t, axis=1))(x)")

    def __bool__(self):
        raise TypeError("Using a symbolic KerasTensor as a Python bool is not allowed: it has no "
                        "value yet. Fix: decide with Python values, or compute inside a "
                        "Lambda layer on real tensors")

    def __iter__(self):
        raise TypeError(f"Iterating over a symbolic KerasTensor of shape "
                        f"{_shape_text(self._shape)} is not allowed. Fix: index it, e.g. x[:, 0], "
                        "or use tf.keras.layers.Lambda")

    def __len__(self):
        raise TypeError("len() of a symbolic KerasTensor is not known. Fix: use x.shape")

    # operators make Lambda layers named as Keras's TFOpLambda layers ('tf.math.multiply')
    def __add__(self, other):
        return _binary(self, other, "__operators__.add", lambda a, b: a + b)

    def __radd__(self, other):
        return _binary(other, self, "__operators__.add", lambda a, b: a + b)

    def __sub__(self, other):
        return _binary(self, other, "math.subtract", lambda a, b: a - b)

    def __rsub__(self, other):
        return _binary(other, self, "math.subtract", lambda a, b: a - b)

    def __mul__(self, other):
        return _binary(self, other, "math.multiply", lambda a, b: a * b)

    def __rmul__(self, other):
        return _binary(other, self, "math.multiply", lambda a, b: a * b)

    def __truediv__(self, other):
        return _binary(self, other, "math.truediv", lambda a, b: a / b)

    def __rtruediv__(self, other):
        return _binary(other, self, "math.truediv", lambda a, b: a / b)

    def __matmul__(self, other):
        return _binary(self, other, "linalg.matmul", lambda a, b: a @ b)

    def __pow__(self, other):
        return _binary(self, other, "math.pow", lambda a, b: a ** b)

    def __neg__(self):
        return _unary(self, "math.negative", lambda a: -a)

    def __getitem__(self, key):
        return _unary(self, "__operators__.getitem", lambda a: a[key])


def _shape_text(shape) -> str:
    return "(" + ", ".join("None" if d is None else str(d) for d in shape) + \
        ("," if len(shape) == 1 else "") + ")"


def _op_layer_name(name):
    from .layers import unique_name
    return unique_name(f"tf.{name}")


def _unary(x, name, fn):
    from .lambda_layer import Lambda
    return Lambda(fn, name=_op_layer_name(name))(x)


def _binary(a, b, name, fn):
    """`a op b` with one or both symbolic: a layer with the symbolic operands as inputs and
    the other operand a constant of its closure."""
    from .lambda_layer import Lambda
    layer = Lambda(None, name=_op_layer_name(name))
    if isinstance(a, KerasTensor) and isinstance(b, KerasTensor):
        layer.function = lambda xs: fn(xs[0], xs[1])
        return layer([a, b])
    if isinstance(a, KerasTensor):
        layer.function = lambda x: fn(x, b)
        return layer(a)
    layer.function = lambda x: fn(a, x)
    return layer(b)
