"""`tensorflow.python.framework`: see ``tapeviz.python``."""
