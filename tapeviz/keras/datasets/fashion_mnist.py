"""`tv.keras.datasets.fashion_mnist`: 60,000 + 10,000 clothing images, 28x28 uint8."""
import gzip
import os

import numpy as np

from ..data_download import get_file
from ._cache import ORIGIN_FOLDER, cache_folder

FILES = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"]


def _read(path, offset):
    """The bytes after an IDX file's header (8 bytes for labels, 16 for images)."""
    with gzip.open(path, "rb") as f:
        return np.frombuffer(f.read(), np.uint8, offset=offset)


def load_data(cache_dir=None):
    """`(x_train, y_train), (x_test, y_test)`: uint8 images (n, 28, 28) and labels (n,)."""
    cache_dir = cache_folder(cache_dir)
    paths = [get_file(name, origin=ORIGIN_FOLDER + name, cache_dir=cache_dir,
                      cache_subdir=os.path.join("datasets", "fashion-mnist")) for name in FILES]
    y_train, y_test = _read(paths[0], 8), _read(paths[2], 8)
    x_train = _read(paths[1], 16).reshape(len(y_train), 28, 28)
    x_test = _read(paths[3], 16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
