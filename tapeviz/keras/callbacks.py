"""`tv.keras.callbacks`: what `fit`, `evaluate` and `predict` call as they go, as Keras's.

`Callback` has every hook (`on_train_begin`, `on_epoch_end(epoch, logs)`,
`on_train_batch_end(batch, logs)`, ...); `History` (what `fit` returns) keeps each epoch's
logs; `EarlyStopping` stops training when a monitored value stops improving; `LambdaCallback`
takes the hooks as functions; `LearningRateScheduler`, `ReduceLROnPlateau` and
`TerminateOnNaN` as Keras's. Logs hold Python floats: the running means of the epoch so far.
"""
from __future__ import annotations

import time

import numpy as np


class Callback:
    """Base class: override the hooks you need; `self.model` is the model being trained."""

    def __init__(self):
        self.model = None
        self.params: dict = {}
        self.validation_data = None

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_batch_begin(self, batch, logs=None):
        """Called by `on_train_batch_begin` (Keras's older name)."""

    def on_batch_end(self, batch, logs=None):
        """Called by `on_train_batch_end` (Keras's older name)."""

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs=logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs=logs)

    def on_test_batch_begin(self, batch, logs=None):
        pass

    def on_test_batch_end(self, batch, logs=None):
        pass

    def on_predict_batch_begin(self, batch, logs=None):
        pass

    def on_predict_batch_end(self, batch, logs=None):
        pass

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_test_begin(self, logs=None):
        pass

    def on_test_end(self, logs=None):
        pass

    def on_predict_begin(self, logs=None):
        pass

    def on_predict_end(self, logs=None):
        pass


class History(Callback):
    """`history.history`: {'loss': [one value per epoch], ...}; `history.epoch`: epochs run."""

    def __init__(self):
        super().__init__()
        self.history: dict = {}
        self.epoch: list = []

    def on_train_begin(self, logs=None):
        self.epoch = []

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        if self.model is not None:
            self.model.history = self


class LambdaCallback(Callback):
    """`LambdaCallback(on_epoch_end=lambda epoch, logs: ...)`: hooks given as functions."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_begin", on_batch_begin), ("on_batch_end", on_batch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, name, fn)


class EarlyStopping(Callback):
    """Stop when `monitor` has not improved by more than `min_delta` for `patience` epochs
    (Keras's rule, line for line: `stopped_epoch`, `best`, `wait`, `restore_best_weights`)."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.min_delta = baseline, abs(min_delta)
        self.wait, self.stopped_epoch = 0, 0
        self.restore_best_weights, self.best_weights = restore_best_weights, None
        self.start_from_epoch = start_from_epoch
        if mode not in ("auto", "min", "max"):
            mode = "auto"
        if mode == "min" or (mode == "auto" and not monitor.endswith(("acc", "accuracy",
                                                                      "auc"))):
            self.monitor_op = np.less
            self.min_delta *= -1
        else:
            self.monitor_op = np.greater

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch, self.best_epoch = 0, 0, 0
        self.best = np.inf if self.monitor_op is np.less else -np.inf
        self.best_weights = None

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            import warnings
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                          f"available. Available metrics are: {','.join(logs or {})}. Fix: "
                          "monitor one of those (val_ ones need validation_data)", stacklevel=2)
            return
        if epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights, self.best_epoch = self.model.get_weights(), epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best, self.best_epoch = current, epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print(f"Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def _is_improvement(self, value, reference):
        return self.monitor_op(value - self.min_delta, reference)


def _learning_rate(model) -> np.float32:
    """The optimizer's learning rate as Keras keeps it: a float32 variable's value."""
    lr = model.optimizer.learning_rate
    return np.float32(lr.numpy() if hasattr(lr, "numpy") else lr)


class LearningRateScheduler(Callback):
    """Before each epoch: `lr = schedule(epoch, lr)` (or `schedule(epoch)`); the epoch's logs
    get `lr`."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule, self.verbose = schedule, verbose

    def on_epoch_begin(self, epoch, logs=None):
        try:
            lr = self.schedule(epoch, float(_learning_rate(self.model)))
        except TypeError:       # Keras's older form: schedule(epoch)
            lr = self.schedule(epoch)
        if hasattr(lr, "numpy"):
            if not lr.dtype.is_floating:
                raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}. "
                                 "Fix: return a float from the schedule")
            lr = lr.numpy()
        if not isinstance(lr, (float, np.floating)):
            raise ValueError(f'The output of the "schedule" function should be float. Got: '
                             f"{lr!r}. Fix: return a float, e.g. lr * 0.9")
        self.model.optimizer.learning_rate = float(np.float32(lr))
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["lr"] = _learning_rate(self.model)


class ReduceLROnPlateau(Callback):
    """Multiply the learning rate by `factor` when `monitor` has not improved by `min_delta`
    for `patience` epochs (then wait `cooldown` epochs; never below `min_lr`), as Keras."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got "
                             f"{factor}. Fix: a factor below 1, e.g. 0.5")
        self.monitor, self.factor, self.patience, self.verbose = monitor, factor, patience, \
            verbose
        self.mode, self.min_delta, self.cooldown, self.min_lr = mode, min_delta, cooldown, min_lr
        self._reset()

    def _reset(self):
        if self.mode not in ("auto", "min", "max"):
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter, self.wait = 0, 0

    def on_train_begin(self, logs=None):
        self._reset()

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = _learning_rate(self.model)
        current = logs.get(self.monitor)
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best, self.wait = current, 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                old = _learning_rate(self.model)
                if old > np.float32(self.min_lr):
                    new = max(old * self.factor, self.min_lr)
                    self.model.optimizer.learning_rate = float(np.float32(new))
                    if self.verbose > 0:
                        print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate "
                              f"to {new}.")
                    self.cooldown_counter, self.wait = self.cooldown, 0


class TerminateOnNaN(Callback):
    """Stop training at the first batch whose loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class ProgbarLogger(Callback):
    """What `fit(verbose=1 or 2)` prints: one line per epoch (no live bar)."""

    def __init__(self, verbose=1, count_mode="samples", stateful_metrics=None):
        super().__init__()
        self.verbose = verbose
        # Keras's bar counts samples or steps and averages all but `stateful_metrics`; the
        # one line per epoch here prints the epoch's logs, so both are accepted and kept only
        if count_mode not in ("samples", "steps"):
            raise ValueError(f"ProgbarLogger: Unknown `count_mode`: {count_mode!r}. Fix: "
                             "'samples' or 'steps'")
        self.count_mode = count_mode
        self.stateful_metrics = set(stateful_metrics or ())

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()
        self._steps = 0
        if self.params.get("epochs"):
            print(f"Epoch {epoch + 1}/{self.params['epochs']}")

    def on_train_batch_end(self, batch, logs=None):
        self._steps = batch + 1

    def on_epoch_end(self, epoch, logs=None):
        seconds = time.perf_counter() - self._start
        steps = self.params.get("steps") or self._steps
        values = " - ".join(f"{k}: {v:.4f}" for k, v in (logs or {}).items())
        per_step = f"{1000 * seconds / max(self._steps, 1):.0f}ms/step"
        if self.verbose == 2:
            print(f"{steps}/{steps} - {seconds:.0f}s - {values} - {per_step}")
        else:
            print(f"{steps}/{steps} [==============================] - {seconds:.0f}s "
                  f"{per_step} - {values}")


class CallbackList:
    """Calls a hook on every callback in order."""

    def __init__(self, callbacks, model, params):
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            cb.set_model(model)
            cb.set_params(params)

    def __getattr__(self, hook):
        if not hook.startswith("on_"):
            raise AttributeError(hook)

        # Keras hands every hook a dict of logs, empty when there are none
        # (`on_train_begin(self, logs)` may call `logs.keys()`)
        at = 0 if hook.endswith(_WHOLE_RUN_HOOKS) else 1

        def call(*args, **kwargs):
            logs = kwargs.pop("logs", args[at] if len(args) > at else None)
            args = args[:at] + ({} if logs is None else logs,)
            for cb in self.callbacks:
                getattr(cb, hook)(*args, **kwargs)
        return call


#: hooks without a batch or epoch index before their logs
_WHOLE_RUN_HOOKS = ("_train_begin", "_train_end", "_test_begin", "_test_end", "_predict_begin",
                    "_predict_end")
