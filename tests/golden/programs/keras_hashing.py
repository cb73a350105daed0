# tf.keras.layers.Hashing (tf-keras 2): TensorFlow's bins for strings (FarmHash Fingerprint64,
# of every length class up to the 64-byte blocks) and integers (hashed as their decimal
# strings), with salt (SipHash-2-4, an integer or a pair as key), mask_value, the output
# modes, in a model, config and errors; tf.strings.to_hash_bucket_fast/_strong themselves.
L = tf.keras.layers
words = ["", "a", "ab", "abc", "abcd", "hello", "hashing!", "sixteen bytes!!!",
         "seventeen bytes!!", "a string of exactly thirty-two b", "thirty-three bytes of text, yes!!",
         "a longer string of sixty-four bytes ......................... end",
         "and one longer than sixty-four bytes, so the block loop of FarmHash runs twice or more",
         "Éclair ξεῖν᾽", "x" * 200]
strings = tf.constant(words)
report("fast", tf.strings.to_hash_bucket_fast(strings, 1000003))
report("fast.dtype", tf.strings.to_hash_bucket_fast(strings, 7).dtype.name)
report("strong", tf.strings.to_hash_bucket_strong(strings, 1000003, key=[1337, 42]))
report("strong.big_key", tf.strings.to_hash_bucket_strong(strings, 97, key=[2**40 + 3, 99]))
report("fast.rank2", tf.strings.to_hash_bucket_fast(tf.constant([["a", "b"], ["c", "d"]]), 5))
expect_error("fast.int_input", lambda: tf.strings.to_hash_bucket_fast(tf.constant([1]), 5))

report("strings", L.Hashing(num_bins=64)(strings))
report("strings.rank2", L.Hashing(num_bins=3)(tf.constant([["A"], ["B"], ["C"], ["D"]])))
ints = tf.constant([[0], [1], [7], [-5], [100000], [99999], [2**40]])
report("ints", L.Hashing(num_bins=64)(ints))
report("ints.int32", L.Hashing(num_bins=64)(tf.constant([0, 1, 7, -5], tf.int32)))
report("ints.numpy", L.Hashing(num_bins=10)(np.array([[3], [14], [15], [92]])))
report("salt", L.Hashing(num_bins=64, salt=1337)(ints))
report("salt.strings", L.Hashing(num_bins=64, salt=1337)(strings))
report("salt.pair", L.Hashing(num_bins=64, salt=[133, 137])(strings))
report("mask.strings", L.Hashing(num_bins=3, mask_value="")(tf.constant(["A", "B", "", "C"])))
report("mask.ints", L.Hashing(num_bins=5, mask_value=0)(tf.constant([0, 1, 2, 0, 3])))
report("mask.salt", L.Hashing(num_bins=5, mask_value=0, salt=7)(tf.constant([0, 1, 2, 3])))
report("one_bin_mask", L.Hashing(num_bins=1, mask_value=0)(tf.constant([0, 1, 2])))
report("dtype", L.Hashing(num_bins=3)(tf.constant(["a"])).dtype.name)
data = np.arange(0, 100000, 997).reshape(-1, 1)
encoded = L.CategoryEncoding(num_tokens=64, output_mode="multi_hot")(
    L.Hashing(num_bins=64, salt=1337)(data))
report("guide_multi_hot", encoded[:4])
report("one_hot", L.Hashing(num_bins=4, output_mode="one_hot")(tf.constant(["a", "b", "c"])))
report("multi_hot", L.Hashing(num_bins=4, output_mode="multi_hot")(
    tf.constant([["a", "b"], ["c", "c"]])))
report("count", L.Hashing(num_bins=4, output_mode="count")(tf.constant([["a", "b", "a"]])))
report("count.dtype", L.Hashing(num_bins=4, output_mode="count")(tf.constant(["a"])).dtype.name)
model = tf.keras.Sequential([L.Hashing(num_bins=8, output_mode="multi_hot"),
                             L.Dense(1, kernel_initializer="ones")])
report("in_model", model(tf.constant([["a", "b"], ["c", "d"]])))
report("config", {k: v for k, v in L.Hashing(num_bins=8, salt=3, mask_value="m").get_config(
).items() if k not in ("name", "dtype")})
report("experimental_alias", tf.keras.layers.experimental.preprocessing.Hashing(num_bins=9)(
    tf.constant(["x"])))
expect_error("zero_bins", lambda: L.Hashing(num_bins=0))
expect_error("none_bins", lambda: L.Hashing(num_bins=None))
expect_error("bad_salt", lambda: L.Hashing(num_bins=3, salt="x"))
expect_error("bad_mode", lambda: L.Hashing(num_bins=3, output_mode="tf_idf"))
expect_error("sparse_int", lambda: L.Hashing(num_bins=3, sparse=True))
expect_error("float_input", lambda: L.Hashing(num_bins=3)(tf.constant([1.5])))
