"""What tf-keras's `Layer` has beside its core (layers_base): `stateful`, the `metrics` a layer
collected with `add_metric`, the `input` and `output` of its first symbolic call, and the
deprecated `add_variable`, warned about as tf-keras does."""
from __future__ import annotations

import warnings


class LayerAliases:
    #: no tapeviz layer keeps states between batches (stateful=True is refused)
    stateful = False

    @property
    def metrics(self) -> list:
        """The metrics this layer and its sublayers gave `add_metric`."""
        return self.added_metrics

    @property
    def output(self):
        """The KerasTensor(s) its first call on KerasTensors returned, as Keras (Grad-CAM and
        feature extractors build `Model(model.inputs, layer.output)` from it)."""
        return self._first_call("output").outputs

    @property
    def input(self):
        """The KerasTensor(s) its first call on KerasTensors took (`Model(layer.input, ...)`)."""
        return self._first_call("input").args[0]

    def _first_call(self, what: str):
        nodes = self.__dict__.get("_inbound_nodes")
        if not nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes. Fix: call the layer "
                                 "on a tf.keras.Input (the functional API) before asking for "
                                 f"its {what}.")
        return nodes[0]

    def add_variable(self, *args, **kwargs):
        """Deprecated, do NOT use! Alias for `add_weight`."""
        warnings.warn("`layer.add_variable` is deprecated and will be removed in a future "
                      "version. Please use the `layer.add_weight()` method instead.",
                      stacklevel=2)
        return self.add_weight(*args, **kwargs)


class ModelAliases:
    """`Model`'s: `stateful`, `reset_states`, `run_eagerly`, and the deprecated
    `fit_generator`/`evaluate_generator`/`predict_generator`, which call `fit`/`evaluate`/
    `predict` as tf-keras's do."""

    @property
    def stateful(self) -> bool:
        return any(getattr(layer, "stateful", False) for layer in self.layers)

    def reset_states(self):
        for layer in self.layers:
            if hasattr(layer, "reset_states") and getattr(layer, "stateful", False):
                layer.reset_states()

    @property
    def run_eagerly(self) -> bool:
        """Whether `fit` runs its steps eagerly: `compile(run_eagerly=...)` or the setter,
        else `tf.config.functions_run_eagerly()` (tapeviz runs every step eagerly anyway)."""
        from ..config import functions_run_eagerly
        chosen = self.__dict__.get("_run_eagerly")
        return bool(chosen or (chosen is None and functions_run_eagerly()))

    @run_eagerly.setter
    def run_eagerly(self, value):
        self._run_eagerly = value

    def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1,
                      callbacks=None, validation_data=None, validation_steps=None,
                      validation_freq=1, class_weight=None, max_queue_size=10, workers=1,
                      use_multiprocessing=False, shuffle=True, initial_epoch=0):
        warnings.warn("`Model.fit_generator` is deprecated and will be removed in a future "
                      "version. Please use `Model.fit`, which supports generators.",
                      stacklevel=2)
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                        verbose=verbose, callbacks=callbacks, validation_data=validation_data,
                        validation_steps=validation_steps, validation_freq=validation_freq,
                        class_weight=class_weight, max_queue_size=max_queue_size,
                        workers=workers, use_multiprocessing=use_multiprocessing,
                        shuffle=shuffle, initial_epoch=initial_epoch)

    def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                           workers=1, use_multiprocessing=False, verbose=0):
        warnings.warn("`Model.evaluate_generator` is deprecated and will be removed in a "
                      "future version. Please use `Model.evaluate`, which supports "
                      "generators.", stacklevel=2)
        return self.evaluate(generator, steps=steps, max_queue_size=max_queue_size,
                             workers=workers, use_multiprocessing=use_multiprocessing,
                             verbose=verbose, callbacks=callbacks)

    def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                          workers=1, use_multiprocessing=False, verbose=0):
        warnings.warn("`Model.predict_generator` is deprecated and will be removed in a "
                      "future version. Please use `Model.predict`, which supports "
                      "generators.", stacklevel=2)
        return self.predict(generator, steps=steps, max_queue_size=max_queue_size,
                            workers=workers, use_multiprocessing=use_multiprocessing,
                            verbose=verbose, callbacks=callbacks)
