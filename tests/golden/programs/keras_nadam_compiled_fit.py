# tf.keras.optimizers.Nadam inside a compiled fit (run_eagerly=False, Keras's default), next to
# run_eagerly=True. tf-keras's Nadam chooses between its cached u-product and a new one with a
# Python counter that tf.function reads at trace time: a fresh optimizer is built inside the
# first trace, the function traces twice, and at run time the u-product is multiplied once per
# variable (but for one variable at a few steps). A second compile traces once more; so does
# train_on_batch (its own input signature). tf.config.run_functions_eagerly(True) runs the
# compiled fit eagerly too.

x = tf.constant([[1.0, 2.0], [3.0, -1.0], [0.0, 1.0], [2.0, 2.0], [-1.0, 0.5], [1.5, -2.0]])
y = tf.constant([[1.0], [0.0], [2.0], [-1.0], [0.5], [1.0]])


def make_model():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(2,)),
                                 tf.keras.layers.Dense(1)])
    model.layers[0].kernel.assign([[0.5, -0.3], [-0.25, 0.8]])
    model.layers[0].bias.assign([0.1, -0.2])
    model.layers[1].kernel.assign([[0.7], [-0.4]])
    model.layers[1].bias.assign([0.05])
    return model


for eager in (False, True):
    tag = "eager" if eager else "compiled"
    model = make_model()
    opt = tf.keras.optimizers.Nadam(learning_rate=0.05)
    model.compile(optimizer=opt, loss="mse", run_eagerly=eager)
    # 4 variables, 3 batches an epoch: steps 3 to 6 meet the cached value for one variable each
    history = model.fit(x, y, epochs=3, batch_size=2, shuffle=False, verbose=0)
    report(tag + ".fit.loss", history.history["loss"])
    report(tag + ".fit.weights", model.get_weights())
    model.compile(optimizer=opt, loss="mse", run_eagerly=eager)
    history = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
    report(tag + ".recompiled.loss", history.history["loss"])
    report(tag + ".train_on_batch", [model.train_on_batch(x, y) for _ in range(3)])
    report(tag + ".after.weights", model.get_weights())
    report(tag + ".iterations", opt.iterations)

tf.config.run_functions_eagerly(True)
model = make_model()
model.compile(optimizer=tf.keras.optimizers.Nadam(learning_rate=0.05), loss="mse")
history = model.fit(x, y, epochs=3, batch_size=2, shuffle=False, verbose=0)
tf.config.run_functions_eagerly(False)
report("functions_run_eagerly.fit.loss", history.history["loss"])
report("functions_run_eagerly.fit.weights", model.get_weights())
