"""`tv.keras.datasets.mnist`: 60,000 + 10,000 handwritten digits, 28x28 uint8."""
import numpy as np

from ..data_download import get_file
from ._cache import ORIGIN_FOLDER, cache_folder

FILE_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path="mnist.npz", cache_dir=None):
    """`(x_train, y_train), (x_test, y_test)`: uint8 images (n, 28, 28) and labels (n,)."""
    path = get_file(path, origin=ORIGIN_FOLDER + "mnist.npz", file_hash=FILE_HASH,
                    cache_dir=cache_folder(cache_dir))
    with np.load(path, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
