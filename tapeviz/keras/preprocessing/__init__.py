"""`tv.keras.preprocessing`: Keras's data helpers by their old module paths
(`keras.preprocessing.sequence.pad_sequences`); `tv.keras.utils` has them too."""
from . import sequence  # noqa: F401
