"""`tf.dtypes`: the dtype names, `DType`, `as_dtype` and `cast` under TensorFlow's module path
(`tf.dtypes.cast` is how CleverHans and other libraries spell `tf.cast`)."""
from .engine.dtypes import (DType, as_dtype, bfloat16, bool_ as bool, complex64,  # noqa: F401
                            complex128, double, float16, float32, float64, half, int8, int16,
                            int32, int64, string, uint8)
from .engine.ops import cast  # noqa: F401

__all__ = ["DType", "as_dtype", "cast", "bfloat16", "bool", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "string",
           "uint8"]
