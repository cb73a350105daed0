# The array-behaviour cells of TensorFlow's TF-NumPy guide (tensorflow.org/guide/tf_numpy)
# that tests/wild/trial6/guide_tf_numpy.py leaves out: ND arrays, type promotion, prefer
# float32, broadcasting, indexing (basic, boolean, advanced) and refused mutation
tnp = tf.experimental.numpy
tnp.experimental_enable_numpy_behavior()
# ND array
ones = tnp.ones([5, 3], dtype=tnp.float32)
report("ones.ndim_shape_dtype", [ones.ndim, list(ones.shape), ones.dtype.name])
report("ones.device", ones.device)
report("is_ndarray", isinstance(ones, tnp.ndarray))
# type promotion
values = [tnp.asarray(1, dtype=d) for d in (tnp.int32, tnp.int64, tnp.float32, tnp.float64)]
for i, v1 in enumerate(values):
    for v2 in values[i + 1:]:
        report("promote.%s+%s" % (v1.dtype.name, v2.dtype.name), (v1 + v2).dtype.name)
report("asarray_int", tnp.asarray(1).dtype.name)
report("asarray_float", tnp.asarray(1.0).dtype.name)
# broadcasting
x = tnp.ones([2, 3])
y = tnp.ones([3])
z = tnp.ones([1, 2, 1])
report("broadcast", x + y + z)
# indexing
x = tnp.arange(24).reshape(2, 3, 4)
report("index.basic", x[1, tnp.newaxis, 1:3, ...])
report("index.boolean", x[:, (True, False, True)])
report("index.advanced", x[1, (0, 0, 1), tnp.asarray([0, 1, 1])])


def mutate():
    tnp.arange(6)[1] = -1


expect_error("mutation", mutate)
tnp.experimental_enable_numpy_behavior(prefer_float32=True)
report("prefer_float32.asarray_float", tnp.asarray(1.0).dtype.name)
report("prefer_float32.add", tnp.add(1.0, 2.0).dtype.name)
