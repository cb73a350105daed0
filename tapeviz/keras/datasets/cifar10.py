"""`tv.keras.datasets.cifar10`: present so that imports work; its loader explains why it refuses."""
from ._cache import refuse_pickled

load_data = refuse_pickled("cifar10")
