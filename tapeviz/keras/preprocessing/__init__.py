"""`tv.keras.preprocessing`: Keras's data helpers by their old module paths
(`keras.preprocessing.sequence.pad_sequences`, `keras.preprocessing.text.Tokenizer`,
`keras.preprocessing.timeseries_dataset_from_array`); `tv.keras.utils` has the first and
the last too."""
from . import sequence, text, timeseries  # noqa: F401
from .timeseries import timeseries_dataset_from_array  # noqa: F401
