"""What `model.compile(loss=..., metrics=...)` makes: the training loss of a batch (a tapeviz
computation, so the tape of a `fit` step records it) and the running metrics (computed where
no tape records them, as Keras computes metrics after the gradient tape).

Keras's conventions: a loss given by name or function is averaged over the batch
(`sum_over_batch_size`); the total adds each output's loss (times its `loss_weights`) and
`model.losses`; the logged `loss` is the mean of the batches' totals weighted by batch size;
`'accuracy'` means binary, sparse categorical or categorical accuracy depending on the shapes.
"""
from __future__ import annotations

from ..engine import nest
from ..engine.ops import cast, expand_dims
from ..engine.convert import convert_to_tensor
from ..engine.tensor import Tensor
from . import losses as _losses
from . import masking as _masking
from . import metrics as _metrics
from . import metrics_accuracy as _accuracy

#: the loss functions that are metrics by name too
_LOSS_METRIC_NAMES = ("mse", "mean_squared_error", "mae", "mean_absolute_error",
                      "sparse_categorical_crossentropy", "categorical_crossentropy",
                      "binary_crossentropy")


def get_loss(identifier):
    """A Loss object for compile's `loss=`: a name, a function of (y_true, y_pred) or a Loss.
    A name or value Keras cannot interpret is refused when the loss is first computed (by
    `fit` or `evaluate`), not by `compile`, as tf-keras does: a model compiled only for its
    optimizer and trained by a GradientTape never computes it."""
    if identifier is None or isinstance(identifier, _losses.Loss):
        return identifier
    if isinstance(identifier, str):
        try:
            fn = _losses.get(identifier)
        except ValueError:
            return _RefusedLoss(
                f"Unknown loss function: {identifier!r}. Please ensure you are using a "
                "`keras.utils.custom_object_scope` and that this object is included in the "
                f"scope. Fix: use one of {sorted(_losses.BY_NAME)}, a tf.keras.losses object or a "
                "function of (y_true, y_pred)")
        return _FunctionLoss(fn, identifier)
    if callable(identifier):
        return _FunctionLoss(identifier, getattr(identifier, "__name__", "loss"))
    return _RefusedLoss(f"Could not interpret loss function identifier: {identifier!r}. Fix: "
                        "pass a name such as 'mse', a tf.keras.losses object or a function")


class _FunctionLoss(_losses.Loss):
    """A loss function of (y_true, y_pred), averaged over the batch."""

    def __init__(self, fn, name):
        super().__init__(name=name)
        self.fn = fn

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred)


class _RefusedLoss(_losses.Loss):
    """A `loss=` Keras could not interpret: the error, raised when the loss is computed."""

    def __init__(self, message):
        super().__init__(name="loss")
        self.message = message

    def __call__(self, *args, **kwargs):
        raise ValueError(self.message)


def _by_output(spec, names, what):
    """One entry per output from a single value, a list or a dict keyed by output name (or
    by the key of a model's dict of outputs: `names` holds (key, layer name) pairs then)."""
    if isinstance(spec, dict):
        known = {k for pair in names for k in (pair if isinstance(pair, tuple) else (pair,))}
        unknown = set(spec) - known
        if unknown:
            raise ValueError(f"Found unexpected {what} keys {sorted(unknown)}: the model's "
                             f"outputs are {sorted(known)}. Fix: key the dict by output name")
        return [_lookup(spec, n) for n in names]
    if isinstance(spec, (list, tuple)) and len(names) == 1 and len(spec) == 1 and \
            what == "loss":
        return list(spec)                  # compile(loss=[fn]) for a one-output model
    if isinstance(spec, (list, tuple)) and len(names) > 1:
        if len(spec) != len(names):
            raise ValueError(f"When passing a list as {what}, it should have one entry per each "
                             f"model output. The model has {len(names)} outputs, but you passed "
                             f"{what}={spec!r}. Fix: one entry per output: {names}")
        return list(spec)
    return [spec] * len(names)


class LossesContainer:
    """`model.compiled_loss(y_true, y_pred, sample_weight, regularization_losses)`."""

    def __init__(self, loss, loss_weights, output_names, named_by_call=False):
        self.spec = (loss, loss_weights)
        self.losses: list = []        # (shared with the MetricsContainer, so kept in place)
        self.names = output_names
        if not (named_by_call and _per_output_list(loss, loss_weights)):
            self._name_outputs(output_names)       # (refuses a bad loss at compile time)
        self.total = _metrics.Mean(name="loss")
        self.named_by_call = named_by_call
        self.built = False

    def _name_outputs(self, output_names):
        loss, loss_weights = self.spec
        self.names = output_names
        self.losses[:] = [get_loss(x) for x in _by_output(loss, output_names, "loss")]
        self.weights = _by_output(loss_weights if loss_weights is not None else 1.0,
                                  output_names, "loss_weights")
        self.per_output = ([_metrics.Mean(name=f"{_layer(n)}_loss") for n in output_names]
                           if len(output_names) > 1 else [])

    @property
    def metrics(self) -> list:
        """Empty until the first batch, as Keras's."""
        if not self.built:
            return []
        return [self.total] + [m for m, l in zip(self.per_output, self.losses) if l is not None]

    def __call__(self, y_true, y_pred, sample_weight=None, regularization_losses=None):
        if self.named_by_call:
            self.named_by_call = False
            self._name_outputs(call_output_names(y_pred) or self.names)
        self.built = True
        ys_true, ys_pred = _flat(y_true, self.names), _flat(y_pred, self.names)
        weights = _flat(sample_weight, self.names) if sample_weight is not None else \
            [None] * len(self.names)
        terms, batch = [], None
        for i, (loss, y_t, y_p) in enumerate(zip(self.losses, ys_true, ys_pred)):
            if loss is None or y_t is None:
                continue
            if y_t.shape.rank == 1 and y_p.shape.rank == 2:     # Keras's match of ranks:
                y_t = expand_dims(y_t, -1)                      # labels (batch,) -> (batch, 1)
            value = loss(y_t, y_p, sample_weight=weights[i])
            batch = int(y_p.shape[0]) if y_p.shape.rank else 1
            if self.per_output:
                self.per_output[i].update_state(value, sample_weight=batch)
            terms.append(value * float(self.weights[i]) if self.weights[i] != 1 else value)
        if regularization_losses:
            terms.append(_sum([convert_to_tensor(r) for r in regularization_losses]))
        total = _sum(terms) if terms else convert_to_tensor(0.0)
        self.total.update_state(total, sample_weight=batch if batch is not None else 1)
        return total


def call_output_names(y_pred):
    """Keras's names for the outputs of a model without a graph (a subclassed model), known
    only once it has been called: 'output_1', 'output_2', ... for a list or tuple of several
    outputs; None (keep the single 'output_1') otherwise."""
    if isinstance(y_pred, (list, tuple)) and len(y_pred) > 1:
        return [f"output_{i + 1}" for i in range(len(y_pred))]
    return None


def _per_output_list(*specs) -> bool:
    """Whether a loss or loss_weights spec is a list with an entry per output (of several)."""
    return any(isinstance(x, (list, tuple)) and len(x) > 1 for x in specs)


def _layer(name) -> str:
    return name[1] if isinstance(name, tuple) else name


def _sum(terms):
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


def _lookup(mapping, name):
    if isinstance(name, tuple):          # (the key in the model's dict of outputs, layer name)
        return mapping.get(name[0], mapping.get(name[1]))
    return mapping.get(name)


def _flat(structure, names) -> list:
    if structure is None:
        return [None] * len(names)
    if isinstance(structure, dict) and len(names) > 1:
        return [_lookup(structure, n) for n in names]
    if len(names) == 1 and isinstance(structure, (list, tuple)) and len(structure) == 1:
        structure = structure[0]           # `outputs=[output]`: a list of the one output
    flat = nest.flatten(structure) if len(names) > 1 else [structure]
    return [x if x is None or isinstance(x, Tensor) else convert_to_tensor(x) for x in flat]


# --- metrics ------------------------------------------------------------------------------------
MeanMetricWrapper = _metrics.MeanMetricWrapper


_binary_accuracy = _metrics.binary_accuracy


_sparse_categorical_accuracy = _accuracy.sparse_categorical_accuracy
_categorical_accuracy = _accuracy.categorical_accuracy
_METRIC_FUNCTIONS = {
    "binary_accuracy": _binary_accuracy,
    "sparse_categorical_accuracy": _sparse_categorical_accuracy,
    "categorical_accuracy": _categorical_accuracy,
    "top_k_categorical_accuracy": _accuracy.top_k_categorical_accuracy,
    "sparse_top_k_categorical_accuracy": _accuracy.sparse_top_k_categorical_accuracy,
    **{name: _losses.get(name) for name in _LOSS_METRIC_NAMES},
}


def get_metric(identifier, y_true, y_pred):
    """A Metric for compile's `metrics=` entry, given the output it watches. "accuracy" and
    "crossentropy" (any case, or "acc", "ce") pick their binary, sparse or categorical form
    from the shapes alone, as tf-keras does (not from the loss: binary crossentropy over
    four one-hot classes is measured by categorical accuracy)."""
    if isinstance(identifier, _metrics.Metric):
        return identifier
    kind = str(identifier).lower() if isinstance(identifier, str) else None
    if kind in ("accuracy", "acc", "crossentropy", "ce"):
        binary = y_pred.shape[-1] == 1
        sparse = y_true.shape.rank < y_pred.shape.rank or (
            y_true.shape[-1] == 1 and y_pred.shape[-1] > 1)
        form = "binary" if binary else "sparse_categorical" if sparse else "categorical"
        what = "accuracy" if kind in ("accuracy", "acc") else "crossentropy"
        return MeanMetricWrapper(_METRIC_FUNCTIONS[f"{form}_{what}"], identifier)
    if isinstance(identifier, str):
        cls = getattr(_metrics, identifier, None)       # a class name: metrics=["AUC"]
        if isinstance(cls, type) and issubclass(cls, _metrics.Metric):
            return cls()
        if identifier not in _METRIC_FUNCTIONS:
            raise ValueError(f"Unknown metric function: {identifier!r}. Please ensure you are "
                             f"using a `keras.utils.custom_object_scope` and that this object is "
                             f"included in the scope. Fix: use 'accuracy' or one of "
                             f"{sorted(_METRIC_FUNCTIONS)}, a tf.keras.metrics object or a "
                             "function of (y_true, y_pred)")
        return MeanMetricWrapper(_METRIC_FUNCTIONS[identifier], identifier)
    if callable(identifier):
        return MeanMetricWrapper(identifier, getattr(identifier, "__name__", "metric"))
    raise ValueError(f"Could not interpret metric identifier: {identifier!r}. Fix: pass a name "
                     "such as 'accuracy', a tf.keras.metrics object or a function")


class MetricsContainer:
    """`model.compiled_metrics.update_state(y_true, y_pred, sample_weight)`."""

    def __init__(self, metrics, output_names, losses, weighted_metrics=None,
                 named_by_call=False):
        # Keras weighs only `weighted_metrics` by sample (and class) weights; `metrics` count
        # every example once
        self.weighted = MetricsContainer(weighted_metrics, output_names, losses,
                                         named_by_call=named_by_call) \
            if weighted_metrics else None
        self.prefix = ""
        if self.weighted is not None:
            self.weighted.prefix = "weighted_"   # Keras's name for one given by name/function
        self.given = metrics if metrics is not None else []
        self._name_outputs(output_names)
        self.losses = losses
        self.named_by_call = named_by_call
        self.built = None     # per output: a list of Metric objects, made at the first update

    def _name_outputs(self, output_names):
        self.names = output_names
        metrics = self.given
        if isinstance(metrics, dict):
            self.specs = _by_output(metrics, output_names, "metrics")
        elif isinstance(metrics, (list, tuple)) and len(output_names) > 1 and \
                len(metrics) == len(output_names) and \
                all(m is None or isinstance(m, (list, tuple)) for m in metrics):
            self.specs = list(metrics)                     # a list of lists: one per output
        else:                                              # a flat list: for every output
            flat = list(metrics) if isinstance(metrics, (list, tuple)) else [metrics]
            self.specs = [flat] * len(output_names)

    @property
    def metrics(self) -> list:
        weighted = self.weighted.metrics if self.weighted is not None else []
        return [m for ms in (self.built or []) for m in ms] + weighted

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.weighted is not None:
            self.weighted._update(y_true, y_pred, sample_weight)
        self._update(y_true, y_pred, None)

    def _update(self, y_true, y_pred, sample_weight):
        if self.named_by_call:
            self.named_by_call = False
            names = call_output_names(y_pred)
            if names is not None:
                self._name_outputs(names)
        ys_true, ys_pred = _flat(y_true, self.names), _flat(y_pred, self.names)
        if self.built is None:
            self.built = []
            for i, spec in enumerate(self.specs):
                specs = spec if isinstance(spec, (list, tuple)) else [spec] if spec else []
                made = [get_metric(m, ys_true[i], ys_pred[i])
                        for m in specs] if ys_true[i] is not None else []
                for m, given in zip(made, specs):
                    if not isinstance(given, _metrics.Metric):
                        m.name = self.prefix + m.name
                if len(self.names) > 1:
                    for m in made:
                        m.name = f"{_layer(self.names[i])}_{m.name}"
                self.built.append(made)
        weights = _flat(sample_weight, self.names) if sample_weight is not None else \
            [None] * len(self.names)
        for ms, y_t, y_p, w in zip(self.built, ys_true, ys_pred, weights):
            w = _masking.metric_weights(y_p, w)      # (a sequence output's mask weighs too)
            if ms:
                y_t, y_p, w = _match_dtype_and_rank(y_t, y_p, w)
            for m in ms:
                m.update_state(y_t, y_p, sample_weight=w)


def _match_dtype_and_rank(y_t, y_p, sw):
    """What Keras does before updating a compiled metric: labels of shape (batch,) beside
    predictions of shape (batch, n) get a last axis (so do weights), float labels take the
    predictions' float dtype."""
    if y_t.shape.rank == 1 and y_p.shape.rank == 2:
        y_t = expand_dims(y_t, -1)
    if sw is not None:
        sw = convert_to_tensor(sw)
        if sw.shape.rank == 1 and y_p.shape.rank == 2:
            sw = expand_dims(sw, -1)
    if y_t.dtype.is_floating and y_p.dtype.is_floating:
        y_t = cast(y_t, y_p.dtype)
    return y_t, y_p, sw
