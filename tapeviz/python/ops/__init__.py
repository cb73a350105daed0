"""`tensorflow.python.ops`: see ``tapeviz.python``."""
