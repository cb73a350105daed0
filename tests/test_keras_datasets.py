"""`tf.keras.datasets` loaders on synthetic files in Keras's cache layout.

mnist and boston_housing check a file hash, so their synthetic files are accepted by patching
the expected hash; everything after the download is compared with what TF-Keras's own loaders
return on the same files (recorded by running this file with TensorFlow:
`python tests/test_keras_datasets.py` in a virtual environment with tensorflow-cpu and tf-keras,
which writes tests/fixtures/keras_datasets_tf.json). get_file itself and fashion_mnist are
golden programs (tests/golden/programs/keras_get_file.py).
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import urllib.error

import numpy as np

ANSWERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "keras_datasets_tf.json")
BOSTON_CALLS = {"default": {}, "split_0.3_seed_7": {"test_split": 0.3, "seed": 7},
                "no_test": {"test_split": 0.0}}


def write_files(folder):
    """Synthetic mnist.npz and boston_housing.npz in `folder`/datasets; their sha256s."""
    datasets = os.path.join(folder, "datasets")
    os.makedirs(datasets, exist_ok=True)
    mnist = os.path.join(datasets, "mnist.npz")
    np.savez(mnist, x_train=(np.arange(3 * 28 * 28) % 251).astype(np.uint8).reshape(3, 28, 28),
             y_train=np.array([5, 0, 4], np.uint8),
             x_test=(np.arange(2 * 28 * 28) % 7).astype(np.uint8).reshape(2, 28, 28),
             y_test=np.array([7, 2], np.uint8))
    boston = os.path.join(datasets, "boston_housing.npz")
    np.savez(boston, x=np.arange(11 * 13, dtype=np.float64).reshape(11, 13) * 0.5,
             y=np.arange(11, dtype=np.float64) * 1.5 + 3)
    sha = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()  # noqa: E731
    return {"mnist": sha(mnist), "boston_housing": sha(boston)}


def summary(result):
    (x_train, y_train), (x_test, y_test) = result
    return [{"dtype": str(a.dtype), "shape": list(a.shape), "values": a.ravel().tolist()}
            for a in (x_train, y_train, x_test, y_test)]


def test_mnist_and_boston_match_tensorflow(tmp_path, monkeypatch):
    import tapeviz as tv
    from tapeviz.keras.datasets import boston_housing, mnist
    hashes = write_files(str(tmp_path))
    monkeypatch.setattr(mnist, "FILE_HASH", hashes["mnist"])
    monkeypatch.setattr(boston_housing, "FILE_HASH", hashes["boston_housing"])
    expected = json.load(open(ANSWERS))
    assert summary(tv.keras.datasets.mnist.load_data(cache_dir=str(tmp_path))) == \
        expected["mnist"]
    for name, kwargs in BOSTON_CALLS.items():
        got = summary(tv.keras.datasets.boston_housing.load_data(cache_dir=str(tmp_path),
                                                                 **kwargs))
        assert got == expected["boston_housing"][name], name


def test_a_cached_file_with_another_hash_is_downloaded_again(tmp_path, monkeypatch):
    import tapeviz as tv
    write_files(str(tmp_path))      # a synthetic mnist.npz: not Keras's hash
    asked = []

    def offline(url, path, *args):
        asked.append(url)
        raise urllib.error.URLError("offline")
    monkeypatch.setattr("urllib.request.urlretrieve", offline)
    try:
        tv.keras.datasets.mnist.load_data(cache_dir=str(tmp_path))
    except Exception as e:      # TF-Keras raises a bare Exception naming the address
        assert type(e) is Exception and "URL fetch failure on" in str(e)
    else:
        raise AssertionError("a file with the wrong hash was accepted")
    assert asked == ["https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"]
    assert not os.path.exists(tmp_path / "datasets" / "mnist.npz")   # no half file kept


def test_pickled_datasets_refuse_with_the_reason():
    import tapeviz as tv
    for name in ("cifar10", "cifar100", "imdb", "reuters"):
        try:
            getattr(tv.keras.datasets, name).load_data()
        except NotImplementedError as e:
            assert f"tf.keras.datasets.{name}.load_data" in str(e) and "Fix:" in str(e)
        else:
            raise AssertionError(name)
    assert len(tv.keras.datasets.reuters.get_label_names()) == 46


def record_with_tensorflow():
    """Run TF-Keras's loaders on the synthetic files (its get_file bypassed) and save."""
    import tempfile
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    from tf_keras.src.datasets import boston_housing, mnist
    folder = tempfile.mkdtemp()
    write_files(folder)
    for module, name in ((mnist, "mnist.npz"), (boston_housing, "boston_housing.npz")):
        module.get_file = lambda *a, _n=name, **k: os.path.join(folder, "datasets", _n)
    answers = {"mnist": summary(mnist.load_data()),
               "boston_housing": {name: summary(boston_housing.load_data(**kwargs))
                                  for name, kwargs in BOSTON_CALLS.items()}}
    with open(ANSWERS, "w") as f:
        json.dump(answers, f, indent=0)
        f.write("\n")


if __name__ == "__main__":
    sys.exit(record_with_tensorflow())
