"""Where `Model.save`, `Model.save_weights`, `Model.load_weights` and
`tf.keras.models.load_model` send a path, by its suffix and `save_format`, as tf-keras 2.21:

- `.keras`: Keras's zip (config.json, metadata.json, model.weights.h5), saving_keras.py;
- `.weights.h5` (weights only): the model.weights.h5 layout of that zip, saving_weights.py;
- `.h5` / `.hdf5`: Keras's legacy HDF5 files, saving_h5.py (weights saved to a `.keras`
  path too, as tf-keras does);
- any other path: weights as tapeviz's TensorFlow-style checkpoint (tapeviz/checkpoint.py),
  a whole model as a SavedModel directory that only tapeviz reads (saving_keras.py).
"""
from __future__ import annotations

import os
import zipfile

H5_SUFFIXES = (".h5", ".hdf5")


def _path(filepath) -> str:
    return os.fspath(filepath)


def save_weights(model, filepath, overwrite=True, save_format=None):
    path = _path(filepath)
    if save_format not in (None, "tf", "tensorflow", "h5", "hdf5"):
        raise ValueError(f"Unknown format. Received: `save_format`={save_format}. Accepted "
                         "formats are 'h5' and 'tf'. Fix: leave save_format None and give the "
                         "path a suffix ('.h5', '.weights.h5') or none")
    if not overwrite and os.path.exists(path):
        return
    _make_parent(path)
    if path.endswith(".weights.h5"):
        from . import saving_weights
        saving_weights.save_weights_only(model, path)
    elif path.endswith(H5_SUFFIXES + (".keras",)) or save_format in ("h5", "hdf5"):
        # (tf-keras writes weights to a .keras path in its legacy HDF5 layout too)
        from . import saving_h5
        saving_h5.save_weights(model, path)
    else:
        from ..checkpoint import save_weights as save_checkpoint
        save_checkpoint(model, path, None)      # (its format: save_format None or "tf")


def load_weights(model, filepath, skip_mismatch=False, by_name=False):
    path = _path(filepath)
    if skip_mismatch and not by_name:
        raise ValueError("When calling model.load_weights, skip_mismatch can only be set to "
                         "True when by_name is True.")
    if by_name:
        raise NotImplementedError(f"load_weights({path!r}, by_name=True) is not supported by "
                                  "tapeviz. Fix: load by topology (by_name=False) into a model "
                                  "of the same layers")
    from . import saving_weights
    if path.endswith(".keras") and zipfile.is_zipfile(path):
        from . import saving_keras
        return saving_keras.load_weights_from_zip(model, path)
    if path.endswith(".weights.h5"):
        return saving_weights.load_weights_only(model, path)
    if path.endswith(H5_SUFFIXES) or saving_weights.is_hdf5(path):
        from . import saving_h5
        return saving_h5.load_weights(model, path)
    from ..checkpoint import load_weights as load_checkpoint
    return load_checkpoint(model, path)


def _make_parent(path):
    directory = os.path.dirname(path)
    if directory:
        os.makedirs(directory, exist_ok=True)
