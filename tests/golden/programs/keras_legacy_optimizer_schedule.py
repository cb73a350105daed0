# A legacy optimizer (tf.keras.optimizers.legacy) given a learning-rate schedule keeps the
# schedule as its learning_rate (and lr): code calls `optimizer.learning_rate(step)`, as
# TensorFlow's migration guide does; the steps it takes use the schedule's value at each
# step. The new optimizers hold the value instead.
schedule = tf.keras.optimizers.schedules.PolynomialDecay(
    initial_learning_rate=0.5, decay_steps=10, end_learning_rate=0.0, power=1.0)
var = tf.Variable([1.0, -2.0])
for make in (tf.keras.optimizers.legacy.SGD, tf.keras.optimizers.legacy.Adam):
    opt = make(schedule)
    name = make.__name__
    report(f"{name}.learning_rate_type", type(opt.learning_rate).__name__)
    report(f"{name}.lr_is_learning_rate", opt.lr is opt.learning_rate)
    rates = []
    for _ in range(3):
        rates.append(opt.learning_rate(opt.iterations.numpy()))
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(var))
        opt.apply_gradients([(tape.gradient(loss, var), var)])
    report(f"{name}.rates", rates)
    report(f"{name}.var", var)
opt = tf.keras.optimizers.legacy.SGD(0.25)
report("constant.learning_rate", opt.learning_rate)
report("new_optimizer.callable", callable(tf.keras.optimizers.SGD(schedule).learning_rate))
