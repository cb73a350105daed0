# After: https://www.tensorflow.org/guide/keras/writing_a_training_loop_from_scratch
# ("Low-level handling of losses tracked by the model": ActivityRegularizationLayer,
# sum(model.losses) added in the training step)
# Adapted: seeded synthetic data, fixed starting weights, three steps.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights, labels


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(1e-2 * tf.reduce_sum(inputs))
        return inputs


def main():
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(64, activation="relu")(inputs)
    # Insert activity regularization as a layer
    x = ActivityRegularizationLayer()(x)
    x = layers.Dense(64, activation="relu")(x)
    outputs = layers.Dense(10, name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    fixed_weights(model.trainable_weights, scale=0.1)

    optimizer = keras.optimizers.SGD(learning_rate=1e-3)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    x_train, y_train = data(0, 48, 784, low=0, high=1), labels(1, 48, 10)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(16)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
            # Add any extra losses created during the forward pass.
            loss_value += sum(model.losses)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y, logits)
        return loss_value

    losses = [train_step(xb, yb) for xb, yb in train_dataset]
    model(x_train[:4])
    return {"losses": losses, "n_losses": len(model.losses), "extra": model.losses[0],
            "acc": train_acc_metric.result(), "first_bias": model.layers[1].bias}
