"""`tf.train.list_variables`, `load_variable` and `load_checkpoint`: what a checkpoint holds,
read without restoring it, under TensorFlow's names (`model/w/.ATTRIBUTES/VARIABLE_VALUE`)
for the values tapeviz writes (checkpoint_files.py). A directory stands for its newest
checkpoint, as in TensorFlow.

Not imitated: TensorFlow's `_CHECKPOINTABLE_OBJECT_GRAPH` entry is listed (a string scalar)
but holds tapeviz's JSON index, not TensorFlow's serialized object graph; optimizer slot
variables keep tapeviz's paths.
"""
from __future__ import annotations

import os

import numpy as np

from . import checkpoint_files as files
from .engine import dtypes as dt
from .engine.errors import NotFoundError

GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"

__all__ = ["CheckpointReader", "list_variables", "load_checkpoint", "load_variable"]


def _prefix(ckpt_dir_or_file) -> str:
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = files.latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given directory "
                             f"{path}")
        return latest
    return path


class CheckpointReader:
    """The values of one checkpoint, by TensorFlow's names."""

    def __init__(self, prefix: str):
        self._prefix = prefix
        values = files.read(prefix, restoring=True)
        self._values = {path + SUFFIX: array for path, array in values.items()}
        with open(prefix + files.INDEX_SUFFIX, "rb") as f:
            self._values[GRAPH_KEY] = np.asarray(f.read(), dtype=object)

    def has_tensor(self, name) -> bool:
        return name in self._values

    def get_tensor(self, name):
        """The value as NumPy (a scalar as a NumPy scalar, the object graph entry as bytes)."""
        if name not in self._values:
            raise NotFoundError(f"Key {name} not found in checkpoint", "RestoreV2")
        value = self._values[name]
        return value[()] if value.ndim == 0 else value.copy()

    def get_variable_to_shape_map(self) -> dict:
        return {name: list(np.shape(v)) for name, v in self._values.items()}

    def get_variable_to_dtype_map(self) -> dict:
        return {name: dt.string if v.dtype == object else dt.as_dtype(v.dtype.name)
                for name, v in self._values.items()}


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    return CheckpointReader(_prefix(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file) -> list:
    """[(name, shape)] of every value in the checkpoint, sorted by name."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return sorted(shapes.items())


def load_variable(ckpt_dir_or_file, name):
    """One value of the checkpoint, as NumPy."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
