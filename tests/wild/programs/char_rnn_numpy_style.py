# After: https://gist.github.com/karpathy/d4dee566867f8291f086 (min-char-rnn: a vanilla
# character RNN with Wxh, Whh, Why, bh, by, tanh hidden state, softmax cross-entropy over
# one-hot characters, Adagrad, gradient clipping to [-5, 5]) as ported to TensorFlow 2
# with tf.Variable parameters, a GradientTape over the unrolled sequence and
# tf.clip_by_value on each gradient.
# Adapted: a fixed short text, fixed starting weights, 5 updates of seq_length 8.
import numpy as np
import tensorflow as tf

from adapt import fixed_weights


def main():
    data = 'hello world, hello tapes. '
    chars = sorted(list(set(data)))
    data_size, vocab_size = len(data), len(chars)
    char_to_ix = {ch: i for i, ch in enumerate(chars)}

    hidden_size = 16
    seq_length = 8
    learning_rate = 1e-1

    Wxh = tf.Variable(tf.random.normal([hidden_size, vocab_size]) * 0.01, name='Wxh')
    Whh = tf.Variable(tf.random.normal([hidden_size, hidden_size]) * 0.01, name='Whh')
    Why = tf.Variable(tf.random.normal([vocab_size, hidden_size]) * 0.01, name='Why')
    bh = tf.Variable(tf.zeros([hidden_size, 1]), name='bh')
    by = tf.Variable(tf.zeros([vocab_size, 1]), name='by')
    params = [Wxh, Whh, Why, bh, by]
    fixed_weights(params, scale=0.1)
    mems = [tf.Variable(tf.zeros_like(p)) for p in params]

    def lossFun(inputs, targets, hprev):
        hs = hprev
        loss = 0.0
        for t in range(len(inputs)):
            xs = tf.reshape(tf.one_hot(inputs[t], vocab_size), [vocab_size, 1])
            hs = tf.tanh(tf.matmul(Wxh, xs) + tf.matmul(Whh, hs) + bh)
            ys = tf.matmul(Why, hs) + by
            ps = tf.nn.softmax(ys, axis=0)
            loss += -tf.math.log(ps[targets[t], 0])
        return loss, hs

    n, p = 0, 0
    hprev = tf.zeros([hidden_size, 1])
    smooth_loss = -np.log(1.0 / vocab_size) * seq_length
    losses = []
    while n < 5:
        if p + seq_length + 1 >= len(data) or n == 0:
            hprev = tf.zeros([hidden_size, 1])
            p = 0
        inputs = [char_to_ix[ch] for ch in data[p:p + seq_length]]
        targets = [char_to_ix[ch] for ch in data[p + 1:p + seq_length + 1]]

        with tf.GradientTape() as tape:
            loss, hprev = lossFun(inputs, targets, hprev)
        dparams = tape.gradient(loss, params)
        dparams = [tf.clip_by_value(d, -5, 5) for d in dparams]
        smooth_loss = smooth_loss * 0.999 + float(loss) * 0.001

        # perform parameter update with Adagrad
        for param, dparam, mem in zip(params, dparams, mems):
            mem.assign_add(dparam * dparam)
            param.assign_sub(learning_rate * dparam / tf.sqrt(mem + 1e-8))
        losses.append(loss)
        p += seq_length
        n += 1
    return {"losses": losses, "smooth_loss": smooth_loss, "params": params}
