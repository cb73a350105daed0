"""A Model's weights in Keras's order: what `get_weights`/`set_weights` see and what
`tape.gradient(loss, model.trainable_variables)` pairs with `zip(grads, ...)`.

A Model lists what it tracks first (its layers, and the variables of lists or dicts assigned
to its attributes), each in its own order, then the variables it holds itself (a
`tf.Variable` attribute, its own `add_weight`): a VAE's learned noise scale comes after the
encoder's and decoder's weights, as in TensorFlow (a plain Layer lists its own first)."""
from __future__ import annotations

from ..engine.tensor import Variable
from .layers import Layer, _unique
from .layers_base import _PLAIN, _leaves


class ModelWeights:
    """`weights`, `trainable_weights` and `non_trainable_weights` of a Model (a mixin before
    `Layer`, whose order it replaces)."""

    def _tracked(self) -> list:
        """The layers, and the variables of attribute lists and dicts, in Keras's order."""
        if getattr(self, "_graph", None) is not None:
            return list(self._sublayers())
        found = []
        for name, value in vars(self).items():
            if name in _PLAIN:          # (no layer or tracked variable in them)
                continue
            for leaf in _leaves(value):
                if isinstance(leaf, Layer) and leaf is not self:
                    found.append(leaf)
                elif isinstance(leaf, Variable) and isinstance(value, (list, tuple, dict)):
                    found.append(leaf)
        return found

    def _of_tracked(self, kind: str) -> list:
        """Each tracked layer's ``kind`` weights (a tracked variable: itself, if it is of
        that kind), in order."""
        out = []
        for t in self._tracked():
            if isinstance(t, Layer):
                out += getattr(t, kind)
            elif kind == "weights" or (kind == "trainable_weights") == t.trainable:
                out.append(t)
        return out

    @property
    def weights(self) -> list:
        """Layer by layer, each layer's own order (its trainable weights, then the others),
        then the model's own, trainable first."""
        return _unique(self._of_tracked("weights") + self._own(True) + self._own(False))

    @property
    def trainable_weights(self) -> list:
        if not self.trainable:
            return []
        return _unique(self._of_tracked("trainable_weights") + self._own(True))

    @property
    def non_trainable_weights(self) -> list:
        if not self.trainable:     # all of them: the model's own trainable ones first
            return _unique(self._own(True) + self._of_tracked("weights") + self._own(False))
        return _unique(self._of_tracked("non_trainable_weights") + self._own(False))

    def _own(self, trainable: bool) -> list:
        return [w for w in self._own_weights if w.trainable == trainable]
