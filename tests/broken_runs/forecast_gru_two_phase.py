"""Forecast the next value of a noisy sensor series: Conv1D + GRU encoder, attention pooling
with a learned temperature, a station context vector, and (phase 2) a predicted variance for
a Gaussian negative log-likelihood. Trained with Adam in a custom tf.function loop."""
import numpy as np
import tapeviz as tf

tf.random.set_seed(7)
rng = np.random.default_rng(7)

T, N, QLEVELS = 16, 256, 8.0
series = np.cumsum(rng.normal(0, 0.3, size=(N, T + 1)), axis=1).astype("float32")
x_all = series[:, :T, None]
y_all = series[:, T:]
station = tf.constant([[0.3, -1.2, 0.8, 0.1]])            # per-station metadata

ds = (tf.data.Dataset.from_tensor_slices((x_all, y_all))
      .shuffle(N, seed=7).batch(32, drop_remainder=True).repeat())

conv = tf.keras.layers.Conv1D(16, 3, padding="same", activation="relu", name="conv")
gru = tf.keras.layers.GRU(16, return_sequences=True, name="gru")
score = tf.keras.layers.Dense(1, name="score")
ctx = tf.keras.layers.Dense(16, name="ctx")
head = tf.keras.layers.Dense(1, name="head")
var_head = tf.keras.layers.Dense(1, name="var_head")     # truth: var_head/kernel none unconnected call=first line=none
qscale = tf.Variable(QLEVELS, name="qscale")               # learned input quantisation step
temperature = tf.Variable(0.05, name="temperature")       # sharp attention to start with

warm = gru(conv(tf.zeros([1, T, 1])))      # build the layers before listing their weights
score(warm), head(warm[:, 0]), var_head(warm[:, 0]), ctx(station)
variables = (conv.trainable_variables + gru.trainable_variables + score.trainable_variables
             + ctx.trainable_variables + head.trainable_variables
             + var_head.trainable_variables + [qscale, temperature])
warm_start = np.random.default_rng(3)                     # last week's weights, re-created
for v in variables[:-2]:
    v.assign(warm_start.normal(0.0, 0.25, v.shape).astype("float32"))
opt = tf.keras.optimizers.Adam(1e-2)

ctx_vec = ctx(station)       # computed once, outside the step  # truth: ctx/kernel none outside_tape call=first; ctx/bias none outside_tape call=last


def encode(xb):
    xq = tf.cast(tf.cast(xb * qscale, tf.int32), tf.float32) / QLEVELS  # truth: qscale none integer_dtype call=first; qscale none integer_dtype call=30
    h = gru(conv(xq)) + ctx_vec[:, None, :]
    t = tf.clip_by_value(temperature, 0.1, 10.0)  # truth: temperature zero clipped call=first; temperature zero clipped call=30
    attn = tf.nn.softmax(score(h) / t, axis=1)
    return tf.reduce_sum(attn * h, axis=1)


@tf.function
def train_step(xb, yb):
    with tf.GradientTape() as tape:
        pooled = encode(xb)
        mu = head(pooled)
        loss = tf.reduce_mean(tf.square(yb - mu))
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))
    return loss, grads


@tf.function
def train_step_nll(xb, yb):
    with tf.GradientTape() as tape:
        pooled = encode(xb)
        mu = head(pooled)
        var = tf.nn.relu(var_head(pooled))
        nll = 0.5 * tf.math.log(var) + 0.5 * tf.square(yb - mu) / var  # truth: var_head/kernel nan nan_origin op=Log call=31; head/kernel nan nan_origin call=31; gru/gru_cell/kernel nan nan_origin call=31
        loss = tf.reduce_mean(nll)
    grads = tape.gradient(loss, variables)
    opt.apply_gradients(zip(grads, variables))  # truth: head/kernel nan nan_input call=last; conv/kernel nan nan_input call=last
    return loss, grads


grad_history = []
for step, (xb, yb) in enumerate(ds.take(60)):
    if step < 30:
        loss, grads = train_step(xb, yb)
    else:
        loss, grads = train_step_nll(xb, yb)
    grad_history.append(grads)
    if step % 10 == 0 or step == 59:
        print(f"step {step:2d}  loss {float(loss):.4f}")
