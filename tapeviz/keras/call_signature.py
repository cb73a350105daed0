"""What a layer's `call` (or a Lambda's function) takes, read from its signature once per
function: whether it accepts a keyword (`training`, `mask`), the default of its `training`,
and whether it requires a `training` Keras must fill in."""
from __future__ import annotations

import inspect
import weakref


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


def _training_required(fn, given) -> bool:
    """Whether `fn` has a `training` parameter without a default that the `given` positional
    arguments do not reach (Keras passes it: `def call(self, inputs, training)`)."""
    func = getattr(fn, "__func__", fn)
    try:
        position = _ACCEPTS[func]["training required at"]
    except (KeyError, TypeError):
        position = None
        try:
            for i, p in enumerate(inspect.signature(fn).parameters.values()):
                if p.name == "training" and p.default is p.empty:
                    position = i if p.kind is not p.KEYWORD_ONLY else float("inf")
        except (TypeError, ValueError):
            pass
        try:
            _ACCEPTS.setdefault(func, {})["training required at"] = position
        except TypeError:
            pass
    return position is not None and position >= given


def _training_default(fn):
    """The default of `fn`'s `training` parameter (None when it has none), kept per function."""
    func = getattr(fn, "__func__", fn)
    try:
        return _ACCEPTS[func]["training default"]
    except (KeyError, TypeError):
        pass
    try:
        param = inspect.signature(fn).parameters.get("training")
        default = None if param is None or param.default is param.empty else param.default
    except (TypeError, ValueError):
        default = None
    try:
        _ACCEPTS.setdefault(func, {})["training default"] = default
    except TypeError:
        pass
    return default


def _training_position(fn):
    """Where `fn`'s `training` parameter sits among its positional ones (the inputs are 0),
    or None when it cannot be given by position; kept per function."""
    func = getattr(fn, "__func__", fn)
    try:
        return _ACCEPTS[func]["training position"]
    except (KeyError, TypeError):
        pass
    position = None
    try:
        for i, p in enumerate(inspect.signature(fn).parameters.values()):
            if p.name == "training" and p.kind is p.POSITIONAL_OR_KEYWORD:
                position = i
    except (TypeError, ValueError):
        pass
    try:
        _ACCEPTS.setdefault(func, {})["training position"] = position
    except TypeError:
        pass
    return position


def training_mode(call, args, kwargs, outer):
    """`(training, args, kwargs)` for a layer call, as Keras decides it: the `training` given
    to this call (by keyword, or by position: `self.bn(x, training)`), else the enclosing
    layer call's `outer` (a subclassed model's `self.bn(x)` inside `call(x, training=True)`
    trains, and so does every layer inside `fit`), else the default of this layer's `call`.
    A `training` the call requires and nobody gave is passed as None, as Keras does."""
    at = _training_position(call)
    if at is not None and len(args) >= at:          # given by position
        training = args[at - 1]
        if training is None and outer is not None:
            args = args[:at - 1] + (outer,) + args[at:]
            training = outer
        return training, args, kwargs
    training = kwargs.get("training")
    if training is None and outer is not None and _accepts(call, "training"):
        kwargs["training"] = training = outer
    elif training is None and outer is None:
        training = _training_default(call)      # what the call runs with, for the layers
    if training is None and "training" not in kwargs and _training_required(call,
                                                                            1 + len(args)):
        kwargs["training"] = None
    return training, args, kwargs
