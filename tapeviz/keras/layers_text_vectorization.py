"""Keras's `TextVectorization` (tf-keras 2): strings to token ids, multi-hot, counts or
TF-IDF, with a vocabulary from `adapt()` or given.

As tf-keras computes it: "lower" lowercases ASCII letters only (tf.strings.lower without an
encoding), punctuation is stripped with Keras's DEFAULT_STRIP_REGEX, "whitespace" splits on
ASCII whitespace, "character" into UTF-8 characters, `ngrams` joins neighbouring tokens with
a space (all widths of one text, shortest first). `adapt` orders the vocabulary by count,
ties by the token's bytes, both descending (tf-keras's np.lexsort(...)[::-1]); in "int" mode
it starts with the mask "" and the OOV "[UNK]", otherwise with "[UNK]" alone. TF-IDF weights
are log(1 + documents / (1 + documents with the token)), the OOV's their mean. Ragged and
sparse outputs are not imitated (tapeviz has neither)."""
from __future__ import annotations

import re

import numpy as np

from ..engine.convert import convert_to_tensor
from ..engine.ops.makers import _make
from .layers_base import Layer

DEFAULT_STRIP_REGEX = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
_STRIP = re.compile(DEFAULT_STRIP_REGEX.encode())
_ASCII_LOWER = bytes.maketrans(bytes(range(65, 91)), bytes(range(97, 123)))
_MODES = ("int", "multi_hot", "count", "tf_idf")
MASK, OOV = "", "[UNK]"


def _choice(value, allowed, arg):
    if value is None or callable(value) or value in allowed:
        return
    raise ValueError(f"Unkown value for `{arg}` argument of layer TextVectorization. If "
                     f"restricting to a set of values, make sure to pass one of the following: "
                     f"{allowed} or None, or a callable. Received: {value}")


def _as_bytes(token):
    return token.encode() if isinstance(token, str) else bytes(token)


def _string_tensor(value):
    x = convert_to_tensor(value)
    if not x.dtype.is_string:
        raise ValueError(f"TextVectorization: expected strings, got a tensor of dtype "
                         f"{x.dtype.name} and shape {list(x.shape)}. Fix: pass the texts "
                         "themselves, e.g. tf.constant(['a text'])")
    return x


def _probing():
    from .functional import probing
    return probing()


def _ngrams(tokens, widths):
    return [b" ".join(tokens[i:i + n]) for n in widths for i in range(len(tokens) - n + 1)]


class TextVectorization(Layer):
    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", **kwargs):
        if kwargs.get("dtype", "string") not in ("string", None) and \
                getattr(kwargs["dtype"], "name", None) != "string":
            raise ValueError(f"`TextVectorization` may only have a dtype of string. Received "
                             f"dtype: {kwargs['dtype']}.")
        for key in ("dtype", "vocabulary_size", "has_input_vocabulary"):   # (config keys)
            kwargs.pop(key, None)
        super().__init__(**kwargs)
        self._autocast = False
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        _choice(standardize, ("lower_and_strip_punctuation", "lower", "strip_punctuation"),
                "standardize")
        _choice(split, ("whitespace", "character"), "split")
        if output_mode is not None and output_mode not in _MODES:
            raise ValueError(f"Unkown value for `output_mode` argument of layer "
                             f"TextVectorization. If restricting to a set of values, make sure "
                             f"to pass one of the following: {_MODES} or None. Received: "
                             f"{output_mode}")
        if not (ngrams is None or isinstance(ngrams, int) or isinstance(ngrams, tuple)
                and all(isinstance(n, int) for n in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. "
                             f"Received: ngrams={ngrams}")
        if output_mode == "int" and not (output_sequence_length is None or
                                         isinstance(output_sequence_length, int)):
            raise ValueError(f"`output_sequence_length` must be either None or an integer when "
                             f"`output_mode` is 'int'. Received: output_sequence_length="
                             f"{output_sequence_length}")
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is not "
                             f"'int'. Received output_sequence_length={output_sequence_length}.")
        if sparse or ragged:
            raise NotImplementedError("TextVectorization: sparse and ragged outputs are not "
                                      "imitated (tapeviz has no SparseTensor or RaggedTensor). "
                                      "Fix: sparse=False, ragged=False")
        self.max_tokens, self.standardize, self.split = max_tokens, standardize, split
        self.ngrams = ngrams
        self._widths = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self.output_mode, self.output_sequence_length = output_mode, output_sequence_length
        self.pad_to_max_tokens, self.encoding = bool(pad_to_max_tokens), encoding
        self._tokens: list = []               # the learnt or given tokens, without specials
        self._index: dict = {}                # token -> id
        self._idf = None
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # --- the vocabulary ---------------------------------------------------------------------
    def _specials(self):
        return [MASK, OOV] if self.output_mode in ("int", None) else [OOV]

    def get_vocabulary(self, include_special_tokens=True):
        # (as tf-keras: the special tokens are str, the others NumPy strings)
        words = [np.str_(t.decode("utf-8", "replace")) for t in self._tokens]
        return (self._specials() + words) if include_special_tokens else words

    def vocabulary_size(self):
        return len(self._specials()) + len(self._tokens)

    def set_vocabulary(self, vocabulary, idf_weights=None):
        if isinstance(vocabulary, str):
            with open(vocabulary, encoding="utf-8") as f:
                vocabulary = f.read().splitlines()
        tokens = [_as_bytes(t) for t in np.asarray(getattr(vocabulary, "_value", vocabulary),
                                                   dtype=object).reshape(-1)]
        specials = [_as_bytes(s) for s in self._specials()]
        if tokens[:len(specials)] == specials:
            tokens = tokens[len(specials):]
        if len(set(tokens)) != len(tokens):
            repeated = sorted({t for t in tokens if tokens.count(t) > 1})
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are {repeated}")
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
            weights = np.asarray(getattr(idf_weights, "_value", idf_weights), np.float32)
            self._idf = np.concatenate([[weights.mean()], weights]).astype(np.float32) \
                if len(weights) == len(tokens) else weights
        elif idf_weights is not None:
            raise ValueError(f"`idf_weights` should only be set if output_mode is 'tf_idf'. "
                             f"output_mode is: {self.output_mode}.")
        self._tokens = tokens
        self._index = {t: i + len(specials) for i, t in enumerate(tokens)}

    def adapt(self, data, batch_size=None, steps=None):
        """Learn the vocabulary (and TF-IDF weights) from `data`: strings as a list, array,
        tensor or a `tf.data.Dataset` of them."""
        from ..data import Dataset
        batches = data if isinstance(data, Dataset) else [data]
        counts, documents, n_documents = {}, {}, 0
        for k, batch in enumerate(batches):
            if steps is not None and k >= steps:
                break
            for tokens in self._token_lists(batch):
                n_documents += 1
                for t in tokens:
                    counts[t] = counts.get(t, 0) + 1
                for t in set(tokens):
                    documents[t] = documents.get(t, 0) + 1
        for special in (MASK, OOV):
            counts.pop(special.encode(), None)
        tokens = np.empty(len(counts), dtype=object)
        tokens[:] = list(counts)
        order = np.lexsort((tokens, np.asarray(list(counts.values()))))[::-1]
        if self.max_tokens:
            order = order[:self.max_tokens - len(self._specials())]
        learnt = [tokens[i] for i in order]
        idf = None
        if self.output_mode == "tf_idf":
            df = np.asarray([documents[t] for t in learnt], np.float64)
            idf = np.log(1 + n_documents / (1 + df)).astype(np.float32)
        self.set_vocabulary(learnt, idf)

    # --- calling ------------------------------------------------------------------------------
    def _standardized(self, strings):
        """The standardized strings (object array of bytes) of `strings`."""
        x = _string_tensor(strings)
        if callable(self.standardize):
            x = convert_to_tensor(self.standardize(x), dtype="string")
        value = np.asarray(x._value, dtype=object)
        if self.standardize in ("lower", "lower_and_strip_punctuation"):
            value = np.frompyfunc(lambda b: b.translate(_ASCII_LOWER), 1, 1)(value)
        if self.standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            value = np.frompyfunc(lambda b: _STRIP.sub(b"", b), 1, 1)(value)
        return np.asarray(value, dtype=object)

    def _token_lists(self, strings):
        """One list of tokens (bytes) per text."""
        value = self._standardized(strings)
        if self.split is not None and value.ndim > 1:
            if value.shape[-1] != 1:
                raise ValueError(f"When using `TextVectorization` to tokenize strings, the input "
                                 f"rank must be 1 or the last shape dimension must be 1. "
                                 f"Received: inputs.shape={value.shape} with rank={value.ndim}")
            value = value[..., 0]
        texts = value.reshape(-1)
        if self.split == "whitespace":
            lists = [t.split() for t in texts]
        elif self.split == "character":
            lists = [[c.encode() for c in t.decode("utf-8", "replace")] for t in texts]
        elif callable(self.split):
            pieces = self.split(convert_to_tensor(value, dtype="string"))
            array = np.asarray(getattr(pieces, "_value", pieces), dtype=object)
            lists = [list(row) for row in array.reshape(len(texts), -1)]
        else:
            lists = [[t] for t in texts]
        if self._widths:
            lists = [_ngrams(tokens, self._widths) for tokens in lists]
        return lists

    def call(self, inputs):
        x = _string_tensor(inputs)
        if self.split is None and not self._widths:
            return self._call_unsplit(x)
        lists = self._token_lists(x)
        if self.output_mode is None:
            return _make(np.asarray(lists, dtype=object))
        oov = 1 if self.output_mode == "int" else 0
        ids = [[self._index.get(t, oov) for t in tokens] for tokens in lists]
        scalar = x.shape.rank == 0
        if self.output_mode == "int":
            length = self.output_sequence_length
            if length is None:
                length = max((len(row) for row in ids), default=0)
                if _probing():
                    # a functional model's stand-in strings are empty: a length that follows
                    # the stand-in batch makes the axis unknown, as Keras's (None, None)
                    length = 16 * len(ids)
            out = np.zeros((len(ids), length), np.int64)
            for r, row in enumerate(ids):
                out[r, :min(length, len(row))] = row[:length]
            return _make(out[0] if scalar else out)
        out = self._encoded(ids)
        return _make(out[0] if scalar else out)

    def _call_unsplit(self, x):
        """split=None: one token per string, ids in the input's shape; the counting modes
        take a rank-0 or rank-1 input as one sample (tf-keras's CategoryEncoding)."""
        value = self._standardized(x)
        oov = 1 if self.output_mode == "int" else 0
        ids = np.vectorize(lambda t: self._index.get(t, oov), otypes=[np.int64])(value) \
            if value.size else np.zeros(value.shape, np.int64)
        if self.output_mode in ("int", None):
            length = self.output_sequence_length
            if length is not None and ids.ndim:
                ids = ids[..., :length]
                pad = [(0, 0)] * (ids.ndim - 1) + [(0, length - ids.shape[-1])]
                ids = np.pad(ids, pad)
            return _make(ids)
        rows = ids.reshape(-1, ids.shape[-1]) if ids.ndim == 2 else ids.reshape(1, -1)
        out = self._encoded([list(r) for r in rows])
        return _make(out if ids.ndim == 2 else out[0])

    def _encoded(self, ids):
        """multi_hot / count / tf_idf rows of lists of ids."""
        width = self.max_tokens if self.pad_to_max_tokens and self.max_tokens else \
            self.vocabulary_size()
        out = np.zeros((len(ids), width), np.float32)
        for r, row in enumerate(ids):
            np.add.at(out[r], np.asarray(row, np.int64), 1.0)
        if self.output_mode == "multi_hot":
            out = np.minimum(out, 1.0)
        elif self.output_mode == "tf_idf":
            weights = np.zeros(width, np.float32)
            weights[:len(self._idf)] = self._idf
            out = out * weights
        return out

    def compute_output_shape(self, input_shape):
        batch = tuple(input_shape)[:1] or (None,)
        if self.output_mode == "int":
            return batch + (self.output_sequence_length,)
        width = self.max_tokens if self.pad_to_max_tokens and self.max_tokens else \
            self.vocabulary_size()
        return batch + (width,)

    def get_config(self) -> dict:
        return {**super().get_config(), "max_tokens": self.max_tokens,
                "standardize": self.standardize if isinstance(self.standardize, str) else None,
                "split": self.split if isinstance(self.split, str) else None,
                "ngrams": self.ngrams, "output_mode": self.output_mode,
                "output_sequence_length": self.output_sequence_length,
                "pad_to_max_tokens": self.pad_to_max_tokens, "sparse": False, "ragged": False,
                "vocabulary": None, "idf_weights": None, "encoding": self.encoding,
                "vocabulary_size": self.vocabulary_size()}
