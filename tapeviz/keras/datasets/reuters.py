"""`tv.keras.datasets.reuters`: the word index (JSON) as Keras gives it; `load_data` refuses,
because Keras ships the newswires themselves as Python pickles."""
import json

from ..data_download import get_file
from ._cache import ORIGIN_FOLDER, refuse_pickled

load_data = refuse_pickled("reuters")


def get_word_index(path="reuters_word_index.json"):
    """The dict word -> index of the reuters dataset (indices from 1; the sequences of
    `load_data` shift them by `index_from`)."""
    path = get_file(path, origin=ORIGIN_FOLDER + "reuters_word_index.json",
                    file_hash="4d44cc38712099c9e383dc6e5f11a921")
    with open(path) as f:
        return json.load(f)


# the 46 topics, in the order of the labels of `load_data`
LABEL_NAMES = (
    "cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply",
    "coffee", "sugar", "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas",
    "cpi", "money-fx", "interest", "gnp", "meal-feed", "alum", "oilseed", "gold", "tin",
    "strategic-metal", "livestock", "retail", "ipi", "iron-steel", "rubber", "heat", "jobs",
    "lei", "bop", "zinc", "orange", "pet-chem", "dlr", "gas", "silver", "wpi", "hog", "lead",
)


def get_label_names():
    """The names of the 46 topics, indexed by label."""
    return LABEL_NAMES
