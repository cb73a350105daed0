# After: https://www.tensorflow.org/tutorials/interpretability/integrated_gradients
# (interpolate_images, compute_gradients with tape.watch and the target class's softmax
# probability, integral_approximation with the Riemann trapezoidal rule, and the
# @tf.function integrated_gradients that batches alphas through a tf.TensorArray)
# Adapted: a small Keras classifier with fixed weights in place of the pretrained
# Inception V1, a seeded synthetic 8x8x3 image, m_steps=16.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


def main():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(8, 8, 3)),
        tf.keras.layers.Dense(16, activation='relu'),
        tf.keras.layers.Dense(4)])
    fixed_weights(model.weights)

    baseline = tf.zeros(shape=(8, 8, 3))
    image = tf.constant(data(0, 8, 8, 3, low=0, high=1))
    m_steps = 16
    alphas = tf.linspace(start=0.0, stop=1.0, num=m_steps + 1)

    def interpolate_images(baseline, image, alphas):
        alphas_x = alphas[:, tf.newaxis, tf.newaxis, tf.newaxis]
        baseline_x = tf.expand_dims(baseline, axis=0)
        input_x = tf.expand_dims(image, axis=0)
        delta = input_x - baseline_x
        images = baseline_x + alphas_x * delta
        return images

    def compute_gradients(images, target_class_idx):
        with tf.GradientTape() as tape:
            tape.watch(images)
            logits = model(images)
            probs = tf.nn.softmax(logits, axis=-1)[:, target_class_idx]
        return tape.gradient(probs, images)

    def integral_approximation(gradients):
        # riemann_trapezoidal
        grads = (gradients[:-1] + gradients[1:]) / tf.constant(2.0)
        integrated_gradients = tf.math.reduce_mean(grads, axis=0)
        return integrated_gradients

    @tf.function
    def integrated_gradients(baseline, image, target_class_idx, m_steps=50, batch_size=32):
        # Generate alphas.
        alphas = tf.linspace(start=0.0, stop=1.0, num=m_steps + 1)

        # Collect gradients.
        gradient_batches = tf.TensorArray(tf.float32, size=m_steps + 1)

        # Iterate alphas range and batch computation for speed, memory efficiency,
        # and scaling to larger m_steps.
        for alpha in tf.range(0, len(alphas), batch_size):
            from_ = alpha
            to = tf.minimum(from_ + batch_size, len(alphas))
            alpha_batch = alphas[from_:to]

            gradient_batch = one_batch(baseline, image, alpha_batch, target_class_idx)
            # Write batch indices and gradients to extend TensorArray.
            gradient_batches = gradient_batches.scatter(tf.range(from_, to), gradient_batch)

        # Stack path gradients together row-wise into single tensor.
        total_gradients = gradient_batches.stack()

        # Integral approximation through averaging gradients.
        avg_gradients = integral_approximation(gradients=total_gradients)

        # Scale integrated gradients with respect to input.
        integrated_gradients = (image - baseline) * avg_gradients

        return integrated_gradients

    @tf.function
    def one_batch(baseline, image, alpha_batch, target_class_idx):
        # Generate interpolated inputs between baseline and input.
        interpolated_path_input_batch = interpolate_images(baseline=baseline,
                                                           image=image,
                                                           alphas=alpha_batch)

        # Compute gradients between model outputs and interpolated inputs.
        gradient_batch = compute_gradients(images=interpolated_path_input_batch,
                                           target_class_idx=target_class_idx)
        return gradient_batch

    interpolated = interpolate_images(baseline, image, alphas)
    path_gradients = compute_gradients(interpolated, 2)
    ig = integral_approximation(path_gradients)
    attributions = integrated_gradients(baseline=baseline, image=image,
                                        target_class_idx=2, m_steps=m_steps, batch_size=8)
    attribution_mask = tf.reduce_sum(tf.math.abs(attributions), axis=-1)
    return {"path_gradients": path_gradients, "ig": ig, "attributions": attributions,
            "mask": attribution_mask}
