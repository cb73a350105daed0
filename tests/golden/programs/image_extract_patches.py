# tf.image.extract_patches: windows of sizes x sizes (spread by rates, moved by strides),
# flattened in (row, column, channel) order, with VALID and SAME padding; its gradient adds
# each patch's gradient back where its pixels came from (involution layers use it)
images = tf.Variable(tf.reshape(tf.sin(tf.range(2 * 7 * 6 * 3, dtype=tf.float32)),
                                (2, 7, 6, 3)))
weights = tf.cos(tf.range(4000, dtype=tf.float32))
for name, sizes, strides, rates, padding in [
        ("k3_s1_same", 3, 1, 1, "SAME"), ("k3_s2_same", 3, 2, 1, "SAME"),
        ("k2_s2_valid", 2, 2, 1, "VALID"), ("k3_r2_valid", 3, 1, 2, "VALID"),
        ("k2_s3_r2_same", 2, 3, 2, "SAME"), ("k1_s2_valid", 1, 2, 1, "VALID")]:
    with tf.GradientTape() as tape:
        patches = tf.image.extract_patches(images, [1, sizes, sizes, 1], [1, strides, strides, 1],
                                           [1, rates, rates, 1], padding)
        flat = tf.reshape(patches, [-1])
        loss = tf.reduce_sum(flat * weights[:tf.size(flat)])
    report(name, patches)
    report(name + "_grad", tape.gradient(loss, images))
report("int_patches", tf.image.extract_patches(tf.reshape(tf.range(16), (1, 4, 4, 1)),
                                               [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"))
expect_error("rank3", lambda: tf.image.extract_patches(tf.zeros((4, 4, 1)), [1, 2, 2, 1],
                                                        [1, 1, 1, 1], [1, 1, 1, 1], "VALID"))
