"""Keras's `experimental` namespaces, kept by TF-Keras as aliases of stable names that older
code still imports: `tf.keras.layers.experimental.preprocessing` (the preprocessing layers),
`tf.keras.optimizers.experimental` (the optimizers) and `tf.keras.experimental` (the cosine
schedules). Each is a module (importable with `from ... import`) whose names are looked up
in the stable namespace when asked for, so a layer defined there later is found too."""
from __future__ import annotations

import sys
import types

PREPROCESSING = ("CategoryEncoding", "CenterCrop", "Discretization", "HashedCrossing", "Hashing",
                 "IntegerLookup", "Normalization", "PreprocessingLayer", "RandomContrast",
                 "RandomCrop", "RandomFlip", "RandomHeight", "RandomRotation",
                 "RandomTranslation", "RandomWidth", "RandomZoom", "Rescaling", "Resizing",
                 "StringLookup", "TextVectorization")
OPTIMIZERS = ("Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Nadam",
              "Optimizer", "RMSprop", "SGD")
SCHEDULES = ("CosineDecay", "CosineDecayRestarts")


def _alias_module(name, doc, source, names):
    """A module whose attributes `names` are `source`'s attributes of the same name."""
    module = types.ModuleType(name, doc)

    def __getattr__(attr):
        if attr in names and hasattr(source, attr):
            return getattr(source, attr)
        raise AttributeError(f"module {name!r} has no attribute {attr!r} (tapeviz does not "
                             f"imitate it: see the README's support section)")

    def __dir__():
        return sorted(n for n in names if hasattr(source, n))

    module.__getattr__, module.__dir__ = __getattr__, __dir__
    sys.modules[name] = module
    return module


def install(keras):
    """Attach the three namespaces to the `tv.keras` package `keras`."""
    layers, optimizers = keras.layers, keras.optimizers
    layers.experimental.preprocessing = _alias_module(
        layers.experimental.__name__ + ".preprocessing",
        "tf.keras.layers.experimental.preprocessing: the preprocessing layers' old names.",
        layers, PREPROCESSING)
    optimizers.experimental = _alias_module(
        optimizers.__name__ + ".experimental",
        "tf.keras.optimizers.experimental: the optimizers' old names.", optimizers, OPTIMIZERS)
    keras.experimental = _alias_module(
        keras.__name__ + ".experimental",
        "tf.keras.experimental: the cosine schedules' old names.", optimizers.schedules,
        SCHEDULES)
