"""`tv.keras.utils`: the data helpers Keras code calls before training."""
from __future__ import annotations

import numpy as np


def to_categorical(y, num_classes=None, dtype="float32"):
    """One-hot rows of integer class labels, as a NumPy array (Keras's rule: a trailing axis
    of size 1 is dropped first; `num_classes` defaults to the largest label + 1)."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    if y.size and (y.min() < 0 or y.max() >= num_classes):
        raise IndexError(f"to_categorical: labels must be in [0, {num_classes}), got "
                         f"{int(y.min())}..{int(y.max())}. Fix: pass num_classes larger "
                         "than the largest label")
    categorical = np.zeros((y.shape[0], num_classes), dtype=dtype)
    categorical[np.arange(y.shape[0]), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def set_random_seed(seed):
    """Seed Python's `random`, NumPy's global generator and `tv.random` at once, as Keras's
    `set_random_seed` does (tapeviz's draws are reproducible, not TensorFlow's numbers)."""
    import random as _random
    from .. import random as _tv_random
    from . import initializers as _initializers
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed}")
    _random.seed(int(seed))
    np.random.seed(int(seed))
    _tv_random.set_seed(int(seed))
    # (Keras's own generator for the seeds of unseeded initializers: see initializers.py)
    _initializers.seed_generator.generator = _random.Random(int(seed))


from .data_sequence import Sequence  # noqa: E402,F401  (keras.utils.Sequence)


def normalize(x, axis=-1, order=2):
    """`x` divided by its `order`-norm along `axis` (a zero norm left as 1), as NumPy."""
    x = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=True, rankdir="TB", expand_nested=False, dpi=96,
               layer_range=None, show_layer_activations=False, show_trainable=False):
    """What TF-Keras's `plot_model` does where pydot and graphviz are not installed (a plain
    `pip install tensorflow`): in a notebook it prints why and returns None, so the notebook
    goes on; in a script it raises ImportError. tapeviz draws no model graphs: its dashboard
    shows the ops of each step (`tapeviz run script.py`), `model.summary()` the layers."""
    import sys
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    message = ("You must install pydot (`pip install pydot`) and install graphviz (see "
               "instructions at https://graphviz.gitlab.io/download/) for plot_model to work.")
    if "IPython.core.magics.namespace" in sys.modules:
        print(message)
        return None
    raise ImportError(message + " (tapeviz draws no model graphs. Fix: model.summary(), or "
                      "`tapeviz run script.py` to see each step's ops)")
