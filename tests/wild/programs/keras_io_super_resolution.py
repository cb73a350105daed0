# After: https://keras.io/examples/vision/super_resolution_sub_pixel/ (the tf.keras
# version: images scaled by 1/255, process_input and process_target taking the Y channel
# of tf.image.rgb_to_yuv and tf.image.resize(method="area") to the input size, get_model
# with four Orthogonal-initialized Conv2D layers and tf.nn.depth_to_space, compile with
# Adam(0.001) and MeanSquaredError, fit on the mapped datasets with validation_data)
# Adapted: 8 training and 4 validation seeded synthetic 12x12 RGB crops in tf.data batches
# of 4 instead of BSDS500 crops of 300 (crop_size 12, upscale_factor 3), 2 epochs instead
# of 100; fixed weights; the ESPCNCallback (PIL images and plots) and the
# ModelCheckpoint/EarlyStopping left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights

crop_size = 12
upscale_factor = 3
input_size = crop_size // upscale_factor
batch_size = 4


# Use TF Ops to process.
def process_input(input, input_size, upscale_factor):
    input = tf.image.rgb_to_yuv(input)
    last_dimension_axis = len(input.shape) - 1
    y, u, v = tf.split(input, 3, axis=last_dimension_axis)
    return tf.image.resize(y, [input_size, input_size], method="area")


def process_target(input):
    input = tf.image.rgb_to_yuv(input)
    last_dimension_axis = len(input.shape) - 1
    y, u, v = tf.split(input, 3, axis=last_dimension_axis)
    return y


def get_model(upscale_factor=3, channels=1):
    conv_args = {
        "activation": "relu",
        "kernel_initializer": "Orthogonal",
        "padding": "same",
    }
    inputs = keras.Input(shape=(None, None, channels))
    x = layers.Conv2D(64, 5, **conv_args)(inputs)
    x = layers.Conv2D(64, 3, **conv_args)(x)
    x = layers.Conv2D(32, 3, **conv_args)(x)
    x = layers.Conv2D(channels * (upscale_factor ** 2), 3, **conv_args)(x)
    outputs = tf.nn.depth_to_space(x, upscale_factor)

    return keras.Model(inputs, outputs)


def scaling(input_image):
    input_image = input_image / 255.0
    return input_image


def main():
    train_ds = tf.data.Dataset.from_tensor_slices(
        np.round(data(1, 8, crop_size, crop_size, 3, low=0, high=255))).batch(batch_size)
    valid_ds = tf.data.Dataset.from_tensor_slices(
        np.round(data(2, 4, crop_size, crop_size, 3, low=0, high=255))).batch(batch_size)

    # Scale from (0, 255) to (0, 1)
    train_ds = train_ds.map(scaling)
    valid_ds = valid_ds.map(scaling)

    train_ds = train_ds.map(
        lambda x: (process_input(x, input_size, upscale_factor), process_target(x))
    )
    train_ds = train_ds.prefetch(buffer_size=32)

    valid_ds = valid_ds.map(
        lambda x: (process_input(x, input_size, upscale_factor), process_target(x))
    )
    valid_ds = valid_ds.prefetch(buffer_size=32)

    model = get_model(upscale_factor=upscale_factor, channels=1)
    model.summary()
    fixed_weights(model.trainable_variables, seed=3, scale=0.1)

    loss_fn = keras.losses.MeanSquaredError()
    optimizer = keras.optimizers.Adam(learning_rate=0.001)

    model.compile(
        optimizer=optimizer, loss=loss_fn,
    )

    first = next(iter(train_ds))
    history = model.fit(
        train_ds, epochs=2, validation_data=valid_ds, verbose=2
    )
    return {"lowres": first[0][0, :, :, 0], "target": first[1][0, :4, :4, 0],
            "history": history.history,
            "upscaled": model.predict(first[0], verbose=0)[0, :6, :6, 0]}
