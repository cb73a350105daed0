"""Datasets read from files or counted, and `tf.data.Options`, as TensorFlow's:
`TextLineDataset` (the lines of text files, without their line ends), `Dataset.list_files`
(the files a glob pattern matches, shuffled unless `shuffle=False`), `Dataset.counter` /
`tf.data.experimental.Counter`, `tf.data.experimental.shuffle_and_repeat`.

`Options` keeps what is set on it and refuses unknown names, as TensorFlow's does; none of its
settings changes what tapeviz's pipelines do (they run in the caller's thread, in order).
Files are read when the dataset is iterated, so a missing file is TensorFlow's
`NotFoundError` at the first element, as in TensorFlow.
"""
from __future__ import annotations

import enum
import glob as _glob

import numpy as np

from .engine.errors import InvalidArgumentError, NotFoundError
from .engine.tensor import Tensor

UNKNOWN_CARDINALITY = -2
INFINITE_CARDINALITY = -1


def _names(filenames):
    raw = getattr(filenames, "_value", filenames)
    items = np.asarray(raw, dtype=object).reshape(-1).tolist()
    return [f.decode() if isinstance(f, bytes) else str(f) for f in items]


def _lines(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory [Op:IteratorGetNext]",
                            "IteratorGetNext") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()                       # (a final line end starts no new line)
    for line in lines:
        yield Tensor(np.asarray(line[:-1] if line.endswith(b"\r") else line, dtype=object))


def TextLineDataset(filenames, compression_type=None, buffer_size=None,   # noqa: N802
                    num_parallel_reads=None, name=None):
    """The lines of each file in turn, as string scalars."""
    from .data import Dataset
    if compression_type not in (None, ""):
        raise NotImplementedError(f"TextLineDataset: compression_type={compression_type!r} is "
                                  "not supported by tapeviz. Fix: decompress the files first")
    paths = _names(filenames)
    return Dataset(lambda: (line for p in paths for line in _lines(p)), UNKNOWN_CARDINALITY)


def list_files(file_pattern, shuffle=None, seed=None, name=None):
    """The paths matching the glob pattern(s), shuffled (tapeviz's draw) unless
    `shuffle=False`, in sorted order then."""
    from .data import Dataset
    paths = sorted({p for pattern in _names(file_pattern) for p in _glob.glob(pattern)})
    if not paths:
        raise InvalidArgumentError(
            "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
            f"b'No files matched pattern: {', '.join(_names(file_pattern))}'")
    ds = Dataset.from_tensor_slices(np.asarray([p.encode() for p in paths], dtype=object))
    return ds if shuffle is False else ds.shuffle(len(paths), seed=seed)


def counter(start=0, step=1, dtype="int64", name=None):
    """start, start + step, ... without end."""
    from .data import Dataset
    from .engine.dtypes import as_dtype
    np_type = as_dtype(dtype).np

    def counted():
        value = start
        while True:
            yield Tensor(np.asarray(value, dtype=np_type))
            value += step
    return Dataset(counted, INFINITE_CARDINALITY)


def Counter(start=0, step=1, dtype="int64", name=None):   # noqa: N802  (TensorFlow's name)
    return counter(start, step, dtype)


def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """A transformation for `Dataset.apply`: `shuffle(buffer_size, seed).repeat(count)`."""
    return lambda dataset: dataset.shuffle(buffer_size, seed=seed).repeat(count)


class AutoShardPolicy(enum.IntEnum):
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class _Settings:
    """A group of options: the names it was made with, each settable, nothing else."""

    def __init__(self, kind, **defaults):
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_values", dict(defaults))

    def __getattr__(self, key):
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(f"'{self._kind}' object has no attribute '{key}'") from None

    def __setattr__(self, key, value):
        if key not in self._values:
            raise AttributeError(f"Cannot set the property {key} on {self._kind}.")
        self._values[key] = value


class Options(_Settings):
    """`tf.data.Options()`: TensorFlow's option names, accepted and kept."""

    def __init__(self):
        threading = dict(max_intra_op_parallelism=None, private_threadpool_size=None)
        super().__init__(
            "Options", deterministic=None, experimental_deterministic=None,
            experimental_external_state_policy=None, experimental_slack=None,
            experimental_symbolic_checkpoint=None, experimental_warm_start=None,
            autotune=_Settings("AutotuneOptions", enabled=None, cpu_budget=None,
                               ram_budget=None),
            experimental_distribute=_Settings("DistributeOptions",
                                              auto_shard_policy=AutoShardPolicy.AUTO,
                                              num_devices=None),
            experimental_optimization=_Settings(
                "OptimizationOptions", apply_default_optimizations=None, map_fusion=None,
                map_parallelization=None, noop_elimination=None, parallel_batch=None,
                shuffle_and_repeat_fusion=None, filter_fusion=None, inject_prefetch=None),
            threading=_Settings("ThreadingOptions", **threading),
            experimental_threading=_Settings("ThreadingOptions", **threading))
