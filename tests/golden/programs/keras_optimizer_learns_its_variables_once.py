# A Keras optimizer learns the variables it updates once: at its first apply_gradients (every
# pair's variable, its gradient None or not) or at an explicit build(); a variable it did not
# learn is refused with a KeyError, and a later build() adds none.
v = tf.Variable([1.0, 2.0], name="v")
w = tf.Variable(3.0, name="w")
x = tf.Variable(-1.0, name="x")
for kind in ("SGD", "Adam", "RMSprop"):
    make = getattr(tf.keras.optimizers, kind)
    opt = make(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), v), (None, w)])
    report(f"{kind}.w_learned_with_a_none_gradient",
           opt.apply_gradients([(tf.constant(1.0), w)]))
    expect_error(f"{kind}.x_refused", lambda: opt.apply_gradients([(tf.constant(1.0), x)]))
    opt.build([v, w, x])
    expect_error(f"{kind}.x_refused_after_a_second_build",
                 lambda: opt.apply_gradients([(tf.constant(1.0), x)]))
    built = make(0.1)
    built.build([v, w, x])
    report(f"{kind}.x_after_build", built.apply_gradients([(tf.constant(1.0), x)]))
    report(f"{kind}.values", [v, w, x])
legacy = tf.keras.optimizers.legacy.SGD(0.1)
legacy.apply_gradients([(tf.constant([1.0, 1.0]), v)])
report("legacy.takes_a_new_variable", legacy.apply_gradients([(tf.constant(1.0), x)]))
report("legacy.values", [v, x])
# tf-keras's legacy optimizers have no build(): code written for them never calls it
expect_error("legacy.has_no_build", lambda: tf.keras.optimizers.legacy.Adam(0.1).build([v]))
