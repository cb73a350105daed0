"""docs/api.md names every public name of tapeviz's TensorFlow namespaces.

The namespaces are found, not listed by hand: every module path of TensorFlow 2.21's API
(``NAMESPACES``, read from ``dir()`` of TensorFlow's modules) that tapeviz also has, plus
tapeviz's own ``tf.debug``; each is read with ``dir()``. A public name is one that does not
start with ``_`` and is not a module; objects of Python's standard library that a module
imported (``from __future__ import annotations``, ``typing.Any``, ``dataclasses.field``) are
not tapeviz's and are skipped. ``tv.events`` has its own reference, docs/events.md.

A name counts as mentioned in the form docs/api.md uses: inside backticks, either qualified
(``tf.math.cumprod``, ``layers.Dense``, ``K.cos`` for ``tf.keras.backend``) or bare (``cumprod``,
``Dense``) in a block (a top-level list item, or a paragraph) that names its namespace by one
of its paths in backticks (``tf.math`` or ``tv.math``, not a bare ``math``; ``keras.layers``;
``tf.losses`` or ``tf.keras.losses``). A top-level name may be mentioned anywhere.
"""
from __future__ import annotations

import __future__
import pathlib
import re
import sys
import types

import pytest

import tapeviz as tv

ROOT = pathlib.Path(__file__).resolve().parent.parent
API_MD = ROOT / "docs" / "api.md"

#: TensorFlow 2.21's module tree down to four levels (``dir()`` of ``tensorflow`` and of each
#: module in it; without ``raw_ops``, the copies under ``compat.v2`` and under
#: ``compat.v1.x.y``, and the tooling trees ``dtensor.python``, ``tools``, ``lite``, ``tpu``,
#: ``profiler``, ``mlir``, ``security``, ``keras.applications.*``), and tapeviz's own ``debug``.
NAMESPACES = """
autograph autograph.experimental bitwise compat compat.v1 compat.v1.autograph compat.v1.compat
compat.v1.config compat.v1.data compat.v1.debugging compat.v1.distribute compat.v1.dtypes
compat.v1.errors compat.v1.experimental compat.v1.gfile compat.v1.image compat.v1.initializers
compat.v1.io compat.v1.keras compat.v1.layers compat.v1.linalg compat.v1.logging
compat.v1.losses compat.v1.math compat.v1.metrics compat.v1.nest compat.v1.nn compat.v1.random
compat.v1.sets compat.v1.sparse compat.v1.strings compat.v1.summary compat.v1.test
compat.v1.train compat.v1.types compat.v1.version compat.v2 config config.experimental
config.optimizer config.threading data data.experimental debugging debugging.experimental
distribute distribute.cluster_resolver distribute.experimental dtypes dtypes.experimental
errors experimental experimental.numpy experimental.numpy.random feature_column graph_util
image initializers io io.gfile keras keras.activations keras.backend keras.callbacks
keras.callbacks.experimental keras.constraints keras.datasets keras.datasets.boston_housing
keras.datasets.cifar10 keras.datasets.cifar100 keras.datasets.fashion_mnist
keras.datasets.imdb keras.datasets.mnist keras.datasets.reuters keras.experimental
keras.initializers keras.layers keras.layers.experimental keras.layers.experimental.preprocessing
keras.losses keras.metrics keras.mixed_precision keras.models keras.optimizers
keras.optimizers.experimental keras.optimizers.legacy keras.optimizers.schedules
keras.preprocessing keras.preprocessing.image keras.preprocessing.sequence
keras.preprocessing.text keras.regularizers keras.saving keras.utils keras.utils.experimental
keras.utils.legacy linalg linalg.experimental lookup losses math math.special metrics nest nn
nn.experimental optimizers optimizers.experimental optimizers.legacy optimizers.schedules
queue ragged random random.experimental saved_model signal sets sparse strings summary
summary.experimental sysconfig test test.experimental train train.experimental types
version xla debug
""".split()

#: the short names docs/api.md writes for a namespace besides its last part
ALIASES = {"keras.backend": ("K",)}


def _foreign(value) -> bool:
    """An object of Python's standard library that a tapeviz module imported for itself."""
    if isinstance(value, __future__._Feature):
        return True
    module = getattr(value, "__module__", None)
    return (isinstance(module, str) and not isinstance(value, (int, float, str, bytes))
            and module.split(".")[0] in sys.stdlib_module_names)


def namespaces():
    """[(paths, public names)] for tapeviz itself and each TensorFlow namespace it has, each
    module object once, with every path it is found under (``tf.losses`` is
    ``tf.keras.losses``): the first path names it."""
    paths, objects = {}, {}
    for path in [""] + sorted(NAMESPACES, key=lambda p: (p.count("."), p)):
        obj = tv
        try:
            for part in path.split(".") if path else []:
                obj = getattr(obj, part)
        except AttributeError:
            continue
        if isinstance(obj, type) or callable(obj):
            continue
        if isinstance(obj, types.ModuleType) and not obj.__name__.startswith("tapeviz"):
            continue            # Python's own module under TensorFlow's name (compat.v1.types)
        objects[id(obj)] = obj
        paths.setdefault(id(obj), []).append(path)
    found = []
    for key, obj in objects.items():
        names = []
        for name in dir(obj):
            if name.startswith("_"):
                continue
            value = getattr(obj, name)
            if not isinstance(value, types.ModuleType) and not _foreign(value):
                names.append(name)
        found.append((paths[key], names))
    return found


def _blocks(text):
    """Top-level list items (with their nested lines) and paragraphs, each as its backticked
    spans."""
    blocks, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith(("- ", "#")) or not line.strip():
            if current:                 # a span may go on over a line end
                blocks.append(re.findall(r"`([^`]+)`", " ".join(current)))
            current = []
        if line.strip():
            current.append(line.strip())
    return blocks


def _marker(path):
    """A backticked span that names the namespace: ``tf.math`` or ``tv.math`` (a bare
    ``math`` is not enough), ``keras.layers`` with or without ``tf.``."""
    prefix = r"(?<![\w.])(?:tf|tv)\." if "." not in path else r"(?<![\w])(?:(?:tf|tv)\.)?"
    return re.compile(prefix + re.escape(path) + r"(?![\w])")


def undocumented(text):
    """{namespace: [names docs/api.md does not mention]} for the text of docs/api.md."""
    blocks = _blocks(text)
    missing = {}
    for paths, names in namespaces():
        top = "" in paths
        heads = {h for p in paths if p for h in (p.rsplit(".", 1)[-1], *ALIASES.get(p, ()))}
        markers = [_marker(p) for p in paths if p]
        marked = [b for b in blocks if top or any(m.search(s) for m in markers for s in b)]
        for name in names:
            qualified = [re.compile(rf"(?<![\w])(?:\w+\.)*{re.escape(h)}\.{re.escape(name)}"
                                    rf"(?![\w])") for h in heads]
            bare = re.compile(rf"(?<![\w.])(?:(?:tf|tv)\.)?{re.escape(name)}(?![\w])")
            if any(q.search(s) for q in qualified for b in blocks for s in b):
                continue
            if any(bare.search(s) for b in marked for s in b):
                continue
            missing.setdefault(paths[0] or "tf", []).append(name)
    return missing


def test_the_walk_finds_tapevizs_namespaces_and_names():
    found = {paths[0]: names for paths, names in namespaces()}
    for path in ("", "math", "nn", "linalg", "image", "io", "data", "random", "sets", "strings",
                 "train", "keras.layers", "keras.callbacks", "keras.utils",
                 "experimental.numpy"):
        assert found.get(path), f"namespace {path!r} not found or empty"
    assert len(found) >= 60 and sum(map(len, found.values())) >= 1400
    assert "cumprod" in found["math"] and "BackupAndRestore" in found["keras.callbacks"]
    assert "annotations" not in found["math"]          # from __future__, not tapeviz's


def test_a_name_counts_only_where_its_namespace_is_named():
    text = ("- **`tf.math`**: `cumprod`.\n- **`tf.image`**: `extract_patches`, `svd`.\n"
            "- `tf.linalg.eigh` and `keras.layers.Dense`.\n")
    missing = undocumented(text)
    assert "cumprod" not in missing["math"] and "segment_sum" in missing["math"]
    assert "extract_patches" not in missing["image"]
    assert "svd" in missing["linalg"] and "eigh" not in missing["linalg"]
    assert "Dense" not in missing["keras.layers"] and "Conv2D" in missing["keras.layers"]
    # another namespace's path that ends alike does not name it
    missing = undocumented("- `tnp.random` and `np.math`: `uniform`, `cumprod`.\n")
    assert "uniform" in missing["random"] and "cumprod" in missing["math"]


def test_the_tnp_names_docs_api_md_says_are_missing_are_missing():
    text = API_MD.read_text(encoding="utf-8")
    listed = re.search(r"`tnp`\s+\(besides\s+its\s+`random`\s+module\);\s+not\s+there:"
                       r"(.*?)\.\n", text, re.DOTALL)
    names = re.findall(r"`(\w+)`", listed.group(1))
    assert len(names) >= 40
    assert [n for n in names if hasattr(tv.experimental.numpy, n)] == []


def test_docs_api_md_mentions_every_public_name():
    missing = undocumented(API_MD.read_text(encoding="utf-8"))
    report = "\n".join(f"  tf.{path}: {' '.join(names)}" if path != "tf" else
                       f"  tf: {' '.join(names)}" for path, names in missing.items())
    count = sum(map(len, missing.values()))
    assert not missing, f"{count} public names docs/api.md does not mention:\n{report}"
