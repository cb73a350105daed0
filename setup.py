"""Only the C part of the build; everything else is in pyproject.toml.

``tapeviz.events._emit`` delivers the engine's per-op events (a Python version of the same
function is used where it cannot be built: ``optional=True`` turns a failed compile into a
warning, not a failed install)."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("tapeviz.events._emit", ["tapeviz/events/_emit.c"],
                             optional=True)])
