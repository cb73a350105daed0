"""`tf.data.experimental.CsvDataset`: the records (lines) of CSV files as tuples of scalar
tensors, one per column, typed by `record_defaults` (a dtype: a required column; a value: the
column's default, used for an empty field or `na_value`), as TensorFlow parses them."""
from __future__ import annotations

import csv

import numpy as np

from .engine.dtypes import DType, as_dtype
from .engine.errors import InvalidArgumentError
from .engine.ops.makers import _make

_OP = "IteratorGetNext"


def _column(default):
    """(dtype name, default value or None) of one entry of record_defaults."""
    if isinstance(default, DType) or (isinstance(default, str) and default in (
            "int32", "int64", "float32", "float64", "string")):
        return as_dtype(default).name, None
    value = np.asarray(getattr(default, "_value", default))
    if hasattr(default, "dtype") and not isinstance(default, np.ndarray):
        name = default.dtype.name
    elif value.dtype.kind in "US" or value.dtype == object:
        name = "string"
    else:
        name = "int32" if value.dtype.kind in "iu" else "float32"
    return name, value.reshape(-1)[0] if value.size else None


def _parse(text, dtype, field, record):
    try:
        if dtype in ("int32", "int64"):
            number = int(text.strip())
            np.array(number, dtype=dtype)          # (out of range: OverflowError)
            return number
        if dtype in ("float32", "float64"):
            return float(text)
    except (ValueError, OverflowError):
        raise InvalidArgumentError(f"Field {field} in record {record} is not a valid {dtype}: "
                                   f"{text} [Op:{_OP}]", _OP) from None
    return text.encode()


def CsvDataset(filenames, record_defaults, compression_type=None, buffer_size=None,  # noqa: N802
               header=False, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, exclude_cols=None, name=None):
    from .data import Dataset
    from .data_sources import UNKNOWN_CARDINALITY, _lines, _names
    if compression_type not in (None, ""):
        raise NotImplementedError(f"CsvDataset: compression_type={compression_type!r} is not "
                                  "supported by tapeviz. Fix: decompress the files first")
    columns = [_column(d) for d in record_defaults]
    paths = _names(filenames)
    quoting = dict(quotechar='"') if use_quote_delim else dict(quoting=csv.QUOTE_NONE)

    def record_tuple(line, record):
        fields = next(csv.reader([line], delimiter=field_delim, **quoting), [""])
        if select_cols is not None:
            fields = [fields[i] if i < len(fields) else "" for i in sorted(select_cols)]
        elif exclude_cols is not None:
            fields = [f for i, f in enumerate(fields) if i not in set(exclude_cols)]
        if len(fields) != len(columns):
            have = "more" if len(fields) > len(columns) else len(fields)
            raise InvalidArgumentError(f"Expect {len(columns)} fields but have {have} in "
                                       f"record {record} [Op:{_OP}]", _OP)
        out = []
        for j, (text, (dtype, default)) in enumerate(zip(fields, columns)):
            if text == "" or text == na_value:
                if default is None:
                    raise InvalidArgumentError(f"Field {j} is required but missing in record "
                                               f"{record}! [Op:{_OP}]", _OP)
                value = default
            else:
                value = _parse(text, dtype, j, record)
            out.append(_make(np.asarray(value, dtype=object if dtype == "string"
                                        else as_dtype(dtype).np)))
        return tuple(out)

    def records():
        for path in paths:
            lines = (t._value.item().decode() for t in _lines(path))
            if header:
                next(lines, None)
            for record, line in enumerate(lines):
                yield record_tuple(line, record)
    return Dataset(records, UNKNOWN_CARDINALITY)
