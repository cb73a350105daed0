"""What the wild programs share to be reproducible in both TensorFlow and tapeviz.

The programs are public code adapted only in what they load: small synthetic data from
a seeded NumPy generator instead of a data set, and fixed starting weights instead of
TensorFlow's random initializers (whose random streams tapeviz does not reproduce).
Only NumPy and `Variable.assign` are used here, so the same helpers run on both sides.
"""
import numpy as np


def fixed_weights(variables, seed=0, scale=0.3):
    """Assign each variable seeded uniform values in [-scale, scale), in order."""
    rng = np.random.default_rng(seed)
    for v in variables:
        shape = tuple(int(s) for s in v.shape)
        v.assign(rng.uniform(-scale, scale, size=shape).astype(v.dtype.name))


def data(seed, *shape, low=-1.0, high=1.0):
    """A float32 array of seeded uniform values: the synthetic stand-in for a data set."""
    return np.random.default_rng(seed).uniform(low, high, size=shape).astype(np.float32)


def labels(seed, n, classes):
    """int32 class labels in [0, classes), seeded."""
    return np.random.default_rng(seed).integers(0, classes, size=n).astype(np.int32)
