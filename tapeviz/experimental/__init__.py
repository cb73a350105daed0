"""`tf.experimental`: TensorFlow's NumPy API, `tf.experimental.numpy` (also importable as
`import tensorflow.experimental.numpy as tnp`). TensorFlow's other experimental names are
not imitated."""
from . import numpy  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"module 'tapeviz.experimental' has no attribute {name!r}: of "
                         "TensorFlow's tf.experimental, tapeviz imitates tf.experimental.numpy "
                         "only (the README's support section lists what runs)")
