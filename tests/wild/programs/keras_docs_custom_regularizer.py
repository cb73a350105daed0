# After: https://keras.io/api/layers/regularizers/ ("Creating custom regularizers": a plain
# function my_regularizer and a Regularizer subclass MyRegularizer with get_config; the
# kernel/bias/activity regularizers of a Dense layer; layer.losses) and
# https://keras.io/api/layers/constraints/ (MaxNorm, NonNeg kernel constraints), tf.keras
# Adapted: a small model with fixed weights fitted for 2 epochs on 24 seeded synthetic rows.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights


def my_regularizer(x):
    return 1e-3 * tf.reduce_sum(tf.square(x))


class MyRegularizer(keras.regularizers.Regularizer):

    def __init__(self, strength):
        self.strength = strength

    def __call__(self, x):
        return self.strength * tf.reduce_sum(tf.square(x))

    def get_config(self):
        return {'strength': self.strength}


def main():
    layer = layers.Dense(
        units=4,
        kernel_regularizer=keras.regularizers.L1L2(l1=1e-5, l2=1e-4),
        bias_regularizer=keras.regularizers.L2(1e-4),
        activity_regularizer=keras.regularizers.L2(1e-5)
    )
    tensor = tf.ones(shape=(5, 5)) * 2.0
    out = layer(tensor)
    fixed_weights(layer.trainable_weights, seed=1)
    out = layer(tensor)
    # The kernel regularization term is 0.25
    # The activity regularization term (after dividing by the batch size) is 5
    first_losses = [float(tf.math.reduce_sum(l)) for l in layer.losses]

    model = keras.Sequential([
        keras.Input(shape=(6,)),
        layers.Dense(8, activation="relu", kernel_regularizer=my_regularizer,
                     kernel_constraint=keras.constraints.MaxNorm(0.5)),
        layers.Dense(8, activation="relu", kernel_regularizer=MyRegularizer(0.01),
                     kernel_constraint=keras.constraints.NonNeg()),
        layers.Dense(1, bias_regularizer=keras.regularizers.l1(0.01)),
    ])
    fixed_weights(model.trainable_weights, seed=2, scale=0.4)
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    x = data(3, 24, 6)
    y = x[:, :1] * 2.0 - x[:, 1:2]
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    config = model.layers[1].kernel_regularizer.get_config()
    return {"first_losses": first_losses, "history": history.history,
            "losses": model.losses, "config": config,
            "min_second": tf.reduce_min(model.layers[1].kernel),
            "norms": tf.sqrt(tf.reduce_sum(tf.square(model.layers[0].kernel), axis=0))}
