# The optimizers' slot variables as tf-keras names and orders them (`opt.variables()`), and
# Adagrad's and RMSprop's slots saved with a compiled model (.keras and .h5) and restored by
# load_model, so a second training step after loading continues the same run.
import os
import tempfile

os.chdir(tempfile.mkdtemp())    # (relative paths: error messages name no folder)


def one_step(opt):
    w = tf.Variable([1.0, 2.0], name="w")
    u = tf.Variable([[3.0]], name="u")
    opt.apply_gradients([(tf.constant([0.1, 0.2]), w), (tf.constant([[0.3]]), u)])
    opt.apply_gradients([(tf.constant([-0.4, 0.5]), w), (tf.constant([[0.6]]), u)])
    return {v.name: v for v in opt.variables()}


report("rmsprop_plain", one_step(tf.keras.optimizers.RMSprop(0.01)))
report("rmsprop_momentum_centered",
       one_step(tf.keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True)))
report("adagrad", one_step(tf.keras.optimizers.Adagrad(0.1, initial_accumulator_value=0.2)))
report("adam_amsgrad", one_step(tf.keras.optimizers.Adam(0.1, amsgrad=True)))
report("sgd_momentum", one_step(tf.keras.optimizers.SGD(0.1, momentum=0.9)))
report("nadam", one_step(tf.keras.optimizers.Nadam(0.1)))

x = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)
y = np.array([[0.5], [-1.0], [0.25], [2.0]], np.float32)


def model_with(optimizer):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="tanh", input_shape=(3,)),
                                 tf.keras.layers.Dense(1)])
    for i, w in enumerate(model.trainable_weights):
        n = int(np.prod(w.shape))
        w.assign((np.cos(np.arange(n) * 0.37 + i) * 0.5).reshape(tuple(w.shape)))
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(x, y, batch_size=4, epochs=2, verbose=0)
    return model


for label, make in (("adagrad", lambda: tf.keras.optimizers.Adagrad(0.05)),
                    ("rmsprop", lambda: tf.keras.optimizers.RMSprop(0.01, momentum=0.3,
                                                                    centered=True))):
    for suffix in ("keras", "h5"):
        model = model_with(make())
        path = f"{label}.{suffix}"
        model.save(path)
        loaded = tf.keras.models.load_model(path)
        name = f"{label}_{suffix}"
        report(name + ".restored", [v.numpy() for v in loaded.optimizer.variables()])
        report(name + ".names", [v.name for v in loaded.optimizer.variables()])
        loaded.fit(x, y, batch_size=4, epochs=1, verbose=0)
        model.fit(x, y, batch_size=4, epochs=1, verbose=0)
        report(name + ".after_loaded", loaded.get_weights())
        report(name + ".after_original", model.get_weights())
