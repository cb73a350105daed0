"""`tensorflow.python.client`: see ``tapeviz.python``."""
