# After: https://github.com/DionHelix/Tarea-3---EDO ("dy^2 + y, y(0)=1, y'(0) = -0.5.py": an
# ODEsolver subclass of Sequential with a Mean loss tracker, the metrics property, and a
# train_step whose three nested GradientTapes give y'' for the residual y'' + y and the
# initial conditions; compile(optimizer=Adam(), metrics=['loss']), fit on tf.linspace
# without targets, predict)
# Adapted: 3 epochs instead of 500; fixed weights; the collocation points come from seeded
# NumPy instead of tf.random.uniform (whose stream differs between libraries), with
# run_eagerly=True so fit draws them at every step in both libraries; the plots left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras.models import Sequential
from tensorflow.keras.layers import Dense, Dropout
from tensorflow.keras.optimizers import RMSprop, Adam
from adapt import fixed_weights

RNG = np.random.default_rng(5)


class ODEsolver(Sequential):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.loss_tracker = keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return[self.loss_tracker]

    def train_step(self, data):
        batch_size = tf.shape(data)[0]
        x = tf.constant(RNG.uniform(-5, 5, size=(int(batch_size), 1)).astype("float32"))

        with tf.GradientTape() as tape:
            with tf.GradientTape() as tape2:
                tape2.watch(x)
                with tf.GradientTape() as tape3:
                    tape3.watch(x)
                    y_pred = self(x, training=True)
                dy = tape3.gradient(y_pred, x)
            dy2 = tape2.gradient(dy, x)
            x_0 = tf.zeros((batch_size), 1)
            y_0 = self(x_0, training=True)
            y_0_prima = self(x_0, training=True)
            eq = dy2 + y_pred
            ic = y_0 - 1
            ic_prima = y_0_prima + 0.5
            loss = keras.losses.mean_squared_error(0., eq) + keras.losses.mean_squared_error(0., ic) + keras.losses.mean_squared_error(0., ic_prima)

        grads =  tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}


def main():
    model = ODEsolver()

    model.add(Dense(10, activation='sigmoid', input_shape=(1,)))
    model.add(Dense(10, activation='tanh'))
    model.add(Dense(10, activation='tanh'))
    model.add(Dense(10, activation='tanh'))
    model.add(Dense(10, activation='tanh'))
    model.add(Dense(1, activation='linear'))

    model.summary()
    fixed_weights(model.trainable_variables, seed=2, scale=0.5)

    model.compile(optimizer=Adam(), metrics=['loss'], run_eagerly=True)
    x=tf.linspace(-5, 5, 100)
    history = model.fit(x, epochs=3, verbose = 1)

    x_testv = tf.linspace(-5, 5, 100)
    a=model.predict(x_testv)
    return {"history": history.history, "a": a[::10]}
