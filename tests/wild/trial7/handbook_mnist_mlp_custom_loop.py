# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/model/mnist/main.py, mlp.py, ../utils.py)
# Adapted: main.py run with model = 'MLP', mode = 'subclassing', training_loop = 'custom'
# (its switches; the TensorFlow 1 'graph' branch, not taken, left out), its body wrapped in
# main(); MNISTLoader given 500 training and 100 test images of MNIST's shape and dtype
# (seeded NumPy uint8 28x28, labels 0-9) instead of tf.keras.datasets.mnist, and
# np.random seeded for get_batch's random batches; 1 epoch instead of 5 (10 batches of
# 50); the model called once on one batch and its weights fixed from seeded NumPy
# (adapt.fixed_weights) instead of the random initializers; main() returns every batch's
# printed loss, the printed test accuracy, the custom SparseCategoricalAccuracy metric of
# utils.py on the same predictions, and the trained weights (every
# 40th row of the first kernel, to keep the answers small).
import tensorflow as tf
import numpy as np
from adapt import fixed_weights

num_epochs = 1
batch_size = 50
learning_rate = 0.001


# mlp.py
class MLP(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.flatten = tf.keras.layers.Flatten()    # Flatten层将除第一维（batch_size）以外的维度展平
        self.dense1 = tf.keras.layers.Dense(units=100, activation=tf.nn.relu)
        self.dense2 = tf.keras.layers.Dense(units=10)

    def call(self, inputs):         # [batch_size, 28, 28, 1]
        x = self.flatten(inputs)    # [batch_size, 784]
        x = self.dense1(x)          # [batch_size, 100]
        x = self.dense2(x)          # [batch_size, 10]
        output = tf.nn.softmax(x)
        return output


# utils.py
class MNISTLoader():
    def __init__(self):
        rng = np.random.default_rng(0)
        (self.train_data, self.train_label), (self.test_data, self.test_label) = (
            (rng.integers(0, 256, size=(500, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=500).astype(np.uint8)),
            (rng.integers(0, 256, size=(100, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=100).astype(np.uint8)))
        # MNIST中的图像默认为uint8（0-255的数字）。以下代码将其归一化到0-1之间的浮点数，并在最后增加一维作为颜色通道
        self.train_data = np.expand_dims(self.train_data.astype(np.float32) / 255.0, axis=-1)      # [60000, 28, 28, 1]
        self.test_data = np.expand_dims(self.test_data.astype(np.float32) / 255.0, axis=-1)        # [10000, 28, 28, 1]
        self.train_label = self.train_label.astype(np.int32)    # [60000]
        self.test_label = self.test_label.astype(np.int32)      # [10000]
        self.num_train_data, self.num_test_data = self.train_data.shape[0], self.test_data.shape[0]

    def get_batch(self, batch_size):
        # 从数据集中随机取出batch_size个元素并返回
        index = np.random.randint(0, self.num_train_data, batch_size)
        return self.train_data[index, :], self.train_label[index]


class SparseCategoricalAccuracy(tf.keras.metrics.Metric):
    def __init__(self):
        super().__init__()
        self.total = self.add_weight(name='total', dtype=tf.int32, initializer=tf.zeros_initializer())
        self.count = self.add_weight(name='count', dtype=tf.int32, initializer=tf.zeros_initializer())

    def update_state(self, y_true, y_pred, sample_weight=None):
        values = tf.cast(tf.equal(y_true, tf.argmax(y_pred, axis=-1, output_type=tf.int32)), tf.int32)
        self.total.assign_add(tf.shape(y_true)[0])
        self.count.assign_add(tf.reduce_sum(values))

    def result(self):
        return self.count / self.total


def main():
    np.random.seed(0)
    model = MLP()

    data_loader = MNISTLoader()
    model(data_loader.train_data[:1])
    fixed_weights(model.weights, seed=1, scale=0.1)
    losses = []
    optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)
    num_batches = int(data_loader.num_train_data // batch_size * num_epochs)
    for batch_index in range(num_batches):
        X, y = data_loader.get_batch(batch_size)
        with tf.GradientTape() as tape:
            y_pred = model(X)
            loss = tf.keras.losses.sparse_categorical_crossentropy(y_true=y, y_pred=y_pred)
            loss = tf.reduce_mean(loss)
            print("batch %d: loss %f" % (batch_index, loss.numpy()))
            losses.append(loss.numpy())
        grads = tape.gradient(loss, model.variables)
        optimizer.apply_gradients(grads_and_vars=zip(grads, model.variables))

    sparse_categorical_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    custom_accuracy = SparseCategoricalAccuracy()
    num_batches = int(data_loader.num_test_data // batch_size)
    for batch_index in range(num_batches):
        start_index, end_index = batch_index * batch_size, (batch_index + 1) * batch_size
        y_pred = model.predict(data_loader.test_data[start_index: end_index])
        sparse_categorical_accuracy.update_state(y_true=data_loader.test_label[start_index: end_index], y_pred=y_pred)
        custom_accuracy.update_state(y_true=data_loader.test_label[start_index: end_index], y_pred=y_pred)
    print("test accuracy: %f" % sparse_categorical_accuracy.result())
    return {"losses": losses, "test_accuracy": sparse_categorical_accuracy.result(),
            "custom_accuracy": custom_accuracy.result(),
            "weights": [v.numpy()[::40] if v.shape[0] == 784 else v.numpy() for v in model.variables]}
