# Keras layers for images and ids: Conv2D, Conv2DTranspose, MaxPooling2D, AveragePooling2D,
# GlobalAveragePooling2D, GlobalMaxPooling2D, BatchNormalization, Reshape, Embedding,
# Concatenate: shapes, names, values, gradients, errors (weights set from NumPy)
L = tf.keras.layers
x = tf.constant(np.cos(np.arange(2 * 5 * 4 * 3) * 0.45).reshape(2, 5, 4, 3), tf.float32)


def kernel(*shape):
    return np.sin(np.arange(int(np.prod(shape))) * 0.7).reshape(shape).astype(np.float32)


def run(layer, inputs, **kwargs):
    """The layer's output and the gradients of a weighted sum of it (inputs, then weights)."""
    inputs = tf.constant(inputs)
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        y = layer(inputs, **kwargs)
        weights = tf.reshape(tf.cos(tf.cast(tf.range(tf.size(y)), y.dtype)), tf.shape(y))
        loss = tf.reduce_sum(y * weights)
    return [y] + tape.gradient(loss, [inputs] + layer.trainable_weights)


conv = L.Conv2D(2, (3, 2), strides=(2, 1), padding="same", activation="tanh", name="c1")
conv.build((None, 5, 4, 3))
conv.set_weights([kernel(3, 2, 3, 2), np.array([0.1, -0.2], np.float32)])
report("conv2d.same", run(conv, x))
report("conv2d.names", [w.name for w in conv.weights])
report("conv2d.output_shape", list(conv.compute_output_shape((None, 5, 4, 3))))
dil = L.Conv2D(2, 2, dilation_rate=2, use_bias=False, name="dilated")
dil.build((None, 5, 4, 3))
dil.set_weights([kernel(2, 2, 3, 2)])
report("conv2d.dilated", dil(x))
report("conv2d.dilated.count_params", dil.count_params())
tr = L.Conv2DTranspose(2, 3, strides=2, padding="same", name="t1")
tr.build((None, 5, 4, 3))
tr.set_weights([kernel(3, 3, 2, 3), np.array([0.3, -0.1], np.float32)])
report("conv2d_transpose.same", run(tr, x))
report("conv2d_transpose.kernel_shape", list(tr.kernel.shape))
trv = L.Conv2DTranspose(1, (2, 3), strides=(1, 2), padding="valid", name="t2")
trv.build((None, 5, 4, 3))
trv.set_weights([kernel(2, 3, 1, 3), np.array([0.0], np.float32)])
report("conv2d_transpose.valid", run(trv, x))
trp = L.Conv2DTranspose(1, 3, strides=2, padding="same", output_padding=1, name="t3")
trp.build((None, 5, 4, 3))
trp.set_weights([kernel(3, 3, 1, 3), np.array([0.0], np.float32)])
report("conv2d_transpose.output_padding", list(trp(x).shape))

report("max_pooling2d", run(L.MaxPooling2D(), x))
report("max_pooling2d.same_strides", run(L.MaxPooling2D((3, 2), strides=(2, 1), padding="same"),
                                         x))
report("average_pooling2d", run(L.AveragePooling2D(2, padding="same"), x))
report("global_average_pooling2d", run(L.GlobalAveragePooling2D(), x))
report("global_average_pooling2d.keepdims", list(L.GlobalAveragePooling2D(keepdims=True)(x).shape))
report("global_max_pooling2d", run(L.GlobalMaxPooling2D(), x))
report("aliases", [L.MaxPool2D is L.MaxPooling2D, L.AvgPool2D is L.AveragePooling2D,
                   L.Convolution2D is L.Conv2D])

bn = L.BatchNormalization(axis=1, momentum=0.8, epsilon=0.01, name="bn_axis1")
bn.build((None, 5, 4, 3))
bn.set_weights([np.linspace(0.5, 1.5, 5).astype(np.float32), np.linspace(-0.2, 0.2, 5)
                .astype(np.float32), np.zeros(5, np.float32), np.ones(5, np.float32)])
report("bn.axis1.training", run(bn, x, training=True))
report("bn.axis1.moving", [bn.moving_mean, bn.moving_variance])
report("bn.axis1.inference", bn(x, training=False))
flat = L.BatchNormalization(center=False, name="bn_dense")
report("bn.rank2.training", run(flat, tf.reshape(x, (10, 12)), training=True))
report("bn.rank2.moving", [flat.moving_mean[:4], flat.moving_variance[:4]])
report("bn.rank2.names", [w.name for w in flat.weights])
report("bn.rank2.trainable_names", [w.name for w in flat.trainable_weights])
many = L.BatchNormalization(axis=[1, 3], scale=False, name="bn_two_axes")
report("bn.two_axes.training", run(many, x, training=True))
report("bn.two_axes.moving_shape", list(many.moving_mean.shape))
frozen = L.BatchNormalization(name="bn_frozen")
frozen.build((None, 5, 4, 3))
frozen.set_weights([np.ones(3, np.float32), np.zeros(3, np.float32),
                    np.array([0.5, 0.0, -0.5], np.float32), np.full(3, 2.0, np.float32)])
frozen.trainable = False
report("bn.frozen_trains_as_inference", [frozen(x, training=True), frozen.moving_mean])
report("bn.default_is_inference", L.BatchNormalization()(x))

report("reshape", run(L.Reshape((2, -1)), x))
report("reshape.output_shape", list(L.Reshape((-1, 6)).compute_output_shape((None, 5, 4, 3))))
emb = L.Embedding(6, 3, name="emb")
emb.build(None)
emb.set_weights([kernel(6, 3)])
ids = tf.constant([[0, 5, 2], [2, 2, 1]])
with tf.GradientTape() as tape:
    vectors = emb(ids)
    loss = tf.reduce_sum(vectors * tf.constant(kernel(2, 3, 3)))
report("embedding", vectors)
report("embedding.grad", tf.convert_to_tensor(tape.gradient(loss, emb.embeddings)))
report("embedding.float_ids", emb(tf.constant([1.7, 3.2])))
report("embedding.names", [w.name for w in emb.weights])
report("concatenate", L.Concatenate(axis=-1)([x, 2.0 * x]).shape.as_list())

expect_error("conv2d.rank3_input", lambda: L.Conv2D(2, 3)(x[0]))
expect_error("conv2d.bad_padding", lambda: L.Conv2D(2, 3, padding="full"))
expect_error("conv2d.zero_filters", lambda: L.Conv2D(0, 3))
expect_error("conv2d.channels_changed", lambda: conv(tf.ones((1, 5, 4, 2))))
expect_error("max_pooling2d.rank3_input", lambda: L.MaxPooling2D()(x[0]))
expect_error("embedding.id_out_of_range", lambda: emb(tf.constant([6])))
expect_error("embedding.zero_dim", lambda: L.Embedding(0, 3))
expect_error("reshape.wrong_size", lambda: L.Reshape((7,))(x))
expect_error("bn.bad_axis", lambda: L.BatchNormalization(axis=5)(x))

# a fully convolutional model: images of any size (None height and width)
images = tf.keras.Input(shape=(None, None, 3))
h = L.Conv2D(4, 7, name="fc_conv7")(images)
h = L.Conv2D(4, 3, strides=2, name="fc_conv3")(h)
h = L.MaxPooling2D(name="fc_pool")(h)
report("fully_convolutional.shapes", [list(images.shape), list(h.shape)])
fully = tf.keras.Model(images, L.GlobalAveragePooling2D()(h))
report("fully_convolutional.output_shape", list(fully.output_shape))
report("fully_convolutional.call_shapes", [list(fully(tf.ones((1, 20, 24, 3))).shape),
                                           list(fully(tf.ones((2, 41, 17, 3))).shape)])
