"""`tv.keras.preprocessing`: Keras's data helpers by their old module paths
(`keras.preprocessing.sequence.pad_sequences`, `keras.preprocessing.text.Tokenizer`,
`keras.preprocessing.timeseries_dataset_from_array`, `image_dataset_from_directory`,
`text_dataset_from_directory`, `keras.preprocessing.image.load_img` and its kin);
`tv.keras.utils` has all but the Tokenizer too."""
from . import image, sequence, text, timeseries  # noqa: F401
from .timeseries import timeseries_dataset_from_array  # noqa: F401
from .directory_datasets import (image_dataset_from_directory,  # noqa: F401
                                 text_dataset_from_directory)
