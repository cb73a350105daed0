"""`tv.keras.layers`: `Layer`, `Dense`, `Flatten`, `Dropout`, `Activation` (and, from their
own modules, `Input`, `InputLayer`, `Lambda` and the merging layers).

A layer creates its variables lazily, on its first call, when the input's last dimension is
known; its ops run inside `tv.name_scope(layer.name)` so the dashboard groups them.

>>> import tapeviz as tv
>>> layer = tv.keras.layers.Dense(3, activation="relu", name="hidden")
>>> layer(tv.ones((2, 4))).shape
TensorShape([2, 3])
>>> [v.name for v in layer.trainable_variables]
['hidden/kernel:0', 'hidden/bias:0']
"""
from __future__ import annotations

import inspect
import re
import threading
import weakref

import numpy as np

from ..engine import dtypes as _dt
from ..engine.call_site import user_site
from ..engine.tape import name_scope
from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor, Variable, _Operand
from ..module import Module
from . import activations as _activations
from . import backend as _backend
from . import initializers as _initializers
from . import regularizers as _regularizers

_NAME_UIDS: dict = {}


def to_snake_case(name: str) -> str:
    """Keras's layer-name rule: 'Dense' -> 'dense', 'ReLU' -> 're_lu', 'Conv2D' -> 'conv2d'."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return insecure if insecure[0] != "_" else "private" + insecure


def unique_name(base: str, zero_based: bool = True) -> str:
    """'dense', then 'dense_1', 'dense_2', ... as Keras names layers (one counter per base);
    `zero_based=False`: 'input_1', 'input_2', ... as Keras names inputs."""
    n = _NAME_UIDS.get(base, 0)
    _NAME_UIDS[base] = n + 1
    return base if n == 0 and zero_based else f"{base}_{n + (not zero_based)}"


def reset_uids():
    """Start layer names anew (as `tf.keras.backend.clear_session()`)."""
    _NAME_UIDS.clear()


class Layer(Module):
    """Base layer: override `build(input_shape)` (create weights with `add_weight`) and
    `call(inputs)`. Weights come in creation order, this layer's then its sublayers'."""

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None,
                 batch_input_shape=None, input_dim=None, **kwargs):
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r} "
                            f"(layer {type(self).__name__})")
        base = to_snake_case(type(self).__name__)
        super().__init__(name=None)
        self._name = self._scope_name = name if name is not None else unique_name(base)
        # where the user made this layer: its weights are created later, at the first call,
        # but their initialisers were chosen here (a bias of -100 is set on this line)
        self._made_at = user_site(2)
        self.trainable = bool(trainable)
        self.built = False
        self._own_weights: list = []
        self._dtype = _dt.as_dtype(dtype or _backend.floatx())
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if batch_input_shape is not None:
            self._batch_input_shape = tuple(batch_input_shape)
        elif input_shape is not None:
            shape = (input_shape,) if isinstance(input_shape, int) else tuple(input_shape)
            self._batch_input_shape = (None,) + shape
        else:
            self._batch_input_shape = None

    @property
    def dtype(self) -> str:
        return self._dtype.name

    # --- weights -------------------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=True, **kwargs):
        dtype = _dt.as_dtype(dtype or self._dtype)
        shape = tuple(int(s) for s in (shape or ()))
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = _initializers.get(initializer)
        value = init(shape, dtype=dtype)
        # (built inside the layer's name scope, so named 'dense/kernel', or 'model/dense/kernel'
        # for a layer built inside another layer's call, as Keras names it)
        var = Variable(value, trainable=trainable, name=name or "Variable", dtype=dtype)
        made_at = getattr(self, "_made_at", None)   # (None for a subclass that skipped __init__)
        if made_at is not None:
            var._site = var._node.site = made_at
        self._own_weights.append(var)
        regularizer = _regularizers.get(regularizer)
        if regularizer is not None:          # recomputed from the weight at each `.losses`
            self.add_loss(lambda: regularizer(var))
        return var

    def _sublayers(self):
        out = []
        for value in vars(self).values():
            for leaf in _leaves(value):
                if isinstance(leaf, Layer) and leaf is not self and leaf not in out:
                    out.append(leaf)
        return out

    def __setattr__(self, name, value):
        # Keras tracks tf.Variables assigned to a layer's attributes as its weights, in the
        # order they are assigned (add_weight's are tracked when made)
        own = self.__dict__.get("_own_weights")
        if own is not None and isinstance(value, (Variable, list, tuple, dict)):
            own += [v for v in _leaves(value) if isinstance(v, Variable) and
                    not any(v is w for w in own)]
        object.__setattr__(self, name, value)

    @property
    def trainable_weights(self) -> list:
        if not self.trainable:
            return []
        out = [w for w in self._own_weights if w.trainable]
        for sub in self._sublayers():
            out += sub.trainable_weights
        return _unique(out)

    @property
    def non_trainable_weights(self) -> list:
        if not self.trainable:
            out = list(self._own_weights)
            for sub in self._sublayers():
                out += sub.weights
            return _unique(out)
        out = [w for w in self._own_weights if not w.trainable]
        for sub in self._sublayers():
            out += sub.non_trainable_weights
        return _unique(out)

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    @property
    def variables(self) -> list:
        return self.weights

    @property
    def trainable_variables(self) -> list:
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> list:
        return self.non_trainable_weights

    def get_weights(self) -> list:
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(f"Layer {self.name!r} expects {len(mine)} weights, but the given "
                             f"list has {len(weights)}")
        for var, value in zip(mine, weights):
            var.assign(np.asarray(value, dtype=var._value.dtype))

    def count_params(self) -> int:
        return int(sum(np.size(w._value) for w in self.weights))

    # --- calling --------------------------------------------------------------------------------
    def build(self, input_shape):
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def _maybe_build(self, input_shape):
        if not self.built:
            with name_scope(self.name):
                self.build(input_shape)
            self.built = True

    def __call__(self, inputs, *args, **kwargs):
        if type(inputs) is not Tensor and _functional().is_symbolic(inputs, args, kwargs):
            return _functional().symbolic_call(self, inputs, args, kwargs)
        calls = _CALLS.__dict__
        if not calls.get("depth"):
            _functional().forget_call_losses(self)     # the outermost call: losses anew
        calls["depth"] = calls.get("depth", 0) + 1
        try:
            return self._eager_call(inputs, args, kwargs)
        finally:
            calls["depth"] -= 1

    def _eager_call(self, inputs, args, kwargs):
        if not isinstance(inputs, (_Operand, list, tuple, dict)):
            inputs = convert_to_tensor(inputs)
        elif isinstance(inputs, (list, tuple)) and inputs and not isinstance(inputs[0],
                                                                            _Operand):
            inputs = convert_to_tensor(inputs)
        if "training" in kwargs and not _accepts(self.call, "training"):
            kwargs.pop("training")
        if not self.built:
            shape = tuple(inputs.shape) if isinstance(inputs, _Operand) else None
            self._maybe_build(shape)
        with name_scope(self.name):
            return self.call(inputs, *args, **kwargs)

    # --- losses -------------------------------------------------------------------------------
    def add_loss(self, losses, **kwargs):
        """Add to the training loss: a tensor computed in `call` (kept until the next call),
        a zero-argument callable (called by each `.losses`), or, on a functional model, a
        KerasTensor of its graph (computed at each call of the model)."""
        _functional().add_loss(self, losses)

    @property
    def losses(self) -> list:
        """This layer's and its sublayers' added losses (see `add_loss`)."""
        return _functional().collect_losses(self)

    def compute_output_shape(self, input_shape):
        from ..engine.ops.makers import zeros
        shape = tuple(1 if s is None else s for s in input_shape)
        with _functional().unrecorded():          # a shape, not work to show
            out = self(zeros(shape, self._dtype))
        return (input_shape[0],) + tuple(out.shape[1:])

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


_CALLS = threading.local()     # .depth: how many layer calls are running in this thread


def _functional():
    from . import functional     # (it builds on Layer: imported when first needed)
    return functional


def _unique(variables) -> list:
    """Each variable once, first occurrence kept (by identity: `==` on variables is an op)."""
    seen = set()
    out = []
    for v in variables:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


def _accepts(fn, arg) -> bool:
    """Whether `fn` takes the keyword `arg` (asked on every `model(x, training=True)`: the
    answer is kept per function)."""
    func = getattr(fn, "__func__", fn)
    try:
        return _ACCEPTS[func][arg]
    except (KeyError, TypeError):
        pass
    try:
        params = inspect.signature(fn).parameters
        answer = arg in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
    except (TypeError, ValueError):
        answer = False
    try:
        _ACCEPTS.setdefault(func, {})[arg] = answer
    except TypeError:          # (a callable that cannot be weakly referenced: not kept)
        pass
    return answer


_ACCEPTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _float_input(x, dtype, layer="layer"):
    if not isinstance(x, Tensor):
        x = convert_to_tensor(x)
    if x.dtype.is_string:
        raise ValueError(f"{layer}: dtype='string' is not a valid input dtype: the layer computes "
                         f"in {dtype.name}, and its input of shape {tuple(x.shape)} holds strings. "
                         "Fix: turn the text into numbers first (e.g. a vocabulary lookup to "
                         "ids, then tv.one_hot)")
    if x._value.dtype != dtype.np:
        from ..engine.ops import cast
        x = cast(x, dtype)
    return x


class Dense(Layer):
    """`activation(inputs @ kernel + bias)`; kernel shape (input_dim, units)."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        if not isinstance(units, (int, np.integer)) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"Dense: Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units!r} ({type(units).__name__}). "
                             "Fix: pass the number of outputs as an int, e.g. Dense(10)")
        self.units = int(units)
        self.activation = _activations.get(activation)
        self.use_bias = bool(use_bias)
        self.kernel_initializer = _initializers.get(kernel_initializer)
        self.bias_initializer = _initializers.get(bias_initializer)
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.kernel = None
        self.bias = None

    def build(self, input_shape):
        if input_shape is not None and len(input_shape) < 2:
            raise ValueError(f'Input 0 of layer "{self.name}" is incompatible with the layer: '
                             f"expected min_ndim=2, found ndim={len(input_shape)}. Full shape "
                             f"received: {tuple(input_shape)}. Fix: add a batch axis, e.g. "
                             "tv.reshape(x, (1, -1))")
        if input_shape is None or len(input_shape) < 1 or input_shape[-1] is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        last = int(input_shape[-1])
        self.kernel = self.add_weight("kernel", (last, self.units),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer)
        if self.use_bias:
            self.bias = self.add_weight("bias", (self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer)
        self.built = True

    def call(self, inputs):
        from ..engine.ops import add, matmul, tensordot
        x = _float_input(inputs, self._dtype, f"Dense layer {self.name!r}")
        if x._value.ndim < 2:
            self.build(tuple(x.shape))           # raises the min_ndim error
        if x._value.shape[-1] != self.kernel._value.shape[0]:
            raise ValueError(
                f"Input 0 of layer {self.name!r} is incompatible with the layer: expected "
                f"axis -1 of input shape to have value {self.kernel._value.shape[0]}, but "
                f"received input with shape {tuple(x.shape)}. Fix: this layer was built for "
                f"inputs with {self.kernel._value.shape[0]} features")
        if x._value.ndim == 2:
            out = matmul(x, self.kernel)
        else:
            out = tensordot(x, self.kernel, [[x._value.ndim - 1], [0]])
        if self.use_bias:
            out = add(out, self.bias)
        return self.activation(out)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)


class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1·d2·...)."""

    def call(self, inputs):
        from ..engine.ops import reshape
        x = inputs if isinstance(inputs, Tensor) else convert_to_tensor(inputs)
        if x._value.ndim == 0:
            raise ValueError("Flatten: expected min_ndim=1, found ndim=0: the input needs a batch "
                             "dimension, got a scalar. Fix: pass a batch, e.g. "
                             "tv.reshape(x, (1, 1))")
        return reshape(x, (x._value.shape[0], -1)) if x._value.ndim != 1 else \
            reshape(x, (x._value.shape[0], 1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        n = None if any(s is None for s in rest) else int(np.prod(rest)) if rest else 1
        return (input_shape[0], n)


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = _activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class ReLU(Activation):
    def __init__(self, **kwargs):
        super().__init__("relu", **kwargs)


class Dropout(Layer):
    """`tv.nn.dropout` when called with `training=True`; the identity otherwise."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if isinstance(rate, (str, bytes)) or not isinstance(rate, (int, float, np.number)):
            raise TypeError(f"Dropout: `rate` must be a float between 0 and 1, got {rate!r} "
                            f"({type(rate).__name__}). Fix: e.g. Dropout(0.5)")
        if not 0 <= rate <= 1:
            raise ValueError(f"Dropout: Invalid value received for argument `rate`. Expected a "
                             f"float value between 0 and 1. Received: rate={rate}. Fix: rate is "
                             "the fraction of inputs to drop, e.g. Dropout(0.5)")
        self.rate, self.noise_shape, self.seed = float(rate), noise_shape, seed

    def call(self, inputs, training=None):
        if not training or self.rate == 0:
            return inputs
        from ..nn import dropout
        return dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)
