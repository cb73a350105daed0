# After: https://github.com/ageron/handson-ml2 (16_nlp_with_rnns_and_attention.ipynb: the
# window/flat_map demo, the char-level Tokenizer, the Shakespeare dataset of windows with
# one-hot inputs, the stateless char-RNN (two GRU(128) and a TimeDistributed softmax) with
# fit, preprocess and the next-character prediction, then the sentiment models: Embedding
# with mask_zero=True and two GRUs, and the functional model with an explicit
# Lambda(K.not_equal) mask)
# Adapted: a 260-character seeded synthetic text instead of tiny Shakespeare (its windows
# are not shuffled: shuffle(10) and shuffle(10000) give an order of the library's own), the
# GRUs' dropout=0.2 left out (random masks), 1 epoch instead of 10; for the sentiment
# models 64 seeded synthetic reviews of word ids (zero-padded, batch 32) instead of
# tfds's IMDB run through tf.strings and a lookup table (string tensors), vocab_size 1000
# and 100 OOV buckets instead of 10000 and 1000, 1 epoch instead of 5; fixed weights; the
# random text generation (tf.random.categorical), the stateful RNN, TF Hub, the
# encoder-decoder with TF Addons and the attention parts left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import fixed_weights

WORDS = ["the", "king", "shall", "not", "be", "my", "lord", "to", "thee", "and", "her",
         "love", "what", "is", "this", "night"]


def reviews(seed, n, vocab, max_len=20):
    rng = np.random.default_rng(seed)
    X = np.zeros((n, max_len), dtype=np.int64)
    for i in range(n):
        length = rng.integers(3, max_len + 1)
        X[i, :length] = rng.integers(1, vocab, size=length)
    return X, rng.integers(0, 2, size=n).astype(np.int64)


def main():
    out = {}
    n_steps = 5
    dataset = tf.data.Dataset.from_tensor_slices(tf.range(15))
    dataset = dataset.window(n_steps, shift=2, drop_remainder=True)
    dataset = dataset.flat_map(lambda window: window.batch(n_steps))
    dataset = dataset.map(lambda window: (window[:-1], window[1:]))
    dataset = dataset.batch(3).prefetch(1)
    out["window_batches"] = [(X_batch, Y_batch) for X_batch, Y_batch in dataset]

    rng = np.random.default_rng(1)
    shakespeare_text = " ".join(rng.choice(WORDS, size=80))[:260]
    tokenizer = keras.preprocessing.text.Tokenizer(char_level=True)
    tokenizer.fit_on_texts(shakespeare_text)
    out["first"] = tokenizer.texts_to_sequences(["First"])
    max_id = len(tokenizer.word_index) # number of distinct characters
    dataset_size = tokenizer.document_count # total number of characters
    [encoded] = np.array(tokenizer.texts_to_sequences([shakespeare_text])) - 1
    train_size = dataset_size * 90 // 100
    dataset = tf.data.Dataset.from_tensor_slices(encoded[:train_size])
    n_steps = 100
    window_length = n_steps + 1 # target = input shifted 1 character ahead
    dataset = dataset.window(window_length, shift=1, drop_remainder=True)
    dataset = dataset.flat_map(lambda window: window.batch(window_length))
    np.random.seed(42)
    tf.random.set_seed(42)
    batch_size = 32
    dataset = dataset.batch(batch_size)
    dataset = dataset.map(lambda windows: (windows[:, :-1], windows[:, 1:]))
    dataset = dataset.map(
        lambda X_batch, Y_batch: (tf.one_hot(X_batch, depth=max_id), Y_batch))
    dataset = dataset.prefetch(1)
    for X_batch, Y_batch in dataset.take(1):
        print(X_batch.shape, Y_batch.shape)
        out["batch_shapes"] = [list(X_batch.shape), list(Y_batch.shape)]

    model = keras.models.Sequential([
        keras.layers.GRU(128, return_sequences=True, input_shape=[None, max_id]),
        keras.layers.GRU(128, return_sequences=True),
        keras.layers.TimeDistributed(keras.layers.Dense(max_id,
                                                        activation="softmax"))
    ])
    fixed_weights(model.weights, seed=2, scale=0.1)
    model.compile(loss="sparse_categorical_crossentropy", optimizer="adam")
    history = model.fit(dataset, epochs=1)
    out["char_rnn_history"] = history.history

    def preprocess(texts):
        X = np.array(tokenizer.texts_to_sequences(texts)) - 1
        return tf.one_hot(X, max_id)

    X_new = preprocess(["How are yo"])
    Y_pred = np.argmax(model(X_new), axis=-1)
    out["next_char"] = tokenizer.sequences_to_texts(Y_pred + 1)[0][-1]
    out["y_proba"] = model(X_new)[0, -1:, :]

    vocab_size = 1000
    num_oov_buckets = 100
    X_train, y_train = reviews(3, 64, vocab_size + num_oov_buckets)
    train_set = tf.data.Dataset.from_tensor_slices((X_train, y_train)).batch(32).prefetch(1)

    embed_size = 128
    model = keras.models.Sequential([
        keras.layers.Embedding(vocab_size + num_oov_buckets, embed_size,
                               mask_zero=True, # not shown in the book
                               input_shape=[None]),
        keras.layers.GRU(128, return_sequences=True),
        keras.layers.GRU(128),
        keras.layers.Dense(1, activation="sigmoid")
    ])
    fixed_weights(model.weights, seed=4, scale=0.1)
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
    history = model.fit(train_set, epochs=1)
    out["masked_history"] = history.history

    K = keras.backend
    embed_size = 128
    inputs = keras.layers.Input(shape=[None])
    mask = keras.layers.Lambda(lambda inputs: K.not_equal(inputs, 0))(inputs)
    z = keras.layers.Embedding(vocab_size + num_oov_buckets, embed_size)(inputs)
    z = keras.layers.GRU(128, return_sequences=True)(z, mask=mask)
    z = keras.layers.GRU(128)(z, mask=mask)
    outputs = keras.layers.Dense(1, activation="sigmoid")(z)
    model = keras.models.Model(inputs=[inputs], outputs=[outputs])
    fixed_weights(model.weights, seed=5, scale=0.1)
    model.compile(loss="binary_crossentropy", optimizer="adam", metrics=["accuracy"])
    history = model.fit(train_set, epochs=1)
    out["explicit_mask_history"] = history.history
    return out
