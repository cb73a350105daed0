# After: https://github.com/andreped/GradientAccumulator (the plain TF2 gradient
# accumulation loop it replaces): tf.Variable accumulators of zeros_like each trainable
# variable, assign_add of each micro-batch gradient in a tf.function step,
# apply_gradients every n steps with the accumulated gradients divided by n, then reset.
# Adapted: seeded synthetic data, fixed starting weights, 8 micro-batches.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights, labels


def main():
    model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="tanh",
                                                       input_shape=(10,)),
                                 tf.keras.layers.Dense(3)])
    fixed_weights(model.trainable_variables)
    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-2)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    accum_steps = 4
    gradient_accumulation = [tf.Variable(tf.zeros_like(v), trainable=False)
                             for v in model.trainable_variables]

    dataset = tf.data.Dataset.from_tensor_slices((data(0, 64, 10), labels(1, 64, 3))).batch(8)

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=True)
            loss = loss_fn(y, logits)
        gradients = tape.gradient(loss, model.trainable_variables)
        for i in range(len(gradient_accumulation)):
            gradient_accumulation[i].assign_add(gradients[i])
        return loss

    def apply_accumulated():
        optimizer.apply_gradients(zip([g / accum_steps for g in gradient_accumulation],
                                      model.trainable_variables))
        for g in gradient_accumulation:
            g.assign(tf.zeros_like(g))

    losses = []
    for step, (x, y) in enumerate(dataset):
        losses.append(train_step(x, y))
        if (step + 1) % accum_steps == 0:
            apply_accumulated()
    return {"losses": losses, "weights": model.trainable_variables,
            "iterations": optimizer.iterations}
