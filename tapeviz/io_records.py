"""Where the record names live: `tf.io` (TFRecordWriter, TFRecordOptions, FixedLenFeature,
VarLenFeature, parse_example, parse_single_example, serialize_tensor, parse_tensor, gfile),
`tf.train` (Example and its parts) and `tf.data.TFRecordDataset`. `install` attaches them to those namespaces (making `tv.io` if
no other module has)."""
from __future__ import annotations

import sys
import types

from . import gfile, parsing, tensor_proto, tfrecord, train_example


def TFRecordDataset(filenames, compression_type=None, buffer_size=None,  # noqa: N802
                    num_parallel_reads=None, name=None):
    """The records of each TFRecord file in turn, as string scalars."""
    from .data import Dataset
    from .data_sources import UNKNOWN_CARDINALITY, _names
    from .engine.ops.makers import _make
    import numpy as np
    paths = _names(filenames)
    kind = tfrecord._compression(compression_type)
    return Dataset(lambda: (_make(np.asarray(r, dtype=object)) for p in paths
                            for r in tfrecord.read_records(p, kind)), UNKNOWN_CARDINALITY)


def install(tv):
    io = getattr(tv, "io", None)
    if io is None:
        io = types.ModuleType(tv.__name__ + ".io", "tv.io: files, records and parsing.")
        sys.modules[io.__name__] = tv.io = io
    for name in ("TFRecordWriter", "TFRecordOptions"):
        setattr(io, name, getattr(tfrecord, name))
    for module in (parsing, tensor_proto):
        for name in module.__all__:
            setattr(io, name, getattr(module, name))
    io.gfile = gfile
    sys.modules[io.__name__ + ".gfile"] = gfile
    for name in train_example.__all__:
        setattr(tv.train, name, getattr(train_example, name))
    tv.data.TFRecordDataset = TFRecordDataset
