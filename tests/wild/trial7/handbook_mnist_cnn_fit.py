# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/model/mnist/main.py, cnn.py, ../utils.py)
# Adapted: main.py run with model = 'CNN' and training_loop = 'keras' once for each of its
# three modes ('sequential', 'functional', 'subclassing'; the TensorFlow 1 'graph' branch,
# not taken, left out), its body wrapped in main(); MNISTLoader given 50 training and 50
# test images of MNIST's shape and dtype (seeded NumPy uint8 28x28, labels 0-9) instead of
# tf.keras.datasets.mnist, so that fit's data is one batch of 50 and its shuffle decides
# nothing; 2 epochs instead of 5; each model called once on one image and its weights
# fixed from seeded NumPy (adapt.fixed_weights) instead of the random initializers;
# main() returns, for each mode, fit's history and the printed evaluation.
import tensorflow as tf
import numpy as np
from adapt import fixed_weights

num_epochs = 2
batch_size = 50
learning_rate = 0.001


# cnn.py
class CNN(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = tf.keras.layers.Conv2D(
            filters=32,             # 卷积层神经元（卷积核）数目
            kernel_size=[5, 5],     # 感受野大小
            padding='same',         # padding策略（vaild 或 same）
            activation=tf.nn.relu   # 激活函数
        )
        self.pool1 = tf.keras.layers.MaxPool2D(pool_size=[2, 2], strides=2)
        self.conv2 = tf.keras.layers.Conv2D(
            filters=64,
            kernel_size=[5, 5],
            padding='same',
            activation=tf.nn.relu
        )
        self.pool2 = tf.keras.layers.MaxPool2D(pool_size=[2, 2], strides=2)
        self.flatten = tf.keras.layers.Reshape(target_shape=(7 * 7 * 64,))
        self.dense1 = tf.keras.layers.Dense(units=1024, activation=tf.nn.relu)
        self.dense2 = tf.keras.layers.Dense(units=10)

    def call(self, inputs):
        x = self.conv1(inputs)                  # [batch_size, 28, 28, 32]
        x = self.pool1(x)                       # [batch_size, 14, 14, 32]
        x = self.conv2(x)                       # [batch_size, 14, 14, 64]
        x = self.pool2(x)                       # [batch_size, 7, 7, 64]
        x = self.flatten(x)                     # [batch_size, 7 * 7 * 64]
        x = self.dense1(x)                      # [batch_size, 1024]
        x = self.dense2(x)                      # [batch_size, 10]
        output = tf.nn.softmax(x)
        return output


# utils.py
class MNISTLoader():
    def __init__(self):
        rng = np.random.default_rng(0)
        (self.train_data, self.train_label), (self.test_data, self.test_label) = (
            (rng.integers(0, 256, size=(50, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=50).astype(np.uint8)),
            (rng.integers(0, 256, size=(50, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=50).astype(np.uint8)))
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


def run(model, mode, training_loop):
    if model == 'CNN':
        if mode == 'sequential':
            model = tf.keras.models.Sequential([
                tf.keras.layers.Conv2D(
                    filters=32,             # 卷积核数目
                    kernel_size=[5, 5],     # 感受野大小
                    padding="same",         # padding策略
                    activation=tf.nn.relu   # 激活函数
                ),
                tf.keras.layers.MaxPool2D(pool_size=[2, 2], strides=2),
                tf.keras.layers.Conv2D(
                    filters=64,
                    kernel_size=[5, 5],
                    padding="same",
                    activation=tf.nn.relu
                ),
                tf.keras.layers.MaxPool2D(pool_size=[2, 2], strides=2),
                tf.keras.layers.Reshape(target_shape=(7 * 7 * 64,)),
                tf.keras.layers.Dense(units=1024, activation=tf.nn.relu),
                tf.keras.layers.Dense(units=10),
                tf.keras.layers.Softmax()
            ])
        if mode == 'functional':
            inputs = tf.keras.Input(shape=(28, 28, 1))
            x = tf.keras.layers.Conv2D(
                filters=32,             # 卷积核数目
                kernel_size=[5, 5],     # 感受野大小
                padding="same",         # padding策略
                activation=tf.nn.relu   # 激活函数
            )(inputs)
            x = tf.keras.layers.MaxPool2D(pool_size=[2, 2], strides=2)(x)
            x = tf.keras.layers.Conv2D(
                filters=64,
                kernel_size=[5, 5],
                padding="same",
                activation=tf.nn.relu
            )(x)
            x = tf.keras.layers.MaxPool2D(pool_size=[2, 2], strides=2)(x)
            x = tf.keras.layers.Reshape(target_shape=(7 * 7 * 64,))(x)
            x = tf.keras.layers.Dense(units=1024, activation=tf.nn.relu)(x)
            x = tf.keras.layers.Dense(units=10)(x)
            outputs = tf.keras.layers.Softmax()(x)
            model = tf.keras.Model(inputs=inputs, outputs=outputs)
        if mode == 'subclassing':
            model = CNN()

    data_loader = MNISTLoader()
    model(data_loader.train_data[:1])
    fixed_weights(model.weights, seed=1, scale=0.05)
    if training_loop == 'keras':
        model.compile(
            optimizer=tf.keras.optimizers.Adam(learning_rate=0.001),
            loss=tf.keras.losses.sparse_categorical_crossentropy,
            metrics=[tf.keras.metrics.sparse_categorical_accuracy]
        )
        history = model.fit(data_loader.train_data, data_loader.train_label, epochs=num_epochs, batch_size=batch_size)
        evaluation = model.evaluate(data_loader.test_data, data_loader.test_label)
        print(evaluation)
        return {"history": history.history, "evaluate": evaluation}


def main():
    out = {}
    for mode in ['sequential', 'functional', 'subclassing']:
        out[mode] = run('CNN', mode, 'keras')
    return out
