# tf.keras.layers.CategoryEncoding: one_hot, multi_hot and count of integer ids (scalars,
# rank-1 and rank-2 inputs, float ids, count_weights), in a model, its config and errors.
C = tf.keras.layers.CategoryEncoding
report("one_hot_rank1", C(4, "one_hot")([3, 2, 0, 1]))
report("one_hot_column", C(4, "one_hot")([[3], [2]]))
report("one_hot_scalar", C(4, "one_hot")(2))
report("multi_hot_rank1", C(4)([0, 1, 1]))
report("multi_hot_rank2", C(4)([[0, 1], [0, 0], [1, 2], [3, 1]]))
report("count_rank2", C(4, "count")([[0, 1], [0, 0], [1, 2], [3, 1]]))
report("count_weights", C(4, "count")([[0, 1], [0, 0]], count_weights=[[0.1, 0.2], [0.1, 0.4]]))
report("float_ids", C(3)(np.array([[0.0, 1.0]])))
report("int64_ids", C(5, "count")(tf.constant([[4, 4, 1]], tf.int64)))
report("float64_layer", C(3, dtype="float64")([[0, 2]]))
model = tf.keras.Sequential([tf.keras.Input((3,), dtype="int32"), C(5, "count"),
                             tf.keras.layers.Dense(1, kernel_initializer="ones")])
report("in_model", [model.output_shape, model(tf.constant([[1, 1, 4], [0, 2, 3]]))])
cfg = C(3, "count").get_config()
report("config", {k: cfg[k] for k in ("num_tokens", "output_mode", "sparse")})
expect_error("out_of_range", lambda: C(4)([[0, 5]]))
expect_error("negative", lambda: C(4)([[0, -1]]))
expect_error("one_hot_rank2", lambda: C(4, "one_hot")([[3, 1], [2, 0]]))
expect_error("rank3", lambda: C(4)(np.zeros((2, 2, 2), "int32")))
expect_error("no_tokens", lambda: C(None))
expect_error("bad_mode", lambda: C(3, "tf_idf"))
