# tf.random.categorical and tf.random.shuffle: what does not depend on the draw (shapes,
# dtypes, impossible classes never drawn, a permutation of the rows, no gradient) and errors

tf.random.set_seed(1)
logits = tf.math.log([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
draws = tf.random.categorical(logits, 50)
report("categorical.shape_dtype", [list(draws.shape), draws.dtype.name])
report("categorical.int32", tf.random.categorical(logits, 2, dtype=tf.int32).dtype.name)
report("categorical.in_range", bool(tf.reduce_all((draws >= 0) & (draws < 3))))
report("categorical.never_impossible", bool(tf.reduce_all(draws[1] != 2)))
report("categorical.certain", tf.random.categorical([[0.0, -np.inf, -np.inf]], 4))
report("categorical.zero_samples", tf.random.categorical([[0.0, 1.0]], 0))
report("categorical.seeded_shape", list(tf.random.categorical([[1.0, 2.0]], 3, seed=7).shape))
logit_var = tf.constant([[0.0, 1.0]])
with tf.GradientTape() as tape:
    tape.watch(logit_var)
    y = tf.reduce_sum(tf.cast(tf.random.categorical(logit_var, 3), tf.float32))
report("categorical.no_gradient", tape.gradient(y, logit_var))
expect_error("categorical.vector", lambda: tf.random.categorical([0.0, 1.0], 3))
expect_error("categorical.int_logits", lambda: tf.random.categorical([[0, 1]], 3))
expect_error("categorical.no_classes", lambda: tf.random.categorical(tf.zeros([2, 0]), 2))
expect_error("categorical.float_dtype", lambda: tf.random.categorical([[0.0, 1.0]], 2,
                                                                      dtype=tf.float32))

rows = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]])
shuffled = tf.random.shuffle(rows)
report("shuffle.shape_dtype", [list(shuffled.shape), shuffled.dtype.name])
report("shuffle.same_rows", sorted(map(tuple, shuffled.numpy().tolist())))
report("shuffle.scalar", tf.random.shuffle(tf.constant(3)))
report("shuffle.seeded_sorted", sorted(tf.random.shuffle([3.0, 1.0, 2.0], seed=4).numpy().tolist()))
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.reduce_sum(tf.random.shuffle(x) * [1.0, 2.0, 3.0])
report("shuffle.no_gradient", tape.gradient(y, x))
