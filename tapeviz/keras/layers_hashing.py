"""Keras's `Hashing` layer: each value to one of `num_bins` bins by TensorFlow's string
hashes (tapeviz/strings_hash.py), bit for bit as tf-keras computes them: integers hashed as
their decimal strings (tf.as_string), FarmHash Fingerprint64 modulo the bins without `salt`,
SipHash-2-4 keyed by `salt` (an integer s meaning the key [s, s]) with it. With
`mask_value`, bin 0 is kept for that value and the others hash into bins 1 ... num_bins-1."""
from __future__ import annotations

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.errors import InvalidArgumentError
from ..engine.ops.makers import _make
from ..strings_hash import fingerprint64, siphash24
from .layers_base import Layer
from .layers_index_lookup import encode_categorical

_MODES = ("int", "one_hot", "multi_hot", "count")


class Hashing(Layer):
    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        from ..engine import dtypes as dt
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else None
        elif output_mode == "int" and not dt.as_dtype(kwargs["dtype"]).is_integer:
            kwargs["dtype"] = "int64"
        super().__init__(**kwargs)
        self._autocast = False
        if output_mode not in _MODES:
            raise ValueError(f"Unkown value for `output_mode` argument of layer Hashing. If "
                             f"restricting to a set of values, make sure to pass one of the "
                             f"following: {_MODES}. Received: {output_mode}")
        if sparse and output_mode == "int":
            raise ValueError(f'`sparse` may only be true if `output_mode` is `"one_hot"`, '
                             f'`"multi_hot"`, or `"count"`. Received: sparse={sparse} and '
                             f'output_mode={output_mode}')
        if sparse:
            raise NotImplementedError("Hashing: sparse=True is not imitated (tapeviz has no "
                                      "SparseTensor). Fix: sparse=False")
        self.num_bins, self.mask_value, self.output_mode = num_bins, mask_value, output_mode
        self.sparse, self.strong_hash, self.salt = False, salt is not None, None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = salt
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `Hashing` can only be a tuple of size "
                                 f"2 integers, or a single integer. Received: salt={salt}.")

    def _bins(self, value):
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = value == (self.mask_value.encode() if isinstance(self.mask_value, str)
                             and value.dtype == object else self.mask_value)
        if value.dtype.kind in "iu":
            strings = [b"%d" % v for v in value.ravel()]
        elif value.dtype == object:
            strings = list(value.ravel())
        else:
            raise InvalidArgumentError(f"cannot compute StringToHashBucketFast as input #0"
                                       f"(zero-based) was expected to be a string tensor but is "
                                       f"a {value.dtype.name} tensor (Hashing hashes strings and "
                                       f"integers)", "StringToHashBucketFast")
        if self.strong_hash:
            k0, k1 = (int(k) for k in self.salt)
            hashed = [siphash24(k0, k1, s) % bins for s in strings]
        else:
            hashed = [fingerprint64(s) % bins for s in strings]
        out = np.asarray(hashed, np.int64).reshape(value.shape)
        if mask is not None:
            out = np.where(mask, 0, out + 1)
        return out

    def call(self, inputs):
        value = np.asarray(convert_to_tensor(inputs)._value)
        ids = self._bins(value)
        if self.output_mode == "int":
            return _make(ids.astype(self._dtype.np))
        return _make(encode_categorical(ids, self.output_mode, self.num_bins, self._dtype.np))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_bins": self.num_bins, "salt": self.salt,
                "mask_value": self.mask_value, "output_mode": self.output_mode,
                "sparse": self.sparse}
