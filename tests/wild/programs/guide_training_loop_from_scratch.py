# After: https://www.tensorflow.org/guide/keras/writing_a_training_loop_from_scratch
# (functional MNIST model, tf.data pipelines, tf.function train/test steps, metrics)
# Adapted: seeded synthetic "digits" in place of MNIST, two epochs of a few batches,
# fixed starting weights; shuffle(buffer_size=1) keeps TensorFlow's order.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights, labels


def main():
    inputs = keras.Input(shape=(784,), name="digits")
    x1 = layers.Dense(64, activation="relu")(inputs)
    x2 = layers.Dense(64, activation="relu")(x1)
    outputs = layers.Dense(10, name="predictions")(x2)
    model = keras.Model(inputs=inputs, outputs=outputs)
    fixed_weights(model.trainable_weights, scale=0.1)

    optimizer = keras.optimizers.SGD(learning_rate=1e-3)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
    val_acc_metric = keras.metrics.SparseCategoricalAccuracy()

    batch_size = 16
    x_train, y_train = data(0, 64, 784, low=0, high=1), labels(1, 64, 10)
    x_val, y_val = data(2, 32, 784, low=0, high=1), labels(3, 32, 10)
    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    train_dataset = train_dataset.shuffle(buffer_size=1).batch(batch_size)
    val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val))
    val_dataset = val_dataset.batch(batch_size)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss_value = loss_fn(y, logits)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        train_acc_metric.update_state(y, logits)
        return loss_value

    @tf.function
    def test_step(x, y):
        val_logits = model(x, training=False)
        val_acc_metric.update_state(y, val_logits)

    losses, accs, val_accs = [], [], []
    for epoch in range(2):
        for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
            loss_value = train_step(x_batch_train, y_batch_train)
            losses.append(float(loss_value))
        accs.append(float(train_acc_metric.result()))
        train_acc_metric.reset_states()
        for x_batch_val, y_batch_val in val_dataset:
            test_step(x_batch_val, y_batch_val)
        val_accs.append(float(val_acc_metric.result()))
        val_acc_metric.reset_states()
    return {"losses": np.array(losses), "train_acc": accs, "val_acc": val_accs,
            "last_kernel": model.layers[-1].kernel}
