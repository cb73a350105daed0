# tf.compat.v1.keras.utils.DeterministicRandomTestTool: inside scope() every stateful random op
# (tf.random.uniform / normal, a Keras initializer) gets its seed from the tool, whatever seed
# it was given: in mode='constant' the same operation seed every time (equal draws for equal
# shapes), in mode='num_random_ops' the count of random ops so far (operation_seed, which may
# be set; reusing one raises). Reported: which draws are equal, the counters, the draws'
# dtypes and shapes, the refusals, and the float32 values of uniform, normal and dropout
# (TensorFlow's Philox numbers for each op's seed pair).
v1 = tf.compat.v1


def draws(tool):
    with tool.scope():
        a = tf.random.uniform([3])
        b = tf.random.uniform([3])
        c = tf.random.normal([2, 2])
        dense = tf.keras.layers.Dense(2)
        dense.build((None, 2))
        e = tf.random.uniform([3], seed=7)
        f = tf.random.uniform([4])
    return [a, b, c, dense.kernel.numpy(), e, f]


def equal(x, y):
    return bool(np.shape(x) == np.shape(y) and np.array_equal(np.asarray(x), np.asarray(y)))


for mode in ("constant", "num_random_ops"):
    tool = v1.keras.utils.DeterministicRandomTestTool(mode=mode)
    report(f"{mode}.operation_seed_before", tool.operation_seed)
    a, b, c, kernel, e, f = draws(tool)
    report(f"{mode}.operation_seed_after", tool.operation_seed)
    report(f"{mode}.second_equals_first", equal(a, b))
    report(f"{mode}.explicit_seed_equals_first", equal(a, e))
    report(f"{mode}.longer_starts_as_first", equal(a, np.asarray(f)[:3]))
    report(f"{mode}.dtypes_shapes", [[t.dtype.name, list(t.shape)] for t in (a, c, f)])
    report(f"{mode}.kernel_shape", list(kernel.shape))
    again = draws(v1.keras.utils.DeterministicRandomTestTool(mode=mode))
    # (not the Keras kernel: tf-keras draws it unseeded, whatever the global seed)
    report(f"{mode}.a_new_tool_repeats_them",
           [equal(x, y) for x, y in zip([a, b, c, e, f], again[:3] + again[4:])])
    other_seed = draws(v1.keras.utils.DeterministicRandomTestTool(seed=3, mode=mode))
    report(f"{mode}.another_seed_differs", not equal(a, other_seed[0]))
    # what the global seed is after the scope: 42 when scope() was called, the operation seed
    # (0) after each op in mode='constant'
    after = tf.random.uniform([2])
    tf.random.set_seed(0 if mode == "constant" else 42)
    report(f"{mode}.after_scope_as_global_seed", equal(after, tf.random.uniform([2])))

tool = v1.keras.utils.DeterministicRandomTestTool(mode="num_random_ops")
with tool.scope():
    tool.operation_seed = 5
    first = tf.random.uniform([3])
    report("set_operation_seed.after_one_op", tool.operation_seed)
    tool.operation_seed = 5
    expect_error("set_operation_seed.reused", lambda: tf.random.uniform([3]))
    tool.operation_seed = 9
    report("set_operation_seed.new_seed_differs", not equal(first, tf.random.uniform([3])))
report("outside_scope.operation_seed_unchanged", tool.operation_seed)
expect_error("bad_mode", lambda: v1.keras.utils.DeterministicRandomTestTool(mode="random"))

# stateless ops and their seeds are not the tool's
with v1.keras.utils.DeterministicRandomTestTool().scope():
    inside = tf.random.stateless_uniform([3], seed=[1, 2])
report("stateless_unchanged", equal(inside, tf.random.stateless_uniform([3], seed=[1, 2])))

# which ops take a seed from the tool: each counts one in mode='num_random_ops'
tool = v1.keras.utils.DeterministicRandomTestTool(mode="num_random_ops")
counts = []
with tool.scope():
    for op in (lambda: tf.random.truncated_normal([2]),
               lambda: tf.random.shuffle(tf.range(5)),
               lambda: tf.random.categorical([[0.0, 0.0]], 3),
               lambda: tf.nn.dropout(tf.ones([4]), 0.5),
               lambda: tf.keras.layers.Dropout(0.5)(tf.ones([4]), training=True),
               lambda: tf.keras.initializers.GlorotUniform()((2, 2)),
               lambda: tf.random.stateless_normal([2], seed=[3, 4])):
        op()
        counts.append(tool.operation_seed)
report("ops_counted", counts)

# the float32 values themselves
for mode in ("constant", "num_random_ops"):
    with v1.keras.utils.DeterministicRandomTestTool(mode=mode).scope():
        report(f"{mode}.values", [
            tf.random.uniform([5]), tf.random.uniform([2, 3], minval=-2.0, maxval=3.0),
            tf.random.normal([7]), tf.random.normal([3], mean=1.0, stddev=2.0),
            tf.nn.dropout(tf.ones([6]), 0.5),
            tf.keras.layers.Dropout(0.3)(tf.ones([2, 3]), training=True)])
