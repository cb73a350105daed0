"""`tv.Module`: a named container of variables and other modules, as `tf.Module`.

Variables and submodules are found in the module's attributes, looking inside lists, tuples
and dicts, in TensorFlow's order: the module's own attributes sorted by name (dicts by key,
lists in order), then each submodule in that order, depth first. Each object appears once.

>>> import tapeviz as tv
>>> from tapeviz.module import Module      # also tv.Module
>>> class Affine(Module):
...     def __init__(self):
...         super().__init__()
...         self.w = tv.Variable([[1.0]], name="w")
...         self.b = tv.Variable([0.0], name="b", trainable=False)
>>> m = Affine()
>>> m.name, [v.name for v in m.variables], [v.name for v in m.trainable_variables]
('affine', ['b:0', 'w:0'], ['w:0'])
"""
from __future__ import annotations

import re

from .engine.nest import attribute_leaves
from .engine.tape import name_scope as _name_scope
from .engine.tensor import Variable

_VALID_NAME = re.compile(r"^[A-Za-z_][\w.\-/]*$")


def camel_to_snake(name: str) -> str:
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


class Module:
    """Base class of models and layers: `.variables`, `.trainable_variables`, `.submodules`."""

    # attributes that hold bookkeeping, not model state
    _IGNORED = frozenset({"_name", "_scope_name"})

    def __init__(self, name=None):
        if name is None:
            name = camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not _VALID_NAME.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name
        self._scope_name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self):
        """`with module.name_scope:` groups the ops inside it under the module's name."""
        return _name_scope(self._scope_name)

    @property
    def variables(self) -> tuple:
        """Every Variable of this module and its submodules (each once)."""
        return tuple(self._flatten(lambda v: isinstance(v, Variable)))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and v.trainable))

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(self._flatten(lambda v: isinstance(v, Variable) and not v.trainable))

    @property
    def submodules(self) -> tuple:
        """Every Module reachable from this one (not itself), breadth first."""
        return tuple(self._flatten(lambda v: isinstance(v, Module)))

    def _flatten(self, predicate, recursive=True):
        return list(_flatten_module(self, predicate, recursive, seen={id(self)}, stack=[]))

    @classmethod
    def with_name_scope(cls, method):
        """Decorator: run `method` inside the module's name scope."""
        import functools

        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapper

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object named {self.name!r}>"


def _flatten_module(module, predicate, recursive, seen, stack):
    if id(module) in stack:
        return
    submodules = []
    attrs = vars(module)
    for key in sorted(attrs, key=str):
        if key in Module._IGNORED or key in getattr(module, "_ignored_attributes", ()):
            continue
        for _, leaf in attribute_leaves(attrs[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if recursive and isinstance(leaf, Module):
                submodules.append(leaf)
    stack.append(id(module))
    for sub in submodules:
        yield from _flatten_module(sub, predicate, recursive, seen, stack)
    stack.pop()
