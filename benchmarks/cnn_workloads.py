"""W7, a small CNN's training step, for tapeviz and hand-written NumPy (benchmarks/run.py).

The step: a 3x3 convolution with 16 filters ('VALID') on a batch of 64 28x28x1 images, bias,
relu, 2x2 max pooling, a dense layer to 10 classes, sparse softmax cross-entropy, plain SGD,
float32. tapeviz writes it with `tv.nn.conv2d`, `tv.nn.max_pool2d` and a GradientTape; NumPy
by hand, as one would: im2col (one slice per kernel position) and one matmul forward, the
pooling as the maximum of its four strided corners, and the backward pass derived by hand.

Where the time goes differs from the arithmetic: each step makes ~2.7 MB temporaries, which
glibc maps afresh (and the kernel zeroes) at every allocation above its mmap threshold. The
NumPy step pays that on more of them than tapeviz's, so by default it is the slower one
(0.74x); run with MALLOC_MMAP_THRESHOLD_=1000000000 (memory reused) both are about twice as
fast and the ratio reads 1.01x (0.96-1.08).
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapeviz as tv  # noqa: E402

import timing  # noqa: E402

BATCH, SIDE, FILTERS, KERNEL, CLASSES = 64, 28, 16, 3, 10
LR = 0.05
CONV_SIDE = SIDE - KERNEL + 1          # 26
POOL_SIDE = CONV_SIDE // 2             # 13
CORNERS = [(0, 0), (0, 1), (1, 0), (1, 1)]     # the positions in a 2x2 pooling window


def cnn_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(BATCH, SIDE, SIDE, 1)).astype(np.float32)
    labels = rng.integers(0, CLASSES, size=BATCH).astype(np.int32)
    fan_in = KERNEL * KERNEL
    features = POOL_SIDE * POOL_SIDE * FILTERS
    params = [rng.normal(scale=np.sqrt(2 / fan_in), size=(KERNEL, KERNEL, 1, FILTERS)),
              np.zeros(FILTERS),
              rng.normal(scale=np.sqrt(1 / features), size=(features, CLASSES)),
              np.zeros(CLASSES)]
    return x, labels, [p.astype(np.float32) for p in params]


def tapeviz_cnn():
    x_np, labels_np, params_np = cnn_data()
    x, labels = tv.constant(x_np), tv.constant(labels_np)
    params = [tv.Variable(p, name=n) for p, n in zip(params_np, ["kernel", "bias", "w", "b"])]
    opt = tv.keras.optimizers.SGD(learning_rate=LR)

    def step():
        kernel, bias, w, b = params
        with tv.GradientTape() as tape:
            h = tv.nn.relu(tv.nn.conv2d(x, kernel, 1, "VALID") + bias)
            pooled = tv.nn.max_pool2d(h, 2, 2, "VALID")
            logits = tv.matmul(tv.reshape(pooled, (BATCH, -1)), w) + b
            loss = tv.reduce_mean(tv.nn.sparse_softmax_cross_entropy_with_logits(
                labels=labels, logits=logits))
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params))
        return loss
    step.check = timing.update_check(step, params)
    return step


def numpy_cnn():
    x, labels, params = cnn_data()
    lr = np.float32(LR)
    n_out = BATCH * CONV_SIDE * CONV_SIDE

    def im2col(images):
        cols = np.empty((BATCH, CONV_SIDE, CONV_SIDE, KERNEL, KERNEL), np.float32)
        for i in range(KERNEL):
            for j in range(KERNEL):
                cols[..., i, j] = images[:, i:i + CONV_SIDE, j:j + CONV_SIDE, 0]
        return cols.reshape(n_out, KERNEL * KERNEL)

    def step():
        kernel, bias, w, b = params
        cols = im2col(x)
        z = (cols @ kernel.reshape(KERNEL * KERNEL, FILTERS)).reshape(
            BATCH, CONV_SIDE, CONV_SIDE, FILTERS) + bias
        h = np.maximum(z, 0)
        pooled = np.maximum(np.maximum(h[:, 0::2, 0::2], h[:, 0::2, 1::2]),
                            np.maximum(h[:, 1::2, 0::2], h[:, 1::2, 1::2]))
        flat = pooled.reshape(BATCH, -1)
        logits = flat @ w + b
        loss, d = timing.numpy_softmax_cross_entropy(logits, labels)
        dw, db = flat.T @ d, d.sum(axis=0)
        dpooled = (d @ w.T).reshape(pooled.shape)
        # the gradient goes where a window's maximum is (ties are zeros of the relu, whose
        # gradient is 0 anyway)
        dh = np.empty_like(h)
        for i, j in CORNERS:
            dh[:, i::2, j::2] = (h[:, i::2, j::2] == pooled) * dpooled
        dz = dh * (z > 0)
        dz = dz.reshape(n_out, FILTERS)
        dkernel, dbias = (cols.T @ dz).reshape(kernel.shape), dz.sum(axis=0)
        for p, g in zip(params, (dkernel, dbias, dw, db)):
            p -= lr * g
        return loss
    step.check = timing.update_check(step, params)
    return step


FACTORIES = {"tapeviz W7": tapeviz_cnn, "numpy W7": numpy_cnn}
