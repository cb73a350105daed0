"""`tensorflow.python.framework.dtypes`: the same module as ``tf.dtypes``."""
from ...dtypes import *  # noqa: F401,F403  (the public module's names, under the old path)
from ...dtypes import __all__  # noqa: F401
