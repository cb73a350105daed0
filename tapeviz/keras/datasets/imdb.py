"""`tv.keras.datasets.imdb`: the word index (JSON) as Keras gives it; `load_data` refuses,
because Keras ships the reviews themselves as Python pickles."""
import json

from ..data_download import get_file
from ._cache import ORIGIN_FOLDER, refuse_pickled

load_data = refuse_pickled("imdb")


def get_word_index(path="imdb_word_index.json"):
    """The dict word -> index of the imdb dataset (indices from 1; the sequences of
    `load_data` shift them by `index_from`)."""
    path = get_file(path, origin=ORIGIN_FOLDER + "imdb_word_index.json",
                    file_hash="bfafd718b763782e994055a2d397834f")
    with open(path) as f:
        return json.load(f)
