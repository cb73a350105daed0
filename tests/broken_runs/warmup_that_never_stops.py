"""A regression MLP with a side branch and six bugs: a learning-rate "warm-up" that never
stops (x1.08 a step) makes the main branch diverge until `h1 @ w3` overflows float32 at
gradient call 72; a bias of -40 kills the side branch's ReLU (its weights and the weight
after it get zero); a constant where a Variable was meant, an argmax and an int cast cut
three sources off; a regulariser computed before the tape opens cuts the last one."""
import tapeviz as tf

tf.random.set_seed(6)
N = 128
x = tf.random.normal([N, 6])
true_w = tf.constant([[1.5], [-2.0], [0.5], [3.0], [-1.0], [2.5]])
y = x @ true_w + 4.0 + 0.1 * tf.random.normal([N, 1])

w1 = tf.Variable(tf.random.normal([6, 16]) * 0.4, name="w1")
b1 = tf.Variable(tf.zeros([16]), name="b1")
w2 = tf.Variable(tf.random.normal([6, 8]) * 0.4, name="w2")          # side branch
b2 = tf.Variable(tf.fill([8], -40.0), name="b2")                      # bug: dead ReLU branch
wd = tf.Variable(tf.random.normal([8, 1]) * 0.4, name="wd")
w3 = tf.Variable(tf.random.normal([16, 1]) * 0.4, name="w3")
b3 = tf.Variable(tf.zeros([1]), name="b3")
temp = tf.constant(1.0, name="temp")            # truth: temp none not_watched call=all
w_gate = tf.Variable(tf.random.normal([6, 3]), name="w_gate")
w_bucket = tf.Variable(tf.random.normal([6, 1]), name="w_bucket")
w_reg = tf.Variable(tf.random.normal([6, 4]), name="w_reg")

params = [w1, b1, w2, b2, wd, w3, b3, temp, w_gate, w_bucket, w_reg]

lr = 0.002
for step in range(73):
    reg = 0.01 * tf.reduce_sum(tf.square(w_reg))  # truth: w_reg none outside_tape op=Square call=all
    with tf.GradientTape() as tape:
        h1 = tf.nn.relu(x @ w1 + b1)
        h2 = tf.nn.relu(x @ w2 + b2)  # truth: w2 zero dead_relu op=Relu call=1; b2 zero dead_relu op=Relu call=1; wd zero dead_relu op=Relu call=71
        gate = tf.cast(tf.argmax(x @ w_gate, axis=1), tf.float32)  # truth: w_gate none non_differentiable op=ArgMax call=all
        bucket = tf.cast(tf.cast(x @ w_bucket, tf.int32), tf.float32)  # truth: w_bucket none integer_dtype op=Cast call=all
        pred = (h1 @ w3 + b3 + h2 @ wd) * temp + 0.01 * gate[:, None] + 0.01 * bucket  # truth: w1 nan nan_origin op=MatMul#1 call=72; b1 nan nan_origin op=MatMul#1 call=72; w2 nan nan_origin op=MatMul#1 call=72; b2 nan nan_origin op=MatMul#1 call=72; wd nan nan_origin op=MatMul#1 call=72; w3 nan nan_origin op=MatMul#1 call=72; b3 inf inf_origin op=MatMul#1 call=72
        loss = tf.reduce_mean(tf.square(pred - y)) + reg
    grads = tape.gradient(loss, params)
    for v, g in zip(params, grads):
        if g is not None and isinstance(v, tf.Variable):
            v.assign_sub(lr * g)
    lr = lr * 1.08                                                     # bug: never stops
