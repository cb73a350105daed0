# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/basic/eager/grad.py and regression.py)
# Adapted: the two scripts' bodies placed one after another in main(), which returns what
# they print (y and its gradient; L and its gradients; the regression's variables after
# the 100 Adam steps). One change for TensorFlow 2.21 itself: tf.zeros([3, 1]) instead of
# the script's tf.zeros([3., 1.]), whose float shape TensorFlow 2.21 refuses (TypeError:
# Cannot convert [3.0, 1.0] to EagerTensor of dtype int32). Nothing else changed: their
# data are the scripts' own constants.
import tensorflow as tf


def main():
    out = {}
    # grad.py
    x = tf.Variable(initial_value=3.)
    with tf.GradientTape() as tape:     # 在 tf.GradientTape() 的上下文内，所有计算步骤都会被记录以用于求导
        y = tf.square(x)
    y_grad = tape.gradient(y, x)        # 计算y关于x的导数
    print(y, y_grad)
    out["y"], out["y_grad"] = y, y_grad

    X = tf.constant([[1., 2.], [3., 4.]])
    y = tf.constant([[1.], [2.]])
    w = tf.Variable(initial_value=[[1.], [2.]])
    b = tf.Variable(initial_value=1.)
    with tf.GradientTape() as tape:
        L = tf.reduce_sum(tf.square(tf.matmul(X, w) + b - y))
    w_grad, b_grad = tape.gradient(L, [w, b])        # 计算L(w, b)关于w, b的偏导数
    print(L, w_grad, b_grad)
    out["L"], out["w_grad"], out["b_grad"] = L, w_grad, b_grad

    # regression.py
    X = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    y = tf.constant([[10.0], [20.0]])

    w = tf.Variable(initial_value=tf.zeros([3, 1]))
    b = tf.Variable(initial_value=[0.])
    variables = [w, b]

    optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)

    for i in range(100):
        with tf.GradientTape() as tape:
            y_pred = tf.matmul(X, w) + b
            loss = tf.reduce_mean(tf.square(y_pred - y))
        grads = tape.gradient(loss, variables)
        optimizer.apply_gradients(grads_and_vars=zip(grads, variables))
    print(variables)
    out["variables"] = [v.numpy() for v in variables]
    out["last_loss"] = loss
    return out
