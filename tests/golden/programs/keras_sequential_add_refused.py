# A Sequential whose input shape is known runs each added layer on the outputs before it,
# as tf-keras does, so a layer that does not fit them is refused when it is added (a
# ValueError naming the layer), not at the model's first call; a layer that fits is kept
def build(layers):
    return tf.keras.Sequential(layers)


expect_error("reshape_of_wrong_size", lambda: build([
    tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Reshape((5,))]))
expect_error("conv_on_flat", lambda: build([
    tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Conv2D(2, 3)]))
model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,))])
expect_error("add_reshape_of_wrong_size", lambda: model.add(tf.keras.layers.Reshape((5,))))
report("layers_after_refusal", len(model.layers))
model.add(tf.keras.layers.Reshape((2, 2)))
report("output_shape", model.output.shape.as_list())
conv_model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,))])
expect_error("add_conv_on_flat", lambda: conv_model.add(tf.keras.layers.Conv2D(2, 3)))
report("layers_after_conv_refusal", len(conv_model.layers))
