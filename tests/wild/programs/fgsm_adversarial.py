# After: https://www.tensorflow.org/tutorials/generative/adversarial_fgsm
# (create_adversarial_pattern: a tape watching the input image, CategoricalCrossentropy
# against the label, tf.sign of the gradient; adversarial images for several epsilons,
# clipped to [-1, 1])
# Adapted: a small Keras classifier with fixed weights in place of the pretrained
# MobileNetV2, a seeded synthetic 8x8x3 "image" and a one-hot label.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights

loss_object = tf.keras.losses.CategoricalCrossentropy()


def create_adversarial_pattern(pretrained_model, input_image, input_label):
    with tf.GradientTape() as tape:
        tape.watch(input_image)
        prediction = pretrained_model(input_image)
        loss = loss_object(input_label, prediction)

    # Get the gradients of the loss w.r.t to the input image.
    gradient = tape.gradient(loss, input_image)
    # Get the sign of the gradients to create the perturbation
    signed_grad = tf.sign(gradient)
    return signed_grad


def main():
    pretrained_model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(8, 8, 3)),
        tf.keras.layers.Dense(16, activation='relu'),
        tf.keras.layers.Dense(5, activation='softmax')])
    pretrained_model.trainable = False
    fixed_weights(pretrained_model.weights)

    image = tf.constant(data(0, 8, 8, 3))
    image = image[None, ...]
    label = tf.one_hot(2, 5)
    label = tf.reshape(label, (1, 5))

    perturbations = create_adversarial_pattern(pretrained_model, image, label)
    epsilons = [0, 0.01, 0.1, 0.15]
    out = {"perturbations": perturbations}
    for i, eps in enumerate(epsilons):
        adv_x = image + eps * perturbations
        adv_x = tf.clip_by_value(adv_x, -1, 1)
        out["confidence_%d" % i] = tf.reduce_max(pretrained_model(adv_x))
        out["class_%d" % i] = tf.argmax(pretrained_model(adv_x), axis=-1)
    return out
