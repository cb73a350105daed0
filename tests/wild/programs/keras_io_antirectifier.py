# After: https://keras.io/examples/keras_recipes/antirectifier/ (the tf.keras version: the
# Antirectifier layer with build/call/get_config, a Sequential model of Dense and Antirectifier
# layers compiled with SparseCategoricalCrossentropy(from_logits=True) and RMSprop, fit, evaluate)
# Adapted: 40 seeded synthetic 784-pixel rows instead of MNIST, 2 epochs of batch 20, fixed
# weights, and the Dropout(0.1) layers left out (their random masks differ between libraries).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels


class Antirectifier(layers.Layer):
    def __init__(self, initializer="he_normal", **kwargs):
        super(Antirectifier, self).__init__(**kwargs)
        self.initializer = keras.initializers.get(initializer)

    def build(self, input_shape):
        output_dim = input_shape[-1]
        self.kernel = self.add_weight(
            shape=(output_dim * 2, output_dim),
            initializer=self.initializer,
            name="kernel",
            trainable=True,
        )

    def call(self, inputs):
        inputs -= tf.reduce_mean(inputs, axis=-1, keepdims=True)
        pos = tf.nn.relu(inputs)
        neg = tf.nn.relu(-inputs)
        concatenated = tf.concat([pos, neg], axis=-1)
        mixed = tf.matmul(concatenated, self.kernel)
        return mixed

    def get_config(self):
        # Implement get_config to enable serialization. This is optional.
        base_config = super(Antirectifier, self).get_config()
        config = {"initializer": keras.initializers.serialize(self.initializer)}
        return dict(list(base_config.items()) + list(config.items()))


def main():
    x_train = np.round(data(1, 40, 784, low=0, high=255))
    x_test = np.round(data(2, 20, 784, low=0, high=255))
    y_train, y_test = labels(3, 40, 10), labels(4, 20, 10)
    x_train = x_train.reshape(-1, 784)
    x_test = x_test.reshape(-1, 784)
    x_train = x_train.astype("float32")
    x_test = x_test.astype("float32")
    x_train /= 255
    x_test /= 255

    model = keras.Sequential(
        [
            keras.Input(shape=(784,)),
            layers.Dense(32),
            Antirectifier(),
            layers.Dense(16),
            Antirectifier(),
            layers.Dense(10),
        ]
    )
    fixed_weights(model.trainable_weights, seed=5, scale=0.1)
    model.compile(
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        optimizer=keras.optimizers.RMSprop(),
        metrics=[keras.metrics.SparseCategoricalAccuracy()],
    )
    history = model.fit(x_train, y_train, batch_size=20, epochs=2, validation_split=0.15,
                        shuffle=False, verbose=0)
    score = model.evaluate(x_test, y_test, verbose=0)
    config = model.layers[1].get_config()
    return {"history": history.history, "score": score, "initializer": config["initializer"]["class_name"],
            "kernel_shape": list(model.layers[1].kernel.shape)}
