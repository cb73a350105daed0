# After: https://www.tensorflow.org/guide/keras/writing_your_own_callbacks (get_model,
# CustomCallback hooks, LossAndErrorPrintingCallback, EarlyStoppingAtMinLoss with
# get_weights/set_weights and stop_training, CustomLearningRateScheduler with LR_SCHEDULE)
# Adapted: 64 seeded synthetic 784-pixel rows instead of MNIST, batch 16, a few epochs; fixed
# starting weights; the printing callbacks also append what they print to a list.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights

LOG = []


# Define the Keras model to add callbacks to
def get_model():
    model = keras.Sequential()
    model.add(keras.layers.Dense(1, input_dim=784))
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=0.1),
        loss="mean_squared_error",
        metrics=["mean_absolute_error"],
    )
    return model


class CustomCallback(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        keys = list(logs.keys())
        LOG.append("Starting training; got log keys: {}".format(keys))

    def on_epoch_begin(self, epoch, logs=None):
        keys = list(logs.keys())
        LOG.append("Start epoch {} of training; got log keys: {}".format(epoch, keys))

    def on_epoch_end(self, epoch, logs=None):
        keys = list(logs.keys())
        LOG.append("End epoch {} of training; got log keys: {}".format(epoch, keys))

    def on_test_begin(self, logs=None):
        keys = list(logs.keys())
        LOG.append("Start testing; got log keys: {}".format(keys))

    def on_predict_end(self, logs=None):
        keys = list(logs.keys())
        LOG.append("Stop predicting; got log keys: {}".format(keys))

    def on_train_batch_end(self, batch, logs=None):
        keys = list(logs.keys())
        LOG.append("...Training: end of batch {}; got log keys: {}".format(batch, keys))


class LossAndErrorPrintingCallback(keras.callbacks.Callback):
    def on_train_batch_end(self, batch, logs=None):
        LOG.append(round(logs["loss"], 3))

    def on_test_batch_end(self, batch, logs=None):
        LOG.append(round(logs["loss"], 3))

    def on_epoch_end(self, epoch, logs=None):
        LOG.append([epoch, round(logs["loss"], 2), round(logs["mean_absolute_error"], 2)])


class EarlyStoppingAtMinLoss(keras.callbacks.Callback):
    """Stop training when the loss is at its min, i.e. the loss stops decreasing.

  Arguments:
      patience: Number of epochs to wait after min has been hit. After this
      number of no improvement, training stops.
  """

    def __init__(self, patience=0):
        super().__init__()
        self.patience = patience
        # best_weights to store the weights at which the minimum loss occurs.
        self.best_weights = None

    def on_train_begin(self, logs=None):
        # The number of epoch it has waited when loss is no longer minimum.
        self.wait = 0
        # The epoch the training stops at.
        self.stopped_epoch = 0
        # Initialize the best as infinity.
        self.best = np.inf

    def on_epoch_end(self, epoch, logs=None):
        current = logs.get("loss")
        if np.less(current, self.best):
            self.best = current
            self.wait = 0
            # Record the best weights if current results is better (less).
            self.best_weights = self.model.get_weights()
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = epoch
                self.model.stop_training = True
                LOG.append("Restoring model weights from the end of the best epoch.")
                self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0:
            LOG.append("Epoch %05d: early stopping" % (self.stopped_epoch + 1))


class CustomLearningRateScheduler(keras.callbacks.Callback):
    """Learning rate scheduler which sets the learning rate according to schedule.

  Arguments:
      schedule: a function that takes an epoch index
          (integer, indexed from 0) and current learning rate
          as inputs and returns a new learning rate as output (float).
  """

    def __init__(self, schedule):
        super().__init__()
        self.schedule = schedule

    def on_epoch_begin(self, epoch, logs=None):
        if not hasattr(self.model.optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        # Get the current learning rate from model's optimizer.
        lr = self.model.optimizer.learning_rate
        # Call schedule function to get the scheduled learning rate.
        scheduled_lr = self.schedule(epoch, lr)
        # Set the value back to the optimizer before this epoch starts
        self.model.optimizer.learning_rate = scheduled_lr
        LOG.append(["lr", epoch, float(np.array(scheduled_lr))])


LR_SCHEDULE = [
    # (epoch to start, learning rate) tuples
    (3, 0.05),
    (6, 0.01),
    (9, 0.005),
    (12, 0.001),
]


def lr_schedule(epoch, lr):
    """Helper function to retrieve the scheduled learning rate based on epoch."""
    if epoch < LR_SCHEDULE[0][0] or epoch > LR_SCHEDULE[-1][0]:
        return lr
    for i in range(len(LR_SCHEDULE)):
        if epoch == LR_SCHEDULE[i][0]:
            return LR_SCHEDULE[i][1]
    return lr


def main():
    x_train = data(1, 64, 784, low=0.0, high=1.0)
    y_train = data(2, 64, low=0.0, high=9.0).round()
    x_test, y_test = x_train[:32], y_train[:32]

    model = get_model()
    fixed_weights(model.trainable_weights, seed=3, scale=0.02)
    model.fit(x_train, y_train, batch_size=16, epochs=1, verbose=0, validation_split=0.5,
              shuffle=False,
              callbacks=[CustomCallback()])
    res = model.evaluate(x_test, y_test, batch_size=16, verbose=0, callbacks=[CustomCallback()])
    res_pred = model.predict(x_test, batch_size=16, callbacks=[CustomCallback()], verbose=0)

    model = get_model()
    fixed_weights(model.trainable_weights, seed=4, scale=0.02)
    model.fit(x_train, y_train, batch_size=16, epochs=2, verbose=0, shuffle=False,
              callbacks=[LossAndErrorPrintingCallback()])
    res2 = model.evaluate(x_test, y_test, batch_size=16, verbose=0,
                          callbacks=[LossAndErrorPrintingCallback()])

    model = get_model()
    fixed_weights(model.trainable_weights, seed=5, scale=0.02)
    model.fit(x_train, y_train, batch_size=16, steps_per_epoch=2, epochs=8, verbose=0,
              shuffle=False, callbacks=[LossAndErrorPrintingCallback(), EarlyStoppingAtMinLoss()])

    model = get_model()
    fixed_weights(model.trainable_weights, seed=6, scale=0.02)
    model.fit(x_train, y_train, batch_size=16, steps_per_epoch=2, epochs=8, verbose=0,
              shuffle=False, callbacks=[LossAndErrorPrintingCallback(),
                                        CustomLearningRateScheduler(lr_schedule)])
    return {"log": LOG, "res": res, "res_pred": res_pred[:4], "res2": res2,
            "final_kernel_sum": tf.reduce_sum(model.weights[0])}
