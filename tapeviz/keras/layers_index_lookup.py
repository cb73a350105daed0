"""Keras's `StringLookup` and `IntegerLookup` (tf-keras 2's IndexLookup): tokens to indices
(or, with `invert=True`, indices back to tokens), or encoded as one-hot, multi-hot, counts
or TF-IDF of those indices.

As tf-keras: the indices start with the mask (index 0, only in "int" mode and only when
`mask_token` is set), then `num_oov_indices` OOV indices, then the vocabulary. With several
OOV indices an unknown string goes to FarmHash Fingerprint64 modulo their number (an integer
to its floor modulo); with none, an unknown token is an error. `adapt` orders the vocabulary
by count, ties by the token (bytes or integer), both descending (np.lexsort(...)[::-1]);
each batch of the data (32 rows of an array, or one element of a Dataset; a rank-1 batch is
one document) counts for TF-IDF's documents. In the counting modes a mask token counts for
nothing. Sparse outputs are not imitated (tapeviz has no SparseTensor)."""
from __future__ import annotations

import collections

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.errors import InvalidArgumentError
from ..engine.ops.makers import _make
from .layers_base import Layer

INT, ONE_HOT, MULTI_HOT, COUNT, TF_IDF = "int", "one_hot", "multi_hot", "count", "tf_idf"
_MODES = (INT, ONE_HOT, MULTI_HOT, COUNT, TF_IDF)
_MASKED = np.iinfo(np.int64).max         # (tf-keras's mask value outside "int": never counted)


def encode_categorical(ids, output_mode, depth, dtype=np.float32, count_weights=None,
                       idf_weights=None):
    """tf-keras's encode_categorical_inputs on a NumPy array of ids: a bincount per row of
    `depth` bins (ids at or above `depth` dropped, as tf.math.bincount's maxlength drops
    them), a rank-0 or rank-1 input one row (one_hot: one id per row)."""
    ids = np.asarray(ids)
    shape = ids.shape
    if ids.ndim == 0:
        ids = ids[None]
    if output_mode == ONE_HOT and ids.shape[-1] != 1:
        ids = ids[..., None]
    if ids.ndim > 2:
        raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank is 2. "
                         f"Received output_mode {output_mode} and input shape {shape}, which "
                         f"would result in output rank {ids.ndim}.")
    if ids.size and ids.min() < 0:
        raise InvalidArgumentError(f"Input arr must be non-negative! (got {ids.min()}; "
                                   f"layer output_mode={output_mode!r})", "DenseBincount")
    rows = ids.reshape(-1, ids.shape[-1]).astype(np.int64)
    out = np.zeros((len(rows), depth), dtype)
    weights = None if count_weights is None else np.broadcast_to(
        np.asarray(count_weights, dtype), ids.shape).reshape(rows.shape)
    for r, row in enumerate(rows):
        keep = row < depth
        if output_mode in (ONE_HOT, MULTI_HOT):
            out[r, row[keep]] = 1
        else:
            np.add.at(out[r], row[keep], 1 if weights is None else weights[r][keep])
    if output_mode == TF_IDF:
        out = out * np.asarray(idf_weights, dtype)
    return out if ids.ndim == 2 else out[0]


def _probing():
    from .functional import probing
    return probing()


def _values(x):
    return getattr(x, "_value", x)


class IndexLookup(Layer):
    """The shared machinery of StringLookup and IntegerLookup (tf-keras's IndexLookup)."""
    _string = True

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary,
                 idf_weights, invert, output_mode, sparse, pad_to_max_tokens, **kwargs):
        name = type(self).__name__
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: "
                             f"max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: "
                             f"max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        output_mode = {"binary": MULTI_HOT, "tf-idf": TF_IDF}.get(output_mode, output_mode)
        if output_mode not in _MODES:
            raise ValueError(f"Unkown value for `output_mode` argument of layer {name}. If "
                             f"restricting to a set of values, make sure to pass one of the "
                             f"following: {_MODES}. Received: {output_mode}")
        if invert and output_mode != INT:
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: "
                             f"output_mode={output_mode}")
        if sparse and output_mode == INT:
            raise ValueError(f"`sparse` may only be true if `output_mode` is `'one_hot'`, "
                             f"`'multi_hot'`, `'count'` or `'tf_idf'`. Received: sparse={sparse}"
                             f" and output_mode={output_mode}")
        if sparse:
            raise NotImplementedError(f"{name}: sparse=True is not imitated (tapeviz has no "
                                      "SparseTensor). Fix: sparse=False")
        if idf_weights is not None and output_mode != TF_IDF:
            raise ValueError(f"`idf_weights` should only be set if `output_mode` is "
                             f"`'tf_idf'`. Received: idf_weights={idf_weights} and "
                             f"output_mode={output_mode}")
        self.invert, self.max_tokens = bool(invert), max_tokens
        self.num_oov_indices, self.mask_token, self.oov_token = num_oov_indices, mask_token, \
            oov_token
        self.output_mode, self.sparse = output_mode, False
        self.pad_to_max_tokens = bool(pad_to_max_tokens)
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("has_static_table", None)
        kwargs.setdefault("dtype", "int64" if output_mode == INT else None)
        super().__init__(**kwargs)
        self._autocast = False
        if output_mode == INT and not self._dtype.is_integer:
            raise ValueError(f"When `output_mode='int'`, `dtype` should be an integer type. "
                             f"Received: dtype={kwargs['dtype']}")
        self.input_vocabulary, self.input_idf_weights = vocabulary, idf_weights
        self._tokens: list = []
        self._index: dict = {}
        self._idf = np.zeros(self._token_start_index(), self._dtype.np)
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # --- the vocabulary -------------------------------------------------------------------------
    def _oov_start_index(self):
        return 1 if self.mask_token is not None and self.output_mode == INT else 0

    def _token_start_index(self):
        return self._oov_start_index() + self.num_oov_indices

    def _key(self, token):
        """A token as the table keeps it: bytes for strings, a Python int for integers."""
        if self._string:
            return token.encode() if isinstance(token, str) else bytes(token)
        return int(token)

    def _shown(self, key):
        return np.str_(key.decode("utf-8", "replace")) if self._string else np.int64(key)

    def vocabulary_size(self):
        return len(self._tokens) + self._token_start_index()

    def vocab_size(self):
        return self.vocabulary_size()

    def get_vocabulary(self, include_special_tokens=True):
        vocab = [self.oov_token] * self._token_start_index() + [self._shown(t)
                                                                for t in self._tokens]
        if self.mask_token is not None and self.output_mode == INT:
            vocab[0] = self.mask_token
        return vocab if include_special_tokens else vocab[self._token_start_index():]

    def _as_array(self, vocabulary):
        if isinstance(vocabulary, str):
            import os
            if not os.path.exists(vocabulary):
                raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
            if self.output_mode == TF_IDF:
                raise ValueError("output_mode `'tf_idf'` does not support loading a vocabulary "
                                 "from file.")
            with open(vocabulary, encoding="utf-8") as f:
                lines = f.read().splitlines()
            return np.array(lines if self._string else [int(v) for v in lines])
        value = _values(vocabulary)
        if isinstance(value, np.ndarray) and value.dtype == object:
            value = np.array([v.decode() if isinstance(v, bytes) else v
                              for v in value.reshape(-1)])
        return np.asarray(value)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        if self.output_mode == TF_IDF:
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is TF_IDF")
        elif idf_weights is not None:
            raise ValueError(f"`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                             f"Received: output_mode={self.output_mode} and "
                             f"idf_weights={idf_weights}")
        vocabulary = self._as_array(vocabulary)
        if vocabulary.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary, you passed {vocabulary}.")
        token_start = self._token_start_index()
        specials = [self.mask_token] * self._oov_start_index() + \
            [self.oov_token] * self.num_oov_indices
        found = np.array_equal(np.array(specials, dtype=vocabulary.dtype) if specials and
                               None not in specials else specials, vocabulary[:token_start])
        tokens = list(vocabulary[token_start:] if found else vocabulary)
        repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
        if repeated:
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are {repeated}")
        for token, which in ((self.mask_token, "mask_token"),
                             (self.oov_token if self.invert else None, "oov_token")):
            if token is not None and token in tokens:
                raise ValueError(f"Found reserved {'mask' if which == 'mask_token' else 'OOV'} "
                                 f"token at unexpected location in `vocabulary`. Note that "
                                 f"passed `vocabulary` does not need to include the OOV and "
                                 f"mask tokens. Either remove all mask and OOV tokens, or include "
                                 f"them only at the start of the vocabulary in precisely this "
                                 f"order: {specials}. Received: {which}={token} at vocabulary "
                                 f"index {np.argwhere(vocabulary == token)[-1]}")
        if self.max_tokens is not None and token_start + len(tokens) > self.max_tokens:
            raise ValueError(f"Attempted to set a vocabulary larger than the maximum vocab size. "
                             f"Passed vocab size is {token_start + len(tokens)}, max vocab size "
                             f"is {self.max_tokens}.")
        self._set_tokens([self._key(t) for t in tokens])
        self._record_vocabulary_size()
        if self.output_mode == TF_IDF and idf_weights is not False:
            weights = np.asarray(_values(idf_weights))
            if len(vocabulary) != len(weights):
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. "
                                 f"len(idf_weights) is {len(weights)}, len(vocabulary) is "
                                 f"{len(vocabulary)}")
            if weights.ndim != 1:
                raise ValueError(f"TF-IDF data must be a 1-index array, but received "
                                 f"{type(weights)}")
            front = 0 if found else token_start
            self._set_idf(np.pad(weights.astype(np.float64), (front, 0),
                                 constant_values=np.average(weights) if front else 0))

    def _set_tokens(self, keys):
        self._tokens = list(keys)
        start = self._token_start_index()
        self._index = {t: i + start for i, t in enumerate(self._tokens)}

    def _set_idf(self, weights):
        if self.pad_to_max_tokens and self.max_tokens is not None:
            weights = np.pad(weights, (0, self.max_tokens - len(weights)))
        self._idf = np.asarray(weights, self._dtype.np)

    def _record_vocabulary_size(self):
        if self.output_mode != INT and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is not None and \
                self.vocabulary_size() != self._frozen_vocab_size:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and "
                               f"`pad_to_max_tokens=False`, the vocabulary size cannot be "
                               f"changed after the layer is called. Old vocab size is "
                               f"{self._frozen_vocab_size}, new vocab size is "
                               f"{self.vocabulary_size()}")
        self._frozen_vocab_size = self.vocabulary_size()

    def _batches(self, data, batch_size, steps):
        from ..data import Dataset
        if isinstance(data, Dataset):
            batches = (np.asarray(_values(convert_to_tensor(b)), dtype=object
                                  if self._string else None) for b in data)
        else:
            values = self._input_array(data)
            size = batch_size or 32           # (Keras's batches when adapting on an array)
            batches = [values[i:i + size] for i in range(0, len(values), size)] \
                if values.ndim else [values]
        for k, batch in enumerate(batches):
            if steps is not None and k >= steps:
                break
            yield batch

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary (and TF-IDF weights) from `data`: an array, a tensor or a
        `tf.data.Dataset` of batches."""
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt {type(self).__name__} layer after setting a static "
                             f"vocabulary via init argument or `set_vocabulary`.")
        counts, documents, n_documents = collections.Counter(), collections.Counter(), 0
        for batch in self._batches(data, batch_size, steps):
            batch = np.asarray(batch)
            rows = batch.reshape(1, -1) if batch.ndim < 2 else batch.reshape(len(batch), -1)
            keys = [[self._key(t) for t in row] for row in rows]
            if self.output_mode == TF_IDF and len({len(set(row)) for row in keys}) > 1:
                # (tf-keras dedups the rows with map_fn, which stacks them: uneven fails)
                raise InvalidArgumentError("PartialTensorShape: Incompatible shapes during "
                                           "merge: the rows of an adapt batch hold different "
                                           "numbers of distinct tokens (tf-keras's tf_idf "
                                           "adapt needs them equal)", "TensorListStack")
            for row in keys:
                counts.update(row)
                documents.update(set(row))
            n_documents += len(rows)
        if not counts:
            self._record_vocabulary_size()
            return
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(self._key(special), None)
        tokens = np.empty(len(counts), dtype=object if self._string else np.int64)
        tokens[:] = list(counts)
        order = np.lexsort((tokens, np.asarray(list(counts.values()))))[::-1]
        if self.max_tokens:
            order = order[:self.max_tokens - self._token_start_index()]
        self._set_tokens([tokens[i] if self._string else int(tokens[i]) for i in order])
        if self.output_mode == TF_IDF:
            df = np.asarray([documents[t] for t in self._tokens], np.float64)
            idf = np.log(1 + n_documents / (1 + df)).astype(self._dtype.np)
            self._set_idf(np.pad(idf, (self._token_start_index(), 0),
                                 constant_values=idf.mean() if idf.size else 0))
        self._record_vocabulary_size()

    # --- calling --------------------------------------------------------------------------------
    def _input_array(self, inputs):
        """`inputs` as tf-keras's ensure_tensor gives them: strings, or integers cast."""
        x = convert_to_tensor(inputs)
        value = np.asarray(x._value)
        if self._string and not self.invert:
            if not x.dtype.is_string:
                from ..engine.errors import UnimplementedError
                raise UnimplementedError(f"Cast {x.dtype.name} to string is not supported "
                                         f"({type(self).__name__} takes strings)", "Cast")
            return np.asarray(value, dtype=object)
        if x.dtype.is_string:
            from ..engine.errors import UnimplementedError
            raise UnimplementedError("Cast string to int64 is not supported", "Cast")
        return value.astype(np.int64)

    def _lookup(self, value):
        keys = np.frompyfunc(self._key, 1, 1)(value) if value.size else value
        oov = self._oov_start_index() if self.num_oov_indices == 1 else -1
        ids = np.vectorize(lambda k: self._index.get(k, oov), otypes=[np.int64])(keys) \
            if value.size else np.zeros(value.shape, np.int64)
        if self.mask_token is not None:
            ids = np.where(keys == self._key(self.mask_token),
                           0 if self.output_mode == INT else _MASKED, ids)
        if self.num_oov_indices == 0 and (ids == -1).any():
            raise InvalidArgumentError(
                f"When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                f"{[self._shown(k) for k in keys[ids == -1]]}, consider setting "
                f"`num_oov_indices=1`.", "Assert")
        if self.num_oov_indices > 1:
            ids = np.where(ids == -1, self._oov_bucket(value) + self._oov_start_index(), ids)
        return ids

    def _oov_bucket(self, value):
        if not self._string:
            return np.floor_divide(value, 1) % self.num_oov_indices
        from ..strings_hash import fingerprint64
        return np.vectorize(lambda b: fingerprint64(b) % self.num_oov_indices,
                            otypes=[np.int64])(value) if value.size else value

    def _invert(self, ids):
        tokens = {i + self._token_start_index(): t for i, t in enumerate(self._tokens)}
        oov = self._key(self.oov_token) if self.oov_token is not None else None
        mask = None if self.mask_token is None else self._key(self.mask_token)
        out = [mask if mask is not None and i == 0 else tokens.get(i, oov) for i in ids.ravel()]
        array = np.empty(len(out), dtype=object)
        array[:] = out
        return array.reshape(ids.shape) if self._string else \
            array.astype(np.int64).reshape(ids.shape)

    def call(self, inputs):
        if self.output_mode != INT and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is None:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and "
                               f"`pad_to_max_tokens=False`, you must set the layer's vocabulary "
                               f"before calling it. Either pass a `vocabulary` argument to the "
                               f"layer, or call `adapt` with some sample data.")
        value = self._input_array(inputs)
        if not self._tokens and self._frozen_vocab_size is None and not _probing():
            from ..engine.errors import FailedPreconditionError
            raise FailedPreconditionError(f"Table not initialized: call adapt() or "
                                          f"set_vocabulary() before calling layer "
                                          f"{self.name!r}", "LookupTableFindV2")
        if self.invert:
            return _make(self._invert(value))
        ids = self._lookup(value)
        if self.output_mode == INT:
            return _make(ids.astype(self._dtype.np))
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        return _make(encode_categorical(ids, self.output_mode, depth, self._dtype.np,
                                        idf_weights=self._idf if self.output_mode == TF_IDF
                                        else None))

    def compute_output_shape(self, input_shape):
        if self.output_mode == INT:
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        return (tuple(input_shape)[:1] or (None,)) + (depth,)

    def get_config(self) -> dict:
        listify = (lambda v: v if v is None or isinstance(v, str) else
                   np.asarray(_values(v)).tolist())
        return {**super().get_config(), "invert": self.invert, "max_tokens": self.max_tokens,
                "num_oov_indices": self.num_oov_indices, "oov_token": self.oov_token,
                "mask_token": self.mask_token, "output_mode": self.output_mode,
                "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens,
                "idf_weights": listify(self.input_idf_weights),
                "vocabulary": listify(self.input_vocabulary),
                "vocabulary_size": self._frozen_vocab_size}
