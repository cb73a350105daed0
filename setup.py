"""Only the C part of the build; everything else is in pyproject.toml.

Four small C modules, each the hot loop of a Python function that stays as the fallback
(``optional=True`` turns a failed compile into a warning, not a failed install; and
``TAPEVIZ_PURE_PYTHON=1`` uses the Python versions):

* ``tapeviz.events._emit``: the delivery of the engine's per-op events (``emit_deferred``),
  and the threads inside a subscriber (``_busy.c``);
* ``tapeviz.recording._tables``: the recording writer's refs and sites (``compact``), and its
  usual event whole (``record._on_event``: ``_on_event.c`` and ``_writer.c``);
* ``tapeviz.engine._site``: the user's source line of each op (``user_site``), on CPython 3.11
  (it reads the interpreter's frames, whose layout changes between versions; elsewhere the
  module builds empty and the Python version runs);
* ``tapeviz.events._stats``: a large float array's summary stats in one pass
  (``summary._large_stats``; NumPy's passes are the fallback).
"""
from setuptools import Extension, setup

setup(ext_modules=[
    Extension("tapeviz.events._emit", ["tapeviz/events/_emit.c", "tapeviz/events/_busy.c"],
              optional=True),
    Extension("tapeviz.recording._tables",
              ["tapeviz/recording/_tables.c", "tapeviz/recording/_writer.c",
               "tapeviz/recording/_on_event.c"], optional=True),
    Extension("tapeviz.engine._site", ["tapeviz/engine/_site.c"], optional=True),
    Extension("tapeviz.events._stats", ["tapeviz/events/_stats.c"], optional=True),
])
