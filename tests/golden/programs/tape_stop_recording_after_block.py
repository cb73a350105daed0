# tape.stop_recording() outside the tape's block: a tape never entered raises RuntimeError,
# one whose block has ended ValueError (it is not recording), as in TensorFlow; the tape's
# records survive the refusal and give the gradient
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = tf.square(x)


def stop_after():
    with tape.stop_recording():
        pass


def stop_never_entered():
    with tf.GradientTape().stop_recording():
        pass


expect_error("after_block", stop_after)
expect_error("never_entered", stop_never_entered)
report("gradient_after_refusal", tape.gradient(y, x))
with tf.GradientTape(persistent=True) as kept:
    z = x * x
expect_error("persistent_after_block", lambda: kept.stop_recording().__enter__())
report("persistent_gradient", kept.gradient(z, x))
