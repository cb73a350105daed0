# Dataset.shuffle with a seed gives TensorFlow's order: Philox draws from the seed pair
# (87654321 or the global seed, then the op seed), a new pair per iteration unless
# reshuffle_each_iteration=False, the ring buffer smaller or larger than the data, after
# from_tensor_slices, range and map, batched; and cache() keeping the first complete
# iteration (a partial one keeps nothing). Also the shuffled batches of
# text_dataset_from_directory (its seed reaches Dataset.shuffle).
import os
import tempfile

report("small_buffer", [[int(x) for x in tf.data.Dataset.range(20).shuffle(5, seed=42)]
                        for _ in range(1)])
ds = tf.data.Dataset.range(20).shuffle(5, seed=42)
report("epochs", [[int(x) for x in ds] for _ in range(3)])
fixed = tf.data.Dataset.from_tensor_slices(np.arange(12) * 10).shuffle(
    4, seed=3, reshuffle_each_iteration=False)
report("fixed", [[int(x) for x in fixed] for _ in range(2)])
pairs = tf.data.Dataset.from_tensor_slices((np.arange(30), np.arange(30.0) * 2)).shuffle(
    100, seed=9).batch(7)
report("big_buffer_batched", [[b[0] for b in pairs] for _ in range(2)])
report("zero_seed", [int(x) for x in tf.data.Dataset.range(9).shuffle(4, seed=0)])
report("after_map", [int(x) for x in tf.data.Dataset.range(10).map(lambda x: x * 2).shuffle(
    6, seed=11)])
report("drop_remainder", [b for b in tf.data.Dataset.range(10).shuffle(3, seed=2).batch(
    4, drop_remainder=True)])

cached = tf.data.Dataset.range(8).shuffle(8, seed=4).cache()
report("cache", [[int(x) for x in cached] for _ in range(2)])
rows = tf.data.Dataset.from_tensor_slices(np.arange(8)).shuffle(8, seed=4).cache()
report("cache.partial_first", [[int(x) for x in rows.take(2)],
                               [[int(x) for x in rows] for _ in range(2)]])
batched = tf.data.Dataset.from_tensor_slices(np.arange(8)).shuffle(8, seed=4).cache().batch(3)
report("cache.batched", [[b for b in batched] for _ in range(2)])
plain = tf.data.Dataset.range(5).map(lambda x: x * x).cache()
report("cache.unshuffled", [[int(x) for x in plain] for _ in range(2)])

root = tempfile.mkdtemp()
for label in ["a", "b"]:
    os.makedirs(os.path.join(root, label))
    for i in range(7):
        with open(os.path.join(root, label, "%d.txt" % i), "w") as f:
            f.write("%s%d" % (label, i))
texts = tf.keras.utils.text_dataset_from_directory(root, batch_size=4, seed=5)
report("text_dataset", [[[x, y] for x, y in texts] for _ in range(2)])

tf.random.set_seed(5)
report("global_seed", [[int(x) for x in tf.data.Dataset.range(10).shuffle(3, seed=1)]
                       for _ in range(1)])

files = tempfile.mkdtemp()
for i in [3, 1, 4, 10, 5, 9, 2, 6]:
    open(os.path.join(files, "f%d.txt" % i), "w").close()
listed = tf.data.Dataset.list_files(os.path.join(files, "*.txt"), seed=3)
report("list_files", [[os.path.basename(x.numpy().decode()) for x in listed] for _ in range(2)])
