# After: https://github.com/cleverhans-lab/cleverhans (cleverhans/tf2/attacks/fast_gradient_method.py,
# projected_gradient_descent.py and cleverhans/tf2/utils.py: compute_gradient, optimize_linear, clip_eta)
# Adapted: a small Keras classifier with fixed weights and seeded synthetic inputs instead of
# a trained CIFAR-10 model; rand_init left off (its tf.random draw is not reproducible).
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights


def clip_eta(eta, norm, eps):
    if norm not in [np.inf, 1, 2]:
        raise ValueError("norm must be np.inf, 1, or 2.")
    axis = list(range(1, len(eta.get_shape())))
    avoid_zero_div = 1e-12
    if norm == np.inf:
        eta = tf.clip_by_value(eta, -eps, eps)
    else:
        if norm == 1:
            raise NotImplementedError("")
        elif norm == 2:
            norm = tf.sqrt(
                tf.maximum(
                    avoid_zero_div, tf.reduce_sum(tf.square(eta), axis, keepdims=True)
                )
            )
        factor = tf.minimum(1.0, tf.math.divide(eps, norm))
        eta = eta * factor
    return eta


@tf.function
def compute_gradient(model_fn, loss_fn, x, y, targeted):
    with tf.GradientTape() as g:
        g.watch(x)
        # Compute loss
        loss = loss_fn(labels=y, logits=model_fn(x))
        if (
            targeted
        ):  # attack is targeted, minimize loss of target label rather than maximize loss of correct label
            loss = -loss

    # Define gradient of loss wrt input
    grad = g.gradient(loss, x)
    return grad


def optimize_linear(grad, eps, norm=np.inf):
    axis = list(range(1, len(grad.get_shape())))
    avoid_zero_div = 1e-12
    if norm == np.inf:
        optimal_perturbation = tf.sign(grad)
        optimal_perturbation = tf.stop_gradient(optimal_perturbation)
    elif norm == 1:
        abs_grad = tf.abs(grad)
        sign = tf.sign(grad)
        max_abs_grad = tf.reduce_max(abs_grad, axis, keepdims=True)
        tied_for_max = tf.dtypes.cast(
            tf.equal(abs_grad, max_abs_grad), dtype=tf.float32
        )
        num_ties = tf.reduce_sum(tied_for_max, axis, keepdims=True)
        optimal_perturbation = sign * tied_for_max / num_ties
    elif norm == 2:
        square = tf.maximum(
            avoid_zero_div, tf.reduce_sum(tf.square(grad), axis, keepdims=True)
        )
        optimal_perturbation = grad / tf.sqrt(square)
    else:
        raise NotImplementedError(
            "Only L-inf, L1 and L2 norms are currently implemented."
        )
    scaled_perturbation = tf.multiply(eps, optimal_perturbation)
    return scaled_perturbation


def fast_gradient_method(model_fn, x, eps, norm, loss_fn=None, clip_min=None,
                         clip_max=None, y=None, targeted=False, sanity_checks=False):
    if norm not in [np.inf, 1, 2]:
        raise ValueError("Norm order must be either np.inf, 1, or 2.")
    if loss_fn is None:
        loss_fn = tf.nn.sparse_softmax_cross_entropy_with_logits
    asserts = []
    if clip_min is not None:
        asserts.append(tf.math.greater_equal(x, clip_min))
    if clip_max is not None:
        asserts.append(tf.math.less_equal(x, clip_max))
    if y is None:
        # Using model predictions as ground truth to avoid label leaking
        y = tf.argmax(model_fn(x), 1)
    grad = compute_gradient(model_fn, loss_fn, x, y, targeted)
    optimal_perturbation = optimize_linear(grad, eps, norm)
    adv_x = x + optimal_perturbation
    if (clip_min is not None) or (clip_max is not None):
        assert clip_min is not None and clip_max is not None
        adv_x = tf.clip_by_value(adv_x, clip_min, clip_max)
    if sanity_checks:
        assert np.all(asserts)
    return adv_x


def projected_gradient_descent(model_fn, x, eps, eps_iter, nb_iter, norm, loss_fn=None,
                               clip_min=None, clip_max=None, y=None, targeted=False,
                               rand_init=None, rand_minmax=None, sanity_checks=False):
    assert eps_iter <= eps, (eps_iter, eps)
    if norm not in [np.inf, 2]:
        raise ValueError("Norm order must be either np.inf or 2.")
    if loss_fn is None:
        loss_fn = tf.nn.sparse_softmax_cross_entropy_with_logits
    asserts = []
    if clip_min is not None:
        asserts.append(tf.math.greater_equal(x, clip_min))
    if clip_max is not None:
        asserts.append(tf.math.less_equal(x, clip_max))
    if rand_minmax is None:
        rand_minmax = eps
    eta = tf.zeros_like(x)
    eta = clip_eta(eta, norm, eps)
    adv_x = x + eta
    if clip_min is not None or clip_max is not None:
        adv_x = tf.clip_by_value(adv_x, clip_min, clip_max)
    if y is None:
        y = tf.argmax(model_fn(x), 1)
    i = 0
    while i < nb_iter:
        adv_x = fast_gradient_method(model_fn, adv_x, eps_iter, norm, loss_fn, clip_min=clip_min,
                                     clip_max=clip_max, y=y, targeted=targeted)
        eta = adv_x - x
        eta = clip_eta(eta, norm, eps)
        adv_x = x + eta
        if clip_min is not None or clip_max is not None:
            adv_x = tf.clip_by_value(adv_x, clip_min, clip_max)
        i += 1
    asserts.append(eps_iter <= eps)
    if norm == np.inf and clip_min is not None:
        asserts.append(eps + clip_min <= clip_max)
    if sanity_checks:
        assert np.all(asserts)
    return adv_x


def main():
    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(4, 4, 1)),
        tf.keras.layers.Dense(12, activation="relu"),
        tf.keras.layers.Dense(5),
    ])
    fixed_weights(model.trainable_variables, seed=3, scale=0.5)
    x = tf.constant(data(4, 6, 4, 4, 1, low=0.0, high=1.0))
    x_fgm = fast_gradient_method(model, x, 0.3, np.inf)
    x_fgm2 = fast_gradient_method(model, x, 0.3, 2, clip_min=0.0, clip_max=1.0)
    x_fgm1 = fast_gradient_method(model, x, 0.3, 1)
    x_pgd = projected_gradient_descent(model, x, 0.3, 0.01, 10, np.inf, clip_min=0.0,
                                       clip_max=1.0)
    x_pgd2 = projected_gradient_descent(model, x, 0.5, 0.1, 5, 2,
                                        y=tf.constant([1, 2, 3, 4, 0, 1], tf.int64),
                                        targeted=True)
    return {"fgm_inf": x_fgm, "fgm_l2": x_fgm2, "fgm_l1": x_fgm1, "pgd_inf": x_pgd,
            "pgd_l2": x_pgd2, "pred_clean": tf.argmax(model(x), 1),
            "pred_adv": tf.argmax(model(x_pgd), 1)}
