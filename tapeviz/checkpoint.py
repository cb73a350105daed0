"""`tf.train.Checkpoint`: save and restore Variables, Keras models and optimizers.

As in TensorFlow, what is saved is found by walking the objects given to the Checkpoint
(`Checkpoint(model=model, optimizer=opt)`), attribute by attribute: each Variable is saved
under its path of attribute names (`model/dense_1/kernel`, `optimizer/iterations`), the
shortest one when several lead to it, and an optimizer's slot variables under the path of the
variable they belong to (`optimizer/_slots/m/model/dense_1/kernel`). Restoring walks the new
objects the same way, so a freshly built model of the same structure gets every value back,
whatever its variables' names. A model not yet built when restored (a subclassed model
before its first call) gets its values when it builds, as TensorFlow defers them.

The files are tapeviz's own (see tapeviz/checkpoint_files.py): TensorFlow cannot read them and
tapeviz cannot read TensorFlow's.
"""
from __future__ import annotations

import collections
import os
import weakref

import numpy as np

from . import checkpoint_files as files
from .data_iterator import DatasetIterator
from .engine.nest import attribute_leaves
from .engine.tensor import Variable
from .module import Module

SLOTS = "_slots"
WEIGHTS = "_own_weights"


def _is_optimizer(obj) -> bool:
    from .keras.optimizers import Optimizer
    return isinstance(obj, Optimizer)


def _trackable(obj) -> bool:
    return isinstance(obj, (Variable, Module, Checkpoint, DatasetIterator)) or _is_optimizer(obj)


class _IteratorPosition:
    """A dataset iterator's position, saved and restored as a Variable is."""

    def __init__(self, iterator):
        self._iterator = iterator
        self._value = iterator.checkpoint_position()
        self.shape = self._value.shape
        self.name = "iterator position"

    def assign(self, value):
        self._iterator.restore_position(value)

    def __repr__(self):
        return f"<dataset iterator at element {int(self._value)}>"


def _children(obj):
    """(attribute path, object) of what ``obj`` tracks: its attributes (and the items of list,
    tuple and dict attributes) that are trackable, in sorted order."""
    if isinstance(obj, Checkpoint):
        attrs = dict(obj._children)
    elif isinstance(obj, Module):
        # a Keras layer's `_own_weights` (add_weight's) come last, under their short names
        ignored = Module._IGNORED | {WEIGHTS} | set(getattr(obj, "_ignored_attributes", ()))
        attrs = {k: v for k, v in vars(obj).items() if k not in ignored}
    elif _is_optimizer(obj):
        attrs = {k: v for k, v in vars(obj).items() if k != SLOTS}
    else:
        return
    for key in sorted(attrs, key=str):
        yield from _items(str(key), attrs[key])
    names: set = set()
    for var in getattr(obj, WEIGHTS, ()) if isinstance(obj, Module) else ():
        name = var.name.split(":")[0].rsplit("/", 1)[-1]
        while name in names or name in attrs:
            name += "_"
        names.add(name)
        yield name, var


def _items(path, value):
    """(path, object) of the trackable objects in an attribute's value: the path of
    ``value`` itself, then the keys and indices inside it, joined by '/'."""
    for keys, leaf in attribute_leaves(value, string_keys_only=True):
        if _trackable(leaf):
            yield "/".join((path,) + tuple(str(k) for k in keys)), leaf


def _walk(roots: dict) -> tuple:
    """({path: Variable}, {path: optimizer}) of what is reachable from ``roots`` ({name:
    object}), breadth first so that each object gets its shortest path (ties: the first in
    sorted order)."""
    variables, optimizers, seen = {}, {}, set()
    queue = collections.deque(pair for name, obj in sorted(roots.items())
                              for pair in _items(name, obj))
    while queue:
        path, obj = queue.popleft()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, Variable):
            variables[path] = obj
            continue
        if isinstance(obj, DatasetIterator):
            variables[f"{path}/position"] = _IteratorPosition(obj)
            continue
        if _is_optimizer(obj):
            optimizers[path] = obj
        queue.extend((f"{path}/{child_path}", child) for child_path, child in _children(obj))
    return variables, optimizers


def object_graph(roots: dict) -> dict:
    """{path: Variable} of everything ``roots`` track, then each optimizer's slots under the
    path of their variable."""
    variables, optimizers = _walk(roots)
    path_of = {v._id: path for path, v in variables.items() if isinstance(v, Variable)}
    for opt_path, opt in optimizers.items():
        for (var_id, slot_name), slot in opt._slots.items():
            if var_id in path_of:
                variables[f"{opt_path}/{SLOTS}/{slot_name}/{path_of[var_id]}"] = slot
    return variables


def _make_slots(roots: dict, graph: dict, paths) -> None:
    """Make the slots saved under ``paths`` that the (new) optimizer has not made yet, as
    TensorFlow restores slots before the first update."""
    _, optimizers = _walk(roots)
    for path in paths:
        head, sep, rest = path.partition(f"/{SLOTS}/")
        slot_name, _, var_path = rest.partition("/")
        if sep and path not in graph and head in optimizers and var_path in graph:
            graph[path] = optimizers[head]._slot(graph[var_path], slot_name)


def assign_values(roots: dict, values: dict, saved_paths) -> tuple:
    """Assign each of ``values`` to the variable at its path; returns (restored paths, the
    Python variables that no path of ``saved_paths`` names)."""
    graph = object_graph(roots)
    _make_slots(roots, graph, values)
    restored = []
    for path, var in graph.items():
        if path in values:
            _assign(var, values[path])
            restored.append(path)
    unmatched = [v for p, v in graph.items() if p not in saved_paths]
    return restored, unmatched


def _assign(var, value):
    if tuple(value.shape) != tuple(var.shape):
        raise ValueError(f"Received incompatible tensor with shape {tuple(value.shape)} when "
                         f"attempting to restore variable with shape {tuple(var.shape)} and "
                         f"name {var.name}. Fix: restore into a model built as the saved one "
                         "(same layers, same units)")
    if value.dtype != var._value.dtype:
        raise ValueError(f"Cannot restore variable {var.name} ({var._value.dtype.name}) from "
                         f"a saved {value.dtype.name} value. Fix: make the variable with the "
                         "saved dtype")
    var.assign(value)


# --- restoring into objects built later ----------------------------------------------------------
_pending: list = []   # restorations waiting for variables; each holds its objects weakly


def restore_deferred() -> None:
    """Called when a Keras layer builds: hands waiting checkpoint values to new variables."""
    for status in list(_pending):
        status._assign_waiting()


def _weak(obj):
    try:
        return weakref.ref(obj)
    except TypeError:             # a list or dict given to the Checkpoint: held as it is
        return lambda: obj


class _RestoreStatus:
    """What every status of `restore` answers alike: TF1's session calls do nothing in eager
    mode, and `expect_partial` only silences TensorFlow's warning about unused values."""

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        return None

    def initialize_or_restore(self, session=None):
        return None


class CheckpointLoadStatus(_RestoreStatus):
    """What `restore` matched: `assert_consumed()`, `assert_existing_objects_matched()`,
    `expect_partial()` as TensorFlow's. Values that found no variable yet wait (in
    `_pending`) until a layer builds one at their path, or until the objects are dropped."""

    def __init__(self, checkpoint, values: dict):
        self._roots = {name: _weak(obj) for name, obj in checkpoint._children.items()}
        self._values = values
        self._restored: set = set()
        self._unmatched: list = []
        self._assign_waiting()

    def _assign_waiting(self):
        # (an object dropped since, such as the save_counter of a Checkpoint not kept, waits
        # for nothing)
        roots = {name: ref() for name, ref in self._roots.items() if ref() is not None}
        waiting = {p: v for p, v in self._values.items()
                   if p not in self._restored and p.split("/", 1)[0] in roots}
        restored, self._unmatched = assign_values(roots, waiting, self._values)
        self._restored.update(restored)
        if len(restored) == len(waiting):
            self._forget()
        elif self not in _pending:
            _pending.append(self)

    def _forget(self):
        if self in _pending:
            _pending.remove(self)

    def assert_consumed(self):
        self.assert_existing_objects_matched()
        unused = [p for p in self._values if p not in self._restored]
        if unused:
            first = "(root)." + unused[0].replace("/", ".")
            raise AssertionError(f"Unresolved object in checkpoint {first}: {len(unused)} "
                                 f"saved values have no object in the program: {unused[:10]}. "
                                 "Fix: build the same objects before restoring, or call "
                                 "expect_partial() if only part is wanted")
        return self

    def assert_existing_objects_matched(self):
        if self._unmatched:
            n = len(self._unmatched)
            raise AssertionError(
                f"Found {n} Python objects that were not bound to checkpointed values, likely "
                f"due to changes in the Python program. Showing {min(n, 10)} of {n} unmatched "
                f"objects: {self._unmatched[:10]}")
        return self

    def assert_nontrivial_match(self):
        if not self._restored:
            raise AssertionError("Nothing except the root object matched a checkpointed value. "
                                 "Typically this means that the checkpoint does not match the "
                                 "Python program.")
        return self


class InitializationOnlyStatus(_RestoreStatus):
    """`restore(None)`: nothing to restore, as when no checkpoint has been saved yet."""

    def _refuse(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def assert_consumed(self):
        self._refuse()

    def assert_existing_objects_matched(self):
        self._refuse()

    def assert_nontrivial_match(self):
        self._refuse()


class Checkpoint:
    """`tf.train.Checkpoint(root=None, **objects)`: `save(prefix)` writes `prefix-N` (N from
    `save_counter`) and records it as the directory's latest; `write(prefix)` writes `prefix`
    as it is; `restore(path)` / `read(path)` put the values back."""

    def __init__(self, root=None, **kwargs):
        object.__setattr__(self, "_children", {})
        if root is not None:
            kwargs = {"root": root, **kwargs}
        for name, obj in kwargs.items():
            setattr(self, name, obj)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        if not _trackable(value) and not isinstance(value, (list, tuple, dict)):
            raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an "
                             f"object derived from `Trackable`), got {value!r}. Fix: pass a "
                             "tf.Variable, a Keras model or layer, an optimizer or a "
                             "tf.Module (hold a number in a tf.Variable)")
        self._children[name] = value

    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        raise AttributeError(f"'Checkpoint' object has no attribute {name!r}")

    @property
    def save_counter(self):
        """Counts `save` calls; saved and restored with the other values."""
        counter = self._children.get("save_counter")
        if counter is None:
            counter = self._children["save_counter"] = Variable(
                np.int64(0), trainable=False, name="save_counter")
        return counter

    def write(self, file_prefix, options=None) -> str:
        prefix = os.fspath(file_prefix)
        values = {path: np.array(var._value) for path, var in object_graph(self._children).items()}
        files.write(prefix, values)
        return prefix

    def save(self, file_prefix, options=None) -> str:
        counter = self.save_counter
        counter.assign_add(np.int64(1))
        path = self.write(f"{os.fspath(file_prefix)}-{int(counter._value)}")
        files.write_state(os.path.dirname(path) or ".", path, [path])
        return path

    def read(self, save_path, options=None) -> CheckpointLoadStatus:
        return CheckpointLoadStatus(self, files.read(os.fspath(save_path), restoring=False))

    def restore(self, save_path, options=None):
        if save_path is None:
            return InitializationOnlyStatus()
        self.save_counter    # (made, so that it is restored like the other values)
        return CheckpointLoadStatus(self, files.read(os.fspath(save_path), restoring=True))


# --- Model.save_weights / load_weights -----------------------------------------------------------
def _weights_path(filepath, save_format, what) -> str:
    path = os.fspath(filepath)
    if save_format not in (None, "tf") or path.endswith((".h5", ".hdf5", ".keras")):
        raise ValueError(f"Model.{what}({path!r}): tapeviz writes and reads only its own "
                         "checkpoint format, not HDF5 or .keras files. Fix: give a path "
                         "without that suffix, e.g. 'weights/model'")
    return path


def save_weights(model, filepath, save_format=None) -> None:
    """As TF-Keras's TensorFlow format: the files at `filepath`, and the directory's state
    file naming them."""
    path = Checkpoint(root=model).write(_weights_path(filepath, save_format, "save_weights"))
    files.write_state(os.path.dirname(path) or ".", path, [path])


def load_weights(model, filepath) -> CheckpointLoadStatus:
    path = _weights_path(filepath, None, "load_weights")
    return CheckpointLoadStatus(Checkpoint(root=model), files.read(path, restoring=False))
