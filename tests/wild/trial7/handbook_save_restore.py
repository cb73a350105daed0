# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/tools/save_and_restore/mnist.py, ../../model/mnist/mlp.py, ../../model/utils.py)
# Adapted: the script run once with --mode train and once with --mode test (its argparse
# defaults given as a Namespace instead of read from the command line), both in main();
# MNISTLoader (utils.py) given 500 training and 100 test images of MNIST's shape and
# dtype (seeded NumPy uint8 28x28, labels 0-9) instead of tf.keras.datasets.mnist, and
# np.random seeded for get_batch's random batches; a checkpoint every 5 batches instead
# of every 100 (the run has 10 batches); the checkpoints written under a temporary folder
# (removed at the end) instead of ./save; the MLP called once on one batch and its
# weights fixed from seeded NumPy (adapt.fixed_weights) instead of the random
# initializers; main() returns every batch's printed loss, the printed checkpoint names,
# the printed test accuracy and the restored weights (every 40th
# row of the first kernel, to keep the answers small).
import argparse
import os
import shutil
import tempfile

import tensorflow as tf
import numpy as np
from adapt import fixed_weights


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


args = argparse.Namespace(mode='train', num_epochs=1, batch_size=50, learning_rate=0.001)
data_loader = None
save_dir = None
printed = {"losses": [], "saved": []}


def train():
    model = MLP()
    model(data_loader.train_data[:1])
    fixed_weights(model.weights, seed=1, scale=0.1)
    optimizer = tf.keras.optimizers.Adam(learning_rate=args.learning_rate)
    num_batches = int(data_loader.num_train_data // args.batch_size * args.num_epochs)
    checkpoint = tf.train.Checkpoint(myAwesomeModel=model)      # 实例化Checkpoint，设置保存对象为model
    for batch_index in range(1, num_batches+1):                 
        X, y = data_loader.get_batch(args.batch_size)
        with tf.GradientTape() as tape:
            y_pred = model(X)
            loss = tf.keras.losses.sparse_categorical_crossentropy(y_true=y, y_pred=y_pred)
            loss = tf.reduce_mean(loss)
            print("batch %d: loss %f" % (batch_index, loss.numpy()))
            printed["losses"].append(loss.numpy())
        grads = tape.gradient(loss, model.variables)
        optimizer.apply_gradients(grads_and_vars=zip(grads, model.variables))
        if batch_index % 5 == 0:                              # 每隔100个Batch保存一次
            path = checkpoint.save(os.path.join(save_dir, 'model.ckpt'))         # 保存模型参数到文件
            print("model saved to %s" % path)
            printed["saved"].append(os.path.basename(path))


def test():
    model_to_be_restored = MLP()
    # 实例化Checkpoint，设置恢复对象为新建立的模型model_to_be_restored
    checkpoint = tf.train.Checkpoint(myAwesomeModel=model_to_be_restored)      
    checkpoint.restore(tf.train.latest_checkpoint(save_dir))    # 从文件恢复模型参数
    y_pred = np.argmax(model_to_be_restored.predict(data_loader.test_data), axis=-1)
    print("test accuracy: %f" % (sum(y_pred == data_loader.test_label) / data_loader.num_test_data))
    printed["test_accuracy"] = sum(y_pred == data_loader.test_label) / data_loader.num_test_data
    printed["restored"] = [v.numpy()[::40] if v.shape[0] == 784 else v.numpy() for v in model_to_be_restored.variables]


def main():
    global data_loader, save_dir
    np.random.seed(0)
    save_dir = tempfile.mkdtemp()
    data_loader = MNISTLoader()
    for mode in ('train', 'test'):
        args.mode = mode
        if args.mode == 'train':
            train()
        if args.mode == 'test':
            test()
    shutil.rmtree(save_dir, ignore_errors=True)
    return dict(printed)
