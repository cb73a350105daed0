# UpSampling2D, ZeroPadding2D, Cropping2D: values, gradients, output shapes, and a small
# convolutional autoencoder (Conv2D, MaxPooling2D, UpSampling2D) trained with fit, weights set
L = tf.keras.layers
x = tf.reshape(tf.sin(tf.range(2 * 3 * 4 * 2, dtype=tf.float32)), (2, 3, 4, 2))


def run(layer, inputs):
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        y = layer(inputs)
        loss = tf.reduce_sum(y * tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)),
                                            tf.shape(y)))
    return [y, tape.gradient(loss, inputs), list(layer.compute_output_shape(inputs.shape))]


report("up_sampling2d", run(L.UpSampling2D(), x))
report("up_sampling2d.size", run(L.UpSampling2D((1, 3)), x))
report("zero_padding2d", run(L.ZeroPadding2D(), x))
report("zero_padding2d.pairs", run(L.ZeroPadding2D(((1, 0), (0, 2))), x))
report("cropping2d", run(L.Cropping2D(((1, 0), (1, 2))), x))
report("cropping2d.int", run(L.Cropping2D(1), x))
expect_error("up_sampling2d.rank3", lambda: L.UpSampling2D()(x[0]))
expect_error("cropping2d.everything", lambda: L.Cropping2D(2)(x))

images = np.cos(np.arange(4 * 8 * 8) * 0.21).reshape(4, 8, 8, 1).astype(np.float32)
autoencoder = tf.keras.Sequential([
    tf.keras.Input(shape=(8, 8, 1)),
    L.Conv2D(2, 3, padding="same", activation="relu", name="enc"),
    L.MaxPooling2D(name="down"),
    L.UpSampling2D(name="up"),
    L.ZeroPadding2D(1, name="pad"),
    L.Cropping2D(1, name="crop"),
    L.Conv2D(1, 3, padding="same", name="dec")])
autoencoder.get_layer("enc").set_weights([
    np.sin(np.arange(18) * 0.9).reshape(3, 3, 1, 2).astype(np.float32), np.zeros(2, np.float32)])
autoencoder.get_layer("dec").set_weights([
    np.cos(np.arange(18) * 0.4).reshape(3, 3, 2, 1).astype(np.float32) * 0.3,
    np.zeros(1, np.float32)])
report("autoencoder.output_shape", list(autoencoder.output_shape))
autoencoder.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
report("autoencoder.history", autoencoder.fit(images, images, batch_size=2, epochs=2,
                                              shuffle=False, verbose=0).history)
report("autoencoder.weights", autoencoder.get_weights())
