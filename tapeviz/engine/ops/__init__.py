"""Every op, grouped by family; `tapeviz.engine.tensor` dispatches operators to this module."""
from .elementwise import *  # noqa: F401,F403
from .elementwise import abs, pow, round  # noqa: F401  (names that shadow builtins)
from .shape import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .reduce import *  # noqa: F401,F403
from .makers import *  # noqa: F401,F403
from .makers import range  # noqa: F401
from .linalg import *  # noqa: F401,F403
from .gradient_ops import *  # noqa: F401,F403
from . import nn as _nn  # noqa: F401  (registers the tv.nn ops; TF exposes them as tf.nn.* only)
from . import losses as _losses  # noqa: F401  (the same, for tv.nn's cross-entropies)
from .clip import *  # noqa: F401,F403
# Importing a submodule binds its name here, and `from .engine.ops import *` would then
# shadow the namespaces tapeviz.nn and tapeviz.linalg (and tf.shape) with these modules.
import types as _types  # noqa: E402

for _name in ("elementwise", "shape", "indexing", "reduce", "spectral", "makers", "linalg",
              "gradient_ops", "nn", "losses", "clip"):
    if isinstance(globals().get(_name), _types.ModuleType):
        del globals()[_name]
from .info import rank, shape, size  # noqa: F401,E402  (after the loop: `shape` is a function)

# helpers the families import for themselves are not part of the public surface
for _name in ("np", "apply", "defop", "lead", "pair", "tensor", "annotations", "operator",
              "like", "require", "norm_axis", "same_dtype", "FLOAT", "NUMERIC", "leaf_node",
              "dt", "info", "Tensor", "Variable", "convert_to_tensor", "dtype_mismatch",
              "InvalidArgumentError"):
    globals().pop(_name, None)
from .. import tensor as _tensor  # noqa: E402
import sys as _sys  # noqa: E402

_tensor.ops = _sys.modules[__name__]
_tensor.bind_operators(_tensor.ops)
