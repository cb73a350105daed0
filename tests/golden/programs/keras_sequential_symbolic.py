# A Sequential whose input shape is known (input_shape= on its first layer, or a
# tf.keras.Input first) is also a graph of KerasTensors, as in tf-keras: model.input,
# model.output, model.inputs and each layer's output exist, and
# Model(model.input, [layer.output ...]) extracts every layer's activations (the feature-map
# visualisation of convolution lessons)
model = tf.keras.Sequential([
    tf.keras.layers.Conv2D(3, 3, activation="relu", input_shape=(6, 6, 1)),
    tf.keras.layers.MaxPooling2D(2),
    tf.keras.layers.Flatten(),
    tf.keras.layers.Dense(2, activation="softmax"),
])
model.set_weights([np.linspace(-0.5, 0.5, 27, dtype=np.float32).reshape(3, 3, 1, 3),
                   np.array([0.1, -0.1, 0.0], np.float32),
                   np.linspace(-0.3, 0.3, 24, dtype=np.float32).reshape(12, 2),
                   np.zeros(2, np.float32)])
report("input_name", model.input.name)
report("input_shape", model.input.shape.as_list())
report("output_shape", model.output.shape.as_list())
report("inputs_names", [t.name for t in model.inputs])
report("layer_output_shapes", [layer.output.shape.as_list() for layer in model.layers])
images = np.cos(np.arange(72, dtype=np.float32)).reshape(2, 6, 6, 1)
activation_model = tf.keras.models.Model(inputs=model.input,
                                         outputs=[layer.output for layer in model.layers])
report("activation_layers", [layer.name for layer in activation_model.layers])
report("activations", activation_model.predict(images, verbose=0))
report("a_later_input_name", tf.keras.Input(shape=(3,)).name)
given = tf.keras.Input(shape=(4,), name="features")
stacked = tf.keras.Sequential([given, tf.keras.layers.Dense(2, name="head")])
report("given_input_name", stacked.input.name)
report("given_output_shape", stacked.layers[0].output.shape.as_list())
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy")
report("fit", model.fit(images, np.array([0, 1]), epochs=2, verbose=0).history)
report("activations_after_fit", activation_model(images))
unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(2)])
expect_error("unbuilt_input", lambda: unbuilt.input)
report("unbuilt_inputs", unbuilt.inputs)
