# After: https://keras.io/examples/vision/forwardforward/ (the tf.keras version: FFDense with
# its own normalization, a per-layer GradientTape loop of num_epochs steps and a shared Adam;
# FFNetwork with overlay_y_on_x (xla.dynamic_update_slice), predict_one_sample and
# predict through tf.map_fn, and train_step under @tf.function(jit_compile=True); compile
# with jit_compile=True and a Mean metric, fit, and the test accuracy)
# Adapted: 64 seeded synthetic 28x28 images to train (one batch of 64, as the example's one
# batch of 60000) and 16 to test instead of MNIST, the pixels the labels are written on left
# at zero as in MNIST's corner; 2 epochs instead of 250; the negative labels permuted by a
# fixed seeded permutation instead of tf.random.shuffle (whose draws differ between
# libraries); the FFDense layers called once on zeros to build them, then given fixed
# weights; the accuracy by NumPy instead of sklearn's accuracy_score (sklearn is not
# installed where the answers were recorded); the plots left out. For TensorFlow 2.21 itself:
# the layers' shared optimizer is keras.optimizers.legacy.Adam, as tf-keras's error says
# (its Adam refuses a second layer's variables: "The optimizer cannot recognize variable
# ff_dense_1/dense_1/kernel:0 ... use legacy optimizer tf.keras.optimizers.legacy.Adam").
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.compiler.tf2xla.python import xla
from adapt import data, fixed_weights, labels

NEGATIVE_ORDER = np.random.default_rng(7).permutation(64)


class FFDense(keras.layers.Layer):
    """
    A custom ForwardForward-enabled Dense layer. It has an implementation of the
    Forward-Forward network internally for use.
    This layer must be used in conjunction with the `FFNetwork` model.
    """

    def __init__(
        self,
        units,
        optimizer,
        loss_metric,
        num_epochs=50,
        use_bias=True,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        kernel_regularizer=None,
        bias_regularizer=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.dense = keras.layers.Dense(
            units=units,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
        )
        self.relu = keras.layers.ReLU()
        self.optimizer = optimizer
        self.loss_metric = loss_metric
        self.threshold = 1.5
        self.num_epochs = num_epochs

    # We perform a normalization step before we run the input through the Dense
    # layer.

    def call(self, x):
        x_norm = tf.norm(x, ord=2, axis=1, keepdims=True)
        x_norm = x_norm + 1e-4
        x_dir = x / x_norm
        res = self.dense(x_dir)
        return self.relu(res)

    def forward_forward(self, x_pos, x_neg):
        for i in range(self.num_epochs):
            with tf.GradientTape() as tape:
                g_pos = tf.math.reduce_mean(tf.math.pow(self.call(x_pos), 2), 1)
                g_neg = tf.math.reduce_mean(tf.math.pow(self.call(x_neg), 2), 1)

                loss = tf.math.log(
                    1
                    + tf.math.exp(
                        tf.concat([-g_pos + self.threshold, g_neg - self.threshold], 0)
                    )
                )
                mean_loss = tf.cast(tf.math.reduce_mean(loss), tf.float32)
                self.loss_metric.update_state([mean_loss])
            gradients = tape.gradient(mean_loss, self.dense.trainable_weights)
            self.optimizer.apply_gradients(zip(gradients, self.dense.trainable_weights))
        return (
            tf.stop_gradient(self.call(x_pos)),
            tf.stop_gradient(self.call(x_neg)),
            self.loss_metric.result(),
        )


class FFNetwork(keras.Model):
    """
    A `keras.Model` that supports a `FFDense` network creation. This model
    can work for any kind of classification task. It has an internal
    implementation with some details specific to the MNIST dataset which can be
    changed as per the use-case.
    """

    def __init__(
        self, dims, layer_optimizer=keras.optimizers.legacy.Adam(learning_rate=0.03), **kwargs
    ):
        super().__init__(**kwargs)
        self.layer_optimizer = layer_optimizer
        self.loss_var = tf.Variable(0.0, trainable=False, dtype=tf.float32)
        self.loss_count = tf.Variable(0.0, trainable=False, dtype=tf.float32)
        self.layer_list = [keras.Input(shape=(dims[0],))]
        for d in range(len(dims) - 1):
            self.layer_list += [
                FFDense(
                    dims[d + 1],
                    optimizer=self.layer_optimizer,
                    loss_metric=keras.metrics.Mean(),
                )
            ]

    @tf.function(reduce_retracing=True)
    def overlay_y_on_x(self, data):
        X_sample, y_sample = data
        max_sample = tf.reduce_max(X_sample, axis=0, keepdims=True)
        max_sample = tf.cast(max_sample, dtype=tf.float64)
        X_zeros = tf.zeros([10], dtype=tf.float64)
        X_update = xla.dynamic_update_slice(X_zeros, max_sample, [y_sample])
        X_sample = xla.dynamic_update_slice(X_sample, X_update, [0])
        return X_sample, y_sample

    @tf.function(reduce_retracing=True)
    def predict_one_sample(self, x):
        goodness_per_label = []
        x = tf.reshape(x, [tf.shape(x)[0] * tf.shape(x)[1]])
        for label in range(10):
            h, label = self.overlay_y_on_x(data=(x, label))
            h = tf.reshape(h, [-1, tf.shape(h)[0]])
            goodness = []
            for layer_idx in range(1, len(self.layer_list)):
                layer = self.layer_list[layer_idx]
                h = layer(h)
                goodness += [tf.math.reduce_mean(tf.math.pow(h, 2), 1)]
            goodness_per_label += [
                tf.expand_dims(tf.reduce_sum(goodness, keepdims=True), 1)
            ]
        goodness_per_label = tf.concat(goodness_per_label, 1)
        return tf.cast(tf.argmax(goodness_per_label, 1), tf.float64)

    def predict(self, data):
        x = data
        preds = list()
        preds = tf.map_fn(fn=self.predict_one_sample, elems=x)
        return np.asarray(preds, dtype=int)

    @tf.function(jit_compile=True)
    def train_step(self, data):
        x, y = data

        # Flatten op
        x = tf.reshape(x, [-1, tf.shape(x)[1] * tf.shape(x)[2]])

        x_pos, y = tf.map_fn(fn=self.overlay_y_on_x, elems=(x, y))

        random_y = tf.gather(y, NEGATIVE_ORDER)
        x_neg, y = tf.map_fn(fn=self.overlay_y_on_x, elems=(x, random_y))

        h_pos, h_neg = x_pos, x_neg

        for idx, layer in enumerate(self.layers):
            if isinstance(layer, FFDense):
                print(f"Training layer {idx+1} now : ")
                h_pos, h_neg, loss = layer.forward_forward(h_pos, h_neg)
                self.loss_var.assign_add(loss)
                self.loss_count.assign_add(1.0)
            else:
                print(f"Passing layer {idx+1} now : ")
                x = layer(x)
        mean_res = tf.math.divide(self.loss_var, self.loss_count)
        return {"FinalLoss": mean_res}


def main():
    x_train = np.round(data(1, 64, 28, 28, low=0, high=255)).astype(np.uint8)
    x_test = np.round(data(2, 16, 28, 28, low=0, high=255)).astype(np.uint8)
    x_train[:, 0, :10] = 0
    x_test[:, 0, :10] = 0
    y_train, y_test = labels(3, 64, 10), labels(4, 16, 10)

    x_train = x_train.astype(float) / 255
    x_test = x_test.astype(float) / 255
    y_train = y_train.astype(int)
    y_test = y_test.astype(int)

    train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
    test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test))

    train_dataset = train_dataset.batch(60000)
    test_dataset = test_dataset.batch(10000)

    model = FFNetwork(dims=[784, 500, 500])
    width = 784
    for layer in model.layer_list[1:]:
        layer(tf.zeros((1, width)))
        width = layer.dense.units
    fixed_weights(model.weights, seed=5, scale=0.08)

    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=0.03),
        loss="mse",
        jit_compile=True,
        metrics=[keras.metrics.Mean()],
    )

    epochs = 2
    history = model.fit(train_dataset, epochs=epochs)

    preds = model.predict(tf.convert_to_tensor(x_test))

    preds = preds.reshape((preds.shape[0], preds.shape[1]))

    results = np.mean(preds[:, 0] == y_test)

    print(f"Test Accuracy score : {results*100}%")
    return {"history": history.history, "preds": preds, "accuracy": results,
            "weights": [w[:4, :8] if len(w.shape) == 2 else w[:8] if len(w.shape) else w
                        for w in model.weights]}
