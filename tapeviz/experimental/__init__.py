"""`tf.experimental`: TensorFlow's NumPy API, `tf.experimental.numpy` (also importable as
`import tensorflow.experimental.numpy as tnp`)."""
from . import numpy  # noqa: F401
