"""`tv.keras.datasets.boston_housing`: 506 houses, 13 features, prices in k$."""
import numpy as np

from ..data_download import get_file
from ._cache import ORIGIN_FOLDER, cache_folder

FILE_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path="boston_housing.npz", test_split=0.2, seed=113, cache_dir=None):
    """`(x_train, y_train), (x_test, y_test)`, float64, shuffled by NumPy's `RandomState(seed)`
    and split as Keras splits them (the first `1 - test_split` of the rows for training)."""
    assert 0 <= test_split < 1
    path = get_file(path, origin=ORIGIN_FOLDER + "boston_housing.npz", file_hash=FILE_HASH,
                    cache_dir=cache_folder(cache_dir))
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    indices = np.arange(len(x))
    np.random.RandomState(seed).shuffle(indices)
    x, y = x[indices], y[indices]
    n_train = int(len(x) * (1 - test_split))
    return (np.array(x[:n_train]), np.array(y[:n_train])), \
        (np.array(x[n_train:]), np.array(y[n_train:]))
