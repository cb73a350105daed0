# tf.keras.layers.IntegerLookup (tf-keras 2): a given vocabulary, adapt()'s order (count, then
# the value, both descending) with max_tokens, num_oov_indices 0/1/3 (several OOV indices:
# floor modulo), mask_token, oov_token, invert=True, the output modes, int32 and float inputs,
# get_vocabulary, vocabulary_size, config and errors.
L = tf.keras.layers
vocab = [12, 36, 1138, 42]
data = tf.constant([[12, 1138, 42], [42, 1000, 36]])
report("int", L.IntegerLookup(vocabulary=vocab)(data))
report("int.dtype", L.IntegerLookup(vocabulary=vocab)(data).dtype.name)
report("int32_input", L.IntegerLookup(vocabulary=vocab)(tf.constant([36, 7], tf.int32)))
report("float_input", L.IntegerLookup(vocabulary=vocab)(tf.constant([36.7, 12.0])))
report("vocabulary", L.IntegerLookup(vocabulary=vocab).get_vocabulary())
report("vocabulary.tensor", L.IntegerLookup(vocabulary=tf.constant(vocab)).get_vocabulary())
report("with_specials", L.IntegerLookup(vocabulary=[-1] + vocab)(data))
mask = L.IntegerLookup(vocabulary=vocab, mask_token=0)
report("mask.vocabulary", mask.get_vocabulary())
report("mask.call", mask(tf.constant([12, 0, 5, 42])))
oov3 = L.IntegerLookup(vocabulary=vocab, num_oov_indices=3)
report("oov3.vocabulary", oov3.get_vocabulary())
report("oov3.call", oov3(tf.constant([12, 5, 6, 7, -4, 1000, 42])))
report("oov3_mask.call", L.IntegerLookup(vocabulary=vocab, num_oov_indices=3, mask_token=0)(
    tf.constant([12, 0, 5, 7])))
report("oov0", L.IntegerLookup(vocabulary=vocab, num_oov_indices=0)(tf.constant([42, 12])))
expect_error("oov0.unknown", lambda: L.IntegerLookup(vocabulary=vocab, num_oov_indices=0)(
    tf.constant([42, 13])))
report("oov_token", L.IntegerLookup(vocabulary=vocab, oov_token=-7).get_vocabulary())
inv = L.IntegerLookup(vocabulary=vocab, invert=True)
report("invert", inv(tf.constant([[1, 3, 4], [4, 0, 2]])))
report("invert.dtype", inv(tf.constant([1])).dtype.name)
report("invert.out_of_range", inv(tf.constant([9, 2])))
report("invert_mask", L.IntegerLookup(vocabulary=vocab, invert=True, mask_token=0)(
    tf.constant([0, 1, 2, 5])))

toy = tf.constant([[10], [20], [20], [10], [30], [0]])
test = tf.constant([[10], [10], [20], [50], [60], [0]])
for mode in ["int", "one_hot", "multi_hot", "count", "tf_idf"]:
    layer = L.IntegerLookup(output_mode=mode)
    layer.adapt(toy)
    report(mode + ".vocabulary", layer.get_vocabulary())
    report(mode + ".output", layer(test))
    report(mode + ".size", layer.vocabulary_size())
rows = tf.constant([[1, 2, 1], [3, 1, 9]])
for mode in ["multi_hot", "count", "tf_idf"]:
    layer = L.IntegerLookup(output_mode=mode)
    layer.adapt(tf.constant([[2, 1, 1], [3, 1, 3], [4, 4, 5]]))
    report(mode + ".rows", layer(rows))
report("count_mask", L.IntegerLookup(vocabulary=vocab, mask_token=0, output_mode="count")(
    tf.constant([[12, 0, 0, 12, 5]])))
report("pad_to_max_tokens", L.IntegerLookup(vocabulary=vocab, max_tokens=7,
                                            pad_to_max_tokens=True, output_mode="one_hot")(
    tf.constant([12, 42, 5])))
report("tf_idf.given", L.IntegerLookup(vocabulary=vocab, idf_weights=[1.0, 2.0, 3.0, 4.0],
                                       output_mode="tf_idf")(tf.constant([[12, 12, 42, 3]])))

values = np.array([(i * 7) % 11 for i in range(100)] + [3] * 4 + [8, 8])
adapted = L.IntegerLookup(max_tokens=6)
adapted.adapt(values)
report("adapt.max_tokens", adapted.get_vocabulary())
ties = L.IntegerLookup()
ties.adapt(tf.data.Dataset.from_tensor_slices([5, -2, 5, 100, -2, 7, -1, 0]).batch(3))
report("adapt.ties_dataset", ties.get_vocabulary())
report("adapt.ties_call", ties(tf.constant([100, -2, -1, 3])))
model = tf.keras.Sequential([L.IntegerLookup(vocabulary=vocab, output_mode="multi_hot"),
                             L.Dense(1, kernel_initializer="ones")])
report("in_model", model(tf.constant([[12, 42], [5, 5]])))
report("config", {k: v for k, v in L.IntegerLookup(vocabulary=vocab, mask_token=0).get_config(
).items() if k not in ("name", "dtype")})
report("experimental_alias", tf.keras.layers.experimental.preprocessing.IntegerLookup(
    vocabulary=vocab)(tf.constant([42])))

expect_error("repeated", lambda: L.IntegerLookup(vocabulary=[1, 2, 1]))
expect_error("max_tokens_1", lambda: L.IntegerLookup(max_tokens=1))
expect_error("negative_oov", lambda: L.IntegerLookup(num_oov_indices=-2))
expect_error("float_vocabulary_dtype", lambda: L.IntegerLookup(vocabulary_dtype="float32"))
expect_error("mask_inside", lambda: L.IntegerLookup(vocabulary=[0, 1], mask_token=0))
expect_error("string_input", lambda: L.IntegerLookup(vocabulary=vocab)(tf.constant(["a"])))
expect_error("no_vocab_count", lambda: L.IntegerLookup(output_mode="count")(tf.constant([1])))
