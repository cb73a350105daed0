# tf.keras.utils.image_dataset_from_directory and text_dataset_from_directory on folders this
# program writes (PNG and JPEG images, text files): file order, labels inferred from the
# sorted class folders, class_names, file_paths, the NumPy-seeded file shuffle,
# validation_split with subset "training"/"validation"/"both", batch_size, image_size,
# label_mode, color_mode, crop_to_aspect_ratio, max_length, labels=None; and the
# tf.strings.split / string indexing a hand-written loader uses. Batches that the seeded
# Dataset.shuffle reorders are reported sorted.
import os
import tempfile

import PIL.Image

os.chdir(tempfile.mkdtemp())      # (relative paths: no temporary folder in the answers)
root = "."
rng = np.random.default_rng(4)
images = "images"
for c, name in enumerate(["cats", "dogs", "birds"]):
    os.makedirs(os.path.join(images, name))
    for i in range(3 + c):
        pixels = rng.integers(0, 256, size=(6 + i, 8, 3)).astype(np.uint8)
        ext = ".png" if i % 2 == 0 else ".jpg"
        PIL.Image.fromarray(pixels).save(os.path.join(images, name, f"{name}{i}{ext}"),
                                         quality=90)
open(os.path.join(images, "cats", "notes.txt"), "w").write("not an image")
os.makedirs(os.path.join(images, ".hidden"))


def rel(paths):
    return [os.path.relpath(p, root) for p in paths]


def rows(ds):
    return [(x.numpy(), y.numpy()) for x, y in ds]


plain = tf.keras.utils.image_dataset_from_directory(images, image_size=(4, 5), batch_size=5,
                                                    shuffle=False)
report("image.class_names", plain.class_names)
report("image.file_paths", rel(plain.file_paths))
report("image.batches", [[x, y] for x, y in rows(plain)])

train = tf.keras.utils.image_dataset_from_directory(images, validation_split=0.25,
                                                    subset="training", seed=7,
                                                    image_size=(3, 3), batch_size=4)
val = tf.keras.utils.image_dataset_from_directory(images, validation_split=0.25,
                                                  subset="validation", seed=7,
                                                  image_size=(3, 3), batch_size=4)
report("split.train_paths", rel(train.file_paths))
report("split.val_paths", rel(val.file_paths))
train_rows = [(x, y) for xs, ys in rows(train) for x, y in zip(xs, ys)]
report("split.train_sorted", sorted([[float(x.sum()), int(y)] for x, y in train_rows]))
report("split.train_batch_sizes", [len(y) for _, y in rows(train)])
both = tf.keras.utils.image_dataset_from_directory(images, validation_split=0.3, subset="both",
                                                   seed=3, image_size=(2, 2), batch_size=2,
                                                   label_mode="categorical")
report("both.val", [[x, y] for x, y in rows(both[1])])
report("both.train_paths", rel(both[0].file_paths))

gray = tf.keras.utils.image_dataset_from_directory(
    images, color_mode="grayscale", image_size=(5, 4), shuffle=False, batch_size=None,
    crop_to_aspect_ratio=True, interpolation="nearest", class_names=["dogs", "cats", "birds"])
report("gray.first", next(iter(gray)))
report("gray.class_names", gray.class_names)
unlabelled = tf.keras.utils.image_dataset_from_directory(os.path.join(images, "cats"),
                                                         labels=None, image_size=(2, 3),
                                                         shuffle=False)
report("unlabelled", [x for x in unlabelled])
given = tf.keras.utils.image_dataset_from_directory(images, labels=[0, 1] * 6,
                                                    label_mode="binary", image_size=(2, 2),
                                                    shuffle=False, batch_size=12)
report("given_labels", [[x, y] for x, y in given])

texts = os.path.join(root, "texts")
for label, n in [("neg", 3), ("pos", 4)]:
    os.makedirs(os.path.join(texts, label))
    for i in range(n):
        with open(os.path.join(texts, label, f"{i}.txt"), "w") as f:
            f.write(f"{label} review number {i}, " + "word " * i + ".")
text = tf.keras.preprocessing.text_dataset_from_directory(texts, batch_size=3, shuffle=False)
report("text.class_names", text.class_names)
report("text.batches", [[x, y] for x, y in text])
short = tf.keras.utils.text_dataset_from_directory(texts, max_length=9, batch_size=None,
                                                   shuffle=False, label_mode="binary")
report("text.max_length", [[x, y] for x, y in short])
tv_train = tf.keras.utils.text_dataset_from_directory(texts, validation_split=0.3,
                                                      subset="training", seed=42)
expect_error("text.no_file_paths", lambda: tv_train.file_paths)
report("text.train_sorted", sorted(bytes(t) for b, _ in tv_train for t in b.numpy()))

expect_error("error.split_without_seed", lambda: tf.keras.utils.image_dataset_from_directory(
    images, validation_split=0.2, subset="training"))
expect_error("error.subset_without_split", lambda: tf.keras.utils.text_dataset_from_directory(
    texts, subset="training"))
expect_error("error.bad_color_mode", lambda: tf.keras.utils.image_dataset_from_directory(
    images, color_mode="cmyk"))
expect_error("error.class_names", lambda: tf.keras.utils.image_dataset_from_directory(
    images, class_names=["cats", "dogs"]))
expect_error("error.binary_three", lambda: tf.keras.utils.image_dataset_from_directory(
    images, label_mode="binary"))
expect_error("error.no_files", lambda: tf.keras.utils.text_dataset_from_directory(
    os.path.join(images, "dogs")))
expect_error("error.label_count", lambda: tf.keras.utils.image_dataset_from_directory(
    images, labels=[0, 1]))

path = tf.constant(os.path.join("data", "roses", "r1.jpg"))
parts = tf.strings.split(path, os.path.sep)
report("split.parts", parts)
report("split.one_hot", parts[-2] == np.array(["daisy", "roses", "tulips"]))
report("split.label", tf.argmax(parts[-2] == np.array(["daisy", "roses", "tulips"])))
report("split.whitespace", tf.strings.split(tf.constant("  a b\t\tc  ")))
report("split.maxsplit", tf.strings.split(tf.constant("a,b,,c"), ",", maxsplit=2))
report("split.empty_pieces", tf.strings.split(tf.constant(",a,,"), ","))
report("string_index", [tf.constant(["x", "yz"])[1], tf.constant(["x", "yz"])[1] == "yz"])
