"""PyTorch and TensorFlow versions of run.py's workloads, built only inside their own worker
processes (the parent never imports either framework). Each factory returns None when its
framework cannot be imported, and pins the framework to one thread before building anything.

torch:      the bench extra pins torch==2.13.0 (CPU build); 0-d float32 tensors for W1.
tensorflow: tensorflow-cpu, the bench-tf extra (`./run.sh bench --tf`); eager GradientTape,
            the API tapeviz imitates.
"""
from __future__ import annotations

import os

from timing import chain, mlp_loss, update_check


# --- torch ---------------------------------------------------------------------------------------
def _torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:          # only possible before any parallel work; a fresh worker is
        pass
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)          # the BLAS/OpenMP libraries torch brought in
    torch.set_grad_enabled(True)
    return torch


def torch_chain(shape, length):
    torch = _torch()
    if torch is None:
        return None
    x0 = torch.full(shape, 0.5, dtype=torch.float32, requires_grad=True)   # shape () -> 0-d

    def run():
        y = chain(x0, torch.sin, length)
        if shape:
            y = y.sum()
        (g,) = torch.autograd.grad(y, x0)
        return y, g
    return run


def torch_mlp(data, lr):
    """The same MLP step in torch: float32, batch 256, cross-entropy, SGD by hand under
    no_grad."""
    torch = _torch()
    if torch is None:
        return None
    import torch.nn.functional as F
    x_np, labels_np, params_np = data
    x = torch.from_numpy(x_np.copy())
    labels = torch.from_numpy(labels_np.astype("int64"))
    params = [torch.tensor(p, requires_grad=True) for p in params_np]
    w1, b1, w2, b2, w3, b3 = params

    def step():
        h = torch.relu(x @ w1 + b1)
        h = torch.relu(h @ w2 + b2)
        logits = h @ w3 + b3
        loss = F.cross_entropy(logits, labels)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.sub_(g, alpha=lr)
        return loss
    step.check = update_check(step, params)
    return step


def torch_hessian(data):
    torch = _torch()
    if torch is None:
        return None
    a_np, x_np = data
    a, x = torch.from_numpy(a_np.copy()), torch.from_numpy(x_np.copy())

    def f(v):
        return torch.tanh(a @ v).sum() + (torch.sin(v) * v).sum()
    return lambda: torch.autograd.functional.hessian(f, x)


# --- TensorFlow ----------------------------------------------------------------------------------
def _tf():
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    try:
        import tensorflow as tf
    except ImportError:
        return None
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.config.set_visible_devices([], "GPU")
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    return tf


def tf_chain(shape, length):
    tf = _tf()
    if tf is None:
        return None
    import numpy as np
    x0 = tf.constant(np.full(shape, 0.5, np.float32))

    def run():
        with tf.GradientTape() as tape:
            tape.watch(x0)
            y = chain(x0, tf.sin, length)
            if shape:
                y = tf.reduce_sum(y)
        return y, tape.gradient(y, x0)
    return run


def tf_mlp(data, lr):
    """The same MLP step in eager TensorFlow: the program tapeviz's W3 is, with tf for tv and
    the update by hand (assign_sub) rather than Keras 3's optimizer."""
    tf = _tf()
    if tf is None:
        return None
    x_np, labels_np, params_np = data
    x, labels = tf.constant(x_np), tf.constant(labels_np)
    params = [tf.Variable(p) for p in params_np]

    def step():
        with tf.GradientTape() as tape:
            loss = mlp_loss(tf, x, labels, params)
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(lr * g)
        return loss
    step.check = update_check(step, params)
    return step
