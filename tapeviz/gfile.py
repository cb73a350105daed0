"""`tf.io.gfile`: TensorFlow's file functions on the local file system (no cloud paths), with
TensorFlow's errors: a missing file is `NotFoundError`, copying or renaming onto an existing
file without `overwrite=True` is `AlreadyExistsError`."""
from __future__ import annotations

import glob as _glob
import os
import shutil

from .engine.errors import AlreadyExistsError, NotFoundError

__all__ = ["GFile", "copy", "exists", "glob", "isdir", "join", "listdir", "makedirs", "mkdir",
           "remove", "rename", "rmtree", "stat", "walk"]


def _path(path):
    path = os.fspath(path)
    return path.decode() if isinstance(path, bytes) else path


def _missing(path):
    return NotFoundError(f"{path}; No such file or directory", None)


class GFile:
    """A file object: `read`, `write`, `readline`, `readlines`, iteration, `seek`, `tell`,
    `size`, `flush`, `close`, and `with`."""

    def __init__(self, name, mode="r"):
        self.name, self.mode = _path(name), mode
        try:
            self._file = open(self.name, mode, **({} if "b" in mode else
                                                  {"newline": "", "encoding": "utf-8"}))
        except FileNotFoundError:
            raise _missing(self.name) from None

    def read(self, n=-1):
        return self._file.read(n)

    def readline(self):
        return self._file.readline()

    def readlines(self):
        return self._file.readlines()

    def write(self, data):
        if "b" not in self.mode and isinstance(data, bytes):
            data = data.decode()
        self._file.write(data)

    def __iter__(self):
        return iter(self._file)

    def seek(self, offset=None, whence=0, position=None):
        self._file.seek(position if offset is None else offset, whence)

    def tell(self):
        return self._file.tell()

    def size(self):
        return os.path.getsize(self.name)

    def flush(self):
        self._file.flush()

    def close(self):
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


Open = GFile


def exists(path):
    return os.path.exists(_path(path))


def isdir(path):
    return os.path.isdir(_path(path))


def listdir(path):
    path = _path(path)
    if not os.path.isdir(path):
        raise _missing(path)
    return os.listdir(path)


def glob(pattern):
    return _glob.glob(_path(pattern))


def makedirs(path):
    os.makedirs(_path(path), exist_ok=True)


def mkdir(path):
    path = _path(path)
    if os.path.exists(path):
        raise AlreadyExistsError(f"{path}; File exists", None)
    os.mkdir(path)


def remove(path):
    path = _path(path)
    if not os.path.isfile(path):
        raise _missing(path)
    os.remove(path)


def rmtree(path):
    path = _path(path)
    if not os.path.isdir(path):
        raise _missing(path)
    shutil.rmtree(path)


def _refuse_existing(dst, overwrite):
    if os.path.exists(dst) and not overwrite:
        raise AlreadyExistsError(f"file already exists: {dst}. Fix: pass overwrite=True", None)


def copy(src, dst, overwrite=False):
    src, dst = _path(src), _path(dst)
    if not os.path.exists(src):
        raise _missing(src)
    _refuse_existing(dst, overwrite)
    shutil.copyfile(src, dst)


def rename(src, dst, overwrite=False):
    src, dst = _path(src), _path(dst)
    if not os.path.exists(src):
        raise _missing(src)
    _refuse_existing(dst, overwrite)
    os.replace(src, dst)


def join(path, *paths):
    return os.path.join(_path(path), *map(_path, paths))


class _Stat:
    def __init__(self, path):
        info = os.stat(path)
        self.length, self.is_directory = info.st_size, os.path.isdir(path)
        self.mtime_nsec = info.st_mtime_ns


def stat(path):
    path = _path(path)
    if not os.path.exists(path):
        raise _missing(path)
    return _Stat(path)


def walk(top, topdown=True, onerror=None):
    """(folder, subfolders, files) for `top` and below, as os.walk."""
    return os.walk(_path(top), topdown=topdown, onerror=onerror)
