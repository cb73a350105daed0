# After: https://www.tensorflow.org/guide/keras/training_with_built_in_methods (custom losses:
# custom_mean_squared_error and CustomMSE; a custom metric CategoricalTruePositives;
# ActivityRegularizationLayer with add_loss; MetricLoggingLayer with add_metric; class_weight
# and sample_weight; a multi-input multi-output model with loss and loss_weights dicts;
# LearningRateScheduler is not used there, ExponentialDecay is)
# Adapted: seeded synthetic 784-pixel rows instead of MNIST and synthetic images/text for the
# multi-input model, 1-2 epochs of batch 16, fixed starting weights, shuffle=False.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels


def get_uncompiled_model():
    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(16, activation="relu", name="dense_1")(inputs)
    x = layers.Dense(16, activation="relu", name="dense_2")(x)
    outputs = layers.Dense(10, activation="softmax", name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    return model


def custom_mean_squared_error(y_true, y_pred):
    return tf.math.reduce_mean(tf.square(y_true - y_pred), axis=-1)


class CustomMSE(keras.losses.Loss):
    def __init__(self, regularization_factor=0.1, name="custom_mse"):
        super().__init__(name=name)
        self.regularization_factor = regularization_factor

    def call(self, y_true, y_pred):
        mse = tf.math.reduce_mean(tf.square(y_true - y_pred), axis=-1)
        reg = tf.math.reduce_mean(tf.square(0.5 - y_pred), axis=-1)
        return mse + reg * self.regularization_factor


class CategoricalTruePositives(keras.metrics.Metric):
    def __init__(self, name="categorical_true_positives", **kwargs):
        super(CategoricalTruePositives, self).__init__(name=name, **kwargs)
        self.true_positives = self.add_weight(name="ctp", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = tf.reshape(tf.argmax(y_pred, axis=1), shape=(-1, 1))
        values = tf.cast(y_true, "int32") == tf.cast(y_pred, "int32")
        values = tf.cast(values, "float32")
        if sample_weight is not None:
            sample_weight = tf.cast(sample_weight, "float32")
            values = tf.multiply(values, sample_weight)
        self.true_positives.assign_add(tf.reduce_sum(values))

    def result(self):
        return self.true_positives

    def reset_state(self):
        # The state of the metric will be reset at the start of each epoch.
        self.true_positives.assign(0.0)


class ActivityRegularizationLayer(layers.Layer):
    def call(self, inputs):
        self.add_loss(tf.reduce_sum(inputs) * 0.1)
        return inputs  # Pass-through layer.


class MetricLoggingLayer(layers.Layer):
    def call(self, inputs):
        # The `aggregation` argument defines
        # how to aggregate the per-batch values
        # over each epoch:
        # in this case we simply average them.
        self.add_metric(
            keras.backend.std(inputs), name="std_of_activation", aggregation="mean"
        )
        return inputs  # Pass-through layer.


def main():
    x_train = data(1, 48, 784, low=0.0, high=1.0)
    y_train = labels(2, 48, 10).astype("float32")
    out = {}

    model = get_uncompiled_model()
    fixed_weights(model.trainable_weights, seed=3, scale=0.1)
    model.compile(optimizer=keras.optimizers.Adam(), loss=custom_mean_squared_error)
    y_train_one_hot = tf.one_hot(y_train, depth=10)
    out["custom_fn"] = model.fit(x_train, y_train_one_hot, batch_size=16, epochs=1,
                                 shuffle=False, verbose=0).history

    model = get_uncompiled_model()
    fixed_weights(model.trainable_weights, seed=3, scale=0.1)
    model.compile(optimizer=keras.optimizers.Adam(), loss=CustomMSE())
    out["custom_cls"] = model.fit(x_train, y_train_one_hot, batch_size=16, epochs=1,
                                  shuffle=False, verbose=0).history

    model = get_uncompiled_model()
    fixed_weights(model.trainable_weights, seed=4, scale=0.1)
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(),
        metrics=[CategoricalTruePositives()],
    )
    out["ctp"] = model.fit(x_train, y_train, batch_size=16, epochs=2, shuffle=False,
                           verbose=0).history

    inputs = keras.Input(shape=(784,), name="digits")
    x = layers.Dense(16, activation="relu", name="dense_1")(inputs)
    # Insert activity regularization as a layer
    x = ActivityRegularizationLayer()(x)
    x = layers.Dense(16, activation="relu", name="dense_2")(x)
    x = MetricLoggingLayer()(x)
    outputs = layers.Dense(10, name="predictions")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    fixed_weights(model.trainable_weights, seed=5, scale=0.1)
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    out["act_reg"] = model.fit(x_train, y_train, batch_size=16, epochs=1, shuffle=False,
                               verbose=0).history

    class_weight = {
        0: 1.0, 1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0,
        # Set weight "2" for class "5",
        # making this class 2x more important
        5: 2.0,
        6: 1.0, 7: 1.0, 8: 1.0, 9: 1.0,
    }
    model = get_uncompiled_model()
    fixed_weights(model.trainable_weights, seed=6, scale=0.1)
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    out["class_weight"] = model.fit(x_train, y_train, class_weight=class_weight,
                                    batch_size=16, epochs=1, shuffle=False, verbose=0).history
    sample_weight = np.ones(shape=(len(y_train),))
    sample_weight[y_train == 5] = 2.0
    model = get_uncompiled_model()
    fixed_weights(model.trainable_weights, seed=6, scale=0.1)
    model.compile(optimizer="rmsprop", loss="sparse_categorical_crossentropy",
                  metrics=["sparse_categorical_accuracy"])
    out["sample_weight"] = model.fit(x_train, y_train, sample_weight=sample_weight,
                                     batch_size=16, epochs=1, shuffle=False, verbose=0).history

    image_input = keras.Input(shape=(8, 8, 3), name="img_input")
    timeseries_input = keras.Input(shape=(None, 10), name="ts_input")
    x1 = layers.Conv2D(3, 3)(image_input)
    x1 = layers.GlobalMaxPooling2D()(x1)
    x2 = layers.Conv1D(3, 3)(timeseries_input)
    x2 = layers.GlobalMaxPooling1D()(x2)
    x = layers.concatenate([x1, x2])
    score_output = layers.Dense(1, name="score_output")(x)
    class_output = layers.Dense(5, name="class_output")(x)
    model = keras.Model(inputs=[image_input, timeseries_input], outputs=[score_output, class_output])
    fixed_weights(model.trainable_weights, seed=7, scale=0.3)
    initial_learning_rate = 0.1
    lr_schedule = keras.optimizers.schedules.ExponentialDecay(
        initial_learning_rate, decay_steps=2, decay_rate=0.96, staircase=True
    )
    model.compile(
        optimizer=keras.optimizers.RMSprop(learning_rate=lr_schedule),
        loss={
            "score_output": keras.losses.MeanSquaredError(),
            "class_output": keras.losses.CategoricalCrossentropy(),
        },
        metrics={
            "score_output": [
                keras.metrics.MeanAbsolutePercentageError(),
                keras.metrics.MeanAbsoluteError(),
            ],
            "class_output": [keras.metrics.CategoricalAccuracy()],
        },
        loss_weights={"score_output": 2.0, "class_output": 1.0},
    )
    img_data = data(8, 12, 8, 8, 3)
    ts_data = data(9, 12, 6, 10)
    score_targets = data(10, 12, 1)
    class_targets = data(11, 12, 5, low=0.0, high=1.0)
    out["multi"] = model.fit(
        {"img_input": img_data, "ts_input": ts_data},
        {"score_output": score_targets, "class_output": class_targets},
        batch_size=4, epochs=1, shuffle=False, verbose=0).history
    return out
