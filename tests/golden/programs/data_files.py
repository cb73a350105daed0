# tf.data.TextLineDataset, Dataset.list_files, Dataset.counter / experimental.Counter,
# experimental.shuffle_and_repeat, tf.data.Options, and string elements of
# from_tensor_slices
import os
import tempfile

# relative names in a folder of our own, so that no answer quotes a path of this machine
os.chdir(tempfile.mkdtemp())
folder = "."
with open("f1.txt", "wb") as f:
    f.write(b"a\nbb\n\nccc")
with open("f2.txt", "wb") as f:
    f.write(b"x\r\ny\n")
f1, f2 = "f1.txt", "f2.txt"

report("text_lines.one", list(tf.data.TextLineDataset(f1)))
report("text_lines.two", list(tf.data.TextLineDataset([f1, f2])))
report("text_lines.tensor_names", list(tf.data.TextLineDataset(tf.constant([f2]))))
report("text_lines.cardinality", tf.data.TextLineDataset(f1).cardinality())
report("text_lines.mapped", list(tf.data.TextLineDataset(f1).map(tf.strings.length)))
expect_error("text_lines.missing", lambda: list(tf.data.TextLineDataset(
    "nope.txt")))

names = lambda ds: [os.path.basename(x.numpy().decode()) for x in ds]   # noqa: E731
report("list_files.ordered", names(tf.data.Dataset.list_files(folder + "/*.txt", shuffle=False)))
report("list_files.shuffled_same_set", sorted(names(tf.data.Dataset.list_files(folder + "/*.txt"))))
report("list_files.cardinality", tf.data.Dataset.list_files(folder + "/*.txt").cardinality())
report("list_files.dtype", next(iter(tf.data.Dataset.list_files(folder + "/*.txt"))).dtype.name)
expect_error("list_files.none", lambda: tf.data.Dataset.list_files(folder + "/*.csv"))

report("counter", list(tf.data.experimental.Counter().take(3)))
report("counter.start_step_dtype", list(tf.data.experimental.Counter(start=2, step=3,
                                                                      dtype=tf.int32).take(2)))
report("counter.cardinality", tf.data.experimental.Counter().cardinality())
report("dataset_counter", list(tf.data.Dataset.counter(start=1).take(2)))
report("shuffle_and_repeat", sorted(int(x) for x in tf.data.Dataset.range(3).apply(
    tf.data.experimental.shuffle_and_repeat(1, count=2))))

options = tf.data.Options()
options.experimental_deterministic = False
options.deterministic = True
report("options.auto_shard_default", str(options.experimental_distribute.auto_shard_policy))
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.OFF
options.experimental_optimization.map_parallelization = True
options.threading.private_threadpool_size = 2
kept = tf.data.Dataset.range(2).with_options(options)
report("options.kept", [kept.options().deterministic, list(kept)])
report("options.policy_value", int(tf.data.experimental.AutoShardPolicy.DATA))
report("options.isinstance", isinstance(tf.data.Options(), tf.data.Options))
expect_error("options.unknown", lambda: setattr(options, "nonsense", 1))

report("strings.slices", list(tf.data.Dataset.from_tensor_slices(["a", "bc"])))
report("strings.pairs", list(tf.data.Dataset.from_tensor_slices((["a", "bc"], [1, 2]))))
