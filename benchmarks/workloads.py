"""The workloads of benchmarks/run.py, for tapeviz, hand-written NumPy and HIPS autograd (the
torch and TensorFlow versions are in peers.py). Each factory builds its workload once and
returns a callable that runs it (or None when its package is missing); a callable may carry a
``check`` attribute that runs it once and returns what the agreement checks compare.
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tapeviz as tv  # noqa: E402

import cnn_workloads  # noqa: E402  (W7, the CNN step)
import peers  # noqa: E402  (benchmarks/ is on sys.path when run.py runs)
import timing  # noqa: E402

# --- W3: the MLP step --------------------------------------------------------------------------
SIZES = (784, 256, 256, 10)
BATCH = 256
LR = 0.1
#: W3's Python with almost no arithmetic (an 8-8-8-4 MLP on a batch of 4): for instruction
#: counts of what an op costs the interpreter (`benchmarks/instructions.py "tapeviz W3
#: small"`), which the full step's matmuls drown
SMALL_SIZES, SMALL_BATCH = (8, 8, 8, 4), 4


def mlp_data(seed=0, sizes=SIZES, batch=BATCH):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(batch, sizes[0])).astype(np.float32)
    labels = rng.integers(0, sizes[-1], size=batch).astype(np.int32)
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        limit = np.sqrt(6 / (n_in + n_out))
        params.append(rng.uniform(-limit, limit, size=(n_in, n_out)).astype(np.float32))
        params.append(np.zeros(n_out, np.float32))
    return x, labels, params


def with_check(step, params):
    """The MLP's check: one step's loss and the updates it made."""
    step.check = timing.update_check(step, params)
    return step


def tapeviz_mlp(persistent=False, sizes=SIZES, batch=BATCH):
    x_np, labels_np, params_np = mlp_data(sizes=sizes, batch=batch)
    x, labels = tv.constant(x_np), tv.constant(labels_np)
    params = [tv.Variable(p, name=n) for p, n in zip(params_np, ["w1", "b1", "w2", "b2", "w3",
                                                                  "b3"])]
    opt = tv.keras.optimizers.SGD(learning_rate=LR)

    def step():
        with tv.GradientTape(persistent=persistent) as tape:
            loss = timing.mlp_loss(tv, x, labels, params)
        grads = tape.gradient(loss, params)
        opt.apply_gradients(zip(grads, params))
        return loss
    return with_check(step, params)


def numpy_mlp(sizes=SIZES, batch=BATCH):
    x, labels, params = mlp_data(sizes=sizes, batch=batch)
    lr = np.float32(LR)

    def step():
        w1, b1, w2, b2, w3, b3 = params
        z1 = x @ w1 + b1
        h1 = np.maximum(z1, 0)
        z2 = h1 @ w2 + b2
        h2 = np.maximum(z2, 0)
        logits = h2 @ w3 + b3
        loss, d = timing.numpy_softmax_cross_entropy(logits, labels)
        dw3, db3 = h2.T @ d, d.sum(axis=0)
        dz2 = (d @ w3.T) * (z2 > 0)
        dw2, db2 = h1.T @ dz2, dz2.sum(axis=0)
        dz1 = (dz2 @ w2.T) * (z1 > 0)
        dw1, db1 = x.T @ dz1, dz1.sum(axis=0)
        for p, g in zip(params, (dw1, db1, dw2, db2, dw3, db3)):
            p -= lr * g
        return loss
    return with_check(step, params)


# --- W1 / W2: the chain of 1,000 ops ---------------------------------------------------------------
CHAIN = 1000


def tapeviz_chain(shape=()):
    x0 = tv.constant(np.full(shape, 0.5, np.float32) if shape else np.float32(0.5))

    def run():
        with tv.GradientTape() as tape:
            tape.watch(x0)
            y = timing.chain(x0, tv.sin, CHAIN)
            if shape:
                y = tv.reduce_sum(y)
        return y, tape.gradient(y, x0)
    return run


#: lines of plain statements before the chain in W1's long-script form
LONG_SCRIPT_LINES = 1000

LONG_SCRIPT_CHAIN = """
with tv.GradientTape() as tape:
    tape.watch(x0)
    y = x0
    for i in range(CHAIN):
        k = i % 3
        if k == 0:
            y = y * 1.001
        elif k == 1:
            y = y + 0.25
        else:
            y = tv.sin(y)
grad = tape.gradient(y, x0)
"""


def tapeviz_chain_long_script():
    """W1's chain at the top level of a script, after 1,000 lines of other statements, as
    tutorial scripts and notebooks run it: the module's code object is large, and an op's
    source line must cost there what it costs in a short function (``hash(code)`` and
    ``frame.f_lineno`` both grow with the code; see tapeviz/engine/call_site.py). The 1,000
    assignments it runs first cost about 1% of a run."""
    x0 = tv.constant(np.float32(0.5))
    filler = "".join(f"v{i} = {i}\n" for i in range(LONG_SCRIPT_LINES))
    code = compile(filler + LONG_SCRIPT_CHAIN, "long_script.py", "exec")

    def run():
        namespace = {"tv": tv, "x0": x0, "CHAIN": CHAIN}
        exec(code, namespace)
        return namespace["y"], namespace["grad"]
    return run


def autograd_chain(shape=()):
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None

    def f(y):
        for i in range(CHAIN):
            k = i % 3
            if k == 0:
                y = y * np.float32(1.001)
            elif k == 1:
                y = y + np.float32(0.25)
            else:
                y = anp.sin(y)
        return anp.sum(y) if shape else y
    g = autograd.value_and_grad(f)
    x0 = np.full(shape, 0.5, np.float32) if shape else np.float32(0.5)
    return lambda: g(x0)


# --- W4: big matmuls ---------------------------------------------------------------------------------
N4 = 1024


def w4_data():
    rng = np.random.default_rng(4)
    return [(rng.normal(size=(N4, N4)) / np.sqrt(N4)).astype(np.float32) for _ in range(6)]


def tapeviz_w4():
    mats = [tv.constant(m) for m in w4_data()]

    def run():
        with tv.GradientTape() as tape:
            tape.watch(mats[0])
            y = mats[0]
            for m in mats[1:]:
                y = tv.matmul(y, m)
            loss = tv.reduce_sum(y)
        return tape.gradient(loss, mats[0])
    return run


def numpy_w4():
    mats = w4_data()

    def run():
        ys = [mats[0]]
        for m in mats[1:]:
            ys.append(ys[-1] @ m)
        g = np.ones_like(ys[-1])
        for m in reversed(mats[1:]):
            g = g @ m.T
        return g
    return run


# --- W6: Hessian of a 50-parameter function ----------------------------------------------------
N6 = 50


def w6_data():
    rng = np.random.default_rng(6)
    return rng.normal(size=(N6, N6)) / np.sqrt(N6), rng.normal(size=N6)


def tapeviz_hessian():
    a_np, x_np = w6_data()
    a, x = tv.constant(a_np), tv.constant(x_np)

    def run():
        with tv.GradientTape() as outer:
            outer.watch(x)
            with tv.GradientTape() as inner:
                inner.watch(x)
                ax = tv.reshape(tv.matmul(a, tv.reshape(x, (N6, 1))), (N6,))   # no matvec
                y = tv.reduce_sum(tv.tanh(ax)) + tv.reduce_sum(tv.sin(x) * x)
            g = inner.gradient(y, x)
        return outer.jacobian(g, x)
    return run


def autograd_hessian():
    try:
        import autograd
        import autograd.numpy as anp
    except ImportError:
        return None
    a, x = w6_data()

    def f(v):
        return anp.sum(anp.tanh(anp.dot(a, v))) + anp.sum(anp.sin(v) * v)
    h = autograd.hessian(f)
    return lambda: h(x)


# --- how many runs one timed sample is ----------------------------------------------------------
#: W3's sample is five steps back to back (its time divided by five): a training loop's
#: steady state. One 4 ms step alone, right after the worker's gc.collect(), read 1.06-1.15x
#: against NumPy from one pair of workers to the next (middle halves up to 0.18 wide); five
#: read 1.077-1.091x in three pairs (middle halves 0.02-0.03 wide). W1's chain is 1,000 ops
#: already.
RUNS_PER_SAMPLE = {"W3": 5, "W7": 3}


def runs_per_sample(name: str) -> int:
    """Runs in one timed sample of a workload (a FACTORIES name like "torch W3", or "W3")."""
    return next((n for w, n in RUNS_PER_SAMPLE.items() if w in name.split()), 1)


# --- events on / off -----------------------------------------------------------------------------
#: the kinds of the "some kinds" subscriber: what a NaN alarm or a gradient-norm logger reads
GRADIENT_KINDS = ("gradient_finished",)


class Events:
    """Turn a no-op subscriber (of ``kinds``, default all) on around each call of ``fn``
    (--in-process: ``fn`` is a whole timed sample), and return what ``fn`` returns."""

    def __init__(self, fn, kinds=None):
        self.fn = fn
        self.kinds = kinds

    def __call__(self):
        with tv.events.subscribe(lambda event: None, kinds=self.kinds):
            return self.fn()


def with_events(factory, kinds=None):
    def make():
        fn = factory()
        tv.events.subscribe(lambda event: None, kinds=kinds)   # on for the worker's whole life
        return fn
    return make


class Recorded:
    """Record all of this process's events to a temporary file until ``close``: every event,
    or with ``full=False`` the default (flight) policy's."""

    def __init__(self, fn, full=True):
        import tempfile
        from tapeviz.recording import record
        self.fn = fn
        self.dir = tempfile.TemporaryDirectory(prefix="tapeviz-bench-")
        self.recording = record(os.path.join(self.dir.name, "bench.tvz"), full=full)

    def __call__(self):
        return self.fn()

    def close(self):
        self.recording.close()
        self.dir.cleanup()


def with_recording(factory, full=True):
    def make():
        import atexit
        recorded = Recorded(factory(), full)     # on for the worker's whole life
        atexit.register(recorded.close)
        return recorded
    return make


# --- the workloads by name (what a worker process builds) ------------------------------------
FACTORIES = {
    "tapeviz W3": tapeviz_mlp,
    "numpy W3": numpy_mlp,
    "torch W3": lambda: peers.torch_mlp(mlp_data(), LR),
    "tensorflow W3": lambda: peers.tf_mlp(mlp_data(), LR),
    "tapeviz W1": tapeviz_chain,
    "tapeviz W1 long script": tapeviz_chain_long_script,
    "autograd W1": autograd_chain,
    "torch W1": lambda: peers.torch_chain((), CHAIN),
    "tensorflow W1": lambda: peers.tf_chain((), CHAIN),
    "tapeviz W2": lambda: tapeviz_chain((16,)),
    "autograd W2": lambda: autograd_chain((16,)),
    "torch W2": lambda: peers.torch_chain((16,), CHAIN),
    "tapeviz W6": tapeviz_hessian,
    "autograd W6": autograd_hessian,
    "torch W6": lambda: peers.torch_hessian(w6_data()),
    "tapeviz W3 events": with_events(tapeviz_mlp),
    "tapeviz W1 events": with_events(tapeviz_chain),
    "tapeviz W1 gradient events": with_events(tapeviz_chain, GRADIENT_KINDS),
    "tapeviz W3 recording": with_recording(tapeviz_mlp),
    "tapeviz W3 flight": with_recording(tapeviz_mlp, full=False),
    "tapeviz W3 small": lambda: tapeviz_mlp(sizes=SMALL_SIZES, batch=SMALL_BATCH),
    "numpy W3 small": lambda: numpy_mlp(sizes=SMALL_SIZES, batch=SMALL_BATCH),
    "tapeviz W3 small events": with_events(
        lambda: tapeviz_mlp(sizes=SMALL_SIZES, batch=SMALL_BATCH)),
    "tapeviz W3 small flight": with_recording(
        lambda: tapeviz_mlp(sizes=SMALL_SIZES, batch=SMALL_BATCH), full=False),
    "tapeviz W4": tapeviz_w4,
    "numpy W4": numpy_w4,
    **cnn_workloads.FACTORIES,
}

# How closely each workload's results must agree with tapeviz's before it is timed (norm-wise,
# see timing.agree). W3's 1%: one pre-activation of layer 2, z2[111, 89], is 8.6e-8 in float64;
# OpenBLAS's float32 sum gives -1.9e-8 (tapeviz, NumPy), torch's and TensorFlow's +1.8e-7, so
# one ReLU differs and w1's update differs by 0.3% of its norm. A wrong step is off by far more.
TOLERANCES = {"W3": (1e-2, 1e-5), "W1": (1e-3, 1e-6), "W2": (1e-3, 1e-6), "W6": (1e-8, 1e-10),
              "W4": (1e-3, 1e-3), "W7": (1e-3, 1e-5)}

# --- E1 / E2: model.fit and tf.data beside hand-written loops (training_loops.py) -------------
import training_loops  # noqa: E402  (it reads W3's sizes and data from this module)

FACTORIES.update(training_loops.FACTORIES)
