# tf.keras.utils.get_file from a file:// origin into a cache folder of our own: cache paths,
# untar/extract, sha256 and md5 checks, a cached file reused, a wrong hash refused; and
# tf.keras.datasets.fashion_mnist reading IDX files already in Keras's cache (it checks no
# hash, so no download happens)
import gzip
import hashlib
import io
import os
import tarfile
import tempfile
import zipfile

# relative names in a folder of our own, so that no answer quotes a path of this machine
os.chdir(tempfile.mkdtemp())
os.makedirs("src")
with open("src/notes.txt", "wb") as f:
    f.write(b"first version\n")
with tarfile.open("src/pack.tar.gz", "w:gz") as t:
    data = b"inside the tar"
    info = tarfile.TarInfo("pack/a.txt")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))
with zipfile.ZipFile("src/zipped.zip", "w") as z:
    z.writestr("zipped/b.txt", "inside the zip")
url = lambda name: "file://" + os.path.abspath(os.path.join("src", name))  # noqa: E731
read = lambda path: open(path, "rb").read()  # noqa: E731
sha256 = hashlib.sha256(read("src/notes.txt")).hexdigest()
md5 = hashlib.md5(read("src/notes.txt")).hexdigest()
get_file = tf.keras.utils.get_file

path = get_file("notes.txt", origin=url("notes.txt"), cache_dir=".")
report("plain.path", path)
report("plain.content", read(path).decode())
report("origin_name", get_file(origin=url("notes.txt"), cache_dir=".", cache_subdir="other"))
with open("src/notes.txt", "wb") as f:
    f.write(b"second version\n")
report("cached_is_reused", read(get_file("notes.txt", origin=url("notes.txt"),
                                         cache_dir=".")).decode())
report("hash.sha256_ok", get_file("notes.txt", origin=url("notes.txt"), cache_dir=".",
                                  file_hash=sha256))
report("hash.md5_ok", get_file("notes.txt", origin=url("notes.txt"), cache_dir=".",
                               md5_hash=md5))
# the cached file does not match: downloaded again, and the new file fails the check too
expect_error("hash.mismatch_after_download", lambda: get_file(
    "notes.txt", origin=url("notes.txt"), cache_dir=".",
    file_hash=hashlib.sha256(b"another file").hexdigest()))
report("hash.mismatch_keeps_new_download", read("datasets/notes.txt").decode())
report("hash.explicit_algorithm", get_file("n2.txt", origin=url("notes.txt"), cache_dir=".",
                                           file_hash=hashlib.sha256(
                                               read("src/notes.txt")).hexdigest(),
                                           hash_algorithm="sha256"))

report("untar.path", get_file("pack.tar.gz", origin=url("pack.tar.gz"), cache_dir=".",
                              untar=True))
report("untar.content", read("datasets/pack/a.txt").decode())
report("untar.archive_kept", os.path.exists("datasets/pack.tar.gz"))
report("extract.tar_path", get_file("pack2.tar.gz", origin=url("pack.tar.gz"), cache_dir=".",
                                    cache_subdir="ex", extract=True))
report("extract.tar_files", sorted(os.listdir("ex")))
report("extract.zip_path", get_file(origin=url("zipped.zip"), cache_dir=".",
                                    cache_subdir="ex", extract=True))
report("extract.zip_content", read("ex/zipped/b.txt").decode())
report("extract.zip_as_tar_only", [get_file(origin=url("zipped.zip"), cache_dir=".",
                                            cache_subdir="ex2", extract=True,
                                            archive_format="tar"),
                                   sorted(os.listdir("ex2"))])
report("absolute_subdir_is_kept", os.path.relpath(get_file(
    "notes.txt", origin=url("notes.txt"), cache_dir=".",
    cache_subdir=os.path.abspath("elsewhere"))))
expect_error("no_origin", lambda: get_file("x.txt"))
try:   # (the class only: TensorFlow's message quotes the folder's absolute path)
    get_file("gone.txt", origin=url("gone.txt"), cache_dir=".")
except Exception as e:
    report("missing_source", type(e).__name__)
report("missing_source_left_nothing", os.path.exists("datasets/gone.txt"))
expect_error("origin_without_name", lambda: get_file(origin="file:///", cache_dir="."))


def idx(path, header, values):
    with gzip.open(path, "wb") as f:
        f.write(bytes(header) + bytes(values))


fashion = os.path.join("cache", "datasets", "fashion-mnist")
os.makedirs(fashion)
idx(os.path.join(fashion, "train-labels-idx1-ubyte.gz"), range(8), [3, 1, 4])
idx(os.path.join(fashion, "train-images-idx3-ubyte.gz"), range(16),
    [i % 256 for i in range(3 * 28 * 28)])
idx(os.path.join(fashion, "t10k-labels-idx1-ubyte.gz"), range(8), [9, 2])
idx(os.path.join(fashion, "t10k-images-idx3-ubyte.gz"), range(16),
    [(7 * i) % 256 for i in range(2 * 28 * 28)])
(x_train, y_train), (x_test, y_test) = tf.keras.datasets.fashion_mnist.load_data(
    cache_dir="cache")
report("fashion.shapes", [list(a.shape) for a in (x_train, y_train, x_test, y_test)])
report("fashion.dtypes", [str(a.dtype) for a in (x_train, y_train, x_test, y_test)])
report("fashion.labels", [y_train.tolist(), y_test.tolist()])
report("fashion.pixels", [x_train[1, 2, :6].tolist(), x_test[1, 27, -4:].tolist(),
                          int(x_train.sum()), int(x_test.sum())])
report("fashion.is_numpy", type(x_train).__module__)
