# TensorFlow's own tests of Jacobians, custom gradients and gradient checkpointing that use
# only eager public API, rewritten as golden answers. Sources: JacobianTest and
# BatchJacobianTest in tensorflow/python/eager/backprop_test.py; CustomGradientTest,
# VariablesGradientTest and GradPassThroughTest in tensorflow/python/ops/gradients_test.py.
# Each block names its test.


# JacobianTest._jacobian, with testPfor and testWhileLoop
def jacobian(use_pfor):
    with tf.GradientTape(persistent=not use_pfor) as g:
        x = tf.constant([1.0, 2.0])
        y = tf.constant([3.0, 4.0])
        g.watch(x)
        g.watch(y)
        z = x * x * y
    return g.jacobian(z, [x, y], experimental_use_pfor=use_pfor)


report("JacobianTest.testPfor", jacobian(True))
report("JacobianTest.testWhileLoop", jacobian(False))


# JacobianTest.testPersistentTape
def one_shot_jacobian():
    with tf.GradientTape() as g:
        x = tf.constant([1.0, 2.0])
        g.watch(x)
        y = x * x
    return g.jacobian(y, x, experimental_use_pfor=False)


expect_error("JacobianTest.testPersistentTape", one_shot_jacobian)

# JacobianTest.test_parallel_iterations
with tf.GradientTape(persistent=True) as g:
    x = tf.constant([[1.0, 2], [3, 4]])
    g.watch(x)
    y = tf.matmul(x, x)
report("JacobianTest.test_parallel_iterations",
       [g.jacobian(y, x, parallel_iterations=2), g.jacobian(y, x, parallel_iterations=3)])

# JacobianTest.test_indexed_slices (a fixed input instead of a random one)
with tf.GradientTape(persistent=True) as g:
    inp = tf.constant([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]])
    g.watch(inp)
    output = tf.nn.embedding_lookup(inp, [0, 2])
report("JacobianTest.test_indexed_slices",
       [g.jacobian(output, inp, experimental_use_pfor=True),
        g.jacobian(output, inp, experimental_use_pfor=False)])


# BatchJacobianTest._batch_jacobian, with testPfor and testWhileLoop
def batch_jacobian(use_pfor):
    with tf.GradientTape(persistent=not use_pfor) as g:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        y = tf.constant([[3.0, 4.0], [5.0, 6.0]])
        g.watch(x)
        z = x * x * y
    return g.batch_jacobian(z, x, experimental_use_pfor=use_pfor)


report("BatchJacobianTest.testPfor", batch_jacobian(True))
report("BatchJacobianTest.testWhileLoop", batch_jacobian(False))


# BatchJacobianTest.testPersistentTape
def one_shot_batch_jacobian():
    with tf.GradientTape() as g:
        x = tf.constant([[1.0, 2.0]])
        g.watch(x)
        y = x * x
    return g.batch_jacobian(y, x, experimental_use_pfor=False)


expect_error("BatchJacobianTest.testPersistentTape", one_shot_batch_jacobian)


# BatchJacobianTest.testBadShape, testBadInputRank, testBadOutputRank (fixed inputs)
def bad_shape():
    x = tf.ones([2, 3])
    with tf.GradientTape() as g:
        y = tf.concat([x, x], axis=0)
    return g.batch_jacobian(y, x)


def bad_input_rank():
    x = tf.ones([2])
    with tf.GradientTape() as g:
        y = tf.ones([2, 2])
    return g.batch_jacobian(y, x)


def bad_output_rank():
    x = tf.ones([2, 2])
    with tf.GradientTape() as g:
        y = tf.ones([2])
    return g.batch_jacobian(y, x)


expect_error("BatchJacobianTest.testBadShape", bad_shape)
expect_error("BatchJacobianTest.testBadInputRank", bad_input_rank)
expect_error("BatchJacobianTest.testBadOutputRank", bad_output_rank)

# BatchJacobianTest.test_parallel_iterations
with tf.GradientTape(persistent=True) as g:
    x = tf.constant([[1.0, 2], [3, 4]])
    g.watch(x)
    w = tf.constant([[1.0, 2, 3, 4], [5, 6, 7, 8]])
    y = tf.matmul(x, w)
report("BatchJacobianTest.test_parallel_iterations",
       [g.batch_jacobian(y, x, parallel_iterations=2), g.batch_jacobian(y, x, parallel_iterations=3)])


# BatchJacobianTest.test_degenerate_shape (without tf.function)
def degenerate(use_pfor):
    x = tf.zeros([1, 0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x ** 2
    return list(tape.batch_jacobian(y, x, experimental_use_pfor=use_pfor).shape)


report("BatchJacobianTest.test_degenerate_shape", [degenerate(True), degenerate(False)])


# BackpropTest.testAggregateGradients (a fixed table instead of a random one)
def aggregate(x):
    g1 = tf.nn.embedding_lookup(x, tf.constant(np.array([0, 1])))
    g2 = tf.nn.embedding_lookup(x, tf.constant(np.array([2, 3])))
    g3 = tf.nn.embedding_lookup(x, tf.constant(np.array([1, 3])))
    return g1 * g2 * g3


table = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2) / 8.0 + 0.5)
with tf.GradientTape() as t:
    t.watch(table)
    out = aggregate(table)
report("testAggregateGradients", tf.convert_to_tensor(t.gradient(out, table)))

# BackpropTest.testAggregateGradientsWithTensor
with tf.GradientTape() as t:
    t.watch(table)
    out = tf.nn.embedding_lookup(table, tf.constant(np.array([0, 1]))) * \
        tf.reduce_sum(table * tf.constant(2.0))
report("testAggregateGradientsWithTensor", tf.convert_to_tensor(t.gradient(out, table)))


# CustomGradientTest.testCustomGradientTrivial (eagerly)
@tf.custom_gradient
def MyIdentity(x):
    def Grad(dy):
        return [3 * dy]
    return x, Grad


x = tf.constant(3.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = MyIdentity(MyIdentity(x))
report("CustomGradientTest.testCustomGradientTrivial", t.gradient(y, x))


# CustomGradientTest.testCustomGradient (the gradients deliberately swapped)
@tf.custom_gradient
def MyMultiply(x1, x2):
    result = x1 * x2

    def Grad(dy):
        return [dy * x1, dy * x2]

    return result, Grad


x1, x2 = tf.constant(3.0), tf.constant(5.0)
with tf.GradientTape() as t:
    t.watch([x1, x2])
    y = MyMultiply(x1, x2)
report("CustomGradientTest.testCustomGradient", t.gradient(y, [x1, x2]))


# CustomGradientTest.testCustomGradientClass
class Model(object):
    @tf.custom_gradient
    def Multiply(self, x1, x2):
        result = x1 * x2

        def grad(dy):
            return (dy * x1, dy * x2)
        return result, grad


with tf.GradientTape() as t:
    t.watch([x1, x2])
    y = Model().Multiply(x1, x2)
report("CustomGradientTest.testCustomGradientClass", [y, t.gradient(y, [x1, x2])])

# CustomGradientTest.testCustomGradientWithVariablesEager
layer = tf.keras.layers.Dense(4, use_bias=False)


@tf.custom_gradient
def F(x):
    out = layer(x)

    def Grad(out_grad, variables=None):
        del out_grad
        return tf.ones((3, 2)), [tf.ones((2, 4))]

    return out, Grad


x = tf.ones((3, 2)) + 2.0
with tf.GradientTape() as tape:
    tape.watch(x)
    y = F(x)
w, = layer.variables
dx, dw = tape.gradient(y, [x, w])
report("CustomGradientTest.testCustomGradientWithVariablesEager",
       [len(layer.variables), tf.reduce_sum(dx), tf.reduce_sum(dw)])


# CustomGradientTest.testWithNumpyInputs
@tf.custom_gradient
def NumpyF(x):
    out = x

    def Grad(_):
        return (None, None)

    return out, Grad


report("CustomGradientTest.testWithNumpyInputs", NumpyF(np.ones((3, 2), dtype=np.float32)))


# CustomGradientTest.testCustomGradientErrors (eagerly)
@tf.custom_gradient
def RaisingF(x):
    def Grad(_):
        raise RuntimeError("x")
    return x, Grad


def call_raising():
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = RaisingF(x)
    return t.gradient(y, x)


expect_error("CustomGradientTest.testCustomGradientErrors", call_raising)


# VariablesGradientTest._TestFnVariablesGradient with testFnRecompute and
# testFnRecomputeSameTensor
def recompute_vs_plain(fn, inputs, sources):
    fn_re = tf.recompute_grad(fn)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(sources)
        out_re = fn_re(inputs, sources)
        out = fn(inputs, sources)
    return [tape.gradient(out_re, sources), tape.gradient(out, sources)]


def TestFn(inputs, input_vars):
    return inputs * input_vars


def TestFnSeq(inputs, input_vars):
    return (inputs * input_vars, inputs * input_vars * 2.0)


def TestFnSingleVar(x, y):
    return x


test_var = tf.Variable(np.arange(4, dtype=np.float32) / 2.0, name="test_var")
test_input = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4) / 3.0)
report("VariablesGradientTest.testFnRecompute.input", recompute_vs_plain(TestFn, test_input, test_input))
report("VariablesGradientTest.testFnRecompute.var", recompute_vs_plain(TestFn, test_input, test_var))
report("VariablesGradientTest.testFnRecompute.seq_input",
       recompute_vs_plain(TestFnSeq, test_input, test_input))
report("VariablesGradientTest.testFnRecompute.seq_var", recompute_vs_plain(TestFnSeq, test_input, test_var))
ones = tf.ones((10))
report("VariablesGradientTest.testFnRecomputeSameTensor",
       [recompute_vs_plain(TestFn, ones, ones), recompute_vs_plain(TestFnSingleVar, ones, ones)])


# VariablesGradientTest.testCustomGradientRecomputeGradHigherOrder (three orders at x = 1)
@tf.recompute_grad
def prod_tanh_sq(x):
    return tf.reduce_prod(tf.tanh(x) ** 2)


x = tf.constant([1.0])
with tf.GradientTape() as t3:
    t3.watch(x)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = prod_tanh_sq(x)
        d1 = t1.gradient(y, x)
    d2 = t2.gradient(d1, x)
d3 = t3.gradient(d2, x)
report("VariablesGradientTest.testCustomGradientRecomputeGradHigherOrder", [y, d1, d2, d3])

# GradPassThroughTest.test_gradients_v2
x = tf.Variable(1.0, name="x")
z = tf.Variable(3.0, name="z")
with tf.GradientTape() as tape:
    y = x.assign(z ** 2)
blocked = tape.gradient(y, z)
with tf.GradientTape() as tape:
    y = tf.grad_pass_through(x.assign)(z ** 2)
passed = tape.gradient(y, z)
with tf.GradientTape() as tape:
    y = tf.grad_pass_through(lambda v: x * v)(z)
report("GradPassThroughTest.test_gradients_v2", [blocked, passed, tape.gradient(y, x)])
