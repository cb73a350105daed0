# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/03_vae/01_autoencoder/autoencoder.ipynb)
# Adapted: the notebook's code cells placed one after another in main(); 100 training and
# 20 test images of Fashion-MNIST's shape and dtype (seeded NumPy uint8 28x28, labels
# 0-9) instead of datasets.fashion_mnist.load_data(), so that fit's data is one batch of
# 100, and shuffle=False in fit instead of True (within the one batch the shuffle would
# still decide the order of the loss's sums, and TensorFlow's own two runs differed by it); 2 epochs instead of 3; the models' weights fixed
# from seeded NumPy (adapt.fixed_weights) instead of the random initializers; the
# checkpoint, TensorBoard logs and saved models written under a temporary folder instead
# of the working directory (removed at the end); the latent points sampled from seeded NumPy instead of
# np.random.uniform; n_to_predict 20 instead of 5000; the display and plotting cells
# (matplotlib, the notebook's utils) left out; main() returns fit's history, the
# predictions, the embeddings and the decoded samples and grid (every 4th pixel of a few
# images, to keep the answers small).
import os
import shutil
import tempfile

import numpy as np

from tensorflow.keras import layers, models, datasets, callbacks
import tensorflow.keras.backend as K
from adapt import fixed_weights


def main():
    workdir = tempfile.mkdtemp()
    IMAGE_SIZE = 32
    CHANNELS = 1
    BATCH_SIZE = 100
    BUFFER_SIZE = 1000
    VALIDATION_SPLIT = 0.2
    EMBEDDING_DIM = 2
    EPOCHS = 2

    # Load the data
    rng = np.random.default_rng(0)
    (x_train, y_train), (x_test, y_test) = (
        (rng.integers(0, 256, size=(100, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=100).astype(np.uint8)),
        (rng.integers(0, 256, size=(20, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=20).astype(np.uint8)))

    # Preprocess the data

    def preprocess(imgs):
        """
        Normalize and reshape the images
        """
        imgs = imgs.astype("float32") / 255.0
        imgs = np.pad(imgs, ((0, 0), (2, 2), (2, 2)), constant_values=0.0)
        imgs = np.expand_dims(imgs, -1)
        return imgs

    x_train = preprocess(x_train)
    x_test = preprocess(x_test)

    # Encoder
    encoder_input = layers.Input(
        shape=(IMAGE_SIZE, IMAGE_SIZE, CHANNELS), name="encoder_input"
    )
    x = layers.Conv2D(32, (3, 3), strides=2, activation="relu", padding="same")(
        encoder_input
    )
    x = layers.Conv2D(64, (3, 3), strides=2, activation="relu", padding="same")(x)
    x = layers.Conv2D(128, (3, 3), strides=2, activation="relu", padding="same")(x)
    shape_before_flattening = K.int_shape(x)[1:]  # the decoder will need this!

    x = layers.Flatten()(x)
    encoder_output = layers.Dense(EMBEDDING_DIM, name="encoder_output")(x)

    encoder = models.Model(encoder_input, encoder_output)
    encoder.summary()

    # Decoder
    decoder_input = layers.Input(shape=(EMBEDDING_DIM,), name="decoder_input")
    x = layers.Dense(np.prod(shape_before_flattening))(decoder_input)
    x = layers.Reshape(shape_before_flattening)(x)
    x = layers.Conv2DTranspose(
        128, (3, 3), strides=2, activation="relu", padding="same"
    )(x)
    x = layers.Conv2DTranspose(
        64, (3, 3), strides=2, activation="relu", padding="same"
    )(x)
    x = layers.Conv2DTranspose(
        32, (3, 3), strides=2, activation="relu", padding="same"
    )(x)
    decoder_output = layers.Conv2D(
        CHANNELS,
        (3, 3),
        strides=1,
        activation="sigmoid",
        padding="same",
        name="decoder_output",
    )(x)

    decoder = models.Model(decoder_input, decoder_output)
    decoder.summary()

    # Autoencoder
    autoencoder = models.Model(
        encoder_input, decoder(encoder_output)
    )  # decoder(encoder_output)
    autoencoder.summary()
    fixed_weights(autoencoder.weights, seed=1, scale=0.1)

    # Compile the autoencoder
    autoencoder.compile(optimizer="adam", loss="binary_crossentropy")

    # Create a model save checkpoint
    model_checkpoint_callback = callbacks.ModelCheckpoint(
        filepath=os.path.join(workdir, "checkpoint"),
        save_weights_only=False,
        save_freq="epoch",
        monitor="loss",
        mode="min",
        save_best_only=True,
        verbose=0,
    )
    tensorboard_callback = callbacks.TensorBoard(log_dir=os.path.join(workdir, "logs"))

    history = autoencoder.fit(
        x_train,
        x_train,
        epochs=EPOCHS,
        batch_size=BATCH_SIZE,
        shuffle=False,
        validation_data=(x_test, x_test),
        callbacks=[model_checkpoint_callback, tensorboard_callback],
    )

    # Save the final models
    autoencoder.save(os.path.join(workdir, "models/autoencoder"))
    encoder.save(os.path.join(workdir, "models/encoder"))
    decoder.save(os.path.join(workdir, "models/decoder"))

    n_to_predict = 20
    example_images = x_test[:n_to_predict]
    example_labels = y_test[:n_to_predict]

    predictions = autoencoder.predict(example_images)

    # Encode the example images
    embeddings = encoder.predict(example_images)

    # Some examples of the embeddings
    print(embeddings[:10])

    # Get the range of the existing embeddings
    mins, maxs = np.min(embeddings, axis=0), np.max(embeddings, axis=0)

    # Sample some points in the latent space
    grid_width, grid_height = (6, 3)
    sample = np.random.default_rng(2).uniform(
        mins, maxs, size=(grid_width * grid_height, EMBEDDING_DIM)
    )

    # Decode the sampled points
    reconstructions = decoder.predict(sample)

    grid_size = 15
    x = np.linspace(min(embeddings[:, 0]), max(embeddings[:, 0]), grid_size)
    y = np.linspace(max(embeddings[:, 1]), min(embeddings[:, 1]), grid_size)
    xv, yv = np.meshgrid(x, y)
    xv = xv.flatten()
    yv = yv.flatten()
    grid = np.array(list(zip(xv, yv)))

    grid_reconstructions = decoder.predict(grid)
    shutil.rmtree(workdir, ignore_errors=True)
    return {"history": history.history, "predictions": predictions[:2, ::4, ::4], "embeddings": embeddings,
            "reconstructions": reconstructions[:2, ::4, ::4],
            "grid_reconstructions": grid_reconstructions[::25, ::4, ::4]}
