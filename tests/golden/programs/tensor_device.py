# `.device` of eager tensors and variables (programs print where a result was placed): the
# one CPU, named in full
report("constant.device", tf.constant([1.0, 2.0]).device)
report("result.device", (tf.constant(2.0) * 3.0).device)
report("variable.device", tf.Variable(1.0).device)
with tf.device("/device:CPU:0"):
    report("in_scope.device", tf.matmul(tf.ones([2, 2]), tf.ones([2, 2])).device)
