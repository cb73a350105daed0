"""`tv.random`: seeded draws (`set_seed` makes a run reproducible). Seeded (`set_seed` or
`seed=`), `uniform` and `normal` give TensorFlow's own numbers
(engine/ops/random_stateful.py); the others draw from NumPy, seeded by TensorFlow's seed
pair for the op, so each still takes its op seed as in TensorFlow and later draws stay
TensorFlow's. Shapes, dtypes, distributions and errors are TensorFlow's."""
from __future__ import annotations

import numpy as np

from .engine import dtypes as _dt
from .engine.convert import convert_to_tensor as _tensor
from .engine.errors import InvalidArgumentError as _InvalidArgument
from .engine.errors import NotFoundError as _NotFound
from .engine.ops.makers import _make, _rng, _tf_pair, shuffled as _shuffled
from .engine.ops.makers import normal, set_seed, truncated_normal, uniform  # noqa: F401


def _source(seed):
    """NumPy's generator for a draw: seeded by the op's TensorFlow seed pair when seeded."""
    pair = _tf_pair(seed)
    return _rng(seed) if pair is None else np.random.default_rng(list(pair))


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`num_samples` class indices per row of `logits` (batch, classes), drawn with
    probabilities softmax(logits); a class with logit -inf is never drawn."""
    out = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    if out not in (_dt.int32, _dt.int64):
        raise ValueError(f"Argument `dtype` got invalid value {out!r}. Accepted dtypes are "
                         "(tf.int32, tf.int64).")
    x = _tensor(logits)
    if x._value.dtype.kind != "f":
        raise _NotFound(f"Multinomial: no kernel for logits of dtype {x.dtype.name}: TensorFlow "
                        "has float16, bfloat16, float32 and float64 kernels on the CPU. Fix: "
                        "tv.cast(logits, tv.float32) [Op:Multinomial]", "Multinomial")
    if x._value.ndim != 2:
        raise _InvalidArgument(f"Multinomial: logits should be a matrix, got shape "
                               f"{list(x._value.shape)}. Fix: one row per distribution, e.g. "
                               "logits[None] [Op:Multinomial]", "Multinomial")
    n = int(np.asarray(getattr(num_samples, "_value", num_samples)))
    batch, classes = x._value.shape
    if classes == 0:
        raise _InvalidArgument(f"Multinomial: num_classes should be positive, got 0 (logits of "
                               f"shape {[batch, 0]}) [Op:Multinomial]", "Multinomial")
    z = np.asarray(x._value, dtype=np.float64)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    cdf = np.cumsum(p / p.sum(axis=1, keepdims=True), axis=1)
    draws = _source(seed).random((batch, n))
    index = np.minimum((cdf[:, None, :] <= draws[..., None]).sum(-1), classes - 1)
    # a drawn index never lands on an impossible class (a run of zero probability at the end)
    last = np.where(p > 0, np.arange(classes), -1).max(axis=1)
    return _make(np.minimum(index, last[:, None]).astype(out.np))


def shuffle(value, seed=None, name=None):
    """`value` with its first axis in a random order (a scalar is returned as it is). As in
    TensorFlow, a tape records the RandomShuffle op (a gradient with respect to its result
    exists), but no gradient flows through it to `value`."""
    x = _tensor(value)
    source = _source(seed)      # (before the scalar's early return: TF takes the seed first)
    if x._value.ndim == 0:
        return x
    return _shuffled(x, source.permutation(x._value.shape[0]))


from .random_generators import *  # noqa: E402,F401,F403
