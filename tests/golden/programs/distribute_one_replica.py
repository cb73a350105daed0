# tf.distribute on one replica: the default strategy, MirroredStrategy() and OneDeviceStrategy
# (on a machine with one CPU and no GPU TensorFlow's have one replica too): scope, run,
# reduce, the replica context's all_reduce, distributed datasets, ReduceOp, and the contexts
default = tf.distribute.get_strategy()
report("default.replicas", default.num_replicas_in_sync)
report("default.has_strategy", tf.distribute.has_strategy())
report("default.cross_replica", tf.distribute.in_cross_replica_context())
ctx = tf.distribute.get_replica_context()
report("default.context_replicas", ctx.num_replicas_in_sync)
report("default.context_id", ctx.replica_id_in_sync_group)
report("default.all_reduce", ctx.all_reduce(tf.distribute.ReduceOp.SUM, tf.constant([1.0, 2.0])))
m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
report("default.reduce_sum_axis0", default.reduce(tf.distribute.ReduceOp.SUM, m, axis=0))
report("default.reduce_mean_none", default.reduce("MEAN", m, axis=None))
report("default.run", default.run(lambda x, y=1.0: x * y, args=(tf.constant(2.0),),
                                  kwargs={"y": 3.0}))
with default.scope():
    report("default.scope_has_strategy", tf.distribute.has_strategy())

strategy = tf.distribute.MirroredStrategy()
report("mirrored.replicas", strategy.num_replicas_in_sync)
report("mirrored.outside_has_strategy", tf.distribute.has_strategy())
with strategy.scope():
    report("mirrored.scope_has_strategy", tf.distribute.has_strategy())
    report("mirrored.scope_is_current", tf.distribute.get_strategy() is strategy)
    report("mirrored.scope_cross_replica", tf.distribute.in_cross_replica_context())
    report("mirrored.scope_replica_context_is_none", tf.distribute.get_replica_context() is None)
    w = tf.Variable([0.5, -1.0])
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, use_bias=False)])
    model.build((None, 2))
    model.layers[0].kernel.assign([[1.0], [2.0]])
    opt = tf.keras.optimizers.SGD(0.1)
report("mirrored.variable_value", w.numpy())


def replica_step(x):
    context = tf.distribute.get_replica_context()
    report("run.replica_id", context.replica_id_in_sync_group)
    report("run.cross_replica", tf.distribute.in_cross_replica_context())
    report("run.has_strategy", tf.distribute.has_strategy())
    report("run.context_strategy_is_mirrored", context.strategy is strategy)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(model(x) ** 2) + tf.reduce_sum(w * w)
    grads = tape.gradient(loss, model.trainable_variables + [w])
    grads = [context.all_reduce("SUM", g) for g in grads]
    opt.apply_gradients(zip(grads, model.trainable_variables + [w]))
    return loss


per_replica = strategy.run(replica_step, args=(tf.constant([[1.0, 1.0], [0.5, -1.0]]),))
report("run.loss", per_replica)
report("run.kernel_after", model.layers[0].kernel)
report("run.w_after", w)
report("reduce.mean_none", strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None))
report("reduce.sum_vector", strategy.reduce("SUM", tf.constant([1.0, 2.0, 4.0]), axis=0))
report("reduce.mean_vector", strategy.reduce("MEAN", tf.constant([1.0, 2.0, 4.0]), axis=0))
report("reduce.python_number", strategy.reduce("SUM", 3.0, axis=None))
report("run.two_outputs", strategy.run(lambda a: (a + 1.0, {"b": a * 2.0}),
                                       args=(tf.constant(1.0),)))

batches = tf.data.Dataset.range(6).batch(2)
report("dataset.distributed", [b for b in strategy.experimental_distribute_dataset(batches)])
seen = {}


def dataset_fn(input_context):
    seen["pipelines"] = input_context.num_input_pipelines
    seen["pipeline_id"] = input_context.input_pipeline_id
    seen["replicas"] = input_context.num_replicas_in_sync
    seen["per_replica_batch"] = input_context.get_per_replica_batch_size(8)
    return tf.data.Dataset.range(4).batch(seen["per_replica_batch"] // 2)


report("dataset.from_function", [b for b in strategy.distribute_datasets_from_function(dataset_fn)])
report("dataset.input_context", seen)

one = tf.distribute.OneDeviceStrategy("/cpu:0")
report("one_device.replicas", one.num_replicas_in_sync)
report("one_device.run", one.run(lambda: tf.constant(1.0) + 1.0))
with one.scope():
    report("one_device.scope_is_current", tf.distribute.get_strategy() is one)

report("reduce_op.members", [op.value for op in tf.distribute.ReduceOp])
report("reduce_op.by_value", tf.distribute.ReduceOp("MEAN") is tf.distribute.ReduceOp.MEAN)
report("reduce_op.sum_value", tf.distribute.ReduceOp.SUM.value)
expect_error("reduce_op.unknown", lambda: strategy.reduce("PROD", tf.constant(1.0), axis=None))


def mix():
    with strategy.scope():
        with one.scope():
            pass


expect_error("scope.mixing_strategies", mix)


# the usual opening of notebooks written for TPUs, on a machine without one
expect_error("tpu.resolver", lambda: tf.distribute.cluster_resolver.TPUClusterResolver())
expect_error("tpu.connect", lambda: tf.distribute.cluster_resolver.TPUClusterResolver.connect())
try:
    tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
    chosen = "tpu"
except ValueError:
    chosen = type(tf.distribute.get_strategy()).__name__ == "MirroredStrategy" or "default"
report("tpu.fallback", chosen)

# the loss helpers of custom training loops under a strategy
per_example = tf.constant([0.5, 1.5, 2.0, 4.0])
report("average_loss.default", tf.nn.compute_average_loss(per_example))
report("average_loss.global_batch", tf.nn.compute_average_loss(per_example, global_batch_size=8))
report("average_loss.weights", tf.nn.compute_average_loss(per_example,
                                                          sample_weight=[1.0, 0.0, 0.5, 2.0]))
report("average_loss.column_weights", tf.nn.compute_average_loss(
    per_example, sample_weight=tf.constant([[1.0], [0.0], [0.5], [2.0]])))
report("average_loss.rank2", tf.nn.compute_average_loss(tf.ones((2, 3)) * 3.0,
                                                        sample_weight=[1.0, 2.0]))
report("average_loss.zero_batch", tf.nn.compute_average_loss(per_example, global_batch_size=0))
report("average_loss.float64", tf.nn.compute_average_loss(tf.constant([1.0, 2.0], tf.float64)))
expect_error("average_loss.scalar", lambda: tf.nn.compute_average_loss(tf.constant(1.0)))
report("average_loss.in_run", strategy.run(lambda: tf.nn.compute_average_loss(per_example)))


def cross_replica_average():
    with strategy.scope():
        return tf.nn.compute_average_loss(per_example)


expect_error("average_loss.cross_replica", cross_replica_average)
report("regularization.default", tf.nn.scale_regularization_loss([0.5, 0.25]))
report("regularization.in_run", strategy.run(lambda: tf.nn.scale_regularization_loss(3.0)))
weights = tf.Variable([1.0, -2.0, 0.5, 3.0])
with tf.GradientTape() as tape:
    average = tf.nn.compute_average_loss(per_example * weights, sample_weight=[1.0, 0.5, 2.0, 0.0])
report("average_loss.gradient", tape.gradient(average, weights))

# programs print the default strategy's class (keras.io's examples fall back to it)
report("default.class_name", type(tf.distribute.get_strategy()).__name__)
