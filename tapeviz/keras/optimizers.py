"""`tv.keras.optimizers`: `SGD`, `Adam`, `RMSprop` and `Nadam` with Keras's update rules.

Updates are computed on the variables' NumPy values in their own dtype and written with
`assign`/`assign_sub` (so recordings see every update). Formulas, with g the gradient and t
the step number (from 1):

* SGD: `m = momentum·m - lr·g; w += m` (`w -= lr·g` without momentum; Nesterov:
  `w += momentum·m - lr·g`)
* Adam: `m += (g - m)(1 - β₁); v += (g² - v)(1 - β₂); α = lr·√(1 - β₂ᵗ)/(1 - β₁ᵗ);
  w -= α·m / (√v + ε)`
"""
from __future__ import annotations

import warnings

import numpy as np

from ..engine import dtypes as _dt
from .. import events as _events
from ..engine import op as _op
from ..engine.assign import assign_quiet
from ..engine.errors import InvalidArgumentError
from ..engine.op import leaf_node
from ..engine.threadstate import quietly as _quietly
from ..engine.tensor import Tensor as _Tensor, Variable, _Operand
from ..engine.convert import convert_to_tensor
from ..engine.indexed_slices import IndexedSlices
from . import weight_owners as _owners
from .optimizer_args import _check_learning_rate, _is_number, _number, _process_kwargs


def Tensor(value):
    """A constant holding an update computed in NumPy; its source line is taken by the rule
    `assign` follows (`op.watched_site`)."""
    return _Tensor(value, leaf_node("Const", _op.watched_site(2)))


_ONE = np.int64(1)


class Optimizer:
    """Base: `apply_gradients(zip(grads, vars))`, `minimize(loss, var_list, tape)`."""

    def __init__(self, learning_rate=0.001, name=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, weight_decay=None, use_ema=False, jit_compile=True,
                 **kwargs):
        self.name = name or type(self).__name__
        _check_learning_rate(learning_rate, self.name)
        # a number becomes a float32 variable, as Keras's: callbacks and user code read it
        # with `.numpy()` and set it with `assign` or `K.set_value(optimizer.lr, ...)`
        self._learning_rate = (Variable(np.float32(learning_rate), trainable=False,
                                        name="learning_rate")
                               if _is_number(learning_rate) else learning_rate)
        if clipnorm is not None and global_clipnorm is not None:
            raise ValueError("At most one of `clipnorm` and `global_clipnorm` can be set. "
                             f"Received: clipnorm={clipnorm}, global_clipnorm={global_clipnorm}.")
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        if use_ema:
            raise NotImplementedError(f"{self.name}: use_ema is not supported by tapeviz. Fix: "
                                      "leave it False")
        self.weight_decay = weight_decay
        self._decay_excluded: tuple = ((), ())      # (variable ids, name parts)
        _process_kwargs(kwargs, self.name, type(self).__name__)
        self.iterations = Variable(np.int64(0), trainable=False, name="iteration")
        self._slots: dict = {}
        self._known = None          # ids of the variables it updates, once built (see build)

    @property
    def learning_rate(self):
        return self._current_learning_rate()

    def _current_learning_rate(self):
        """The learning rate now: a schedule's value at this step."""
        lr = self._learning_rate
        if callable(lr) and not isinstance(lr, _Operand):
            lr = lr(int(self.iterations._value))
        return lr

    @learning_rate.setter
    def learning_rate(self, value):
        _check_learning_rate(value, self.name)
        if _is_number(value) and isinstance(self._learning_rate, Variable):
            self._learning_rate.assign(np.float32(value))     # as Keras: the same variable
        else:
            self._learning_rate = value

    lr = learning_rate

    def _lr(self, dtype):
        """The learning rate now, as a NumPy scalar of ``dtype``."""
        lr = self._current_learning_rate()
        lr = lr._value if isinstance(lr, _Operand) else lr
        return np.asarray(lr, dtype=dtype)

    # tf-keras's slot variable names: `Adam/m/dense/kernel:0` (the legacy optimizers put the
    # variable before the slot: `Adam/dense/kernel/m:0`); SGD's momentum is named `m`
    _slot_path = "{optimizer}/{slot}/{variable}"
    _slot_labels: dict = {}

    def _slot(self, var, name, scoped=True):
        """The slot `name` of `var`, made on first use; `scoped=False` (slots made by
        load_model, outside the optimizer's name scope in tf-keras) leaves out the
        optimizer's name."""
        key = (var._id, name)
        slot = self._slots.get(key)
        if slot is None:
            path = self._slot_path.format(optimizer=self.name, variable=var._name,
                                          slot=self._slot_labels.get(name, name))
            if not scoped:
                path = path.split("/", 1)[1]
            slot = self._slots[key] = Variable(self._slot_start(var, name), trainable=False,
                                               name=path)
        return slot

    def _slot_start(self, var, name):
        """A new slot's value: zeros (Adagrad's accumulator starts elsewhere)."""
        return np.zeros_like(var._value)

    def apply_gradients(self, grads_and_vars, name=None):
        """Apply one update per (gradient, variable) pair; None gradients are skipped with a
        warning (an error when every gradient is None), as Keras."""
        pairs = list(grads_and_vars)
        missing = []
        for g, v in pairs:   # (one pass: two list comprehensions cost more than the checks)
            if not isinstance(v, Variable):
                raise TypeError(f"apply_gradients expects (gradient, variable) pairs; got "
                                f"{type(v).__name__} in place of a tv.Variable. Fix: "
                                "optimizer.apply_gradients(zip(grads, model.trainable_variables))")
            if g is None:
                missing.append(v.name)
        if len(missing) == len(pairs):
            raise ValueError(f"No gradients provided for any variable: {missing}. Fix: check "
                             "that the loss was computed inside the GradientTape from these "
                             "variables (tape.explain(loss, variables) says why)")
        if missing:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the "
                          "loss. They are not updated. (tape.explain(loss, variables) says "
                          "why.)", UserWarning, stacklevel=2)
        updates = []
        for g, v in pairs:
            if g is None:
                continue
            if isinstance(g, IndexedSlices):   # its dense tensor: the same update as Keras's
                g = convert_to_tensor(g)           # sparse one (duplicates summed first)
            # (a NumPy gradient is copied, as TensorFlow converts it: an event may make the
            # update again from it later, and the user may change their array meanwhile)
            g = g._value if isinstance(g, _Operand) else np.array(g)
            if g.shape != v._value.shape:
                raise InvalidArgumentError(
                    f"{self.name}.apply_gradients: Cannot update variable {v.name!r} with shape "
                    f"{v._value.shape} (dtype {v.dtype.name}) using a gradient with shape "
                    f"{g.shape}, shapes must be equal. Fix: pair each gradient with its own "
                    "variable, e.g. zip(tape.gradient(loss, vars), vars) with the same `vars` "
                    "[Op:AssignSubVariableOp]", "AssignSubVariableOp")
            updates.append((v, g))
        if self._tracks_variables:      # (every pair's variable, its gradient None or not)
            self._check_known([v for _, v in pairs])
        if _events.ACTIVE and _owners.ANY_FROZEN:    # (a frozen layer's weight: a run note)
            _owners.tell_frozen_updates(self.name, [v for v, _ in updates])
        # (NumPy's warnings off, as TensorFlow's kernels say nothing: an update that overflows
        # or makes NaN is a result the next gradient's explanation tells, from the user's line)
        _quietly(self._apply_updates, updates)
        for _, v in pairs:                 # as Keras: constraints after every update
            if v.constraint is not None:
                v.assign(v.constraint(v))
        if not assign_quiet(self.iterations, _ONE, "assign_add"):
            self.iterations.assign_add(_ONE)
        return self.iterations

    def _apply_updates(self, updates) -> None:
        """Weight decay, clipping and each (variable, gradient) pair's update."""
        if self.weight_decay:                 # as Keras: before the updates, at this step's rate
            for v, _ in updates:
                if not _excluded(self._decay_excluded, v):
                    decay = np.asarray(self.weight_decay, v._value.dtype)
                    v.assign_sub(Tensor(v._value * decay * self._lr(v._value.dtype)))
        lrs: dict = {}      # the learning rate, read once per call and dtype
        for v, g in self._clipped(updates):
            dtype = v._value.dtype
            lr = lrs.get(dtype)
            if lr is None:
                lr = lrs[dtype] = self._lr(dtype)
            self._update(v, g if g.dtype is dtype else g.astype(dtype, copy=False), lr)

    #: Keras's optimizers learn their variables once (tf-keras's legacy ones do not)
    _tracks_variables = True

    def build(self, var_list):
        """Learn the variables this optimizer updates, as Keras's: the first call (or the
        first apply_gradients, with the variables it updates) decides; a later one adds none."""
        if self._known is None:
            self._known = {v._id for v in var_list}

    def _check_known(self, variables) -> None:
        if self._known is None:
            self.build(variables)
            return
        for v in variables:
            if v._id not in self._known:
                raise KeyError(
                    f"The optimizer cannot recognize variable {v.name}. This usually means you "
                    "are trying to call the optimizer to update different parts of the model "
                    "separately. Please call `optimizer.build(variables)` with the full list of "
                    "trainable variables before the training loop or use legacy optimizer "
                    f"`tf.keras.optimizers.legacy.{type(self).__name__}.")

    def _clipped(self, updates):
        """The (variable, gradient) pairs with Keras's clipping: `clipnorm` (each gradient's
        norm at most that), else `global_clipnorm` (all of them together), else `clipvalue`
        (each entry in [-clipvalue, clipvalue]); TensorFlow's formulas, in the gradient's dtype."""
        if self.clipnorm and self.clipnorm > 0:
            out = []
            for v, g in updates:
                l2sum = np.sum(g * g)
                norm = np.sqrt(l2sum) if l2sum > 0 else l2sum
                clip = np.asarray(self.clipnorm, g.dtype)
                out.append((v, (g * clip / np.maximum(norm, clip)).astype(g.dtype, copy=False)))
            return out
        if self.global_clipnorm and self.global_clipnorm > 0:
            total = np.sqrt(sum(np.sum(np.square(g), dtype=np.float64) for _, g in updates))
            clip = float(self.global_clipnorm)
            scale = clip * min(1.0 / total if total > 0 else np.inf, 1.0 / clip)
            return [(v, (g * np.asarray(scale, g.dtype)).astype(g.dtype, copy=False))
                    for v, g in updates]
        if self.clipvalue and self.clipvalue > 0:
            return [(v, np.clip(g, -self.clipvalue, self.clipvalue).astype(g.dtype, copy=False))
                    for v, g in updates]
        return updates

    def minimize(self, loss, var_list, tape=None):
        """`loss` a callable (run under a new tape) or a tensor computed under `tape`."""
        from ..engine.tape import GradientTape
        if callable(var_list) and not isinstance(var_list, (list, tuple)):
            var_list = var_list()
        if not isinstance(var_list, (list, tuple)) or not all(isinstance(v, Variable)
                                                              for v in var_list):
            raise TypeError(f"{self.name}.minimize: var_list must be a list of tv.Variable, got "
                            f"{var_list!r}. Fix: pass the variables to train, e.g. "
                            "optimizer.minimize(loss, var_list=model.trainable_variables)")
        if tape is None:
            if not callable(loss):
                raise ValueError("`tape` is required when a `Tensor` loss is passed. Received: "
                                 f"loss={loss!r}, tape=None.")
            with GradientTape() as tape:
                value = loss()
        else:
            value = loss() if callable(loss) else loss
        grads = tape.gradient(value, list(var_list))
        return self.apply_gradients(zip(grads, var_list))

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Variables (or those whose name contains one of `var_names`) left undecayed."""
        self._decay_excluded = (tuple(id(v) for v in var_list or ()), tuple(var_names or ()))

    def _update(self, var, g, lr):
        """Update ``var`` by its gradient ``g`` (a NumPy array of its dtype) at learning rate
        ``lr`` (a NumPy scalar of that dtype)."""
        raise NotImplementedError

    def variables(self) -> list:
        """The iteration count, then the slots in tf-keras's order where it is known
        (RMSprop: every velocity, then every momentum, then every average gradient)."""
        from .saving_weights import slot_order
        return [self.iterations] + slot_order(self)


def _excluded(excluded, variable) -> bool:
    ids, names = excluded
    return id(variable) in ids or any(part in variable.name for part in names)


def _set(var, value):
    var.assign(Tensor(value.astype(var._value.dtype, copy=False)))


class SGD(Optimizer):
    _slot_labels = {"momentum": "m"}

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.momentum = _number(momentum, "momentum", self.name, 0.9, 0, 1)
        self.nesterov = bool(nesterov)

    def _update(self, var, g, lr):
        dtype = var._value.dtype
        if self.momentum == 0:
            delta = g * lr      # (a new array: assign_quiet may write the new value into it)
            if not assign_quiet(var, delta, "assign_sub", (np.multiply, g, lr)):
                var.assign_sub(Tensor(delta))     # (a tape is open: it may read delta)
            return
        momentum = np.asarray(self.momentum, dtype)
        m = self._slot(var, "momentum")
        m_new = -g * lr + m._value * momentum
        _set(m, m_new)
        if self.nesterov:
            var.assign_add(Tensor((-g * lr + m_new * momentum).astype(dtype, copy=False)))
        else:
            var.assign_add(Tensor(m_new.astype(dtype, copy=False)))


class Adam(Optimizer):
    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 amsgrad=False, name="Adam", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.beta_1 = _number(beta_1, "beta_1", self.name, 0.9)
        self.beta_2 = _number(beta_2, "beta_2", self.name, 0.999)
        self.epsilon = _number(epsilon, "epsilon", self.name, 1e-7)
        self.amsgrad = bool(amsgrad)

    def _update(self, var, g, lr):
        dtype = var._value.dtype
        step = np.asarray(int(self.iterations._value) + 1, dtype)
        b1, b2 = np.asarray(self.beta_1, dtype), np.asarray(self.beta_2, dtype)
        alpha = lr * np.sqrt(1 - b2 ** step) / (1 - b1 ** step)
        m, v = self._slot(var, "m"), self._slot(var, "v")
        # (1 - β) in double, then float32: what Keras gets from a Python float beside a tensor
        one_minus_b1 = np.asarray(1 - self.beta_1, dtype)
        one_minus_b2 = np.asarray(1 - self.beta_2, dtype)
        m_new = m._value + (g - m._value) * one_minus_b1
        v_new = v._value + (np.square(g) - v._value) * one_minus_b2
        _set(m, m_new)
        _set(v, v_new)
        if self.amsgrad:
            vhat = self._slot(var, "vhat")
            _set(vhat, np.maximum(vhat._value, v_new))
            v_new = vhat._value
        var.assign_sub(Tensor(((m_new * alpha) / (np.sqrt(v_new) + np.asarray(self.epsilon,
                                                                              dtype)))
                              .astype(dtype, copy=False)))


class RMSprop(Optimizer):
    """`v = ρ·v + (1 - ρ)·g²` (centered: minus the square of the same average of g);
    `w -= lr·g/√(v + ε)`, or through a momentum slot `m = momentum·m + lr·g/√(v + ε)`."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, name="RMSprop", **kwargs):
        super().__init__(learning_rate, name, **kwargs)
        self.rho = _number(rho, "rho", self.name, 0.9)
        self.momentum = _number(momentum, "momentum", self.name, 0.9)
        self.epsilon = _number(epsilon, "epsilon", self.name, 1e-7)
        self.centered = bool(centered)

    def _update(self, var, g, lr):
        dtype = var._value.dtype
        rho, rest = np.asarray(self.rho, dtype), np.asarray(1 - self.rho, dtype)
        velocity = self._slot(var, "velocity")
        v_new = rho * velocity._value + rest * np.square(g)
        _set(velocity, v_new)
        denominator = v_new + np.asarray(self.epsilon, dtype)
        if self.centered:
            average = self._slot(var, "average_gradient")
            a_new = rho * average._value + rest * g
            _set(average, a_new)
            denominator = v_new - np.square(a_new) + np.asarray(self.epsilon, dtype)
        increment = (lr * g / np.sqrt(denominator)).astype(dtype, copy=False)
        if self.momentum > 0:
            momentum = self._slot(var, "momentum")
            increment = (np.asarray(self.momentum, dtype) * momentum._value + increment
                         ).astype(dtype, copy=False)
            _set(momentum, increment)
        var.assign_add(Tensor(-increment))


# tf-keras's Nadam is long enough (its u-product inside a compiled fit) for a module of its own
from .optimizers_nadam import Nadam  # noqa: E402
from .optimizers_adagrad import Adagrad  # noqa: E402
from .optimizers_adamax import Adamax, AdamW  # noqa: E402

_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "nadam": Nadam, "adagrad": Adagrad,
            "adamax": Adamax, "adamw": AdamW}


def get(identifier):
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    if isinstance(identifier, str):
        raise ValueError(f"Unknown optimizer: {identifier!r}. Please ensure you are using a "
                         f"`keras.utils.custom_object_scope` and that this object is included "
                         f"in the scope. Fix: tapeviz has {sorted(_BY_NAME)} (or pass an "
                         "optimizer object, e.g. tf.keras.optimizers.SGD(0.01))")
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}. Fix: pass a "
                     "name such as 'adam' or an optimizer object")


del _dt
