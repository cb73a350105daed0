# After: https://www.tensorflow.org/guide/keras/preprocessing_layers (keras-team/keras-io guides/preprocessing_layers.py, the tf.keras version)
# Adapted: the guide's code placed one after another in main(), which returns what it
# prints; the "Image data augmentation" recipe left out (its RandomFlip, RandomRotation
# and RandomZoom draw from TensorFlow's random stream, and it trains a ResNet50); CIFAR-10
# for the Normalization recipe 64 seeded NumPy uint8 images of its shape and dtype (labels
# 0-9) instead of load_data(); the hashing recipe's 10,000 integers drawn from a seeded
# NumPy generator instead of np.random.randint; every trained model's weights fixed from
# seeded NumPy (adapt.fixed_weights, scale 0.1) instead of the random initializers; fit
# with shuffle=False for the array data (its shuffle draws from TensorFlow's random
# stream) and verbose=0.
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow import keras
from adapt import fixed_weights


def load_cifar10():
    # adapted: seeded NumPy images instead of keras.datasets.cifar10.load_data()
    rng = np.random.default_rng(0)
    x = rng.integers(0, 256, size=(64, 32, 32, 3)).astype("uint8")
    y = rng.integers(0, 10, size=(64, 1)).astype("uint8")
    return (x, y), (x[:8], y[:8])


def main():
    out = {}
    data = np.array(
        [
            [0.1, 0.2, 0.3],
            [0.8, 0.9, 1.0],
            [1.5, 1.6, 1.7],
        ]
    )
    layer = layers.Normalization()
    layer.adapt(data)
    normalized_data = layer(data)

    print("Features mean: %.2f" % (normalized_data.numpy().mean()))
    print("Features std: %.2f" % (normalized_data.numpy().std()))
    out["normalized_data"] = normalized_data

    data = [
        "ξεῖν᾽, ἦ τοι μὲν ὄνειροι ἀμήχανοι ἀκριτόμυθοι",
        "γίγνοντ᾽, οὐδέ τι πάντα τελείεται ἀνθρώποισι.",
        "δοιαὶ γάρ τε πύλαι ἀμενηνῶν εἰσὶν ὀνείρων:",
        "αἱ μὲν γὰρ κεράεσσι τετεύχαται, αἱ δ᾽ ἐλέφαντι:",
        "τῶν οἳ μέν κ᾽ ἔλθωσι διὰ πριστοῦ ἐλέφαντος,",
        "οἵ ῥ᾽ ἐλεφαίρονται, ἔπε᾽ ἀκράαντα φέροντες:",
        "οἱ δὲ διὰ ξεστῶν κεράων ἔλθωσι θύραζε,",
        "οἵ ῥ᾽ ἔτυμα κραίνουσι, βροτῶν ὅτε κέν τις ἴδηται.",
    ]
    layer = layers.TextVectorization()
    layer.adapt(data)
    vectorized_text = layer(data)
    print(vectorized_text)
    out["vectorized_text"] = vectorized_text

    vocab = ["a", "b", "c", "d"]
    data = tf.constant([["a", "c", "d"], ["d", "z", "b"]])
    layer = layers.StringLookup(vocabulary=vocab)
    vectorized_data = layer(data)
    print(vectorized_data)
    out["vectorized_data"] = vectorized_data

    # Load some data
    (x_train, y_train), _ = load_cifar10()
    x_train = x_train.reshape((len(x_train), -1))
    input_shape = x_train.shape[1:]
    classes = 10

    # Create a Normalization layer and set its internal state using the training data
    normalizer = layers.Normalization()
    normalizer.adapt(x_train)

    # Create a model that include the normalization layer
    inputs = keras.Input(shape=input_shape)
    x = normalizer(inputs)
    outputs = layers.Dense(classes, activation="softmax")(x)
    model = keras.Model(inputs, outputs)
    fixed_weights(model.trainable_weights, seed=1, scale=0.02)

    # Train the model
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    h = model.fit(x_train, y_train, shuffle=False, verbose=0)
    out["normalizer_fit_loss"] = h.history["loss"]
    out["normalizer_mean"] = normalizer.mean[0, :8]

    # Define some toy data
    data = tf.constant([["a"], ["b"], ["c"], ["b"], ["c"], ["a"]])

    # Use StringLookup to build an index of the feature values and encode output.
    lookup = layers.StringLookup(output_mode="one_hot")
    lookup.adapt(data)

    # Convert new test data (which includes unknown feature values)
    test_data = tf.constant([["a"], ["b"], ["c"], ["d"], ["e"], [""]])
    encoded_data = lookup(test_data)
    print(encoded_data)
    out["string_one_hot"] = encoded_data

    # Define some toy data
    data = tf.constant([[10], [20], [20], [10], [30], [0]])

    # Use IntegerLookup to build an index of the feature values and encode output.
    lookup = layers.IntegerLookup(output_mode="one_hot")
    lookup.adapt(data)

    # Convert new test data (which includes unknown feature values)
    test_data = tf.constant([[10], [10], [20], [50], [60], [0]])
    encoded_data = lookup(test_data)
    print(encoded_data)
    out["integer_one_hot"] = encoded_data

    # Sample data: 10,000 random integers with values between 0 and 100,000
    data = np.random.default_rng(2).integers(0, 100000, size=(10000, 1))

    # Use the Hashing layer to hash the values to the range [0, 64]
    hasher = layers.Hashing(num_bins=64, salt=1337)

    # Use the CategoryEncoding layer to multi-hot encode the hashed values
    encoder = layers.CategoryEncoding(num_tokens=64, output_mode="multi_hot")
    encoded_data = encoder(hasher(data))
    print(encoded_data.shape)
    out["hashed_multi_hot"] = encoded_data[:4]

    # Define some text data to adapt the layer
    adapt_data = tf.constant(
        [
            "The Brain is wider than the Sky",
            "For put them side by side",
            "The one the other will contain",
            "With ease and You beside",
        ]
    )

    # Create a TextVectorization layer
    text_vectorizer = layers.TextVectorization(output_mode="int")
    # Index the vocabulary via `adapt()`
    text_vectorizer.adapt(adapt_data)

    # Try out the layer
    print(
        "Encoded text:\n",
        text_vectorizer(["The Brain is deeper than the sea"]).numpy(),
    )
    out["int_encoded"] = text_vectorizer(["The Brain is deeper than the sea"]).numpy()

    # Create a simple model
    inputs = keras.Input(shape=(None,), dtype="int64")
    x = layers.Embedding(input_dim=text_vectorizer.vocabulary_size(), output_dim=16)(inputs)
    x = layers.GRU(8)(x)
    outputs = layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    fixed_weights(model.weights, seed=3, scale=0.1)

    # Create a labeled dataset (which includes unknown tokens)
    train_dataset = tf.data.Dataset.from_tensor_slices(
        (["The Brain is deeper than the sea", "for if they are held Blue to Blue"], [1, 0])
    )

    # Preprocess the string inputs, turning them into int sequences
    train_dataset = train_dataset.batch(2).map(lambda x, y: (text_vectorizer(x), y))
    # Train the model on the int sequences
    print("\nTraining model...")
    model.compile(optimizer="rmsprop", loss="mse")
    h = model.fit(train_dataset, verbose=0)
    out["int_loss"] = h.history["loss"]

    # For inference, you can export a model that accepts strings as input
    inputs = keras.Input(shape=(1,), dtype="string")
    x = text_vectorizer(inputs)
    outputs = model(x)
    end_to_end_model = keras.Model(inputs, outputs)

    # Call the end-to-end model on test data (which includes unknown tokens)
    print("\nCalling end-to-end model on test string...")
    test_data = tf.constant(["The one the other will absorb"])
    test_output = end_to_end_model(test_data)
    print("Model output:", test_output)
    out["int_test_output"] = test_output

    # Define some text data to adapt the layer
    adapt_data = tf.constant(
        [
            "The Brain is wider than the Sky",
            "For put them side by side",
            "The one the other will contain",
            "With ease and You beside",
        ]
    )
    # Instantiate TextVectorization with "multi_hot" output_mode
    # and ngrams=2 (index all bigrams)
    text_vectorizer = layers.TextVectorization(output_mode="multi_hot", ngrams=2)
    # Index the bigrams via `adapt()`
    text_vectorizer.adapt(adapt_data)

    # Try out the layer
    print(
        "Encoded text:\n",
        text_vectorizer(["The Brain is deeper than the sea"]).numpy(),
    )
    out["multi_hot_encoded"] = text_vectorizer(["The Brain is deeper than the sea"]).numpy()

    # Create a simple model
    inputs = keras.Input(shape=(text_vectorizer.vocabulary_size(),))
    outputs = layers.Dense(1)(inputs)
    model = keras.Model(inputs, outputs)
    fixed_weights(model.weights, seed=3, scale=0.1)

    # Create a labeled dataset (which includes unknown tokens)
    train_dataset = tf.data.Dataset.from_tensor_slices(
        (["The Brain is deeper than the sea", "for if they are held Blue to Blue"], [1, 0])
    )

    # Preprocess the string inputs, turning them into int sequences
    train_dataset = train_dataset.batch(2).map(lambda x, y: (text_vectorizer(x), y))
    # Train the model on the int sequences
    print("\nTraining model...")
    model.compile(optimizer="rmsprop", loss="mse")
    h = model.fit(train_dataset, verbose=0)
    out["multi_hot_loss"] = h.history["loss"]

    # For inference, you can export a model that accepts strings as input
    inputs = keras.Input(shape=(1,), dtype="string")
    x = text_vectorizer(inputs)
    outputs = model(x)
    end_to_end_model = keras.Model(inputs, outputs)

    # Call the end-to-end model on test data (which includes unknown tokens)
    print("\nCalling end-to-end model on test string...")
    test_data = tf.constant(["The one the other will absorb"])
    test_output = end_to_end_model(test_data)
    print("Model output:", test_output)
    out["multi_hot_test_output"] = test_output

    # Define some text data to adapt the layer
    adapt_data = tf.constant(
        [
            "The Brain is wider than the Sky",
            "For put them side by side",
            "The one the other will contain",
            "With ease and You beside",
        ]
    )
    # Instantiate TextVectorization with "tf-idf" output_mode
    # (multi-hot with TF-IDF weighting) and ngrams=2 (index all bigrams)
    text_vectorizer = layers.TextVectorization(output_mode="tf-idf", ngrams=2)
    # Index the bigrams and learn the TF-IDF weights via `adapt()`
    text_vectorizer.adapt(adapt_data)

    # Try out the layer
    print(
        "Encoded text:\n",
        text_vectorizer(["The Brain is deeper than the sea"]).numpy(),
    )
    out["tf-idf_encoded"] = text_vectorizer(["The Brain is deeper than the sea"]).numpy()

    # Create a simple model
    inputs = keras.Input(shape=(text_vectorizer.vocabulary_size(),))
    outputs = layers.Dense(1)(inputs)
    model = keras.Model(inputs, outputs)
    fixed_weights(model.weights, seed=3, scale=0.1)

    # Create a labeled dataset (which includes unknown tokens)
    train_dataset = tf.data.Dataset.from_tensor_slices(
        (["The Brain is deeper than the sea", "for if they are held Blue to Blue"], [1, 0])
    )

    # Preprocess the string inputs, turning them into int sequences
    train_dataset = train_dataset.batch(2).map(lambda x, y: (text_vectorizer(x), y))
    # Train the model on the int sequences
    print("\nTraining model...")
    model.compile(optimizer="rmsprop", loss="mse")
    h = model.fit(train_dataset, verbose=0)
    out["tf-idf_loss"] = h.history["loss"]

    # For inference, you can export a model that accepts strings as input
    inputs = keras.Input(shape=(1,), dtype="string")
    x = text_vectorizer(inputs)
    outputs = model(x)
    end_to_end_model = keras.Model(inputs, outputs)

    # Call the end-to-end model on test data (which includes unknown tokens)
    print("\nCalling end-to-end model on test string...")
    test_data = tf.constant(["The one the other will absorb"])
    test_output = end_to_end_model(test_data)
    print("Model output:", test_output)
    out["tf-idf_test_output"] = test_output

    return out
