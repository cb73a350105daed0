"""`tv.distribute`: TensorFlow's distribution strategies, on one replica on one device.

Training code written for `tf.distribute` runs unchanged: `MirroredStrategy()` and
`OneDeviceStrategy` have one replica (`num_replicas_in_sync == 1`), so `run(fn)` calls `fn`
once, here, and its ops are recorded like any other; `reduce` over that one replica leaves the
value as it is (or reduces it along `axis`), `all_reduce` in a replica context returns the
value, and a distributed dataset is the dataset itself. What is not imitated: several devices
(a `devices=` list of more than one is refused), variables created in `scope()` are plain
`tv.Variable`s (TensorFlow makes `MirroredVariable`s, which print differently), and
`cross_device_ops`, `options` and the strategies' `extended` machinery.

>>> import tapeviz as tv
>>> strategy = tv.distribute.MirroredStrategy()
>>> with strategy.scope():
...     w = tv.Variable(2.0)
>>> per_replica = strategy.run(lambda x: x * w, args=(tv.constant([1.0, 2.0]),))
>>> strategy.reduce(tv.distribute.ReduceOp.SUM, per_replica, axis=0)
<tv.Tensor: shape=(), dtype=float32, numpy=6.0>
"""
from __future__ import annotations

import contextlib
import enum
import threading
import types

from .engine import nest
from .engine.convert import constant, convert_to_tensor
from .engine.ops import reduce as _reduce
from .engine.ops.axes import expand_dims, squeeze
from .engine.ops.elementwise import cast, divide_no_nan, multiply


class ReduceOp(enum.Enum):
    """How values of the replicas combine: `SUM` or `MEAN` (`ReduceOp("MEAN")` too)."""
    SUM = "SUM"
    MEAN = "MEAN"


def _reduce_op(reduce_op, where: str) -> ReduceOp:
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str) and reduce_op.upper() in ("SUM", "MEAN"):
        return ReduceOp(reduce_op.upper())
    raise ValueError(f"{where}: {reduce_op!r} is not a valid ReduceOp. Fix: "
                     "tf.distribute.ReduceOp.SUM or tf.distribute.ReduceOp.MEAN")


class _State(threading.local):
    """Per thread, as TensorFlow's: the strategy whose scope is entered, and whether `run`
    is calling a replica function (a replica context) right now."""

    def __init__(self):
        self.strategy = None        # a non-default strategy whose scope() is entered
        self.depth = 0              # how many times it is entered
        self.replica = None         # the replica context inside Strategy.run


_state = _State()


class InputContext:
    """What `distribute_datasets_from_function` tells its function: one input pipeline for
    one replica."""

    def __init__(self, num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size):
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible "
                             f"by `num_replicas_in_sync` {self.num_replicas_in_sync}")
        return global_batch_size // self.num_replicas_in_sync


class ReplicaContext:
    """The context of the one replica: `all_reduce` of one replica is the value itself."""

    def __init__(self, strategy, replica_id_in_sync_group=0):
        self._strategy = strategy
        self.replica_id_in_sync_group = replica_id_in_sync_group

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return 1

    def all_reduce(self, reduce_op, value, options=None):
        _reduce_op(reduce_op, "ReplicaContext.all_reduce")
        return nest.pack_sequence_as(value, [convert_to_tensor(v) for v in nest.flatten(value)])

    def all_gather(self, value, axis, options=None):
        return nest.pack_sequence_as(value, [convert_to_tensor(v) for v in nest.flatten(value)])

    def merge_call(self, merge_fn, args=(), kwargs=None):
        return merge_fn(self._strategy, *args, **(kwargs or {}))


class Strategy:
    """One replica on this process's one device (see the module's docstring)."""

    _replica_id = 0               # a Python int for the default strategy, a tensor otherwise

    @property
    def num_replicas_in_sync(self):
        return 1

    @contextlib.contextmanager
    def scope(self):
        """Variables and models made inside belong to this strategy (plain variables here).
        Entering another strategy's scope inside it raises TensorFlow's RuntimeError."""
        if self is _DEFAULT:
            yield self
            return
        if _state.strategy is not None and _state.strategy is not self:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: {self!r} is "
                               f"not {_state.strategy!r}. Fix: enter one strategy's scope at "
                               "a time")
        _state.strategy, _state.depth = self, _state.depth + 1
        try:
            yield self
        finally:
            _state.depth -= 1
            if not _state.depth:
                _state.strategy = None

    def run(self, fn, args=(), kwargs=None, options=None):
        """`fn(*args, **kwargs)` on the one replica, in a replica context."""
        outer = _state.replica, _state.strategy, _state.depth
        _state.replica = ReplicaContext(self, self._replica_id_tensor())
        if self is not _DEFAULT:
            _state.strategy, _state.depth = self, _state.depth + 1
        try:
            return fn(*args, **(kwargs or {}))
        finally:
            _state.replica, _state.strategy, _state.depth = outer

    def _replica_id_tensor(self):
        return self._replica_id if self is _DEFAULT else constant(0, "int32")

    def reduce(self, reduce_op, value, axis):
        """The replicas' values combined (one replica: the value itself), then summed or
        averaged along `axis` when it is not None."""
        op = _reduce_op(reduce_op, "Strategy.reduce")
        value = convert_to_tensor(value)
        if axis is None:
            return value
        return (_reduce.reduce_sum if op is ReduceOp.SUM else _reduce.reduce_mean)(value, axis)

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset itself: its batches go to the one replica whole."""
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(InputContext())

    def experimental_local_results(self, value):
        return (value,)

    def gather(self, value, axis):
        return convert_to_tensor(value)

    def __repr__(self):
        return f"<tapeviz.distribute.{type(self).__name__}: one replica>"


class MirroredStrategy(Strategy):
    """TensorFlow's synchronous data parallelism, on one device: one replica."""

    def __init__(self, devices=None, cross_device_ops=None):
        if devices is not None and not isinstance(devices, str) and len(list(devices)) > 1:
            raise ValueError(f"MirroredStrategy: tapeviz runs one replica on one device, got "
                             f"devices={list(devices)!r}. Fix: MirroredStrategy() (the "
                             "gradients are those of the whole batch either way)")


class OneDeviceStrategy(Strategy):
    """Everything on `device`, one replica."""

    def __init__(self, device):
        self.device = device


class _DefaultDistributionStrategy(Strategy):
    """The strategy outside any scope (its class named as TensorFlow's, which programs print)."""


_DEFAULT = _DefaultDistributionStrategy()


def get_strategy():
    """The strategy whose scope is entered, or the default strategy (one replica)."""
    return _state.strategy or _DEFAULT


def has_strategy():
    """True inside a (non-default) strategy's `scope()` or `run`."""
    return _state.strategy is not None


def in_cross_replica_context():
    """True inside a strategy's `scope()`, outside its `run`."""
    return _state.strategy is not None and _state.replica is None


def get_replica_context():
    """The replica context inside `run` (or outside any scope, the default one); None in a
    cross-replica context (inside `scope()`, outside `run`), as TensorFlow."""
    if _state.replica is not None:
        return _state.replica
    return None if _state.strategy is not None else ReplicaContext(_DEFAULT)


class _CrossDeviceOps:
    """`cross_device_ops=` choices: accepted; with one replica there is nothing to combine."""

    def __init__(self, *args, **kwargs):
        pass


class HierarchicalCopyAllReduce(_CrossDeviceOps):
    pass


class NcclAllReduce(_CrossDeviceOps):
    pass


class ReductionToOneDevice(_CrossDeviceOps):
    pass


def _replica_only(function):
    if in_cross_replica_context():
        raise RuntimeError(f"You are calling `{function}` in cross replica context, while it "
                           "was expected to be called in replica context. Fix: call it inside "
                           "the function given to strategy.run")


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """`tf.nn.compute_average_loss`: the per-example losses (weighted) summed and divided by
    the global batch size (by default this batch's size times the replicas: one)."""
    loss = convert_to_tensor(per_example_loss)
    if loss._value.ndim == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with "
                         "at least rank 1. Received: a scalar. Fix: pass the loss of each "
                         "example, e.g. reduction='none' in a Keras loss")
    if sample_weight is not None:
        weight = cast(convert_to_tensor(sample_weight), loss.dtype)
        rank_gap = weight._value.ndim - loss._value.ndim        # (as Keras lines them up)
        if rank_gap == 1 and weight._value.shape[-1] == 1:
            weight = squeeze(weight, [-1])
        elif rank_gap == -1:
            weight = expand_dims(weight, -1)
        loss = multiply(loss, weight)
    if global_batch_size is None:
        _replica_only("compute_average_loss")
        global_batch_size = loss._value.shape[0] * get_strategy().num_replicas_in_sync
    size = convert_to_tensor(global_batch_size)
    if size._value.ndim or size._value.dtype.kind not in "iu" or size._value < 0:
        raise ValueError(f"compute_average_loss: global_batch_size must be a non-negative "
                         f"integer scalar, got {global_batch_size!r}. Fix: e.g. "
                         "global_batch_size=64")
    return divide_no_nan(_reduce.reduce_sum(loss), cast(size, loss.dtype))


def scale_regularization_loss(regularization_loss):
    """`tf.nn.scale_regularization_loss`: the summed loss divided by the replicas (one)."""
    _replica_only("scale_regularization_loss")
    loss = _reduce.reduce_sum(convert_to_tensor(regularization_loss))
    return loss / get_strategy().num_replicas_in_sync


class TPUClusterResolver:
    """There is no TPU here: constructing one raises TensorFlow's `ValueError` on a machine
    without a TPU, which the usual `try: ... except ValueError: strategy =
    tf.distribute.get_strategy()` expects."""

    def __init__(self, tpu=None, zone=None, project=None, **kwargs):
        raise ValueError("Please provide a TPU Name to connect to. (tapeviz computes on the CPU, "
                         "with no TPU.) Fix: strategy = tf.distribute.get_strategy()")

    @classmethod
    def connect(cls, tpu=None, zone=None, project=None):
        return cls(tpu, zone, project)


cluster_resolver = types.SimpleNamespace(TPUClusterResolver=TPUClusterResolver)
