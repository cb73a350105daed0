# TensorFlow's own GradientTape tests that use only eager public API, rewritten as golden
# answers. Source: tensorflow/python/eager/backprop_test.py (class BackpropTest); each block
# names the test it comes from. `gradients_function(f)(x)` is written as a tape around f.

# testNoOpBehaviorConsistent (NoFunction)
x = tf.constant(10.0)
x1, x2, x3, x4 = tf.identity(x), tf.add(x, 0), tf.subtract(x, 0), tf.multiply(x, 1)
with tf.GradientTape() as t:
    t.watch([x, x1, x2, x3, x4])
    loss = x * 2.0 + x1 * 3.0 + x2 * 3.0 + x3 * 3.0 + x4 * 3.0
report("testNoOpBehaviorConsistent", t.gradient(loss, [x, x1, x2, x3, x4]))


# testWhereGradient
def where_grad(value):
    x = tf.constant(value)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.where(x < 10, x, x * x)
    return t.gradient(y, x)


report("testWhereGradient", [where_grad(5.0), where_grad(50.0)])

# testTwoTargets
with tf.GradientTape() as t:
    x = tf.constant(3.0)
    y = tf.constant(2.0)
    t.watch([x, y])
    xx, yy = 2 * x, 3 * y
report("testTwoTargets", t.gradient([xx, yy], [x, y]))

# testOutputGradUsedInComputation
with tf.GradientTape() as t:
    x = tf.constant(3.0)
    y = tf.constant(2.0)
    t.watch([x, y])
    loss = x * y
report("testOutputGradUsedInComputation", t.gradient([loss, x], [x], output_gradients=[1.0, 2.0]))

# testGradientInteger
n = tf.constant(1)
with tf.GradientTape() as t:
    t.watch(n)
    m = n + n
report("testGradientInteger", t.gradient(m, n))


# testErrors
@tf.custom_gradient
def raising(x):
    def grad(_):
        raise RuntimeError("x")
    return x, grad


def call_raising():
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = raising(x)
    return t.gradient(y, x)


expect_error("testErrors", call_raising)

# testTapeNoOpGradient, testTapeIdentityGradientIsIdentity
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x
    z = tf.identity(x)
report("testTapeNoOpGradient", t.gradient(y, x))
report("testTapeIdentityGradientIsIdentity", t.gradient(z, x))

# testTapeGradientMultiTargetOneIsSource
x = tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
report("testTapeGradientMultiTargetOneIsSource", t.gradient([x, y], x))

# testTapeNoOpGradientWithMultiTargetAllSource
x = tf.constant(3.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = x
report("testTapeNoOpGradientWithMultiTargetAllSource", t.gradient([y, y], x))

# testTapeNoOpGradientWithMultiTargetMultiSource
x, y = tf.constant(3.0), tf.constant(5.0)
with tf.GradientTape() as t:
    t.watch(x)
    t.watch(y)
    z = y * y
report("testTapeNoOpGradientWithMultiTargetMultiSource", t.gradient([x, y, z], [x, y]))

# testTapeGradientStringTarget, testTapeNoOpGradientStringSourceAndTarget,
# testTapeNoOpGradientWithMultiTargetMultiSourceIncludeString
s = tf.constant("unknown", dtype=tf.string)
x, y = tf.constant(3.0), tf.constant(5.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    t.watch(y)
    t.watch(s)
    z = y * y
report("testTapeGradientStringTarget", t.gradient(s, x))
report("testTapeNoOpGradientStringSourceAndTarget", t.gradient(s, s))
report("testTapeNoOpGradientWithMultiTargetMultiSourceIncludeString",
       t.gradient([x, y, z, s], [x, y, s]))

# testTapeNoOpOnVariableIsIdentity
v0 = tf.Variable(1.0)
with tf.GradientTape() as t:
    y = v0.read_value()
report("testTapeNoOpOnVariableIsIdentity", t.gradient(y, v0))

# testTapeNoOpGradient2By2, testTapeNoOpGradientMultiTarget2By2
a = tf.constant(2.0, shape=[2, 2])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(a)
report("testTapeNoOpGradient2By2", tape.gradient(a, [a])[0])
report("testTapeNoOpGradientMultiTarget2By2", tape.gradient([a, a], [a])[0])

# testTapeStopRecording
with tf.GradientTape() as t:
    x = tf.Variable(1.0)
    with t.stop_recording():
        y = x * x
report("testTapeStopRecording", t.gradient(y, x))

# testTapeStopStartRecording
with tf.GradientTape(persistent=True) as t:
    x = tf.Variable(1.0)
    x2 = x * 2
    with t.stop_recording():
        y = x2 * x2
    z = x2 * x2
report("testTapeStopStartRecording", [t.gradient(y, x2), t.gradient(z, x2)])

# testTapeReset
with tf.GradientTape() as t:
    v = tf.Variable(1.0)
    loss = v * v
    t.reset()
    loss += v * v
report("testTapeReset", t.gradient(loss, v))

# testPythonMax
xs = [tf.Variable(2.0), tf.Variable(3.0), tf.Variable(5.0)]
with tf.GradientTape() as t:
    f = max(xs)
report("testPythonMax", [f, t.gradient(f, xs)])

# testAutomaticWatchedVariables
counts = []
with tf.GradientTape() as t:
    counts.append(len(t.watched_variables()))
    v = tf.Variable(1.0)
    loss = v * v
    counts.append(len(t.watched_variables()))
    t.reset()
    counts.append(len(t.watched_variables()))
    loss += v * v
    counts.append(len(t.watched_variables()))
report("testAutomaticWatchedVariables", counts)

# testExplicitWatchedVariables
counts = []
with tf.GradientTape() as t:
    counts.append(len(t.watched_variables()))
    v = tf.Variable(1.0)
    t.watch(v)
    counts.append(len(t.watched_variables()))
    t.reset()
    counts.append(len(t.watched_variables()))
    t.watch(v)
    counts.append(len(t.watched_variables()))
report("testExplicitWatchedVariables", counts)

# testGradientNone
logits = tf.constant([[0.0, 0.0]])
labels = tf.constant([[1.0, 0.0]])
with tf.GradientTape() as t:
    t.watch(logits)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(logits=logits, labels=labels),
                          tf.constant([0]))
report("testGradientNone", t.gradient(loss, logits))

# testGradientWithinTapeBlock
v1 = tf.Variable(1.0)
with tf.GradientTape() as t:
    loss = 2 * v1
    grad = t.gradient(loss, v1)
with tf.GradientTape(persistent=True) as t:
    loss = 2 * v1
    grad_persistent = t.gradient(loss, v1)
report("testGradientWithinTapeBlock", [grad, grad_persistent])


# testNestedSelfContexts
def enter_twice():
    with tf.GradientTape() as t:
        with t:
            pass


expect_error("testNestedSelfContexts", enter_twice)

# testSecondGrad
f = tf.constant([[0.1]])
with tf.GradientTape() as outer:
    outer.watch(f)
    with tf.GradientTape() as inner:
        inner.watch(f)
        first = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant([[0.0]]),
                                                                      logits=f), tf.constant([0]))
    second = tf.reduce_sum(inner.gradient(first, f), tf.constant([0]))
report("testSecondGrad", outer.gradient(second, f))

# testWatchingIsTapeLocal
x1 = tf.Variable(2.0, trainable=False)
x2 = tf.Variable(2.0, trainable=False)
with tf.GradientTape() as tape1:
    with tf.GradientTape() as tape2:
        tape1.watch(x1)
        tape2.watch([x1, x2])
        y = x1 ** 3
        z = x2 ** 2
        dy, dz = tape2.gradient([y, z], [x1, x2])
    d2y, d2z = tape1.gradient([dy, dz], [x1, x2])
report("testWatchingIsTapeLocal", [d2y, d2z])

# testGradGrad, testGradGradExp
for name, fn, at in (("testGradGrad", lambda x: x * x, 3.0), ("testGradGradExp", tf.exp, 0.0)):
    x = tf.constant(at)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = fn(x)
        g = inner.gradient(y, x)
    report(name, outer.gradient(g, x))

# testStopGradient, testArgmax
x = tf.constant([0.0])
with tf.GradientTape() as t:
    t.watch(x)
    i = tf.stop_gradient(tf.argmax(x))
report("testStopGradient", t.gradient(i, x))

# testEmptyParams, testCPU
x, y = tf.constant(1.0), tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch([x, y])
    p = x * y
    q = tf.add(tf.add(x, tf.constant(2.0)), tf.constant(3.0))
report("testEmptyParams", t.gradient(p, [x, y]))

# testGradientTapeReEnterContext
g = tf.GradientTape()
with g:
    x = tf.constant(3.0)
    g.watch(x)
    y = 2 * x
with g:
    z = 2 * y
report("testGradientTapeReEnterContext", g.gradient(target=z, sources=[x]))

# testGradientTapeRepeatedSource, testPersistentGradientTapeRepeatedSource
with tf.GradientTape(persistent=False) as g:
    x = tf.constant(3.0)
    g.watch(x)
    y = 2 * x
report("testGradientTapeRepeatedSource", g.gradient(target=y, sources=[x, x]))
with tf.GradientTape(persistent=True) as g:
    x = tf.constant(3.0)
    y = tf.constant(5.0)
    g.watch(x)
    g.watch(y)
    z = x * x + x * y
report("testPersistentGradientTapeRepeatedSource",
       [g.gradient(target=z, sources=[x, x]), g.gradient(target=z, sources=[y, x])])

# testGradientTapeStructure
with tf.GradientTape(persistent=True) as g:
    x1, x2, x3 = tf.constant(3.0), tf.constant(3.1), tf.constant(3.2)
    g.watch(x1)
    g.watch(x2)
    g.watch(x3)
    y = x1 + 2 * x2 + 3 * x3
report("testGradientTapeStructure", [g.gradient(y, x1), g.gradient(y, (x1,)), g.gradient(y, (x1, x2)),
                                     g.gradient(y, [(x1, x2), (x2, x3)]),
                                     g.gradient(y, (x1, x2, [x1, x3])),
                                     g.gradient(y, [x1, {"x2": x2, "x3": x3}])])

# testGradientTape
with tf.GradientTape() as g:
    x = tf.constant(3.0)
    g.watch(x)
    y = x * x
    with tf.GradientTape() as gg:
        gg.watch(y)
        z = 2 * y
    inner_grad = gg.gradient(z, [y])[0]
    y += inner_grad
report("testGradientTape", [inner_grad, g.gradient(y, [x])[0]])

# testGadientTapeCalledOnConstantTarget
with tf.GradientTape() as g:
    x = tf.Variable([3.0])
    y = tf.Variable([2.0])
report("testGadientTapeCalledOnConstantTarget", g.gradient(x, y))

# testGradientTapeGradientCalledMultipleTimes
with tf.GradientTape() as g:
    x = tf.constant(3.0)
    g.watch(x)
    y = x * x
    z = y * y
g.gradient(z, [x])
expect_error("testGradientTapeGradientCalledMultipleTimes", lambda: g.gradient(y, [x]))

# testPersistentTape, testHigherOrderGradient
with tf.GradientTape(persistent=True) as g:
    x = tf.constant(3.0)
    g.watch(x)
    y = x * x
    z = y * y
report("testPersistentTape", [g.gradient(z, [x])[0], g.gradient(y, [x])[0]])
with tf.GradientTape(persistent=True) as g:
    x = tf.constant(3.0)
    g.watch(x)
    y = x ** 3
    dy_dx = g.gradient(y, x)
    d2y_dx2 = g.gradient(dy_dx, x)
d3y_dx3 = g.gradient(d2y_dx2, x)
report("testHigherOrderGradient", [y, dy_dx, d2y_dx2, d3y_dx3])

# testPersistentNestedTape
with tf.GradientTape(persistent=True) as g:
    x = tf.constant(3.0)
    g.watch(x)
    y = x * x
    with tf.GradientTape(persistent=True) as gg:
        gg.watch(y)
        z = 2 * y
    inner = [gg.gradient(z, [y])[0] for _ in range(2)]
    y += inner[-1]
    del gg
report("testPersistentNestedTape", [inner, g.gradient(y, [x])[0], g.gradient(z, [x])[0]])

# testGradientTapeVariable, testNestedGradients
v = tf.Variable(1.0, name="v")
with tf.GradientTape() as g:
    y = v * v
report("testGradientTapeVariable", g.gradient(y, [v])[0])
x = tf.constant(3.0)
with tf.GradientTape() as g:
    g.watch(x)
    y = x * x
    z = y * y
report("testNestedGradients", g.gradient(z, [x, y]))

# testUnconnectedGradientsDefault, ...Zeros, ...VariablesZeros,
# testUnknownUnconnectedGradientsValueGiven
x = tf.constant(1.0, shape=[2, 2])
y = tf.constant(3.0)
xv = tf.Variable(tf.constant(1.0, shape=[2, 2]))
yv = tf.Variable(tf.constant(3.0))
with tf.GradientTape(persistent=True) as g:
    g.watch([x, y, xv, yv])
    z = y * 2
    zv = yv * 2
report("testUnconnectedGradientsDefault", g.gradient(z, x))
report("testUnconnectedGradientsZeros", g.gradient(z, x, unconnected_gradients="zero"))
report("testUnconnectedGradientsVariablesZeros", g.gradient(zv, xv, unconnected_gradients="zero"))
expect_error("testUnknownUnconnectedGradientsValueGiven",
             lambda: g.gradient(z, x, unconnected_gradients="nonsense"))


# testCustomGradient (with a Variable read and repeated descent steps)
@tf.custom_gradient
def my_mul(x, y):
    result = x * y

    def grad(dr):
        return [dr * y, dr * x]

    return result, grad


x = tf.Variable(2.0, name="x")
losses = []
for _ in range(5):
    with tf.GradientTape() as t:
        loss = my_mul(2.0, x.read_value())
    losses.append(loss)
    x.assign_sub(0.25 * t.gradient(loss, x))
report("testCustomGradient", losses)


# testCustomGradientIdentity, testImplicitGradientsCustomGradientAndCachedVariableValue
@tf.custom_gradient
def my_identity(x):
    def grad(dresult):
        return [2 * dresult]
    return x, grad


@tf.custom_gradient
def my_square(x):
    result = tf.square(x)

    def grad(dr):
        return 2 * dr * x + 1

    return result, grad


c = tf.constant(1.0)
sq = tf.Variable(3.0)
with tf.GradientTape() as t:
    t.watch(c)
    y = my_identity(c)
    w = my_square(sq)
report("testCustomGradientIdentity", t.gradient(y, c))
with tf.GradientTape() as t:
    w = my_square(sq)
report("testImplicitGradientsCustomGradientAndCachedVariableValue", t.gradient(w, sq))


# testOverrideSecondOrderWithCustomGradient
@tf.custom_gradient
def f(x):
    def first_order_grad(dz):
        @tf.custom_gradient
        def first_order_custom(unused_x):
            def h(ddz):
                return -2.1 * ddz
            return -1.1, h
        return dz * first_order_custom(x)
    return x + 10.0, first_order_grad


c = tf.constant(1.0)
with tf.GradientTape() as outer:
    outer.watch(c)
    with tf.GradientTape() as inner:
        inner.watch(c)
        d = f(c) ** 4.0
    dd = inner.gradient(d, c)
report("testOverrideSecondOrderWithCustomGradient", [dd, outer.gradient(dd, c)])


# testCustomGradientForwardprop (tensor_util.constant_value is tf.get_static_value)
@tf.custom_gradient
def f2(x):
    z = 2.0 * tf.get_static_value(x)

    def g(dz):
        @tf.custom_gradient
        def first_order(unused_x, unused_dz):
            def second_order_and_transpose(unused_ddz):
                return 2.2, 3.1
            return 2.1, second_order_and_transpose
        return first_order(x, dz)

    return z, g


with tf.GradientTape(persistent=True) as t:
    with tf.GradientTape() as tt:
        c = tf.constant(1.0)
        t.watch(c)
        tt.watch(c)
        output_grad = tf.ones([])
        t.watch(output_grad)
        output = f2(c)
    gc = tt.gradient(output, c, output_gradients=output_grad)
# (TensorFlow hands back a Python number that grad_fn returned as it is, here 2.2 and 3.1;
# tapeviz makes every gradient a tensor: compared as tensors, see docs/tensorflow-differences.md)
report("testCustomGradientForwardprop", [output, gc, tf.convert_to_tensor(t.gradient(gc, c)),
                                         tf.convert_to_tensor(t.gradient(gc, output_grad))])

# testSelectivelyWatchVariables
x1 = tf.Variable(1.0)
x2 = tf.Variable(1.0)
with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(x2)
    y = x1 ** 2
    z = x2 ** 3
report("testSelectivelyWatchVariables", [len(tape.watched_variables()), tape.gradient([y, z], [x1, x2])])

# testDifferentiatingScalarCache
with tf.GradientTape(persistent=False) as g:
    x1 = tf.constant(3.0)
    x2 = tf.constant(3.0)
    g.watch(x1)
    g.watch(x2)
    y = x1 + x2
report("testDifferentiatingScalarCache", g.gradient(target=y, sources=[x1]))


# testVariablesAndConstantsProduceTheSameGradients
def get_grads(a, b):
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        y = a ** 3
        z = b ** 2
    return tape.gradient([y, z], [a, b])


report("testVariablesAndConstantsProduceTheSameGradients",
       [get_grads(tf.constant(2.0), tf.constant(2.0)), get_grads(tf.Variable(2.0), tf.Variable(2.0))])

# testWatchBadThing
expect_error("testWatchBadThing", lambda: tf.GradientTape().watch(np.array(1.0)))

# testWatchedVariablesAfterNonPersistentGradientCall, ...OnlyHasVariablesFromLastTape,
# ...RespectReset
with tf.GradientTape(persistent=False) as tape:
    x = tf.Variable(1.0)
    tape.watch(x)
tape.gradient(x, x)
after_call = [v is x for v in tape.watched_variables()]
with tf.GradientTape(persistent=False) as tape:
    x = tf.Variable(1.0)
    tape.watch(x)
    tape.reset()
    z = tf.Variable(2.0)
    tape.watch(z)
tape.gradient(z, z)
report("testWatchedVariables", [after_call, [v is z for v in tape.watched_variables()]])

# testMultiValueConvertToTensor
x = tf.Variable([1.0])
with tf.GradientTape() as t:
    a = tf.add(x.value(), 1.0)
    b = tf.stack([a, a], axis=0)
    m = tf.reduce_mean(b)
report("testMultiValueConvertToTensor", t.gradient(m, x))

# testOutput, testReturnSameThing (a function with two outputs: their gradients add up)
x = tf.constant([0.0, 1.0, 2.0])
with tf.GradientTape() as t:
    t.watch(x)
    outs = (x + 2, x * x)
report("testOutput", t.gradient(outs, x))

# testSameObjectForMultipleArguments
x = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = tf.multiply(x, x)
report("testSameObjectForMultipleArguments", t.gradient(y, [x, x]))
