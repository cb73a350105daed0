# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/05_autoregressive/01_lstm/lstm.ipynb)
# Adapted: the notebook's code cells placed one after another in main(); 32 recipes made
# of seeded NumPy choices of title and direction words instead of
# full_format_recipes.json, so that text_ds is one batch of 32 and its shuffle decides
# nothing (the words drawn from 330 so that the vocabulary fills VOCAB_SIZE, as the
# real recipes' does); VOCAB_SIZE 200 instead of 10000, MAX_LEN 20 instead of 200; 2
# epochs instead of 25; the callback's prompt generated to 30 tokens instead of 100; np.random seeded for the TextGenerator's sampling; the model's weights fixed from
# seeded NumPy (adapt.fixed_weights) instead of the random initializers; the checkpoint,
# TensorBoard logs and saved model written under a temporary folder (removed at the end)
# instead of the working directory; main() returns fit's history, the vocabulary, the
# tokenized example and the generated prompts and their top-5 probabilities (what
# print_probs prints, collected where it prints).
import os
import shutil
import tempfile

import numpy as np
import json
import re
import string

import tensorflow as tf
from tensorflow.keras import layers, models, callbacks, losses
from adapt import fixed_weights


def main():
    workdir = tempfile.mkdtemp()
    np.random.seed(0)
    VOCAB_SIZE = 200
    MAX_LEN = 20
    EMBEDDING_DIM = 100
    N_UNITS = 128
    VALIDATION_SPLIT = 0.2
    SEED = 42
    LOAD_MODEL = False
    BATCH_SIZE = 32
    EPOCHS = 2

    # Load the full dataset
    rng = np.random.default_rng(0)
    title_words = ["roasted", "vegetables", "chocolate", "ice", "cream", "chicken", "soup", "salad", "lemon", "cake"]
    direction_words = ["chop", "1", "/", "2", "cup", "of", "the", "onions", "and", "stir", "in", "a", "pan",
                       "bake", "for", "20", "minutes", "until", "golden", ",", ".", "add", "salt", "pepper",
                       "mix", "well", "serve", "warm", "with", "sauce"] + ["word%d" % i for i in range(300)]
    recipe_data = [
        {"title": " ".join(rng.choice(title_words, size=rng.integers(2, 4))),
         "directions": [" ".join(rng.choice(direction_words, size=rng.integers(5, 12))) + "."
                        for _ in range(rng.integers(1, 4))]}
        for _ in range(32)
    ]

    # Filter the dataset
    filtered_data = [
        "Recipe for " + x["title"] + " | " + " ".join(x["directions"])
        for x in recipe_data
        if "title" in x
        and x["title"] is not None
        and "directions" in x
        and x["directions"] is not None
    ]

    # Count the recipes
    n_recipes = len(filtered_data)
    print(f"{n_recipes} recipes loaded")

    example = filtered_data[9]
    print(example)

    # Pad the punctuation, to treat them as separate 'words'
    def pad_punctuation(s):
        s = re.sub(f"([{string.punctuation}])", r" \1 ", s)
        s = re.sub(" +", " ", s)
        return s

    text_data = [pad_punctuation(x) for x in filtered_data]

    # Display an example of a recipe
    example_data = text_data[9]

    # Convert to a Tensorflow Dataset
    text_ds = (
        tf.data.Dataset.from_tensor_slices(text_data)
        .batch(BATCH_SIZE)
        .shuffle(1000)
    )

    # Create a vectorisation layer
    vectorize_layer = layers.TextVectorization(
        standardize="lower",
        max_tokens=VOCAB_SIZE,
        output_mode="int",
        output_sequence_length=MAX_LEN + 1,
    )

    # Adapt the layer to the training set
    vectorize_layer.adapt(text_ds)
    vocab = vectorize_layer.get_vocabulary()

    # Display some token:word mappings
    for i, word in enumerate(vocab[:10]):
        print(f"{i}: {word}")

    # Display the same example converted to ints
    example_tokenised = vectorize_layer(example_data)
    print(example_tokenised.numpy())

    # Create the training set of recipes and the same text shifted by one word
    def prepare_inputs(text):
        text = tf.expand_dims(text, -1)
        tokenized_sentences = vectorize_layer(text)
        x = tokenized_sentences[:, :-1]
        y = tokenized_sentences[:, 1:]
        return x, y

    train_ds = text_ds.map(prepare_inputs)

    inputs = layers.Input(shape=(None,), dtype="int32")
    x = layers.Embedding(VOCAB_SIZE, EMBEDDING_DIM)(inputs)
    x = layers.LSTM(N_UNITS, return_sequences=True)(x)
    outputs = layers.Dense(VOCAB_SIZE, activation="softmax")(x)
    lstm = models.Model(inputs, outputs)
    lstm.summary()
    fixed_weights(lstm.weights, seed=1, scale=0.1)

    if LOAD_MODEL:
        # model.load_weights('./models/model')
        lstm = models.load_model("./models/lstm", compile=False)

    loss_fn = losses.SparseCategoricalCrossentropy()
    lstm.compile("adam", loss_fn)

    generated = []

    # Create a TextGenerator checkpoint
    class TextGenerator(callbacks.Callback):
        def __init__(self, index_to_word, top_k=10):
            self.index_to_word = index_to_word
            self.word_to_index = {
                word: index for index, word in enumerate(index_to_word)
            }  # <1>

        def sample_from(self, probs, temperature):  # <2>
            probs = probs ** (1 / temperature)
            probs = probs / np.sum(probs)
            return np.random.choice(len(probs), p=probs), probs

        def generate(self, start_prompt, max_tokens, temperature):
            start_tokens = [
                self.word_to_index.get(x, 1) for x in start_prompt.split()
            ]  # <3>
            sample_token = None
            info = []
            while len(start_tokens) < max_tokens and sample_token != 0:  # <4>
                x = np.array([start_tokens])
                y = self.model.predict(x, verbose=0)  # <5>
                sample_token, probs = self.sample_from(y[0][-1], temperature)  # <6>
                info.append({"prompt": start_prompt, "word_probs": probs})
                start_tokens.append(sample_token)  # <7>
                start_prompt = start_prompt + " " + self.index_to_word[sample_token]
            print(f"\ngenerated text:\n{start_prompt}\n")
            generated.append(start_prompt)
            return info

        def on_epoch_end(self, epoch, logs=None):
            self.generate("recipe for", max_tokens=30, temperature=1.0)

    # Create a model save checkpoint
    model_checkpoint_callback = callbacks.ModelCheckpoint(
        filepath=os.path.join(workdir, "checkpoint/checkpoint.ckpt"),
        save_weights_only=True,
        save_freq="epoch",
        verbose=0,
    )

    tensorboard_callback = callbacks.TensorBoard(log_dir=os.path.join(workdir, "logs"))

    # Tokenize starting prompt
    text_generator = TextGenerator(vocab)

    history = lstm.fit(
        train_ds,
        epochs=EPOCHS,
        callbacks=[model_checkpoint_callback, tensorboard_callback, text_generator],
    )

    # Save the final model
    lstm.save(os.path.join(workdir, "models/lstm"))

    printed = []

    def print_probs(info, vocab, top_k=5):
        for i in info:
            print(f"\nPROMPT: {i['prompt']}")
            word_probs = i["word_probs"]
            p_sorted = np.sort(word_probs)[::-1][:top_k]
            i_sorted = np.argsort(word_probs)[::-1][:top_k]
            for p, i in zip(p_sorted, i_sorted):
                print(f"{vocab[i]}:   \t{np.round(100*p,2)}%")
                printed.append((vocab[i], np.round(100 * p, 2)))
            print("--------\n")

    info = text_generator.generate(
        "recipe for roasted vegetables | chop 1 /", max_tokens=10, temperature=1.0
    )
    print_probs(info, vocab)

    info = text_generator.generate(
        "recipe for roasted vegetables | chop 1 /", max_tokens=10, temperature=0.2
    )
    print_probs(info, vocab)

    info = text_generator.generate(
        "recipe for chocolate ice cream |", max_tokens=7, temperature=1.0
    )
    print_probs(info, vocab)

    info = text_generator.generate(
        "recipe for chocolate ice cream |", max_tokens=7, temperature=0.2
    )
    print_probs(info, vocab)
    shutil.rmtree(workdir, ignore_errors=True)
    return {"history": history.history, "vocab": vocab, "example_tokenised": example_tokenised,
            "generated": generated, "top_words": [w for w, _ in printed],
            "top_probs": [float(p) for _, p in printed]}
