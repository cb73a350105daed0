# tf.keras.layers.TextVectorization (tf-keras 2): adapt()'s vocabulary order (count, then
# the token's bytes, both descending), max_tokens, the special tokens per output_mode, "int"
# with and without output_sequence_length (padded and truncated), multi_hot, count and
# tf_idf (the learnt IDF weights and the OOV's mean), the standardize and split options
# (ASCII-only lowercasing, Keras's punctuation regex, callables), ngrams,
# pad_to_max_tokens, a given vocabulary and idf_weights, adapt from a Dataset, input ranks,
# a model that takes raw strings, and the errors.

L = tf.keras.layers
texts = ["The cat sat on the mat.", "The dog ate my homework!", "A cat, a dog; THE end",
         "zebra Éclair ÉCLAIR", "dog-eat-dog world... isn't it?"]
queries = tf.constant(["the cat ate the zebra", "unknown words here", ""])

for mode in ["int", "multi_hot", "count", "tf_idf"]:
    layer = L.TextVectorization(max_tokens=9, output_mode=mode)
    layer.adapt(texts)
    report(mode + ".vocabulary", layer.get_vocabulary())
    report(mode + ".vocabulary_size", layer.vocabulary_size())
    report(mode + ".output", layer(queries))
    report(mode + ".shape", list(layer.compute_output_shape((None,))))

full = L.TextVectorization()
full.adapt(tf.data.Dataset.from_tensor_slices(texts).batch(2))
report("full.vocabulary", full.get_vocabulary())
report("full.without_specials", full.get_vocabulary(include_special_tokens=False))
report("full.rank2", full(tf.constant([["the cat"], ["a b c d e f"]])))
report("full.scalar", full(tf.constant("the cat")))
report("full.list", full(["dog world", "isnt it"]))
report("sequence.padded", L.TextVectorization(output_sequence_length=6, vocabulary=[
    "the", "cat", "dog"])(queries))
report("sequence.truncated", L.TextVectorization(output_sequence_length=2, vocabulary=[
    "the", "cat", "dog"])(queries))

for standardize in ["lower", "strip_punctuation", None]:
    layer = L.TextVectorization(standardize=standardize, output_mode="count")
    layer.adapt(texts)
    report("standardize.%s" % standardize, layer.get_vocabulary())


def only_letters(x):
    return tf.strings.regex_replace(tf.strings.lower(x), "[^a-z ]", "")


custom = L.TextVectorization(standardize=only_letters)
custom.adapt(texts)
report("standardize.callable", custom.get_vocabulary())
chars = L.TextVectorization(split="character", max_tokens=12)
chars.adapt(texts[:2])
report("split.character", [chars.get_vocabulary(), chars(["cat dog"])])
whole = L.TextVectorization(split=None, output_mode="multi_hot")
whole.adapt(["red", "green", "red", "blue  sky"])
report("split.none", [whole.get_vocabulary(), whole(["red", "blue  sky", "pink"])])
bigrams = L.TextVectorization(ngrams=2)
bigrams.adapt(texts[:3])
report("ngrams.2", [bigrams.get_vocabulary(), bigrams(["the cat sat"])])
widths = L.TextVectorization(ngrams=(1, 3), output_mode="count", max_tokens=15)
widths.adapt(texts[:3])
report("ngrams.tuple", [widths.get_vocabulary(), widths(["the cat sat on the mat"])])
padded = L.TextVectorization(max_tokens=20, output_mode="multi_hot", pad_to_max_tokens=True)
padded.adapt(texts[:2])
report("pad_to_max_tokens", padded(["the cat"]))

given = L.TextVectorization(vocabulary=["", "[UNK]", "b", "a"])
report("given.with_specials", [given.get_vocabulary(), given(["a b c"])])
idf = L.TextVectorization(output_mode="tf_idf", vocabulary=["x", "y"], idf_weights=[0.5, 2.0])
report("given.idf", [idf.get_vocabulary(), idf(["x y y z"])])
arrays = L.TextVectorization(output_mode="count")
arrays.adapt(np.array([["one two"], ["two three three"]]))
report("adapt.array", [arrays.get_vocabulary(), arrays(np.array([["three one"]]))])

model = tf.keras.Sequential([full, L.Embedding(20, 2, embeddings_initializer="ones"),
                             L.GlobalAveragePooling1D()])
report("model.predict", model.predict(tf.constant(["the cat", "zebra dog world"]), verbose=0))

expect_error("error.mode", lambda: L.TextVectorization(output_mode="one_hot"))
expect_error("error.sequence_length_with_counts", lambda: L.TextVectorization(
    output_mode="count", output_sequence_length=3))
expect_error("error.rank2_wide", lambda: full(tf.constant([["a", "b"]])))
expect_error("error.repeated", lambda: L.TextVectorization(vocabulary=["a", "b", "a"]))
expect_error("error.idf_missing", lambda: L.TextVectorization(output_mode="tf_idf",
                                                              vocabulary=["a"]))
expect_error("error.standardize", lambda: L.TextVectorization(standardize="upper"))
expect_error("error.dtype", lambda: L.TextVectorization(dtype="int32"))
