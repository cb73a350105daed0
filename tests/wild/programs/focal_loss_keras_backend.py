# After: https://github.com/umbertogriffo/focal-loss-keras (src/loss_function/losses.py:
# binary_focal_loss and categorical_focal_loss written with tensorflow.keras.backend: K.epsilon,
# K.clip, K.pow, K.log, K.mean, K.sum, tf.where), used as a compile loss
# Adapted: small Dense classifiers with fixed weights on 32 seeded synthetic rows, 2 epochs.
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from adapt import data, fixed_weights, labels


def binary_focal_loss(gamma=2., alpha=.25):
    """
    Binary form of focal loss.
      FL(p_t) = -alpha * (1 - p_t)**gamma * log(p_t)
      where p = sigmoid(x), p_t = p or 1 - p depending on if the label is 1 or 0, respectively.
    References:
        https://arxiv.org/pdf/1708.02002.pdf
    Usage:
     model.compile(loss=[binary_focal_loss(alpha=.25, gamma=2)], metrics=["accuracy"], optimizer=adam)
    """

    def binary_focal_loss_fixed(y_true, y_pred):
        """
        :param y_true: A tensor of the same shape as `y_pred`
        :param y_pred:  A tensor resulting from a sigmoid
        :return: Output tensor.
        """
        y_true = tf.cast(y_true, tf.float32)
        # Define epsilon so that the back-propagation will not result in NaN for 0 divisor case
        epsilon = K.epsilon()
        # Add the epsilon to prediction value
        # y_pred = y_pred + epsilon
        # Clip the prediciton value
        y_pred = K.clip(y_pred, epsilon, 1.0 - epsilon)
        # Calculate p_t
        p_t = tf.where(K.equal(y_true, 1), y_pred, 1 - y_pred)
        # Calculate alpha_t
        alpha_factor = K.ones_like(y_true) * alpha
        alpha_t = tf.where(K.equal(y_true, 1), alpha_factor, 1 - alpha_factor)
        # Calculate cross entropy
        cross_entropy = -K.log(p_t)
        weight = alpha_t * K.pow((1 - p_t), gamma)
        # Calculate focal loss
        loss = weight * cross_entropy
        # Sum the losses in mini_batch
        loss = K.mean(K.sum(loss, axis=1))
        return loss

    return binary_focal_loss_fixed


def categorical_focal_loss(alpha, gamma=2.):
    """
    Softmax version of focal loss.
    When there is a skew between different categories/labels in your data set, you can try to apply this function as a
    loss.
           m
      FL = ∑  -alpha * (1 - p_o,c)^gamma * y_o,c * log(p_o,c)
          c=1

      where m = number of classes, c = class and o = observation

    Usage:
     model.compile(loss=[categorical_focal_loss(alpha=[[.25, .25, .25]], gamma=2)], metrics=["accuracy"], optimizer=adam)
    """

    alpha = np.array(alpha, dtype=np.float32)

    def categorical_focal_loss_fixed(y_true, y_pred):
        """
        :param y_true: A tensor of the same shape as `y_pred`
        :param y_pred: A tensor resulting from a softmax
        :return: Output tensor.
        """

        # Clip the prediction value to prevent NaN's and Inf's
        epsilon = K.epsilon()
        y_pred = K.clip(y_pred, epsilon, 1. - epsilon)

        # Calculate Cross Entropy
        cross_entropy = -y_true * K.log(y_pred)

        # Calculate Focal Loss
        loss = alpha * K.pow(1 - y_pred, gamma) * cross_entropy

        # Compute mean loss in mini_batch
        return K.mean(K.sum(loss, axis=-1))

    return categorical_focal_loss_fixed


def main():
    x = data(1, 32, 6)
    y_bin = (x[:, :2] > 0).astype(np.int32)
    y_cat = tf.one_hot(labels(2, 32, 3), 3)
    binary = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(6,)),
                                  tf.keras.layers.Dense(2, activation="sigmoid")])
    fixed_weights(binary.trainable_variables, seed=3, scale=0.5)
    binary.compile(loss=[binary_focal_loss(alpha=.25, gamma=2)], metrics=["accuracy"],
                   optimizer=tf.keras.optimizers.Adam(0.01))
    h1 = binary.fit(x, y_bin, batch_size=8, epochs=2, shuffle=False, verbose=0)

    cat = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(6,)),
                               tf.keras.layers.Dense(3, activation="softmax")])
    fixed_weights(cat.trainable_variables, seed=4, scale=0.5)
    cat.compile(loss=[categorical_focal_loss(alpha=[[.25, .25, .25]], gamma=2)],
                metrics=["accuracy"], optimizer=tf.keras.optimizers.Adam(0.01))
    h2 = cat.fit(x, y_cat, batch_size=8, epochs=2, shuffle=False, verbose=0)
    direct = binary_focal_loss()(tf.constant([[1, 0]]), tf.constant([[0.9, 1.0]]))
    return {"binary": h1.history, "categorical": h2.history, "direct": direct,
            "kernel": binary.trainable_variables[-2]}
