# After: https://www.tensorflow.org/guide/keras/custom_layers_and_models (Linear layer
# with add_weight in build, a non-trainable ComputeSum layer, MLPBlock of Linear layers,
# ActivityRegularizationLayer with add_loss, and a layer with an L2 kernel regularizer
# whose losses the training loop adds)
# Adapted: fixed starting weights in place of random_normal, seeded synthetic inputs.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights


class Linear(keras.layers.Layer):
    def __init__(self, units=32):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(
            shape=(input_shape[-1], self.units),
            initializer="random_normal",
            trainable=True,
        )
        self.b = self.add_weight(
            shape=(self.units,), initializer="random_normal", trainable=True
        )

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class ComputeSum(keras.layers.Layer):
    def __init__(self, input_dim):
        super().__init__()
        self.total = tf.Variable(initial_value=tf.zeros((input_dim,)), trainable=False)

    def call(self, inputs):
        self.total.assign_add(tf.reduce_sum(inputs, axis=0))
        return self.total


class MLPBlock(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.linear_1 = Linear(32)
        self.linear_2 = Linear(32)
        self.linear_3 = Linear(1)

    def call(self, inputs):
        x = self.linear_1(inputs)
        x = tf.nn.relu(x)
        x = self.linear_2(x)
        x = tf.nn.relu(x)
        return self.linear_3(x)


class ActivityRegularizationLayer(keras.layers.Layer):
    def __init__(self, rate=1e-2):
        super().__init__()
        self.rate = rate

    def call(self, inputs):
        self.add_loss(self.rate * tf.reduce_sum(inputs))
        return inputs


class OuterLayerWithKernelRegularizer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(
            32, kernel_regularizer=tf.keras.regularizers.l2(1e-3)
        )

    def call(self, inputs):
        return self.dense(inputs)


def main():
    x = tf.ones((2, 2))
    my_sum = ComputeSum(2)
    y = my_sum(x)
    y = my_sum(x)

    mlp = MLPBlock()
    y_mlp = mlp(tf.ones(shape=(3, 64)))  # The first call to the `mlp` will create the weights
    fixed_weights(mlp.weights, scale=0.2)

    layer = OuterLayerWithKernelRegularizer()
    _ = layer(tf.zeros((1, 1)))
    fixed_weights(layer.trainable_weights, seed=1)

    optimizer = keras.optimizers.SGD(learning_rate=1e-2)
    loss_fn = keras.losses.MeanSquaredError()
    x_train, y_train = data(0, 8, 64), data(1, 8, 1)
    losses = []
    for step in range(3):
        with tf.GradientTape() as tape:
            logits = mlp(x_train)
            loss_value = loss_fn(y_train, logits)
            loss_value += sum(layer.losses)
        grads = tape.gradient(loss_value, mlp.trainable_weights)
        optimizer.apply_gradients(zip(grads, mlp.trainable_weights))
        losses.append(loss_value)
    return {"sum": y, "weights": len(mlp.weights), "trainable": len(mlp.trainable_weights),
            "reg_losses": layer.losses, "losses": losses, "last_w": mlp.linear_3.w}
