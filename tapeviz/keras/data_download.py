"""`tv.keras.utils.get_file`: download a file once into Keras's cache, check its hash, unpack it.

The same cache (`~/.keras/<cache_subdir>/`), file names, hash rules and archive handling as
TF-Keras's `get_file`, so a program that downloads its data with it finds the files TensorFlow
already downloaded, and the reverse.
"""
from __future__ import annotations

import hashlib
import os
import tarfile
import tempfile
import urllib.error
import urllib.request
import warnings
import zipfile
from urllib.parse import urlsplit


def _hasher(algorithm, file_hash=None):
    """sha256 when asked for, or for a 64-character hash under "auto"; md5 otherwise."""
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None
                                 and len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file's sha256 or md5 hash (see `_hasher`) is `file_hash`."""
    hasher = _hasher(algorithm, file_hash)
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest() == str(file_hash)


def _inside(path, base):
    base = os.path.realpath(base)
    return os.path.realpath(os.path.join(base, path)).startswith(base)


def _safe_members(archive, base):
    """Tar members that stay inside `base`, links included; others skipped with a warning."""
    for info in archive.getmembers():
        link_ok = (info.issym() or info.islnk()) and _inside(
            info.linkname, os.path.join(base, os.path.dirname(info.name)))
        if _inside(info.name, base) and (not (info.issym() or info.islnk()) or link_ok):
            yield info
        else:
            warnings.warn(f"Skipping invalid path during archive extraction: '{info.name}'.")


def _extract_archive(file_path, path, archive_format="auto"):
    """Unpack a tar (plain, gz, bz2) or zip archive into `path`; False if it is neither."""
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else archive_format
    for kind in [formats] if isinstance(formats, str) else formats:
        if kind == "tar" and tarfile.is_tarfile(file_path):
            with tarfile.open(file_path) as archive:
                archive.extractall(path, members=list(_safe_members(archive, path)))
            return True
        if kind == "zip" and zipfile.is_zipfile(file_path):
            with zipfile.ZipFile(file_path) as archive:
                archive.extractall(path)     # zipfile itself drops ".." and absolute names
            return True
    return False


def _download(origin, fpath):
    print(f"Downloading data from {origin}")
    try:
        try:
            urllib.request.urlretrieve(origin, fpath)
        except urllib.error.HTTPError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.code} -- {e.msg}")
        except urllib.error.URLError as e:
            raise Exception(f"URL fetch failure on {origin}: {e.errno} -- {e.reason}")
    except (Exception, KeyboardInterrupt):
        if os.path.exists(fpath):
            os.remove(fpath)     # never leave half a file that the next call would trust
        raise


def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None):
    """Download `origin` to `<cache_dir or ~/.keras>/<cache_subdir>/<fname>` unless a file with
    the right hash is already there; optionally unpack it. Returns the file's path (for
    `untar=True`, the folder it was unpacked into)."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    datadir_base = os.path.expanduser(cache_dir)
    if not os.access(datadir_base, os.W_OK):
        datadir_base = os.path.join(tempfile.gettempdir(), ".keras")
    datadir = os.path.join(datadir_base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)

    fname = os.fspath(fname) if fname is not None else None
    if not fname:
        fname = os.path.basename(urlsplit(origin).path)
        if not fname:
            raise ValueError(f"Can't parse the file name from the origin provided: '{origin}'."
                             "Please specify the `fname` as the input param.")
    if untar:
        if fname.endswith(".tar.gz"):
            fname = fname[:-len(".tar.gz")]
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)

    download = not os.path.exists(fpath)
    if not download and file_hash is not None and not validate_file(fpath, file_hash,
                                                                    hash_algorithm):
        print("A local file was found, but it seems to be incomplete or outdated because the "
              f"{hash_algorithm} file hash does not match the original value of {file_hash} "
              "so we will re-download the data.")
        download = True
    if download:
        _download(origin, fpath)
        if os.path.exists(fpath) and file_hash is not None and not validate_file(
                fpath, file_hash, hash_algorithm):
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} "
                             f"file hash does not match the provided value of {file_hash}.")
    if untar:
        if not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, archive_format="tar")
        return untar_fpath
    if extract:
        _extract_archive(fpath, datadir, archive_format)
    return fpath
