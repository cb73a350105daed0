"""`tv.keras.datasets`: Keras's small example datasets, downloaded once into Keras's cache.

`mnist`, `fashion_mnist` and `boston_housing` read the very files TF-Keras downloads (same
addresses, hashes and cache folders) and return the same NumPy arrays. `cifar10`, `cifar100`,
`imdb` and `reuters` exist but refuse: Keras ships them as Python pickles, which tapeviz never
loads (unpickling a downloaded file can run code).
"""
from . import boston_housing, cifar10, cifar100, fashion_mnist, imdb, mnist, reuters  # noqa: F401
