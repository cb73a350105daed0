# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/model/autograph/main.py, ../mnist/cnn.py, ../utils.py)
# Adapted: MNISTLoader (utils.py) given 200 training and 50 test images of MNIST's shape
# and dtype (seeded NumPy uint8 28x28, labels 0-9) instead of tf.keras.datasets.mnist,
# and np.random seeded for get_batch's random batches; 4 batches instead of 1000; the CNN
# called once on one batch and its weights fixed from seeded NumPy (adapt.fixed_weights)
# instead of the random initializers; the script's body wrapped in main(), which returns
# the trained dense layers' weights and the loss of a last batch (tf.print's output, the
# script's only printed result besides the time, is not collected).
import tensorflow as tf
import time
import numpy as np
from adapt import fixed_weights


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
            (rng.integers(0, 256, size=(200, 28, 28)).astype(np.uint8), rng.integers(0, 10, size=200).astype(np.uint8)),
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


def main():
    np.random.seed(0)
    num_batches = 4
    batch_size = 50
    learning_rate = 0.001
    data_loader = MNISTLoader()
    model = CNN()
    model(data_loader.train_data[:1])
    fixed_weights(model.weights, seed=1, scale=0.05)
    optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)

    @tf.function
    def train_one_step(X, y):    
        with tf.GradientTape() as tape:
            y_pred = model(X)
            loss = tf.keras.losses.sparse_categorical_crossentropy(y_true=y, y_pred=y_pred)
            loss = tf.reduce_mean(loss)
            # 注意这里使用了TensorFlow内置的tf.print()。@tf.function不支持Python内置的print方法
            tf.print("loss", loss)
        grads = tape.gradient(loss, model.variables)    
        optimizer.apply_gradients(grads_and_vars=zip(grads, model.variables))

    start_time = time.time()
    for batch_index in range(num_batches):
        X, y = data_loader.get_batch(batch_size)
        train_one_step(X, y)
    end_time = time.time()
    print(end_time - start_time)
    X, y = data_loader.get_batch(batch_size)
    last_loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y_true=y, y_pred=model(X)))
    return {"last_loss": last_loss, "dense2_kernel": model.dense2.kernel.numpy(),
            "dense2_bias": model.dense2.bias.numpy(), "conv1_kernel": model.conv1.kernel.numpy()}
