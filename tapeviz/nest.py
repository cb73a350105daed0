"""`tf.nest`: nested structures of lists, tuples (namedtuples too) and dicts (by sorted key),
everything else a leaf (a tensor, a number, None), with TensorFlow's errors.

>>> import tapeviz as tv
>>> tv.nest.flatten({"b": [1, (2, 3)], "a": 4})
[4, 1, 2, 3]
>>> tv.nest.map_structure(lambda a, b: a + b, (1, [2]), (10, [20]))
(11, [22])
"""
from __future__ import annotations

from .engine import nest as _nest

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure",
           "pack_sequence_as"]


def is_nested(seq) -> bool:
    return _nest.is_nested(seq)


def flatten(structure, expand_composites=False) -> list:
    return _nest.flatten(structure)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    flat_sequence = list(flat_sequence)
    atoms = len(_nest.flatten(structure))
    if atoms != len(flat_sequence):
        raise ValueError(f"Could not pack sequence. Structure had {atoms} atoms, but "
                         f"flat_sequence had {len(flat_sequence)} items.  Structure: "
                         f"{structure}, flat_sequence: {flat_sequence}.")
    return _nest.pack_sequence_as(structure, flat_sequence)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError if the two differ in nesting or number of elements; TypeError (with
    ``check_types``) if a sequence's type differs."""
    problem = _difference(nest1, nest2, check_types)
    if problem is not None:
        error, detail = problem
        raise error(f"The two structures don't have the same nested structure.\n\nFirst "
                    f"structure: type={type(nest1).__name__} str={nest1}\n\nSecond structure: "
                    f"type={type(nest2).__name__} str={nest2}\n\nMore specifically: {detail}")


def map_structure(func, *structure, check_types=True, expand_composites=False):
    """``func`` applied to the leaves at each position of the structures (which must match),
    packed as the first."""
    if not callable(func):
        raise TypeError(f"func must be callable, got: {func}")
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types)
    flats = [_nest.flatten(s) for s in structure]
    return _nest.pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)])


def _difference(a, b, check_types):
    """None when ``a`` and ``b`` have one structure, else (error class, what differs)."""
    if _nest.is_nested(a) != _nest.is_nested(b):
        return ValueError, (f"Substructure \"type={type(a).__name__} str={a}\" is a sequence, "
                            f"while substructure \"type={type(b).__name__} str={b}\" is not"
                            if _nest.is_nested(a) else
                            f"Substructure \"type={type(b).__name__} str={b}\" is a sequence, "
                            f"while substructure \"type={type(a).__name__} str={a}\" is not")
    if not _nest.is_nested(a):
        return None
    if check_types and type(a) is not type(b):
        return TypeError, (f"The two namedtuples don't have the same sequence type. First "
                           f"structure type={type(a).__name__} str={a} has type "
                           f"{type(a).__name__}, while second structure type={type(b).__name__}"
                           f" str={b} has type {type(b).__name__}")
    if isinstance(a, dict) and isinstance(b, dict) and set(a) != set(b):
        return ValueError, (f"The two dictionaries don't have the same set of keys. First "
                            f"structure has keys {sorted(a)}, while second structure has keys "
                            f"{sorted(b)}.")
    if len(a) != len(b):
        return ValueError, (f"The two structures don't have the same number of elements. "
                            f"First structure: type={type(a).__name__} str={a}. Second "
                            f"structure: type={type(b).__name__} str={b}")
    pairs = ((a[k], b[k]) for k in sorted(a)) if isinstance(a, dict) else zip(a, b)
    for x, y in pairs:
        problem = _difference(x, y, check_types)
        if problem is not None:
            return problem
    return None
