"""The files of a tapeviz checkpoint, and the directory's `checkpoint` state file.

A checkpoint written to the prefix `ckpt-3` is two files: `ckpt-3.index.json` (the format's
name and version, and for each value its object path, dtype, shape and the name of its array)
and `ckpt-3.data.npz` (the arrays, written by NumPy, read with `allow_pickle=False`). This is
tapeviz's own format, not TensorFlow's: TensorFlow cannot read it, and tapeviz cannot read
TensorFlow's (`ckpt-3.index` with `ckpt-3.data-00000-of-00001`), which it recognises and
refuses with that said. Nothing in either file is ever run or unpickled.

The state file (`checkpoint` in the directory) is the text TensorFlow writes
(`model_checkpoint_path: "ckpt-3"`), so `tf.train.latest_checkpoint` finds the newest.
"""
from __future__ import annotations

import json
import os
import re
import zipfile

import numpy as np

from .engine.errors import NotFoundError, UnimplementedError

FORMAT = "tapeviz-checkpoint"
VERSION = 1
INDEX_SUFFIX = ".index.json"
DATA_SUFFIX = ".data.npz"
STATE_FILE = "checkpoint"
_ARRAY_NAME = re.compile(r"a[0-9]{1,9}")
_DTYPE_KINDS = "biuf"     # booleans, integers and floats: what a Variable holds


class CheckpointFileError(ValueError):
    """A checkpoint file that is not one tapeviz wrote: refused, nothing of it is used."""


def exists(prefix: str) -> bool:
    return os.path.isfile(prefix + INDEX_SUFFIX)


def write(prefix: str, values: dict) -> None:
    """Write ``values`` ({object path: NumPy array}) to the files of ``prefix``, each through a
    temporary file renamed into place, the index last (a reader never sees half a checkpoint)."""
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    arrays, entries = {}, []
    for i, (path, value) in enumerate(values.items()):
        name = f"a{i}"
        arrays[name] = value
        entries.append({"path": path, "array": name, "dtype": value.dtype.name,
                        "shape": list(value.shape)})
    with open(prefix + DATA_SUFFIX + ".tmp", "wb") as f:
        np.savez(f, **arrays)
    os.replace(prefix + DATA_SUFFIX + ".tmp", prefix + DATA_SUFFIX)
    index = {"format": FORMAT, "version": VERSION, "values": entries}
    with open(prefix + INDEX_SUFFIX + ".tmp", "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1)
    os.replace(prefix + INDEX_SUFFIX + ".tmp", prefix + INDEX_SUFFIX)


def read(prefix: str, restoring: bool) -> dict:
    """{object path: NumPy array} of the checkpoint at ``prefix``. A missing checkpoint raises
    TensorFlow's NotFoundError; anything tapeviz did not write raises CheckpointFileError."""
    prefix = os.fspath(prefix)
    if not exists(prefix):
        _not_found(prefix, restoring)
    try:
        with open(prefix + INDEX_SUFFIX, encoding="utf-8") as f:
            index = json.load(f)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckpointFileError(f"{prefix + INDEX_SUFFIX} is not a tapeviz checkpoint index "
                                  f"(not JSON: {exc}). Fix: restore a checkpoint written by "
                                  "tapeviz's Checkpoint.save/write") from None
    entries = _entries(index, prefix)
    try:
        with np.load(prefix + DATA_SUFFIX, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files if _ARRAY_NAME.fullmatch(name)}
    except FileNotFoundError:
        raise NotFoundError(f"The data file of checkpoint {prefix} is missing "
                            f"({prefix + DATA_SUFFIX}); its index is there. Fix: copy both "
                            "files of a checkpoint", "RestoreV2") from None
    except (ValueError, OSError, zipfile.BadZipFile) as exc:
        raise CheckpointFileError(f"{prefix + DATA_SUFFIX} is refused: {exc}. A tapeviz "
                                  "checkpoint holds only arrays of numbers (no Python objects). "
                                  "Fix: restore a checkpoint written by tapeviz") from None
    values = {}
    for entry in entries:
        array = arrays.get(entry["array"])
        if array is None:
            raise CheckpointFileError(f"{prefix + INDEX_SUFFIX} names an array "
                                      f"{entry['array']!r} that {prefix + DATA_SUFFIX} lacks. "
                                      "Fix: restore a checkpoint written by tapeviz")
        if array.dtype.kind not in _DTYPE_KINDS or array.dtype.name != entry["dtype"] or \
                list(array.shape) != entry["shape"]:
            raise CheckpointFileError(
                f"{prefix + DATA_SUFFIX}: the array of {entry['path']!r} is {array.dtype.name} "
                f"{list(array.shape)}, its index says {entry['dtype']} {entry['shape']}. "
                "Fix: restore a checkpoint written by tapeviz")
        values[entry["path"]] = array
    return values


def _entries(index, prefix: str) -> list:
    """The index's entries, each checked: a path string, an array name like `a12` (never a
    file name), a dtype name and a shape."""
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise CheckpointFileError(f"{prefix + INDEX_SUFFIX} is not a tapeviz checkpoint index "
                                  f"(no \"format\": \"{FORMAT}\"). Fix: restore a checkpoint "
                                  "written by tapeviz")
    if index.get("version") != VERSION:
        raise CheckpointFileError(f"{prefix + INDEX_SUFFIX} has format version "
                                  f"{index.get('version')!r}; this tapeviz reads version "
                                  f"{VERSION}. Fix: restore it with the tapeviz that wrote it")
    entries = index.get("values")
    if not isinstance(entries, list):
        raise CheckpointFileError(f"{prefix + INDEX_SUFFIX}: \"values\" must be a list")
    for entry in entries:
        ok = (isinstance(entry, dict) and isinstance(entry.get("path"), str)
              and isinstance(entry.get("array"), str) and _ARRAY_NAME.fullmatch(entry["array"])
              and isinstance(entry.get("dtype"), str) and isinstance(entry.get("shape"), list))
        if not ok:
            raise CheckpointFileError(
                f"{prefix + INDEX_SUFFIX} has an entry tapeviz does not write: "
                f"{json.dumps(entry)[:200]} (each names its array like \"a0\", never a file). "
                "Fix: restore a checkpoint written by tapeviz")
    return entries


def _not_found(prefix: str, restoring: bool):
    if os.path.isfile(prefix + ".index"):
        raise UnimplementedError(
            f"{prefix} is a TensorFlow checkpoint ({prefix}.index); tapeviz reads only its own "
            f"checkpoints ({prefix}{INDEX_SUFFIX} with {prefix}{DATA_SUFFIX}). Fix: save the "
            "weights again under tapeviz, or copy them with model.get_weights() in "
            "TensorFlow and model.set_weights() in tapeviz", "RestoreV2")
    message = ("Unsuccessful TensorSliceReader constructor: Failed to find any matching files "
               f"for {prefix}")
    if os.path.isdir(prefix):
        message += (f"\n{prefix} is a directory, not a checkpoint. Fix: "
                    "tf.train.latest_checkpoint(directory) gives the newest checkpoint in it")
    elif restoring:
        message = (f"Error when restoring from checkpoint or SavedModel at {prefix}: {message}"
                   "\nPlease double-check that the path is correct. You may be missing the "
                   "checkpoint suffix (e.g. the '-1' in 'path/to/ckpt-1').")
    raise NotFoundError(message, "RestoreV2")


def remove(prefix: str) -> None:
    for suffix in (INDEX_SUFFIX, DATA_SUFFIX):
        try:
            os.remove(prefix + suffix)
        except FileNotFoundError:
            pass


# --- the state file ------------------------------------------------------------------------------
def write_state(directory: str, latest: str, kept: list) -> None:
    """TensorFlow's text: paths relative to the directory, the newest last."""
    lines = [f'model_checkpoint_path: {json.dumps(os.path.relpath(latest, directory))}']
    lines += [f'all_model_checkpoint_paths: {json.dumps(os.path.relpath(p, directory))}'
              for p in kept]
    path = os.path.join(directory, STATE_FILE)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(path + ".tmp", path)


def read_state(directory: str):
    """(latest, [kept, ...]) as paths in ``directory``, or (None, []) without a state file.
    A path that leads out of the directory is refused: the state file only names files
    beside it."""
    try:
        with open(os.path.join(directory, STATE_FILE), encoding="utf-8") as f:
            text = f.read()
    except (FileNotFoundError, NotADirectoryError):
        return None, []
    latest, kept = None, []
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() not in ("model_checkpoint_path", "all_model_checkpoint_paths"):
            continue
        try:
            name = json.loads(value.strip())
        except json.JSONDecodeError:
            name = None
        if not isinstance(name, str) or not name or os.path.isabs(name) or \
                ".." in name.replace("\\", "/").split("/"):
            raise CheckpointFileError(
                f"{os.path.join(directory, STATE_FILE)} names {value.strip()[:200]}, which is "
                "not a checkpoint in that directory (tapeviz writes names like \"ckpt-3\"). "
                "Fix: delete the state file, or pass the checkpoint's path to restore()")
        path = os.path.join(directory, name)
        if key.strip() == "model_checkpoint_path":
            latest = path
        else:
            kept.append(path)
    return latest, kept


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """`tf.train.latest_checkpoint(dir)`: the newest checkpoint's prefix, or None."""
    if latest_filename not in (None, STATE_FILE):
        raise ValueError(f"latest_checkpoint: latest_filename={latest_filename!r} is not "
                         "supported; tapeviz's state file is always named 'checkpoint'")
    latest, _ = read_state(os.fspath(checkpoint_dir))
    return latest if latest is not None and exists(latest) else None
