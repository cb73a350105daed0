# After: https://keras.io/examples/generative/lstm_character_level_text_generation/ (the
# tf.keras version: the lower-cased corpus with newlines replaced, sentences of maxlen 40
# every 3 characters and their next characters one-hot in bool arrays, a Sequential of
# Input, LSTM(128) and a softmax Dense, RMSprop(learning_rate=0.01) and
# categorical_crossentropy; sample() with a temperature and np.random.multinomial; fit one
# epoch at a time, then generate text at four diversities)
# Adapted: a fixed passage of about 400 characters instead of nietzsche.txt, 2 epochs
# instead of 40, 12 generated characters instead of 400; random and np.random seeded;
# fixed weights. The passage gives 125 sentences, so batch_size 128 covers them all and
# fit's unseeded shuffle cannot change a step (with two batches TensorFlow itself gives
# a different loss on every run).
import random

import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights

TEXT = """PREFACE

SUPPOSING that Truth is a woman--what then? Is there not ground
for suspecting that all philosophers, in so far as they have been
dogmatists, have failed to understand women--that the terrible
seriousness and clumsy importunity with which they have usually paid
their addresses to Truth, have been unskilled and unseemly methods for
winning a woman? Certainly she has never allowed herself to be won; and"""


def sample(preds, temperature=1.0):
    # helper function to sample an index from a probability array
    preds = np.asarray(preds).astype("float64")
    preds = np.log(preds) / temperature
    exp_preds = np.exp(preds)
    preds = exp_preds / np.sum(exp_preds)
    probas = np.random.multinomial(1, preds, 1)
    return np.argmax(probas)


def main():
    random.seed(0)
    np.random.seed(0)
    text = TEXT.lower()
    text = text.replace("\n", " ")  # We remove newlines chars for nicer display
    print("Corpus length:", len(text))

    chars = sorted(list(set(text)))
    print("Total chars:", len(chars))
    char_indices = dict((c, i) for i, c in enumerate(chars))
    indices_char = dict((i, c) for i, c in enumerate(chars))

    # cut the text in semi-redundant sequences of maxlen characters
    maxlen = 40
    step = 3
    sentences = []
    next_chars = []
    for i in range(0, len(text) - maxlen, step):
        sentences.append(text[i : i + maxlen])
        next_chars.append(text[i + maxlen])
    print("Number of sequences:", len(sentences))

    x = np.zeros((len(sentences), maxlen, len(chars)), dtype="bool")
    y = np.zeros((len(sentences), len(chars)), dtype="bool")
    for i, sentence in enumerate(sentences):
        for t, char in enumerate(sentence):
            x[i, t, char_indices[char]] = 1
        y[i, char_indices[next_chars[i]]] = 1

    model = keras.Sequential(
        [
            keras.Input(shape=(maxlen, len(chars))),
            layers.LSTM(128),
            layers.Dense(len(chars), activation="softmax"),
        ]
    )
    fixed_weights(model.trainable_variables, seed=1, scale=0.1)
    optimizer = keras.optimizers.RMSprop(learning_rate=0.01)
    model.compile(loss="categorical_crossentropy", optimizer=optimizer)

    epochs = 2
    batch_size = 128

    losses, texts = [], []
    for epoch in range(epochs):
        h = model.fit(x, y, batch_size=batch_size, epochs=1)
        losses.append(h.history["loss"])
        print()
        print("Generating text after epoch: %d" % epoch)

        start_index = random.randint(0, len(text) - maxlen - 1)
        for diversity in [0.2, 0.5, 1.0, 1.2]:
            print("...Diversity:", diversity)

            generated = ""
            sentence = text[start_index : start_index + maxlen]
            print('...Generating with seed: "' + sentence + '"')

            for i in range(12):
                x_pred = np.zeros((1, maxlen, len(chars)))
                for t, char in enumerate(sentence):
                    x_pred[0, t, char_indices[char]] = 1.0
                preds = model.predict(x_pred, verbose=0)[0]
                next_index = sample(preds, diversity)
                next_char = indices_char[next_index]
                sentence = sentence[1:] + next_char
                generated += next_char

            print("...Generated: ", generated)
            print()
            texts.append(generated)
    return {"losses": losses, "texts": texts, "last_preds": preds}
