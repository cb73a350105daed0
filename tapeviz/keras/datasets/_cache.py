"""What the dataset loaders share: Keras's download address and the optional cache folder."""
from __future__ import annotations

import os

# TF-Keras's address for the datasets it mirrors
ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"


def cache_folder(cache_dir):
    """`cache_dir` with `~` expanded and created, as TF-Keras's loaders do; None stays None."""
    if cache_dir:
        cache_dir = os.path.expanduser(cache_dir)
        os.makedirs(cache_dir, exist_ok=True)
    return cache_dir


def refuse_pickled(dataset):
    """The loader of a dataset Keras ships only as Python pickles."""
    def load_data(*args, **kwargs):
        raise NotImplementedError(
            f"tf.keras.datasets.{dataset}.load_data: Keras ships this dataset as Python "
            "pickles, and tapeviz never unpickles a downloaded file (unpickling can run code). "
            f"Fix: load {dataset} with TensorFlow once, save the arrays with np.savez, and "
            "read them with np.load in the program run under tapeviz.")
    load_data.__name__ = "load_data"
    return load_data
