"""tapeviz: TensorFlow 2's GradientTape on NumPy, instrumented, explained and visualised.

    import tapeviz as tf      # tutorial code runs unchanged
    import tapeviz as tv      # or, by its own name

Only NumPy is imported here; Panel, Bokeh and Graphviz load when a view is asked for.
"""
from __future__ import annotations

import sys as _sys

#: tapeviz's own release (as in pyproject.toml; recordings name it)
TAPEVIZ_VERSION = "0.1.0"
#: What ``tf.__version__`` says: the TensorFlow release whose API tapeviz imitates, with
#: tapeviz's own release as a PEP 440 local label, so that TensorFlow programs' checks such as
#: ``assert tf.__version__.startswith("2.")`` pass and a printed version still names tapeviz.
__version__ = "2.21.0+tapeviz." + TAPEVIZ_VERSION

from .engine import dtypes as _dtypes
from .engine.dtypes import (DType, as_dtype, bool_ as bool, double, float16, float32,  # noqa: F401
                            float64, half, int8, int16, int32, int64, string, uint8,
                            bfloat16, complex64, complex128)
from .engine.errors import InvalidArgumentError  # noqa: F401
from .engine.tensor import Tensor, TensorShape, Variable  # noqa: F401
from .engine.variable_args import VariableAggregationV2 as VariableAggregation  # noqa: F401
from .engine.variable_args import VariableSynchronization  # noqa: F401
from .engine.indexed_slices import IndexedSlices  # noqa: F401
from .engine.convert import constant, convert_to_tensor, get_static_value, is_tensor  # noqa: F401
from .engine.tape import GradientTape, UnconnectedGradients, name_scope  # noqa: F401
from .engine.threadstate import current_scope as get_current_name_scope  # noqa: F401
from .engine.ops import *  # noqa: F401,F403
from .engine.ops import abs, pow, range, round  # noqa: F401
from .engine.ops import __all__ as _ops_all
from .engine.custom import custom_gradient, grad_pass_through, recompute_grad  # noqa: F401
from . import math, nn, linalg, random, errors, events, config, debug, keras  # noqa: F401,E402
from . import data, distribute, dtypes, image, io, summary  # noqa: F401,E402
from . import nest, test, train  # noqa: F401,E402
from . import autograph, compat, debugging, sets, sparse, strings, version  # noqa: F401,E402
from . import experimental  # noqa: F401,E402
from . import io_records as _io_records  # noqa: E402

_io_records.install(_sys.modules[__name__])    # tf.io's records, tf.train.Example, ...
from .moving_average import ExponentialMovingAverage as _ExponentialMovingAverage  # noqa: E402

train.ExponentialMovingAverage = _ExponentialMovingAverage
from .strings import as_string  # noqa: F401,E402
from .math_safe import scalar_mul  # noqa: F401,E402  (tf.scalar_mul, as tf.math's)
from .sparse import SparseTensor  # noqa: F401,E402
from .control_flow import (case, cond, control_dependencies, ensure_shape,  # noqa: F401,E402
                           executing_eagerly, foldl, foldr, get_logger, gradients, group,
                           identity_n, init_scope, map_fn, no_op, scan, switch_case,
                           vectorized_map, while_loop)
from .debugging import (Assert, assert_equal, assert_greater, assert_less,  # noqa: F401,E402
                        assert_rank)
from .printing import print_ as print  # noqa: F401,E402,A001  (TensorFlow's tf.print)
from .printing import timestamp  # noqa: F401,E402
from .function import TensorSpec, function  # noqa: F401,E402
from .module import Module  # noqa: F401,E402
from .tensor_array import TensorArray  # noqa: F401,E402
from .script_ops import numpy_function, py_function  # noqa: F401,E402
from .device_config import device  # noqa: F401,E402

# tf.* functions on symbolic Keras inputs make layers, as in TF-Keras (keras/op_layers.py)
keras.op_layers.wrap_top_level(_sys.modules[__name__], _ops_all + ["abs", "pow", "round"])
keras.op_layers.wrap_functions(math, "math.", [n for n in dir(math) if not n.startswith("_")])
keras.op_layers.wrap_functions(nn, "nn.", [n for n in dir(nn) if not n.startswith("_")])
keras.op_layers.wrap_functions(linalg, "linalg.", [n for n in dir(linalg) if not n.startswith("_")])
keras.op_layers.wrap_functions(experimental.numpy, "experimental.numpy.",
                               experimental.numpy.FUNCTIONS)

# TensorFlow's shorter names for the Keras kit (tf.losses.MeanSquaredError, tf.optimizers.Adam)
losses, optimizers, initializers = keras.losses, keras.optimizers, keras.initializers
metrics = keras.metrics
zeros_initializer, ones_initializer = keras.initializers.Zeros, keras.initializers.Ones
constant_initializer = keras.initializers.Constant
random_normal_initializer = keras.initializers.RandomNormal
random_uniform_initializer = keras.initializers.RandomUniform



newaxis = None


def show(obj, **kwargs):
    """A Panel view of a tape or a recording (path), for notebooks: `tv.show(tape)`."""
    from .ui import show as _show
    return _show(obj, **kwargs)


def diff(a, b, **options):
    """Where two runs first differ, forward and backward: recordings (paths or loaded), or
    tapes / gradient calls of them (``tape_a=``, ``tape_b=``, ``call_a=``, ``call_b=``;
    ``rtol=``, ``atol=``). Returns a :class:`tapeviz.rundiff.RunDiff` (plain data; ``str()``
    is the report of ``tapeviz diff``). See docs/diff.md."""
    from .rundiff import diff as _diff
    return _diff(a, b, **options)


#: What to write instead, for TensorFlow names tutorial code uses that tapeviz does not have.
_INSTEAD = {
    "Graph": "tapeviz runs eagerly, as TensorFlow 2 does by default: call the ops directly "
             "(inside @tf.function too) instead of building a graph",
}


def __getattr__(name):
    instead = _INSTEAD.get(name)
    raise AttributeError(f"module 'tapeviz' has no attribute {name!r}. tapeviz implements "
                         "TensorFlow 2's eager GradientTape API (the README's 'What of "
                         "TensorFlow runs' and docs/api.md list it)"
                         + (f". Fix: {instead}" if instead else ""))


# --- events and recordings (tapeviz/events/, tapeviz/recording/) -----------------------------
from .recording import (RecordingError, follow_recording, load_recording,  # noqa: E402,F401
                        record)
from . import recording as _recording  # noqa: E402

_recording.start_from_env()   # TAPEVIZ_RECORD=run.tvz records the whole script
