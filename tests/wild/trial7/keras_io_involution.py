# After: https://keras.io/examples/vision/involution/ (the tf.keras version: examples/vision/involution.py in keras-team/keras-io)
# Adapted: the example's code placed in main() (the Involution layer at module level);
# the test input of the involution layer a seeded NumPy (4, 32, 32, 3) draw instead of
# tf.random.normal((32, 256, 256, 3)); 32 training and 16 test images of CIFAR-10's
# shape and dtype (seeded NumPy uint8 32x32x3, labels 0-9) instead of
# keras.datasets.cifar10.load_data(), so that each dataset is one batch and its shuffle
# decides no step; 2 epochs instead of 20; the models' weights fixed from seeded NumPy
# (adapt.fixed_weights, then BatchNormalization's moving variances set back to ones)
# instead of the random initializers; the plotting (matplotlib) left out, the kernels'
# sums it shows collected instead; main() returns the printed shapes, both histories
# and the summed involution kernels of the 10 test images.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import fixed_weights

# Set seed for reproducibility.
tf.random.set_seed(42)


class Involution(keras.layers.Layer):
    def __init__(
        self, channel, group_number, kernel_size, stride, reduction_ratio, name
    ):
        super().__init__(name=name)

        # Initialize the parameters.
        self.channel = channel
        self.group_number = group_number
        self.kernel_size = kernel_size
        self.stride = stride
        self.reduction_ratio = reduction_ratio

    def build(self, input_shape):
        # Get the shape of the input.
        (_, height, width, num_channels) = input_shape

        # Scale the height and width with respect to the strides.
        height = height // self.stride
        width = width // self.stride

        # Define a layer that average pools the input tensor
        # if stride is more than 1.
        self.stride_layer = (
            keras.layers.AveragePooling2D(
                pool_size=self.stride, strides=self.stride, padding="same"
            )
            if self.stride > 1
            else tf.identity
        )
        # Define the kernel generation layer.
        self.kernel_gen = keras.Sequential(
            [
                keras.layers.Conv2D(
                    filters=self.channel // self.reduction_ratio, kernel_size=1
                ),
                keras.layers.BatchNormalization(),
                keras.layers.ReLU(),
                keras.layers.Conv2D(
                    filters=self.kernel_size * self.kernel_size * self.group_number,
                    kernel_size=1,
                ),
            ]
        )
        # Define reshape layers
        self.kernel_reshape = keras.layers.Reshape(
            target_shape=(
                height,
                width,
                self.kernel_size * self.kernel_size,
                1,
                self.group_number,
            )
        )
        self.input_patches_reshape = keras.layers.Reshape(
            target_shape=(
                height,
                width,
                self.kernel_size * self.kernel_size,
                num_channels // self.group_number,
                self.group_number,
            )
        )
        self.output_reshape = keras.layers.Reshape(
            target_shape=(height, width, num_channels)
        )

    def call(self, x):
        # Generate the kernel with respect to the input tensor.
        # B, H, W, K*K*G
        kernel_input = self.stride_layer(x)
        kernel = self.kernel_gen(kernel_input)

        # reshape the kerenl
        # B, H, W, K*K, 1, G
        kernel = self.kernel_reshape(kernel)

        # Extract input patches.
        # B, H, W, K*K*C
        input_patches = tf.image.extract_patches(
            images=x,
            sizes=[1, self.kernel_size, self.kernel_size, 1],
            strides=[1, self.stride, self.stride, 1],
            rates=[1, 1, 1, 1],
            padding="SAME",
        )

        # Reshape the input patches to align with later operations.
        # B, H, W, K*K, C//G, G
        input_patches = self.input_patches_reshape(input_patches)

        # Compute the multiply-add operation of kernels and patches.
        # B, H, W, K*K, C//G, G
        output = tf.multiply(kernel, input_patches)
        # B, H, W, C//G, G
        output = tf.reduce_sum(output, axis=3)

        # Reshape the output kernel.
        # B, H, W, C
        output = self.output_reshape(output)

        # Return the output tensor and the kernel.
        return output, kernel


def reset_moving_variances(model):
    for v in model.weights:
        if "moving_variance" in v.name:
            v.assign(np.ones(v.shape, np.float32))


def main():
    out = {}
    # Define the input tensor.
    input_tensor = tf.constant(np.random.default_rng(3).normal(size=(4, 32, 32, 3)).astype("float32"))

    # Compute involution with stride 1.
    output_tensor, _ = Involution(
        channel=3, group_number=1, kernel_size=5, stride=1, reduction_ratio=1, name="inv_1"
    )(input_tensor)
    print(f"with stride 1 ouput shape: {output_tensor.shape}")
    out["stride_1_shape"] = list(output_tensor.shape)

    # Compute involution with stride 2.
    output_tensor, _ = Involution(
        channel=3, group_number=1, kernel_size=5, stride=2, reduction_ratio=1, name="inv_2"
    )(input_tensor)
    print(f"with stride 2 ouput shape: {output_tensor.shape}")
    out["stride_2_shape"] = list(output_tensor.shape)

    # Compute involution with stride 1, channel 16 and reduction ratio 2.
    output_tensor, _ = Involution(
        channel=16, group_number=1, kernel_size=5, stride=1, reduction_ratio=2, name="inv_3"
    )(input_tensor)
    print(
        "with channel 16 and reduction ratio 2 ouput shape: {}".format(output_tensor.shape)
    )
    out["channel_16_shape"] = list(output_tensor.shape)

    # Load the CIFAR10 dataset.
    print("loading the CIFAR10 dataset...")
    rng = np.random.default_rng(0)
    (train_images, train_labels), (
        test_images,
        test_labels,
    ) = ((rng.integers(0, 256, size=(32, 32, 32, 3)).astype(np.uint8), rng.integers(0, 10, size=(32, 1)).astype(np.uint8)),
         (rng.integers(0, 256, size=(16, 32, 32, 3)).astype(np.uint8), rng.integers(0, 10, size=(16, 1)).astype(np.uint8)))

    # Normalize pixel values to be between 0 and 1.
    (train_images, test_images) = (train_images / 255.0, test_images / 255.0)

    # Shuffle and batch the dataset.
    train_ds = (
        tf.data.Dataset.from_tensor_slices((train_images, train_labels))
        .shuffle(256)
        .batch(256)
    )
    test_ds = tf.data.Dataset.from_tensor_slices((test_images, test_labels)).batch(256)

    # Build the conv model.
    print("building the convolution model...")
    conv_model = keras.Sequential(
        [
            keras.layers.Conv2D(32, (3, 3), input_shape=(32, 32, 3), padding="same"),
            keras.layers.ReLU(name="relu1"),
            keras.layers.MaxPooling2D((2, 2)),
            keras.layers.Conv2D(64, (3, 3), padding="same"),
            keras.layers.ReLU(name="relu2"),
            keras.layers.MaxPooling2D((2, 2)),
            keras.layers.Conv2D(64, (3, 3), padding="same"),
            keras.layers.ReLU(name="relu3"),
            keras.layers.Flatten(),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(10),
        ]
    )
    fixed_weights(conv_model.weights, seed=1, scale=0.05)

    # Compile the mode with the necessary loss function and optimizer.
    print("compiling the convolution model...")
    conv_model.compile(
        optimizer="adam",
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

    # Train the model.
    print("conv model training...")
    conv_hist = conv_model.fit(train_ds, epochs=2, validation_data=test_ds)

    # Build the involution model.
    print("building the involution model...")

    inputs = keras.Input(shape=(32, 32, 3))
    x, _ = Involution(
        channel=3, group_number=1, kernel_size=3, stride=1, reduction_ratio=2, name="inv_1"
    )(inputs)
    x = keras.layers.ReLU()(x)
    x = keras.layers.MaxPooling2D((2, 2))(x)
    x, _ = Involution(
        channel=3, group_number=1, kernel_size=3, stride=1, reduction_ratio=2, name="inv_2"
    )(x)
    x = keras.layers.ReLU()(x)
    x = keras.layers.MaxPooling2D((2, 2))(x)
    x, _ = Involution(
        channel=3, group_number=1, kernel_size=3, stride=1, reduction_ratio=2, name="inv_3"
    )(x)
    x = keras.layers.ReLU()(x)
    x = keras.layers.Flatten()(x)
    x = keras.layers.Dense(64, activation="relu")(x)
    outputs = keras.layers.Dense(10)(x)

    inv_model = keras.Model(inputs=[inputs], outputs=[outputs], name="inv_model")
    fixed_weights(inv_model.weights, seed=2, scale=0.3)
    reset_moving_variances(inv_model)

    # Compile the mode with the necessary loss function and optimizer.
    print("compiling the involution model...")
    inv_model.compile(
        optimizer="adam",
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

    # train the model
    print("inv model training...")
    inv_hist = inv_model.fit(train_ds, epochs=2, validation_data=test_ds)

    conv_model.summary()

    inv_model.summary()
    out["conv_history"] = conv_hist.history
    out["inv_history"] = inv_hist.history

    layer_names = ["inv_1", "inv_2", "inv_3"]
    outputs = [inv_model.get_layer(name).output for name in layer_names]
    vis_model = keras.Model(inv_model.input, outputs)

    kernels = []
    for test_image in test_images[:10]:
        (inv1_out, inv2_out, inv3_out) = vis_model.predict(test_image[None, ...])

        _, inv1_kernel = inv1_out
        _, inv2_kernel = inv2_out
        _, inv3_kernel = inv3_out

        inv1_kernel = tf.reduce_sum(inv1_kernel, axis=[-1, -2, -3])
        inv2_kernel = tf.reduce_sum(inv2_kernel, axis=[-1, -2, -3])
        inv3_kernel = tf.reduce_sum(inv3_kernel, axis=[-1, -2, -3])
        kernels.append([inv1_kernel[0], inv2_kernel[0], inv3_kernel[0]])
    out["kernels"] = kernels
    return out
