"""`tf.compat.v1`: what TensorFlow 2 code still calls eagerly from TensorFlow 1's API.

Its loss functions (`losses`, compat_v1_losses.py), `logging`, `set_random_seed`, and the
switches a TensorFlow 2 program calls to make sure it runs eagerly. Any other name is
tapeviz's TensorFlow 2 function of that name, which TensorFlow 1's behaves as when run
eagerly (TensorFlow 1's extra spellings such as `keep_dims=` are not accepted). What needs
TensorFlow 1's graphs (`placeholder`, `Session`, `disable_eager_execution`) raises
TensorFlow's own error: tapeviz, like TensorFlow 2, runs eagerly.
"""
from __future__ import annotations

import logging as _logging
import types

from . import compat_v1_losses as losses  # noqa: F401
from .random import set_seed as set_random_seed  # noqa: F401
from .engine.variable_args import VariableAggregation  # noqa: F401


def executing_eagerly() -> bool:
    return True


def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """Already so: tapeviz always runs eagerly."""


def enable_v2_behavior() -> None:
    """Already so: tapeviz is TensorFlow 2's API."""


def _graph_only(name):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"tf.{name}() is not compatible with eager execution. tapeviz, "
                           "like TensorFlow 2, runs eagerly and has no TensorFlow 1 graphs. "
                           "Fix: compute with tensors directly (a tf.function or a "
                           "GradientTape instead of a Session)")
    refuse.__name__ = name
    return refuse


placeholder = _graph_only("placeholder")
Session = _graph_only("Session")
InteractiveSession = _graph_only("InteractiveSession")
disable_eager_execution = _graph_only("disable_eager_execution")
disable_v2_behavior = _graph_only("disable_v2_behavior")
global_variables_initializer = _graph_only("global_variables_initializer")


_logger = _logging.getLogger("tensorflow")
#: `tf.compat.v1.logging`: TensorFlow's logger (the standard library's "tensorflow" logger)
#: at its numeric levels
logging = types.SimpleNamespace(
    DEBUG=10, INFO=20, WARN=30, ERROR=40, FATAL=50,
    set_verbosity=_logger.setLevel, get_verbosity=_logger.getEffectiveLevel, log=_logger.log,
    debug=_logger.debug, info=_logger.info, warning=_logger.warning, warn=_logger.warning,
    error=_logger.error, fatal=_logger.critical)


def __getattr__(name):
    # (any other name: TensorFlow 2's, which TensorFlow 1's behaves as when eager)
    import tapeviz
    try:
        return getattr(tapeviz, name)
    except AttributeError:
        raise AttributeError(f"module 'tapeviz.compat.v1' has no attribute {name!r}. tapeviz "
                             "imitates the parts of tf.compat.v1 that TensorFlow 2 code calls "
                             "eagerly (losses, logging, set_random_seed) and TensorFlow 2's "
                             "names") from None
