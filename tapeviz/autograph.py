"""`tf.autograph`: tapeviz runs `@tf.function` bodies as Python (no conversion to a graph),
so these switches are accepted and change nothing; `do_not_convert` returns the function."""
import types as _types

__all__ = ["experimental", "set_verbosity"]


def set_verbosity(level, alsologtostdout=False):
    """Accepted: tapeviz converts nothing, so there is nothing to log."""
    return None


def _do_not_convert(func=None):
    """The function itself (as a decorator, with or without parentheses)."""
    return (lambda f: f) if func is None else func


def _set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                      shape_invariants=None):
    return None


experimental = _types.SimpleNamespace(do_not_convert=_do_not_convert,
                                      set_loop_options=_set_loop_options)
