# After: https://www.tensorflow.org/tutorials/generative/deepdream (calc_loss summing
# the mean activation of chosen layers, a DeepDream tf.Module whose @tf.function with an
# input_signature runs gradient ascent on the image: gradients normalised by their
# standard deviation, img + gradients * step_size, clip_by_value to [-1, 1])
# Adapted: a small functional Keras model with two named activation layers and fixed
# weights in place of the pretrained InceptionV3, a seeded synthetic 8x8x3 image,
# 5 steps.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


def calc_loss(img, model):
    # Pass forward the image through the model to retrieve the activations.
    # Converts the image into a batch of size 1.
    img_batch = tf.expand_dims(img, axis=0)
    layer_activations = model(img_batch)
    if len(layer_activations) == 1:
        layer_activations = [layer_activations]

    losses = []
    for act in layer_activations:
        loss = tf.math.reduce_mean(act)
        losses.append(loss)

    return tf.reduce_sum(losses)


class DeepDream(tf.Module):
    def __init__(self, model):
        self.model = model

    @tf.function(
        input_signature=(
            tf.TensorSpec(shape=[None, None, 3], dtype=tf.float32),
            tf.TensorSpec(shape=[], dtype=tf.int32),
            tf.TensorSpec(shape=[], dtype=tf.float32),)
    )
    def __call__(self, img, steps, step_size):
        print("Tracing")
        loss = tf.constant(0.0)
        for n in tf.range(steps):
            with tf.GradientTape() as tape:
                # This needs gradients relative to `img`
                # `GradientTape` only watches `tf.Variable`s by default
                tape.watch(img)
                loss = calc_loss(img, self.model)

            # Calculate the gradients of the loss with respect to the pixels of the input image.
            gradients = tape.gradient(loss, img)

            # Normalize the gradients.
            gradients /= tf.math.reduce_std(gradients) + 1e-8

            # In gradient ascent, the "loss" is maximized so that the input image increasingly "excites" the layers.
            # You can update the image by directly adding the gradients (because they're the same shape!)
            img = img + gradients * step_size
            img = tf.clip_by_value(img, -1, 1)

        return loss, img


def main():
    inputs = tf.keras.Input(shape=(8, 8, 3))
    flat = tf.keras.layers.Flatten()(inputs)
    mixed3 = tf.keras.layers.Dense(12, activation='relu', name='mixed3')(flat)
    mixed5 = tf.keras.layers.Dense(6, activation='relu', name='mixed5')(mixed3)
    dream_model = tf.keras.Model(inputs=inputs, outputs=[mixed3, mixed5])
    fixed_weights(dream_model.weights, scale=0.2)

    deepdream = DeepDream(dream_model)
    img = tf.constant(data(0, 8, 8, 3))
    loss, dreamed = deepdream(img, tf.constant(5), tf.constant(0.01))
    return {"loss": loss, "img": dreamed}
