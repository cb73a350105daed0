# tf.random.Generator and the stateless draws: shapes, dtypes, reproducibility from a seed
# (two generators from one seed agree, a reset generator repeats itself, a stateless draw
# depends only on its seed), errors; the drawn numbers themselves are not compared

g = tf.random.Generator.from_seed(1)
report("generator.normal", [list(g.normal([2, 3]).shape), g.normal([1]).dtype.name])
report("generator.uniform_float64", g.uniform([2], dtype=tf.float64).dtype.name)
ints = g.uniform([50], minval=3, maxval=7, dtype=tf.int32)
report("generator.uniform_int", [ints.dtype.name, bool(tf.reduce_all((ints >= 3) & (ints < 7)))])
floats = g.uniform([50], minval=-2.0, maxval=-1.0)
report("generator.uniform_range", bool(tf.reduce_all((floats >= -2.0) & (floats < -1.0))))
report("generator.truncated_normal", bool(tf.reduce_all(tf.abs(g.truncated_normal([200])) <= 2)))
report("generator.make_seeds", [list(g.make_seeds(3).shape), g.make_seeds().dtype.name])
report("generator.split", [type(x).__name__ for x in g.split(2)])
expect_error("generator.int_without_maxval", lambda: g.uniform([3], dtype=tf.int32))
g1, g2 = tf.random.Generator.from_seed(5), tf.random.Generator.from_seed(5)
report("generator.same_seed_same_draws", bool(tf.reduce_all(g1.normal([3]) == g2.normal([3]))))
first = g1.normal([4])
g1.reset_from_seed(5)
g1.normal([3])
report("generator.reset_repeats", bool(tf.reduce_all(g1.normal([4]) == first)))
report("generator.draws_differ", bool(tf.reduce_any(g2.normal([4]) != g2.normal([4]))))
report("global_generator", list(tf.random.get_global_generator().normal([1]).shape))
tf.random.set_global_generator(tf.random.Generator.from_seed(9))
report("set_global_generator", list(tf.random.get_global_generator().uniform([2]).shape))
report("non_deterministic", list(tf.random.Generator.from_non_deterministic_state()
                                 .normal([1]).shape))
expect_error("generator.seed_keyword", lambda: tf.random.Generator(seed=3))

a = tf.random.stateless_normal([2, 2], seed=[1, 2])
report("stateless_normal.dtype_shape", [a.dtype.name, list(a.shape)])
report("stateless_normal.same_seed", bool(tf.reduce_all(a == tf.random.stateless_normal(
    [2, 2], seed=[1, 2]))))
report("stateless_normal.other_seed", bool(tf.reduce_any(a != tf.random.stateless_normal(
    [2, 2], seed=[2, 1]))))
report("stateless_normal.float64", tf.random.stateless_normal([1], seed=[1, 2],
                                                              dtype=tf.float64).dtype.name)
report("stateless_uniform.int", tf.random.stateless_uniform([3], seed=[1, 2], minval=0,
                                                            maxval=5, dtype=tf.int32).dtype.name)
report("stateless_uniform.int64_seed", tf.random.stateless_uniform(
    [3], seed=tf.constant([1, 2], tf.int64)).dtype.name)
report("stateless_truncated_normal", list(tf.random.stateless_truncated_normal([3], seed=[3, 4])
                                          .shape))
c = tf.random.stateless_categorical([[0.0, 1.0]], 4, seed=[1, 2])
report("stateless_categorical", [c.dtype.name, list(c.shape)])
expect_error("stateless.seed_three", lambda: tf.random.stateless_normal([2], seed=[1, 2, 3]))
expect_error("stateless.seed_scalar", lambda: tf.random.stateless_normal([2], seed=1))
expect_error("stateless.seed_float", lambda: tf.random.stateless_normal([2], seed=[1.0, 2.0]))
expect_error("stateless_uniform.int_without_maxval", lambda: tf.random.stateless_uniform(
    [3], seed=[1, 2], dtype=tf.int32))
