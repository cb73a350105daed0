# StringLookup, IntegerLookup and Hashing at their edges: a mask token in the counting
# modes, num_oov_indices 0 and 2 with the encodings and invert, a vocabulary given as NumPy
# bytes, int32 or a tensor, vocabulary_size before adapt, adapt from unbatched and batched
# Datasets, a second set_vocabulary, from_config, and the CategoryEncoding the guide chains
# after Hashing with count_weights.
L = tf.keras.layers
vocab = ["a", "b", "c"]
report("one_hot_mask", L.StringLookup(vocabulary=vocab, mask_token="", output_mode="one_hot")(
    tf.constant(["a", "", "z"])))
report("one_hot_mask.vocabulary", L.StringLookup(vocabulary=vocab, mask_token="",
                                                 output_mode="one_hot").get_vocabulary())
report("multi_hot_oov0", L.StringLookup(vocabulary=vocab, num_oov_indices=0,
                                        output_mode="multi_hot")(tf.constant([["a", "c"]])))
report("multi_hot_oov0.vocabulary", L.StringLookup(vocabulary=vocab, num_oov_indices=0,
                                                   output_mode="multi_hot").get_vocabulary())
inv2 = L.StringLookup(vocabulary=vocab, num_oov_indices=2, invert=True)
report("invert_oov2", inv2(tf.constant([0, 1, 2, 3, 4, 5])))
report("invert_oov2.vocabulary", inv2.get_vocabulary())
tfidf_mask = L.StringLookup(vocabulary=vocab, mask_token="", idf_weights=[1.0, 2.0, 4.0],
                            output_mode="tf_idf")
report("tf_idf_mask", tfidf_mask(tf.constant([["a", "", "c", "c", "q"]])))
report("bytes_vocabulary", L.StringLookup(vocabulary=np.array([b"x", b"y"]))(
    tf.constant(["y", "x", "w"])))
report("tensor_vocabulary", L.StringLookup(vocabulary=tf.constant(["x", "y"])).get_vocabulary())
report("int32_vocabulary", L.IntegerLookup(vocabulary=np.array([7, 3], np.int32))(
    tf.constant([3, 7, 4])))
fresh = L.StringLookup(mask_token="")
report("size_before_adapt", fresh.vocabulary_size())
report("vocabulary_before_adapt", fresh.get_vocabulary())
expect_error("int_before_adapt", lambda: fresh(tf.constant(["a", ""])))
unbatched = L.StringLookup(output_mode="tf_idf")
unbatched.adapt(tf.data.Dataset.from_tensor_slices(["a", "b", "a", "c"]))
report("adapt.unbatched_tf_idf", unbatched(tf.constant([["a", "b", "c", "d"]])))
batched = L.IntegerLookup(output_mode="tf_idf")
batched.adapt(tf.data.Dataset.from_tensor_slices([[1, 2], [1, 3], [4, 1], [2, 5]]).batch(2))
report("adapt.batched_tf_idf", batched(tf.constant([[1, 2, 3, 4, 5]])))
report("adapt.batched_tf_idf.vocabulary", batched.get_vocabulary())
again = L.StringLookup(vocabulary=vocab)
again.set_vocabulary(["q", "r"])
report("set_vocabulary_again", again(tf.constant(["r", "a"])))
layer = L.StringLookup(vocabulary=vocab, mask_token="", num_oov_indices=2)
clone = L.StringLookup.from_config(layer.get_config())
report("from_config", clone(tf.constant(["", "a", "zz", "c"])))
ilayer = L.IntegerLookup(vocabulary=[5, 6], output_mode="count")
report("from_config.integer", L.IntegerLookup.from_config(ilayer.get_config())(
    tf.constant([[5, 5, 9]])))
hashed = L.Hashing(num_bins=5)(tf.constant([["a", "b"], ["c", "a"]]))
report("category_count_weights", L.CategoryEncoding(num_tokens=5, output_mode="count")(
    hashed, count_weights=tf.constant([[0.5, 1.0], [2.0, 0.25]])))
report("hashing_from_config", L.Hashing.from_config(L.Hashing(num_bins=7, salt=[1, 2]).get_config())(
    tf.constant(["a", "b"])))
called = L.StringLookup(vocabulary=vocab, output_mode="multi_hot")
called(tf.constant([["a"]]))
expect_error("resize_after_call", lambda: called.set_vocabulary(["a", "b"]))


def error_class(fn):
    """The class of what fn() raises (TensorFlow's message quotes the recording machine's
    files when the error comes from a traced function)."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class is the answer
        return type(exc).__name__
    return "no error"


report("int_data_string_adapt", error_class(lambda: L.StringLookup().adapt(np.array([1, 2]))))
expect_error("int_data_string_call", lambda: L.StringLookup(vocabulary=vocab)(tf.constant([1])))
