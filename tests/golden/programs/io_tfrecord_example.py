# tf.train.Example and its parts (wire bytes, text format, values, errors), TFRecord files
# (tf.io.TFRecordWriter's bytes, GZIP/ZLIB, tf.data.TFRecordDataset, a corrupted record),
# tf.io.parse_single_example / parse_example with FixedLenFeature / VarLenFeature, and
# tf.io.gfile's file functions
import os
import tempfile

os.chdir(tempfile.mkdtemp())      # relative names only: no answer quotes this machine's paths
train = tf.train


def example(i):
    return train.Example(features=train.Features(feature={
        "label": train.Feature(int64_list=train.Int64List(value=[i, -i * 1000])),
        "x": train.Feature(float_list=train.FloatList(value=[0.1 * i, 2.5])),
        "name": train.Feature(bytes_list=train.BytesList(value=[b"item%d" % i, b"\x00\"'"])),
    }))


ex = example(3)
report("example.bytes", ex.SerializeToString(deterministic=True).hex())
report("example.roundtrip", train.Example.FromString(ex.SerializeToString()) == ex)
report("example.byte_size", ex.ByteSize())
report("example.keys", sorted(ex.features.feature.keys()))
report("example.values", [list(ex.features.feature["label"].int64_list.value),
                          list(ex.features.feature["x"].float_list.value),
                          list(ex.features.feature["name"].bytes_list.value)])
report("example.kinds", sorted(f.WhichOneof("kind") for f in ex.features.feature.values()))
single = train.Example(features=train.Features(feature={"x": train.Feature(
    float_list=train.FloatList(value=[0.1, 1.0, 2.5e-8, 1e20, float("inf")]))}))
report("example.text", str(single))
report("feature.text", str(train.Feature(bytes_list=train.BytesList(value=[b"a\nb\\", b"\xff"]))))
report("empty.text_and_bytes", [str(train.Example()), train.Example().SerializeToString()])
report("empty_feature.kind", train.Feature().WhichOneof("kind"))
grown = train.Example()
grown.features.feature["k"].int64_list.value.append(5)
grown.features.feature["k"].int64_list.value.extend([6, 7])
report("grown", [str(grown), grown.SerializeToString().hex()])
parsed = train.Example()
report("parse_from_string", [parsed.ParseFromString(ex.SerializeToString()), parsed == ex])
seq = train.SequenceExample(
    context=train.Features(feature={"id": train.Feature(int64_list=train.Int64List(value=[9]))}),
    feature_lists=train.FeatureLists(feature_list={"tokens": train.FeatureList(feature=[
        train.Feature(int64_list=train.Int64List(value=[1, 2])),
        train.Feature(int64_list=train.Int64List(value=[3]))])}))
report("sequence_example", [seq.SerializeToString(deterministic=True).hex(), str(seq)])
expect_error("bytes_list.str", lambda: train.BytesList(value=["text"]))
expect_error("int64_list.float", lambda: train.Int64List(value=[1.5]))

with tf.io.TFRecordWriter("plain.tfrecord") as writer:
    for i in range(3):
        writer.write(example(i).SerializeToString(deterministic=True))
    writer.write(b"")
report("tfrecord.file_bytes", open("plain.tfrecord", "rb").read().hex())
records = list(tf.data.TFRecordDataset("plain.tfrecord"))
report("tfrecord.read", [r.numpy().hex() for r in records])
report("tfrecord.dtype_shape", [records[0].dtype.name, list(records[0].shape)])
for kind in ("GZIP", "ZLIB"):
    with tf.io.TFRecordWriter(f"{kind}.tfrecord", options=tf.io.TFRecordOptions(
            compression_type=kind)) as writer:
        writer.write(b"abc")
        writer.write(b"de")
    report(f"tfrecord.{kind}", [r.numpy() for r in tf.data.TFRecordDataset(
        f"{kind}.tfrecord", compression_type=kind)])
with tf.io.TFRecordWriter("string_options.tfrecord", "GZIP") as writer:
    writer.write(b"xyz")
report("tfrecord.string_options", [r.numpy() for r in tf.data.TFRecordDataset(
    ["string_options.tfrecord"], compression_type="GZIP")])
report("tfrecord.two_files", len(list(tf.data.TFRecordDataset(["plain.tfrecord",
                                                                "plain.tfrecord"]))))
data = bytearray(open("plain.tfrecord", "rb").read())
data[20] ^= 0xFF
open("broken.tfrecord", "wb").write(bytes(data))
expect_error("tfrecord.corrupted", lambda: list(tf.data.TFRecordDataset("broken.tfrecord")))
expect_error("tfrecord.missing", lambda: list(tf.data.TFRecordDataset("nope.tfrecord")))

spec = {"label": tf.io.FixedLenFeature([2], tf.int64),
        "x": tf.io.FixedLenFeature([1, 2], tf.float32),
        "name": tf.io.VarLenFeature(tf.string),
        "weight": tf.io.FixedLenFeature([], tf.float32, default_value=1.5),
        "extra": tf.io.VarLenFeature(tf.int64)}
one = tf.io.parse_single_example(records[2], spec)


def parts(value):
    if isinstance(value, tf.SparseTensor):
        return [value.indices, value.values, value.dense_shape]
    return value


report("parse_single", {k: parts(v) for k, v in one.items()})
report("parse_single.python_bytes", parts(tf.io.parse_single_example(
    example(1).SerializeToString(), {"x": tf.io.FixedLenFeature([2], tf.float32)})["x"]))
batch = tf.io.parse_example(tf.stack(records[:3]), spec)
report("parse_example", {k: parts(v) for k, v in batch.items()})
mapped = tf.data.TFRecordDataset("plain.tfrecord").take(3).map(
    lambda r: tf.io.parse_single_example(r, {"label": tf.io.FixedLenFeature([2], tf.int64)}))
report("parse_in_map", [d["label"] for d in mapped])
fixed, var = tf.io.FixedLenFeature([2], tf.int64), tf.io.VarLenFeature(tf.string)
report("feature_specs", [list(fixed.shape), fixed.dtype.name, fixed.default_value, var.dtype.name,
                         type(fixed).__name__, fixed._fields, var._fields])
expect_error("parse.missing", lambda: tf.io.parse_single_example(
    records[0], {"nope": tf.io.FixedLenFeature([], tf.float32)}))
expect_error("parse.wrong_type", lambda: tf.io.parse_single_example(
    records[0], {"label": tf.io.FixedLenFeature([2], tf.float32)}))
expect_error("parse.wrong_size", lambda: tf.io.parse_single_example(
    records[0], {"label": tf.io.FixedLenFeature([3], tf.int64)}))
expect_error("parse.int32", lambda: tf.io.parse_single_example(
    records[0], {"label": tf.io.FixedLenFeature([2], tf.int32)}))

gfile = tf.io.gfile
gfile.makedirs("g/sub/deeper")
with gfile.GFile("g/a.txt", "w") as f:
    f.write("line one\nline two\n")
with gfile.GFile("g/b.bin", "wb") as f:
    f.write(b"\x00\x01")
with gfile.GFile("g/a.txt") as f:
    report("gfile.read", f.read())
with gfile.GFile("g/a.txt", "r") as f:
    report("gfile.lines", [line for line in f])
with gfile.GFile("g/b.bin", "rb") as f:
    report("gfile.read_binary", [f.read(), f.size()])
report("gfile.exists", [gfile.exists("g/a.txt"), gfile.exists("g/none"), gfile.isdir("g/sub"),
                        gfile.isdir("g/a.txt")])
report("gfile.listdir", sorted(gfile.listdir("g")))
report("gfile.glob", sorted(gfile.glob("g/*.txt")))
report("gfile.join", gfile.join("g", "sub", "x.txt"))
gfile.copy("g/a.txt", "g/c.txt")
expect_error("gfile.copy_existing", lambda: gfile.copy("g/a.txt", "g/c.txt"))
gfile.copy("g/b.bin", "g/c.txt", overwrite=True)
gfile.rename("g/c.txt", "g/d.txt")
gfile.remove("g/b.bin")
report("gfile.after_changes", sorted(gfile.listdir("g")))
report("gfile.walk", sorted((os.path.relpath(d), sorted(s), sorted(f))
                            for d, s, f in gfile.walk("g")))
gfile.rmtree("g/sub")
report("gfile.after_rmtree", sorted(gfile.listdir("g")))
report("gfile.stat_length", gfile.stat("g/a.txt").length)
expect_error("gfile.open_missing", lambda: gfile.GFile("g/none.txt").read())
expect_error("gfile.remove_missing", lambda: gfile.remove("g/none.txt"))
expect_error("gfile.listdir_missing", lambda: gfile.listdir("g/none"))
expect_error("gfile.rename_existing", lambda: gfile.rename("g/a.txt", "g/d.txt"))
