# keras.preprocessing.sequence.pad_sequences and keras.utils.pad_sequences, as the keras.io
# IMDB examples and the masking guide call them: pre and post padding and truncating,
# maxlen shorter and longer than the sequences, a value, a float dtype, empty sequences,
# items of shape (2,), and the errors for a bad padding type and non-iterable items.
raw = [[711, 632, 71], [73, 8, 3215, 55, 927], [83, 91, 1, 645, 1253, 927], []]
report("default", tf.keras.preprocessing.sequence.pad_sequences(raw))
report("post", tf.keras.utils.pad_sequences(raw, padding="post"))
report("maxlen_pre", tf.keras.preprocessing.sequence.pad_sequences(raw, maxlen=4))
report("maxlen_post_truncating", tf.keras.utils.pad_sequences(raw, maxlen=4, truncating="post"))
report("longer", tf.keras.utils.pad_sequences(raw[:2], maxlen=7, value=-1))
report("float", tf.keras.utils.pad_sequences([[0.5, 1.5], [2.5]], dtype="float32"))
report("items", tf.keras.utils.pad_sequences([[[1, 2], [3, 4]], [[5, 6]]], padding="post"))
report("numpy_rows", tf.keras.utils.pad_sequences(np.array([[1, 2, 3], [4, 5, 6]]), maxlen=2))
expect_error("bad_padding", lambda: tf.keras.utils.pad_sequences(raw, padding="middle"))
expect_error("non_iterable", lambda: tf.keras.utils.pad_sequences([1, 2]))
