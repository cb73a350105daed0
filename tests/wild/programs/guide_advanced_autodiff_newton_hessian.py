# After: https://www.tensorflow.org/guide/advanced_autodiff ("Example: Hessian": a
# Newton's method step on a two-layer model, using jacobian of a gradient, a flattened
# Hessian, tf.linalg.solve, and tf.split back into variable shapes)
# Adapted: seeded synthetic inputs and fixed starting weights.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


def main():
    x = tf.constant(data(0, 7, 5))
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
    layer1.build([None, 5])
    layer2.build([None, 8])
    fixed_weights(layer1.trainable_variables + layer2.trainable_variables)

    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            x1 = layer1(x)
            x2 = layer2(x1)
            loss = tf.reduce_mean(x2**2)
        g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)

    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])

    def imshow_zero_center(image, **kwargs):
        lim = tf.reduce_max(abs(image))
        return lim

    lim = imshow_zero_center(h_mat)
    eps = 1e-3
    eye_eps = tf.eye(h_mat.shape[0]) * eps
    # X(k+1) = X(k) - (∇²f(X(k)))^-1 @ ∇f(X(k))
    # h_mat = ∇²f(X(k))
    # g_vec = ∇f(X(k))
    update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    # Reshape the update and apply it to the variable.
    _ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
    return {"loss": loss, "g": g, "h_shape": list(h.shape), "lim": lim,
            "kernel_after": layer1.kernel}
