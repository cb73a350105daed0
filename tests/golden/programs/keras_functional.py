# the Keras functional API: two inputs, Concatenate, Lambda, operators on symbolic tensors,
# add_loss (a callable, a symbolic tensor, a loss added inside a layer's call), weights set
a = tf.keras.Input(shape=(3,), name="a")
b = tf.keras.Input(shape=(2,), name="b")
unnamed = tf.keras.Input(shape=(4,))
report("input.repr", repr(a))
report("input.shape", list(a.shape))
report("input.dtype", a.dtype.name)
report("input.name", a.name)
report("unnamed.name", unnamed.name)
hidden = tf.keras.layers.Dense(4, activation="relu", name="hidden")
h = hidden(a)
report("hidden.shape", list(h.shape))
report("hidden.repr", repr(h))
joined = tf.keras.layers.Concatenate(name="join")([h, b])
report("join.shape", list(joined.shape))
doubled = tf.keras.layers.Lambda(lambda t: t * 2.0, name="double")(joined)
total = tf.keras.layers.Lambda(lambda t: tf.reduce_sum(t, axis=1), name="total")(doubled)
report("total.shape", list(total.shape))
scaled = h * 0.5 + 1.0
report("operators.shape", list(scaled.shape))


class Penalty(tf.keras.layers.Layer):
    """Adds the mean square of its input to the losses, as a VAE's KL layer does."""

    def call(self, x):
        self.add_loss(0.1 * tf.reduce_mean(tf.square(x)))
        return x


out = tf.keras.layers.Dense(1, name="out")(Penalty(name="penalty")(doubled))
model = tf.keras.Model(inputs=[a, b], outputs=out, name="two_inputs")
report("layer_names", [layer.name for layer in model.layers])
report("input_names", model.input_names)
report("output_names", model.output_names)
report("input_shape", [list(s) for s in model.input_shape])
report("output_shape", list(model.output_shape))
model.set_weights([
    np.array([[0.5, -0.3, 0.8, 0.1], [0.2, 0.7, -0.4, 0.3], [-0.1, 0.2, 0.3, -0.5]], np.float32),
    np.array([0.1, 0.0, -0.1, 0.2], np.float32),
    np.array([[0.3], [-0.2], [0.1], [0.4], [-0.3], [0.2]], np.float32),
    np.array([0.05], np.float32),
])
report("weight_names", [w.name for w in model.weights])
model.add_loss(lambda: 0.01 * tf.reduce_sum(tf.square(hidden.kernel)))
model.add_loss(tf.keras.layers.Lambda(lambda t: 0.5 * tf.reduce_mean(t), name="mean_h")(h))
xa = tf.constant([[1.0, -1.0, 0.5], [0.5, 2.0, -1.0]])
xb = tf.constant([[0.3, -0.2], [1.0, 0.0]])
with tf.GradientTape() as tape:
    y = model([xa, xb])
    objective = tf.reduce_sum(y) + sum(model.losses)
report("output", y)
report("losses", model.losses)
report("grads", tape.gradient(objective, model.trainable_variables))
report("numpy_inputs", model([xa.numpy(), xb.numpy()]))
report("dict_inputs", model({"a": xa, "b": xb}))
report("trailing_one_squeezed", tf.keras.Model(a, h)(tf.reshape(xa, (2, 3, 1))))
two_out = tf.keras.Model(inputs={"a": a, "b": b}, outputs={"h": h, "total": total})
result = two_out({"a": xa, "b": xb})
report("dict_outputs.keys", sorted(result))
report("dict_outputs.total", result["total"])
nested = tf.keras.Model(a, tf.keras.layers.Dense(2, name="head")(tf.keras.Model(a, h)(a)))
report("nested.shape", list(nested.output_shape))
expect_error("wrong_feature_count", lambda: model([tf.ones((2, 4)), xb]))
expect_error("wrong_input_count", lambda: model(xa))
expect_error("lambda_returns_object",
             lambda: tf.keras.layers.Lambda(lambda t: object())(a))
expect_error("lambda_uses_numpy",
             lambda: tf.keras.layers.Lambda(lambda t: np.asarray(t) * 2)(a))
expect_error("disconnected", lambda: tf.keras.Model(b, h))
