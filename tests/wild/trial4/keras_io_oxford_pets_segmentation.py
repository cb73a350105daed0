# After: https://keras.io/examples/vision/oxford_pets_image_segmentation/ (the tf.keras
# version: the OxfordPets keras.utils.Sequence, the U-Net Xception-style get_model with
# Conv2D, BatchNormalization, SeparableConv2D, MaxPooling2D, Conv2DTranspose, UpSampling2D
# and residual layers.add, the validation split by random.Random(1337).shuffle, compile with
# rmsprop and sparse_categorical_crossentropy, fit on the Sequences, predict)
# Adapted: 8 seeded synthetic 64x64 RGB images and 3-class trimaps (labels 1, 2, 3, as the
# dataset's) held in a dict by path, which OxfordPets.__getitem__ reads instead of
# load_img on the downloaded files; img_size (64, 64) instead of (160, 160), batch_size 4
# instead of 32 and 4 validation samples instead of 1000 (one training batch, so fit's
# shuffle cannot change a step); 2 epochs instead of 15; fixed weights (the moving
# statistics keep their initial zeros and ones); the ModelCheckpoint of the whole model
# to oxford_segmentation.h5 (whole-model saving) and the displays left out.
import os
import random

import numpy as np
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights

input_dir = "images/"
target_dir = "annotations/trimaps/"
img_size = (64, 64)
num_classes = 3
batch_size = 4

input_img_paths = sorted(os.path.join(input_dir, "pet_%d.jpg" % i) for i in range(8))
target_img_paths = sorted(os.path.join(target_dir, "pet_%d.png" % i) for i in range(8))
FILES = {}
for k, (input_path, target_path) in enumerate(zip(input_img_paths, target_img_paths)):
    FILES[input_path] = np.round(data(k, 64, 64, 3, low=0, high=255))
    FILES[target_path] = np.random.default_rng(100 + k).integers(1, 4, size=(64, 64))


def load_img(path, target_size=None, color_mode="rgb"):
    """The adaptation's stand-in for loading a file: the synthetic image of that path."""
    return FILES[path]


class OxfordPets(keras.utils.Sequence):
    """Helper to iterate over the data (as Numpy arrays)."""

    def __init__(self, batch_size, img_size, input_img_paths, target_img_paths):
        self.batch_size = batch_size
        self.img_size = img_size
        self.input_img_paths = input_img_paths
        self.target_img_paths = target_img_paths

    def __len__(self):
        return len(self.target_img_paths) // self.batch_size

    def __getitem__(self, idx):
        """Returns tuple (input, target) correspond to batch #idx."""
        i = idx * self.batch_size
        batch_input_img_paths = self.input_img_paths[i : i + self.batch_size]
        batch_target_img_paths = self.target_img_paths[i : i + self.batch_size]
        x = np.zeros((self.batch_size,) + self.img_size + (3,), dtype="float32")
        for j, path in enumerate(batch_input_img_paths):
            img = load_img(path, target_size=self.img_size)
            x[j] = img
        y = np.zeros((self.batch_size,) + self.img_size + (1,), dtype="uint8")
        for j, path in enumerate(batch_target_img_paths):
            img = load_img(path, target_size=self.img_size, color_mode="grayscale")
            y[j] = np.expand_dims(img, 2)
            # Ground truth labels are 1, 2, 3. Subtract one to make them 0, 1, 2:
            y[j] -= 1
        return x, y


def get_model(img_size, num_classes):
    inputs = keras.Input(shape=img_size + (3,))

    ### [First half of the network: downsampling inputs] ###

    # Entry block
    x = layers.Conv2D(32, 3, strides=2, padding="same")(inputs)
    x = layers.BatchNormalization()(x)
    x = layers.Activation("relu")(x)

    previous_block_activation = x  # Set aside residual

    # Blocks 1, 2, 3 are identical apart from the feature depth.
    for filters in [64, 128, 256]:
        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.Activation("relu")(x)
        x = layers.SeparableConv2D(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.MaxPooling2D(3, strides=2, padding="same")(x)

        # Project residual
        residual = layers.Conv2D(filters, 1, strides=2, padding="same")(
            previous_block_activation
        )
        x = layers.add([x, residual])  # Add back residual
        previous_block_activation = x  # Set aside next residual

    ### [Second half of the network: upsampling inputs] ###

    for filters in [256, 128, 64, 32]:
        x = layers.Activation("relu")(x)
        x = layers.Conv2DTranspose(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.Activation("relu")(x)
        x = layers.Conv2DTranspose(filters, 3, padding="same")(x)
        x = layers.BatchNormalization()(x)

        x = layers.UpSampling2D(2)(x)

        # Project residual
        residual = layers.UpSampling2D(2)(previous_block_activation)
        residual = layers.Conv2D(filters, 1, padding="same")(residual)
        x = layers.add([x, residual])  # Add back residual
        previous_block_activation = x  # Set aside next residual

    # Add a per-pixel classification layer
    outputs = layers.Conv2D(num_classes, 3, activation="softmax", padding="same")(x)

    # Define the model
    model = keras.Model(inputs, outputs)
    return model


def main():
    global input_img_paths, target_img_paths
    # Free up RAM in case the model definition cells were run multiple times
    keras.backend.clear_session()

    # Build model
    model = get_model(img_size, num_classes)
    model.summary()
    fixed_weights(model.trainable_weights, seed=20, scale=0.1)

    # Split our img paths into a training and a validation set
    val_samples = 4
    random.Random(1337).shuffle(input_img_paths)
    random.Random(1337).shuffle(target_img_paths)
    train_input_img_paths = input_img_paths[:-val_samples]
    train_target_img_paths = target_img_paths[:-val_samples]
    val_input_img_paths = input_img_paths[-val_samples:]
    val_target_img_paths = target_img_paths[-val_samples:]

    # Instantiate data Sequences for each split
    train_gen = OxfordPets(
        batch_size, img_size, train_input_img_paths, train_target_img_paths
    )
    val_gen = OxfordPets(batch_size, img_size, val_input_img_paths, val_target_img_paths)

    # Configure the model for training.
    # We use the "sparse" version of categorical_crossentropy
    # because our target data is integers.
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy")

    # Train the model, doing validation at the end of each epoch.
    epochs = 2
    history = model.fit(train_gen, epochs=epochs, validation_data=val_gen)

    # Generate predictions for all images in the validation set
    val_gen = OxfordPets(batch_size, img_size, val_input_img_paths, val_target_img_paths)
    val_preds = model.predict(val_gen)
    mask = np.argmax(val_preds[1], axis=-1)
    return {"history": history.history, "val_preds": val_preds[:, :4, :4, :],
            "mask": mask[:8, :8], "params": model.count_params(),
            "val_paths": val_input_img_paths}
