"""`tf.experimental.numpy` (`tnp`): NumPy's API on tensors, as TensorFlow 2.21 has it.

Its arrays are tensors (`tnp.ndarray` is `tf.Tensor`), so a tape records and differentiates
`tnp` code as it does `tf` code: every function is a thin mapping, with NumPy's names,
argument names and dtype rules (promotion.py), onto tapeviz's ops. Its dtypes are NumPy's own
types (`tnp.float32 is np.float32`). `experimental_enable_numpy_behavior()` (behavior.py) gives
tensors NumPy's methods and NumPy's promotion in operators.
"""
from __future__ import annotations

import numpy as _np

from ...engine.tensor import Tensor as ndarray  # noqa: F401
from . import random  # noqa: F401
from .arrangement import *  # noqa: F401,F403
from .behavior import experimental_enable_numpy_behavior, install_hint as _install_hint
from .creation import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .math import abs, round  # noqa: F401  (names that shadow builtins)
from .promotion import array, asarray, result_type  # noqa: F401
from .promotion import np_result_type as _np_result_type
from .reductions import *  # noqa: F401,F403
from .reductions import all, any, max, min, sum  # noqa: F401
from .shapes import *  # noqa: F401,F403
from . import arrangement as _arrangement, creation as _creation, math as _math
from . import reductions as _reductions, shapes as _shapes

# NumPy's own types and constants, as TensorFlow exports them
bool_, complex64, complex128 = _np.bool_, _np.complex64, _np.complex128
float16, float32, float64 = _np.float16, _np.float32, _np.float64
int8, int16, int32, int64, int_ = _np.int8, _np.int16, _np.int32, _np.int64, _np.int_
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float_, complex_, object_, string_, unicode_ = (_np.float64, _np.complex128, _np.object_,
                                                _np.bytes_, _np.str_)
inexact, iinfo, finfo, issubdtype = _np.inexact, _np.iinfo, _np.finfo, _np.issubdtype
newaxis, pi, e, inf = None, _np.pi, _np.e, _np.inf
asanyarray = asarray


#: the functions of arrays (a call on a Keras functional model's symbolic input makes a layer)
FUNCTIONS = sorted({"array", "asarray", "asanyarray"}.union(*(
    module.__all__ for module in (_arrangement, _creation, _math, _reductions, _shapes))))


def promote_types(type1, type2):
    return _np.promote_types(_np_result_type(type1), _np_result_type(type2))


_install_hint()

# (what `from tensorflow.experimental.numpy import *` gives: not the submodules here, whose
# names such as `math` would shadow Python's)
__all__ = FUNCTIONS + [
    "ndarray", "random", "experimental_enable_numpy_behavior", "result_type", "promote_types",
    "bool_", "complex64", "complex128", "float16", "float32", "float64", "int8", "int16",
    "int32", "int64", "int_", "uint8", "uint16", "uint32", "uint64", "float_", "complex_",
    "object_", "string_", "unicode_", "inexact", "iinfo", "finfo", "issubdtype", "newaxis",
    "pi", "e", "inf"]

#: TensorFlow's tnp names tapeviz does not have (complex numbers, bitwise and integer
#: arithmetic, rarer shapes): asked for, they say so instead of a bare AttributeError
_NOT_IMITATED = frozenset(
    "angle arccosh arcsinh arctan2 arctanh ascontiguousarray bitwise_and bitwise_not "
    "bitwise_or bitwise_xor compress conj conjugate cross cumprod diag diag_indices diagflat "
    "diagonal divmod dsplit fix gcd geomspace heaviside hsplit imag iscomplex iscomplexobj "
    "isneginf isposinf isreal isrealobj ix_ kron lcm logspace nanmean nanprod nansum "
    "nextafter polyval real rot90 select take_along_axis trace vander vsplit".split())


def __getattr__(name):
    if name in _NOT_IMITATED:
        raise AttributeError(
            f"tapeviz does not imitate tf.experimental.numpy.{name} (it has {len(__all__)} of "
            "TensorFlow's tnp names). Fix: write it with the tnp or tf functions it is made "
            "of, so the tape still records it")
    raise AttributeError(f"module 'tf.experimental.numpy' has no attribute {name!r}")
