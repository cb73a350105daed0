"""The base `Layer` of `tv.keras.layers` and the helpers the layer modules share (Keras's
naming of layers is in `naming.py`).

A layer creates its variables lazily, on its first call, when the input's shape is known;
its ops run inside `tv.name_scope(layer.name)` so the dashboard groups them.
"""
from __future__ import annotations

import contextlib
import threading

import numpy as np

from ..engine import dtypes as _dt
from ..engine.call_site import user_site
from ..engine.nest import attribute_leaves
from ..engine.tape import name_scope
from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor, Variable, _Operand
from ..checkpoint import restore_deferred
from ..module import Module
from . import backend as _backend
from . import constraints as _constraints
from . import initializers as _initializers
from . import mixed_precision as _mixed
from . import regularizers as _regularizers
from .naming import reset_uids, to_snake_case, unique_name  # noqa: F401 (re-exported)
from .call_signature import _accepts, _training_default, _training_required  # noqa: F401
from .call_signature import training_mode
from .weight_owners import made_by, trainable_flag
from .layer_inputs import _float_input, refuse_unsupported  # noqa: F401 (re-exported)
from .layer_aliases import LayerAliases

class Layer(LayerAliases, Module):
    """Base layer: override `build(input_shape)` (create weights with `add_weight`) and
    `call(inputs)`. Weights come in creation order, this layer's then its sublayers'."""

    #: Keras casts the floating inputs of a layer to its compute dtype (not a functional or
    #: Sequential model's: their layers do)
    _autocast = True

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        # what the layer is made with is its config (saving_config.py), as tf-keras's own
        _saving_config().capture_arguments(layer, args, kwargs)
        return layer

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None,
                 batch_input_shape=None, input_dim=None, activity_regularizer=None, **kwargs):
        if kwargs:
            raise TypeError(f"Keyword argument not understood: {sorted(kwargs)[0]!r} "
                            f"(layer {type(self).__name__})")
        base = to_snake_case(type(self).__name__)
        super().__init__(name=None)
        self._name = self._scope_name = name if name is not None else unique_name(base)
        # where the user made this layer: its weights are created later, at the first call,
        # but their initialisers were chosen here (a bias of -100 is set on this line)
        self._made_at = user_site(2)
        self._trainable = trainable_flag(trainable)   # (no layers inside yet to pass it to)
        self.built = False
        self._own_weights: list = []
        self.activity_regularizer = _regularizers.get(activity_regularizer)
        # Keras's dtype policy: `_dtype` the dtype it computes in (its inputs are cast to
        # it), `dtype` its variables' (they differ under 'mixed_float16')
        policy = self._dtype_policy = _mixed.get_policy(dtype)
        self._dtype = _dt.as_dtype(policy.compute_dtype or _backend.floatx())
        self._variable_dtype = _dt.as_dtype(policy.variable_dtype or _backend.floatx())
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
        """The dtype of the layer's variables (its policy's variable_dtype)."""
        return self._variable_dtype.name

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @property
    def compute_dtype(self) -> str:
        return self._dtype.name

    @property
    def variable_dtype(self) -> str:
        return self.dtype

    # --- weights -------------------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None, regularizer=None,
                   trainable=True, constraint=None, **kwargs):
        dtype = _dt.as_dtype(dtype or self._variable_dtype)
        shape = tuple(int(s) for s in (shape or ()))
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = _initializers.get(initializer)
        value = init(shape, dtype=dtype)
        # (built inside the layer's name scope, so named 'dense/kernel', or 'model/dense/kernel'
        # for a layer built inside another layer's call, as Keras names it)
        # a float variable of a mixed-precision layer reads as its compute dtype in its call
        autocast = (kwargs.get("experimental_autocast", True) and dtype.is_floating and
                    self._dtype != self._variable_dtype)
        kind = _mixed.AutoCastVariable if autocast else Variable
        var = kind(value, trainable=trainable, name=name or "Variable", dtype=dtype,
                   constraint=_constraints.get(constraint))
        made_at = getattr(self, "_made_at", None)   # (None for a subclass that skipped __init__)
        if made_at is not None:
            var._site = var._node.site = made_at
        self._own_weights.append(var)
        made_by(var, self)
        regularizer = _regularizers.get(regularizer)
        if regularizer is not None:          # recomputed from the weight at each `.losses`
            self.add_loss(lambda: regularizer(var))
        return var

    @property
    def trainable(self) -> bool:
        return self.__dict__.get("_trainable", True)

    @trainable.setter
    def trainable(self, value):
        # as Keras: freezing (or unfreezing) a layer sets every layer inside it too
        todo, seen, flag = [self], set(), trainable_flag(value)
        while todo:
            layer = todo.pop()
            if id(layer) not in seen:
                seen.add(id(layer))
                object.__setattr__(layer, "_trainable", flag)
                todo += layer._sublayers()

    def _sublayers(self):
        out = []
        for name, value in vars(self).items():
            if isinstance(value, Layer):    # (most layers: no walk of a one-leaf attribute)
                if value is not self and value not in out:
                    out.append(value)
            elif isinstance(value, (list, tuple, dict)) and name not in _PLAIN:
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
        if not self.trainable:     # all of them, the trainable ones first, as Keras lists them
            out = [w for w in self._own_weights if w.trainable] + \
                [w for w in self._own_weights if not w.trainable]
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

    @property
    def input_shape(self):
        """The shape of the layer's input, batch axis None, known once it was called (or
        given `input_shape=`), as Keras's; before that an AttributeError, as Keras's."""
        shape = self.__dict__.get("_seen_input_shape") or self.__dict__.get("_batch_input_shape")
        if shape is None:
            raise AttributeError(f"The layer {self.name!r} has never been called and thus has "
                                 "no defined input shape. Fix: call it (or the model it is in) "
                                 "on data first, or give it input_shape=")
        return tuple(shape)

    def _maybe_build(self, input_shape):
        if input_shape is not None and "_seen_input_shape" not in self.__dict__:
            self._seen_input_shape = (None,) + tuple(input_shape)[1:]
        if not self.built:
            if not getattr(self.build, "skipped_on_first_call", False):
                with name_scope(self.name):
                    self.build(input_shape)
            self.built = True
            restore_deferred()    # a checkpoint restored before this layer had its variables

    def __call__(self, inputs, *args, **kwargs):
        if type(inputs) is not Tensor and _functional().is_symbolic(inputs, args, kwargs):
            return _functional().symbolic_call(self, inputs, args, kwargs)
        calls = _CALLS.__dict__
        if not calls.get("depth"):
            _functional().forget_call_losses(self)     # the outermost call: losses anew
        outer = calls.get("training")      # (Keras's training mode: see training_mode)
        training, args, kwargs = training_mode(self.call, args, kwargs, outer)
        calls["depth"] = calls.get("depth", 0) + 1
        calls["training"] = training if training is not None else outer
        try:
            return self._eager_call(inputs, args, kwargs)
        finally:
            calls["depth"] -= 1
            calls["training"] = outer

    def _eager_call(self, inputs, args, kwargs):
        if not isinstance(inputs, (_Operand, list, tuple, dict)):
            inputs = convert_to_tensor(inputs)
        elif isinstance(inputs, (list, tuple)) and any(isinstance(x, np.ndarray) for x in inputs):
            # Keras converts each array of a structure on its own: a subclassed model called
            # on `(targets, contexts)` gets a pair of tensors of different shapes
            inputs = type(inputs)(convert_to_tensor(x) if isinstance(x, np.ndarray) else x
                                  for x in inputs)
        elif isinstance(inputs, (list, tuple)) and inputs and not isinstance(
                inputs[0], (_Operand, list, tuple, dict)):     # (a structure stays one)
            inputs = convert_to_tensor(inputs)
        if "training" in kwargs and not _accepts(self.call, "training"):
            kwargs.pop("training")
        if not self.built:
            shape = tuple(inputs.shape) if isinstance(inputs, _Operand) else None
            self._maybe_build(shape)
        if self._autocast and (type(inputs) is not Tensor or inputs._value.dtype !=
                               self._dtype.np):   # Keras's autocast of the inputs
            inputs = _mixed.cast_inputs(inputs, self._dtype)
        # (no AutoCastVariable made yet: nothing to cast, and no scope to pay for)
        with name_scope(self.name), (_mixed.autocast_to(self._dtype) if _mixed.AUTOCASTING
                                     else _NO_SCOPE):
            outputs = _masking().call_with_masks(self, inputs, args, kwargs)
            if self.__dict__.get("activity_regularizer") is not None:
                self._add_activity_loss(outputs)
            return outputs

    def _add_activity_loss(self, outputs):
        """Keras's activity regularization: the penalty of each output divided by its batch
        size, added to the layer's losses."""
        from ..engine.ops import cast
        for out in _leaves(outputs):
            if isinstance(out, _Operand):
                penalty = self.activity_regularizer(out)
                self.add_loss(penalty / cast(out.shape[0], penalty.dtype))

    def get_config(self) -> dict:
        """Keras's base config, which a custom layer's `get_config` extends; for a layer class
        that defines none, the base plus the arguments the layer was made with."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": _mixed.serialize(self._dtype_policy)}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        if type(self).get_config is not Layer.get_config:
            return config
        return _saving_config().auto_config(self, config)

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    # --- losses -------------------------------------------------------------------------------
    def add_loss(self, losses, **kwargs):
        """Add to the training loss: a tensor computed in `call` (kept until the next call),
        a zero-argument callable (called by each `.losses`), or, on a functional model, a
        KerasTensor of its graph (computed at each call of the model)."""
        _functional().add_loss(self, losses)

    def add_metric(self, value, name=None, aggregation=None, **kwargs):
        """Report a value as a metric of `fit`/`evaluate`: the result of calling a Keras metric
        (that metric is reported), or a tensor averaged over the batches under `name`."""
        from . import metrics as _metrics
        added = self.__dict__.setdefault("_added_metrics", {})
        metric = _metrics.metric_of(value)
        if metric is not None:
            added.setdefault(metric.name, metric)
            return
        if name is None:
            raise ValueError(f"Please provide a name for your metric like "
                             f"`self.add_metric(tf.reduce_sum(inputs), name='mean_activation')` "
                             f"(layer {self.name!r})")
        if aggregation not in (None, "mean"):
            raise ValueError(f"{self.name}.add_metric: aggregation={aggregation!r} is not "
                             "imitated. Fix: aggregation='mean'")
        metric = added.setdefault(name, _metrics.Mean(name=name))
        metric.update_state(value)

    @property
    def added_metrics(self) -> list:
        """The metrics `add_metric` gave this layer and its sublayers, in order."""
        out = list(self.__dict__.get("_added_metrics", {}).values())
        for sub in self._sublayers():
            out += [m for m in sub.added_metrics if m not in out]
        return out

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


_NO_SCOPE = contextlib.nullcontext()

#: .depth: how many layer calls are running in this thread; .training: the training mode of
#: the innermost one that has one (None: none has)
_CALLS = threading.local()


def _masking():
    from . import masking      # (it builds on Layer: imported when first needed)
    return masking


def _saving_config():
    from . import saving_config
    return saving_config


def _functional():
    from . import functional     # (it builds on Layer: imported when first needed)
    return functional


#: containers every layer holds that are neither layers nor tracked variables (its own
#: weights, listed apart; its site; its input shape): walking them was most of a read of
#: `weights`
_PLAIN = frozenset({"_own_weights", "_made_at", "_seen_input_shape"})


def _unique(variables) -> list:
    """Each variable once, first occurrence kept (by identity: `==` on variables is an op)."""
    seen = set()
    out = []
    for v in variables:
        if id(v) not in seen:
            seen.add(id(v))
            out.append(v)
    return out


def _leaves(value):
    """The objects inside a (nested) list, tuple or dict, in tf.nest's order (as Keras
    tracks a layer's attributes)."""
    if not isinstance(value, (list, tuple, dict)):
        return (value,)          # (most attributes: a walk would cost more than the answer)
    return [leaf for _, leaf in attribute_leaves(value)]
