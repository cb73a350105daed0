# After: https://keras.io/examples/generative/pixelcnn/ (the tf.keras version: binarized
# images, PixelConvLayer building its Conv2D and a causal mask of type A or B from the
# kernel's shape and assigning kernel * mask in call, ResidualBlock with 1x1 and masked 3x3
# convolutions and keras.layers.add, the functional PixelCNN compiled with Adam(0.0005) and
# binary_crossentropy, fit with validation_split=0.1)
# Adapted: 12 seeded synthetic 28x28 images instead of MNIST, 2 residual blocks instead of
# 5 and 32 filters instead of 128, 2 epochs of batch_size 128 (one batch per epoch); fixed
# weights. The sampling part (tfp) is left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights

# Model / data parameters
num_classes = 10
input_shape = (28, 28, 1)
n_residual_blocks = 2


# The first layer is the PixelCNN layer. This layer simply
# builds on the 2D convolutional layer, but includes masking.
class PixelConvLayer(layers.Layer):
    def __init__(self, mask_type, **kwargs):
        super().__init__()
        self.mask_type = mask_type
        self.conv = layers.Conv2D(**kwargs)

    def build(self, input_shape):
        # Build the conv2d layer to initialize kernel variables
        self.conv.build(input_shape)
        # Use the initialized kernel to create the mask
        kernel_shape = self.conv.kernel.get_shape()
        self.mask = np.zeros(shape=kernel_shape)
        self.mask[: kernel_shape[0] // 2, ...] = 1.0
        self.mask[kernel_shape[0] // 2, : kernel_shape[1] // 2, ...] = 1.0
        if self.mask_type == "B":
            self.mask[kernel_shape[0] // 2, kernel_shape[1] // 2, ...] = 1.0

    def call(self, inputs):
        self.conv.kernel.assign(self.conv.kernel * self.mask)
        return self.conv(inputs)


# Next, we build our residual block layer.
# This is just a normal residual block, but based on the PixelConvLayer.
class ResidualBlock(keras.layers.Layer):
    def __init__(self, filters, **kwargs):
        super().__init__(**kwargs)
        self.conv1 = keras.layers.Conv2D(
            filters=filters, kernel_size=1, activation="relu"
        )
        self.pixel_conv = PixelConvLayer(
            mask_type="B",
            filters=filters // 2,
            kernel_size=3,
            activation="relu",
            padding="same",
        )
        self.conv2 = keras.layers.Conv2D(
            filters=filters, kernel_size=1, activation="relu"
        )

    def call(self, inputs):
        x = self.conv1(inputs)
        x = self.pixel_conv(x)
        x = self.conv2(x)
        return keras.layers.add([inputs, x])


def main():
    # Get the data
    x = np.round(data(1, 12, 28, 28, low=0, high=255))
    data_ = np.where(x < (0.33 * 256), 0, 1)
    data_ = data_.astype(np.float32)

    inputs = keras.Input(shape=input_shape)
    x = PixelConvLayer(
        mask_type="A", filters=32, kernel_size=7, activation="relu", padding="same"
    )(inputs)

    for _ in range(n_residual_blocks):
        x = ResidualBlock(filters=32)(x)

    for _ in range(2):
        x = PixelConvLayer(
            mask_type="B",
            filters=32,
            kernel_size=1,
            strides=1,
            activation="relu",
            padding="valid",
        )(x)

    out = keras.layers.Conv2D(
        filters=1, kernel_size=1, strides=1, activation="sigmoid", padding="valid"
    )(x)

    pixel_cnn = keras.Model(inputs, out)
    fixed_weights(pixel_cnn.trainable_variables, seed=2, scale=0.1)
    adam = keras.optimizers.Adam(learning_rate=0.0005)
    pixel_cnn.compile(optimizer=adam, loss="binary_crossentropy")

    pixel_cnn.summary()
    history = pixel_cnn.fit(
        x=data_[..., None], y=data_[..., None], batch_size=128, epochs=2,
        validation_split=0.1, verbose=2
    )
    return {"history": history.history,
            "probs": pixel_cnn.predict(data_[:2, ..., None], verbose=0)[:, 10:14, 10:14, 0],
            "first_kernel": pixel_cnn.layers[1].conv.kernel[:, :, 0, 0]}
