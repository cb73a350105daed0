# An optimizer's learning rate is a float32 variable, as Keras's: read with .numpy() and
# float(), set with K.set_value, assign or the attribute, between training steps (a callback's
# schedule, the hands-on book's exponential decay), with lr as its other name


w = tf.Variable([1.0, -2.0])
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])


def step(optimizer):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(tf.linalg.matvec(x, w)))
    optimizer.apply_gradients([(tape.gradient(loss, w), w)])
    return loss


for make in (tf.keras.optimizers.SGD, tf.keras.optimizers.Adam):
    optimizer = make(learning_rate=0.01)
    name = make.__name__
    report(f"{name}.initial", optimizer.learning_rate.numpy())
    report(f"{name}.initial_lr", optimizer.lr.numpy())
    report(f"{name}.dtype", optimizer.learning_rate.dtype.name)
    report(f"{name}.step1", step(optimizer))
    tf.keras.backend.set_value(optimizer.learning_rate, 0.001)
    report(f"{name}.after_set_value", float(optimizer.learning_rate))
    report(f"{name}.get_value", tf.keras.backend.get_value(optimizer.lr))
    report(f"{name}.step2", step(optimizer))
    optimizer.learning_rate.assign(optimizer.learning_rate * 0.5)
    report(f"{name}.after_assign", optimizer.learning_rate.numpy())
    optimizer.learning_rate = 0.02
    report(f"{name}.after_attribute", optimizer.learning_rate.numpy())
    report(f"{name}.step3", step(optimizer))
    report(f"{name}.w", w)
