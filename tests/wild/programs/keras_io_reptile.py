# After: https://keras.io/examples/vision/reptile/ (the tf.keras version: the Conv2D/
# BatchNormalization/ReLU model compiled with SGD, the Reptile meta-loop with an inner
# GradientTape on sparse_categorical_crossentropy, get_weights/set_weights interpolation
# with a decaying meta step size, and the evaluation of a few-shot task)
# Adapted: seeded synthetic 12x12 "characters" of 3 classes instead of Omniglot 28x28 ones,
# 2 conv blocks of 8 filters instead of 4 of 64, 4 meta-iterations of 3 inner steps; the
# mini-dataset comes from a seeded NumPy generator; fixed starting weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights

learning_rate = 0.003
meta_step_size = 0.25

inner_batch_size = 6
eval_batch_size = 6

meta_iters = 4
eval_iters = 2
inner_iters = 3

train_shots = 2
classes = 3


def conv_bn(x):
    x = layers.Conv2D(filters=8, kernel_size=3, strides=2, padding="same")(x)
    x = layers.BatchNormalization()(x)
    return layers.ReLU()(x)


def get_mini_dataset(rng, batch_size, repetitions, shots, num_classes):
    protos = np.random.default_rng(100).uniform(0, 1, size=(num_classes, 12, 12, 1))
    labels = np.repeat(np.arange(num_classes), shots)
    images = protos[labels] + 0.2 * rng.normal(size=(len(labels), 12, 12, 1))
    dataset = tf.data.Dataset.from_tensor_slices(
        (images.astype(np.float32), labels.astype(np.int32)))
    return dataset.batch(batch_size).repeat(repetitions)


def main():
    rng = np.random.default_rng(0)
    inputs = layers.Input(shape=(12, 12, 1))
    x = conv_bn(inputs)
    x = conv_bn(x)
    x = layers.Flatten()(x)
    outputs = layers.Dense(classes, activation="softmax")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.compile()
    optimizer = keras.optimizers.SGD(learning_rate=learning_rate)
    fixed_weights(model.trainable_weights, seed=1)

    losses = []
    for meta_iter in range(meta_iters):
        frac_done = meta_iter / meta_iters
        cur_meta_step_size = (1 - frac_done) * meta_step_size
        # Temporarily save the weights from the model.
        old_vars = model.get_weights()
        # Get a sample from the full dataset.
        mini_dataset = get_mini_dataset(rng, inner_batch_size, inner_iters, train_shots, classes)
        for images, labels in mini_dataset:
            with tf.GradientTape() as tape:
                preds = model(images)
                loss = keras.losses.sparse_categorical_crossentropy(labels, preds)
            grads = tape.gradient(loss, model.trainable_weights)
            optimizer.apply_gradients(zip(grads, model.trainable_weights))
            losses.append(tf.reduce_mean(loss))
        new_vars = model.get_weights()
        # Perform SGD for the meta step.
        for var in range(len(new_vars)):
            new_vars[var] = old_vars[var] + (
                (new_vars[var] - old_vars[var]) * cur_meta_step_size
            )
        # After the meta-learning step, reload the newly-trained weights into the model.
        model.set_weights(new_vars)

    eval_images = get_mini_dataset(rng, eval_batch_size, 1, train_shots, classes)
    old_vars = model.get_weights()
    for images, labels in eval_images:
        with tf.GradientTape() as tape:
            preds = model(images)
            loss = keras.losses.sparse_categorical_crossentropy(labels, preds)
        grads = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
    test_preds = model.predict(images, verbose=0)
    test_preds = tf.argmax(test_preds).numpy()
    adapted = model.get_weights()
    model.set_weights(old_vars)
    return {"losses": losses, "test_preds": test_preds, "adapted_last": adapted[-2:],
            "n_weights": len(model.get_weights())}
