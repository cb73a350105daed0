"""`tv.io`: reading and writing whole files as string tensors (`read_file`, `write_file`) and
the image decoders (image_decode.py), as the input pipelines of image tutorials use them."""
from __future__ import annotations

import numpy as np

from .engine.errors import FailedPreconditionError, NotFoundError
from .engine.ops.makers import _make
from .image_decode import decode_bmp, decode_image, decode_jpeg, decode_png  # noqa: F401


def _path(filename, op):
    value = np.asarray(getattr(filename, "_value", filename), dtype=object)
    if value.ndim != 0:
        from .engine.errors import InvalidArgumentError
        raise InvalidArgumentError(f"{op}: filename must be a scalar string, got shape "
                                   f"{list(value.shape)}. Fix: one file at a time, e.g. "
                                   f"dataset.map(tf.io.read_file) [Op:{op}]", op)
    path = value[()]
    return path.decode() if isinstance(path, bytes) else str(path)


def read_file(filename, name=None):
    """The file's bytes as a scalar string tensor."""
    path = _path(filename, "ReadFile")
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise NotFoundError(f"{path}; No such file or directory [Op:ReadFile]",
                            "ReadFile") from None
    except IsADirectoryError:
        raise FailedPreconditionError(f"{path}; Is a directory. Fix: read a file in it, e.g. "
                                      "tf.data.Dataset.list_files(folder + '/*') "
                                      "[Op:ReadFile]", "ReadFile") from None
    return _make(np.asarray(data, dtype=object))


def write_file(filename, contents, name=None):
    """Writes the scalar string `contents` to `filename` (replacing it)."""
    path = _path(filename, "WriteFile")
    data = np.asarray(getattr(contents, "_value", contents), dtype=object)[()]
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else bytes(data))
