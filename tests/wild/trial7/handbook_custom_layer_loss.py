# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/model/custom/linear.py)
# Adapted: the script's eager branch (eager = True, as written) wrapped in main(), which
# returns what it prints (the model's variables after the 100 Adam steps) and the last
# loss; the graph-mode branch (tf.placeholder, tf.Session, which TensorFlow 2 does not
# have under those names) is the branch the script does not take and is left out.
# Nothing else changed: its data are the script's own constants.
import tensorflow as tf
import numpy as np

eager = True
X = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=np.float32)
y = np.array([[10.0], [20.0]], dtype=np.float32)


class LinearLayer(tf.keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units

    def build(self, input_shape):     # 这里 input_shape 是第一次运行call()时参数inputs的形状
        self.w = self.add_weight(name='w',
            shape=[input_shape[-1], self.units], initializer=tf.zeros_initializer())
        self.b = self.add_weight(name='b',
            shape=[self.units], initializer=tf.zeros_initializer())

    def call(self, inputs):
        y_pred = tf.matmul(inputs, self.w) + self.b
        return y_pred


class LinearModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.layer = LinearLayer(units=1)

    def call(self, inputs):
        output = self.layer(inputs)
        return output


class MeanSquaredError(tf.keras.losses.Loss):
    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.square(y_pred - y_true))


def main():
    global X, y
    if eager:
        X = tf.constant(X)
        y = tf.constant(y)
        model = LinearModel()
        mse = MeanSquaredError()
        optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
        for i in range(100):
            with tf.GradientTape() as tape:
                y_pred = model(X)
                loss = mse(y, y_pred)
            grads = tape.gradient(loss, model.variables)
            optimizer.apply_gradients(grads_and_vars=zip(grads, model.variables))
        print(model.variables)
    return {"variables": [v.numpy() for v in model.variables], "last_loss": loss}
