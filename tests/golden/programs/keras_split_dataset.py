# tf.keras.utils.split_dataset: arrays, tuples and lists of arrays, datasets (batched and not),
# sizes as counts and fractions, shuffling with a seed (Python's random), and its errors
split = tf.keras.utils.split_dataset
x = np.arange(20, dtype=np.float32).reshape(10, 2)
y = np.arange(10)


def items(ds):
    return [e for e in ds]


left, right = split((x, y), left_size=0.8)
report("tuple.fraction", [items(left), items(right)])
left, right = split(x, right_size=3)
report("array.count", [items(left), items(right)])
left, right = split([x, y], left_size=2, right_size=3)
report("list.both_counts", [items(left), items(right)])
left, right = split((x, y), left_size=0.5, shuffle=True, seed=7)
report("tuple.shuffled", [items(left), items(right)])
ds = tf.data.Dataset.from_tensor_slices((x, y))
left, right = split(ds, left_size=0.3)
report("dataset", [items(left), items(right)])
left, right = split(ds.batch(4), right_size=0.5)
report("dataset.batched", [items(left), items(right)])
left, right = split(tf.data.Dataset.from_tensor_slices({"a": x, "b": y}), left_size=4)
report("dataset.dict", [items(left), len(items(right))])
report("cardinality", [int(left.cardinality()), int(right.cardinality())])
expect_error("no_sizes", lambda: split(x))
expect_error("both_zero", lambda: split(x, left_size=0, right_size=0))
expect_error("too_big", lambda: split(x, left_size=10))
expect_error("float_sum", lambda: split(x, left_size=0.7, right_size=0.5))
expect_error("bad_type", lambda: split(x, left_size="half"))
expect_error("not_a_dataset", lambda: split(5, left_size=1))
expect_error("mismatched", lambda: split((x, y[:5]), left_size=1))
expect_error("empty_side", lambda: split(x[:3], left_size=0.1))
