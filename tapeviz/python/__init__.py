"""`tensorflow.python`: the few names of TensorFlow's private package that public programs
import anyway, at the same paths, so that such a program still runs after its one swap of
``tensorflow`` for ``tapeviz``.

TensorFlow gives no promise about this package and neither does tapeviz: each module here
holds only the names programs were seen to import from it, and a name it lacks raises an
``AttributeError`` naming the public name to use instead (see :func:`private_module`).
"""
from __future__ import annotations


def private_module(module_name: str, public: str):
    """The module ``__getattr__`` of a private path: an ``AttributeError`` that says tapeviz
    imitates only the listed names of TensorFlow's private ``module_name`` and points to
    ``public``, the public namespace that holds the rest."""
    def __getattr__(name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(
            f"module 'tensorflow.python.{module_name}' has no attribute {name!r} in tapeviz: "
            f"tapeviz imitates only the few names of TensorFlow's private tensorflow.python "
            f"package that public programs import; use the public name, {public}")
    return __getattr__
