"""`keras.preprocessing.text`: tf-keras's `Tokenizer` and `text_to_word_sequence`, plain
Python as there (a vocabulary ordered by count, ties by first appearance; index 0 is never a
word; `num_words` keeps the indices below it)."""
from __future__ import annotations

import collections

import numpy as np

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=_FILTERS, lower=True, split=" "):
    """The words of ``input_text``: lower-cased, ``filters`` characters turned into
    ``split``, split on it, empty words dropped."""
    if lower:
        input_text = input_text.lower()
    input_text = input_text.translate(str.maketrans({c: split for c in filters}))
    return [word for word in input_text.split(split) if word]


class Tokenizer:
    """Words (or characters, `char_level=True`) to integer indices and back."""

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ",
                 char_level=False, oov_token=None, analyzer=None, document_count=0, **kwargs):
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.index_docs = collections.defaultdict(int)
        self.filters, self.split, self.lower = filters, split, lower
        self.num_words, self.document_count = num_words, document_count
        self.char_level, self.oov_token, self.analyzer = char_level, oov_token, analyzer
        self.word_index, self.index_word = {}, {}

    def _tokens(self, text):
        """A text's tokens: its characters (or the list it is), else its words."""
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is not None:
            return self.analyzer(text)
        return text_to_word_sequence(text, self.filters, self.lower, self.split)

    def fit_on_texts(self, texts):
        """Count the tokens of each text (a string passed alone is a list of one-character
        texts, as in Keras) and rebuild `word_index` by count, most frequent first."""
        for text in texts:
            self.document_count += 1
            seq = self._tokens(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] += 1
        by_count = sorted(self.word_counts.items(), key=lambda item: item[1], reverse=True)
        vocabulary = ([] if self.oov_token is None else [self.oov_token]) + [
            w for w, _ in by_count]
        self.word_index = {w: i for i, w in enumerate(vocabulary, 1)}
        self.index_word = {i: w for w, i in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences):
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts):
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        oov = self.word_index.get(self.oov_token)
        for text in texts:
            vect = []
            for w in self._tokens(text):
                i = self.word_index.get(w)
                if i is not None and not (self.num_words and i >= self.num_words):
                    vect.append(i)
                elif self.oov_token is not None:
                    vect.append(oov)
            yield vect

    def sequences_to_texts(self, sequences):
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        oov = self.word_index.get(self.oov_token)
        for seq in sequences:
            words = []
            for num in seq:
                word = self.index_word.get(num)
                if word is not None and not (self.num_words and num >= self.num_words):
                    words.append(word)
                elif self.oov_token is not None:
                    words.append(self.index_word[oov])
            yield " ".join(words)

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """One row per sequence: "binary", "count", "freq" or "tfidf" of each index."""
        if mode not in ("binary", "count", "freq", "tfidf"):
            raise ValueError("Unknown vectorization mode:", mode)
        num_words = self.num_words
        if not num_words:
            if not self.word_index:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some "
                                 "text data first.")
            num_words = len(self.word_index) + 1
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        x = np.zeros((len(sequences), num_words))
        for i, seq in enumerate(sequences):
            counts = collections.Counter(j for j in seq if j < num_words)
            for j, c in counts.items():
                if mode == "count":
                    x[i][j] = c
                elif mode == "freq":
                    x[i][j] = c / len(seq)
                elif mode == "binary":
                    x[i][j] = 1
                else:
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    x[i][j] = (1 + np.log(c)) * idf
        return x
