# After: https://github.com/snowkylin/tensorflow-handbook (docs/_static/code/zh/appendix/tape/: tape_basic.py, tape_watch.py, tape_persistent.py, high_order_grad.py, tape_optimization.py)
# Adapted: the five scripts' bodies placed one after another in main(), which returns what
# they print or state in their comments (each gradient). tape_basic.py's second
# stop_recording, outside the tape's context, raises in TensorFlow ("尝试暂时停止记录报错":
# the script says it fails); it is kept, caught, and its exception's class name returned.
# Nothing else changed: their data are the scripts' own constants.
import tensorflow as tf


def main():
    out = {}
    # tape_basic.py
    x = tf.Variable(initial_value=3.)
    with tf.GradientTape() as tape:     # tf.GradientTape() 是上下文管理器，tape 是记录器
        y = tf.square(x)
        with tape.stop_recording():     # 在上下文管理器内，记录进行中，暂时停止记录成功
            print('temporarily stop recording')
    try:
        with tape.stop_recording():         # 在上下文管理器外，记录已停止，尝试暂时停止记录报错
            pass
        out["stop_recording_outside"] = "no error"
    except Exception as e:
        out["stop_recording_outside"] = type(e).__name__
    y_grad = tape.gradient(y, x)        # 在上下文管理器外，tape 的记录信息仍然保留，导数计算成功
    out["basic_y_grad"] = y_grad

    # tape_watch.py
    x = tf.constant(3.)                 # x 为常量类型张量，默认无法对其求导
    with tf.GradientTape() as tape:
        y = tf.square(x)
    y_grad_1 = tape.gradient(y, x)      # 求导结果为 None
    with tf.GradientTape() as tape:
        tape.watch(x)                   # 使用 tape.watch 手动将 x 加入监视列表
        y = tf.square(x)
    y_grad_2 = tape.gradient(y, x)      # 求导结果为 tf.Tensor(6.0, shape=(), dtype=float32)
    print(y_grad_1, y_grad_2)
    out["watch_y_grad_1"], out["watch_y_grad_2"] = y_grad_1, y_grad_2

    # tape_persistent.py
    x_1 = tf.Variable(3.)
    x_2 = tf.Variable(2.)
    with tf.GradientTape(persistent=True) as tape:
        y_1 = tf.square(x_1)
        y_2 = tf.pow(x_2, 3)
    y_grad_1 = tape.gradient(y_1, x_1)  # 6.0 = 2 * 3.0
    y_grad_2 = tape.gradient(y_2, x_2)  # 12.0 = 3 * 2.0 ^ 2
    del tape
    print(y_grad_1, y_grad_2)
    out["persistent_y_grad_1"], out["persistent_y_grad_2"] = y_grad_1, y_grad_2

    # high_order_grad.py
    x = tf.Variable(3.)
    with tf.GradientTape() as tape_1:
        with tf.GradientTape() as tape_2:
            y = tf.square(x)
        dy_dx = tape_2.gradient(y, x)   # 值为 6.0
    d2y_dx2 = tape_1.gradient(dy_dx, x) # 值为 2.0
    out["high_order_dy_dx"], out["high_order_d2y_dx2"] = dy_dx, d2y_dx2

    # tape_optimization.py
    x = tf.Variable(3.)
    with tf.GradientTape(persistent=True) as tape:
        y = tf.square(x)
        y_grad = tape.gradient(y, x)    # 如果后续并不需要对 y_grad 求导，则不建议在上下文环境中求导
        with tape.stop_recording():     # 对于无需记录求导的计算步骤，可以暂停记录器后计算
            y_grad_not_recorded = tape.gradient(y, x)
    d2y_dx2 = tape.gradient(y_grad, x)  # 如果后续需要对 y_grad 求导，则 y_grad 必须写在上下文中
    out["optimization_y_grad"] = y_grad
    out["optimization_y_grad_not_recorded"] = y_grad_not_recorded
    out["optimization_d2y_dx2"] = d2y_dx2
    return out
