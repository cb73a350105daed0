"""Keras's `StringLookup` and `IntegerLookup`: IndexLookup (layers_index_lookup) on strings,
with the OOV token "[UNK]", and on int64 tokens, with the OOV token -1."""
from __future__ import annotations

import numpy as np

from .layers_index_lookup import IndexLookup


class StringLookup(IndexLookup):
    _string = True

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, encoding="utf-8", invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        if kwargs.get("dtype") in ("string",) or getattr(kwargs.get("dtype"), "name",
                                                         None) == "string":
            del kwargs["dtype"]
        kwargs.pop("vocabulary_dtype", None)
        self.encoding = encoding
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         idf_weights, invert, output_mode, sparse, pad_to_max_tokens, **kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), "encoding": self.encoding}


class IntegerLookup(IndexLookup):
    _string = False

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, **kwargs):
        from ..engine import dtypes as dt
        if not dt.as_dtype(vocabulary_dtype).is_integer:
            raise ValueError(f"`vocabulary_dtype` must be an integer dtype. Received: "
                             f"{vocabulary_dtype}")
        if output_mode != "int" and kwargs.get("dtype") in ("int64", dt.int64):
            del kwargs["dtype"]
        for old, new in (("max_values", "max_tokens"), ("mask_value", "mask_token"),
                         ("oov_value", "oov_token")):
            if old in kwargs:
                value = kwargs.pop(old)
                max_tokens = value if new == "max_tokens" else max_tokens
                mask_token = value if new == "mask_token" else mask_token
                oov_token = value if new == "oov_token" else oov_token
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If `max_tokens` is set for `IntegerLookup`, it must be greater "
                             f"than 1. Received: max_tokens={max_tokens}.")
        if num_oov_indices < 0:
            raise ValueError(f"The value of `num_oov_indices` argument for `IntegerLookup` must "
                             f">= 0. Received num_oov_indices={num_oov_indices}.")
        mask_token = None if mask_token is None else np.int64(mask_token)
        oov_token = None if oov_token is None else np.int64(oov_token)
        self.vocabulary_dtype = dt.as_dtype(vocabulary_dtype).name
        super().__init__(max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                         idf_weights, invert, output_mode, sparse, pad_to_max_tokens, **kwargs)

    def get_config(self) -> dict:
        return {**super().get_config(), "vocabulary_dtype": self.vocabulary_dtype}
