# After: https://github.com/d2l-ai/d2l-en (chapter_optimization/momentum.md, TensorFlow tab)
# Adapted: the chapter's TensorFlow cells placed one after another in main() (functions at
# module level), with the d2l helpers they use (d2l/tensorflow.py: train_2d, show_trace_2d,
# load_array, get_data_ch11, linreg, squared_loss, Animator, Accumulator, evaluate_loss,
# Timer, train_ch11, train_concise_ch11) inlined; the plotting left out (show_trace_2d
# keeps the traces and Animator its points, which main() returns, with no elapsed times);
# get_data_ch11's table 300 rows of seeded NumPy (a noisy linear target, standardized as
# the book does) instead of the downloaded airfoil data, batched without load_array's
# unseeded shuffle; the starting weights of train_ch11 and train_concise_ch11 fixed from
# seeded NumPy (adapt.fixed_weights, scale 0.01) instead of tf.random.normal and
# random_normal_initializer(stddev=0.01). The cells plotting beta ** x and (1 - eta * lam) ** t
# left out (no TensorFlow in them).
import numpy as np
import tensorflow as tf
from adapt import fixed_weights

# --- the d2l package's TensorFlow helpers the program uses (d2l/tensorflow.py), inlined;
# the plotting of Animator and show_trace_2d left out (every Animator keeps its points in
# ANIMATORS, which main() returns)
import time

ANIMATORS = []


class d2l:
    """Stands in for `from d2l import tensorflow as d2l`: the names are filled in below."""
    zeros = staticmethod(tf.zeros)
    matmul = staticmethod(tf.matmul)
    reshape = staticmethod(tf.reshape)
    reduce_sum = staticmethod(tf.reduce_sum)
    size = staticmethod(tf.size)


def train_2d(trainer, steps=20, f_grad=None):
    """Optimize a 2D objective function with a customized trainer."""
    # `s1` and `s2` are internal state variables that will be used in Momentum, adagrad, RMSProp
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results


def show_trace_2d(f, results):
    """Show the trace of 2D variables during optimization (plotting left out)."""
    TRACES.append([[float(a), float(b)] for a, b in results])


TRACES = []


def load_array(data_arrays, batch_size, is_train=True):
    """Construct a TensorFlow data iterator."""
    dataset = tf.data.Dataset.from_tensor_slices(data_arrays)
    # adapted: no dataset.shuffle(buffer_size=1000) (unseeded) when is_train
    dataset = dataset.batch(batch_size)
    return dataset


def get_data_ch11(batch_size=10, n=1500):
    # adapted: 300 rows of seeded NumPy standing in for the airfoil table (1503 rows, 6
    # columns) instead of np.genfromtxt(d2l.download('airfoil'), ...)
    data = np.random.default_rng(0).normal(size=(300, 6)).astype(np.float32)
    data[:, -1] = data[:, :-1] @ np.array([0.5, -0.3, 0.2, 0.1, -0.4], np.float32) + 0.3 * data[:, -1]
    data = (data - data.mean(axis=0)) / data.std(axis=0)
    data_iter = d2l.load_array((data[:n, :-1], data[:n, -1]),
                               batch_size, is_train=True)
    return data_iter, data.shape[1]-1


def linreg(X, w, b):
    """The linear regression model."""
    return d2l.matmul(X, w) + b


def squared_loss(y_hat, y):
    """Squared loss."""
    return (y_hat - d2l.reshape(y, y_hat.shape)) ** 2 / 2


class Animator:
    """For plotting data in animation (the plotting left out)."""
    def __init__(self, xlabel=None, ylabel=None, legend=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 fmts=('-', 'm--', 'g-.', 'r:'), nrows=1, ncols=1,
                 figsize=(3.5, 2.5)):
        if legend is None:
            legend = []
        self.X, self.Y, self.fmts = None, None, fmts
        ANIMATORS.append(self)

    def add(self, x, y):
        # Add multiple data points into the figure
        if not hasattr(y, "__len__"):
            y = [y]
        n = len(y)
        if not hasattr(x, "__len__"):
            x = [x] * n
        if not self.X:
            self.X = [[] for _ in range(n)]
        if not self.Y:
            self.Y = [[] for _ in range(n)]
        for i, (a, b) in enumerate(zip(x, y)):
            if a is not None and b is not None:
                self.X[i].append(a)
                self.Y[i].append(b)


class Accumulator:
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]


def evaluate_loss(net, data_iter, loss):
    """Evaluate the loss of a model on the given dataset."""
    metric = d2l.Accumulator(2)  # Sum of losses, no. of examples
    for X, y in data_iter:
        l = loss(net(X), y)
        metric.add(d2l.reduce_sum(l), d2l.size(l))
    return metric[0] / metric[1]


class Timer:
    """Record multiple running times."""
    def __init__(self):
        self.times = []
        self.start()

    def start(self):
        self.tik = time.time()

    def stop(self):
        self.times.append(time.time() - self.tik)
        return self.times[-1]

    def sum(self):
        return sum(self.times)

    def cumsum(self):
        return np.array(self.times).cumsum().tolist()


def train_ch11(trainer_fn, states, hyperparams, data_iter,
               feature_dim, num_epochs=2):
    # Initialization
    w = tf.Variable(tf.random.normal(shape=(feature_dim, 1),
                                   mean=0, stddev=0.01),trainable=True)
    fixed_weights([w], seed=len(ANIMATORS), scale=0.01)  # adapted: fixed starting weights
    b = tf.Variable(tf.zeros(1), trainable=True)

    # Train
    net, loss = lambda X: d2l.linreg(X, w, b), d2l.squared_loss
    animator = d2l.Animator(xlabel='epoch', ylabel='loss',
                            xlim=[0, num_epochs], ylim=[0.22, 0.35])
    n, timer = 0, d2l.Timer()

    for _ in range(num_epochs):
        for X, y in data_iter:
          with tf.GradientTape() as g:
            l = tf.math.reduce_mean(loss(net(X), y))

          dw, db = g.gradient(l, [w, b])
          trainer_fn([w, b], [dw, db], states, hyperparams)
          n += X.shape[0]
          if n % 200 == 0:
              timer.stop()
              p = n/X.shape[0]
              q = p/tf.data.experimental.cardinality(data_iter).numpy()
              r = (d2l.evaluate_loss(net, data_iter, loss),)
              animator.add(q, r)
              timer.start()
    print(f'loss: {animator.Y[0][-1]:.3f}, {timer.sum()/num_epochs:.3f} sec/epoch')
    return timer.cumsum(), animator.Y[0]


def train_concise_ch11(trainer_fn, hyperparams, data_iter, num_epochs=2):
    # Initialization
    net = tf.keras.Sequential()
    net.add(tf.keras.layers.Dense(1,
            kernel_initializer=tf.random_normal_initializer(stddev=0.01)))
    net.build((None, 5))  # adapted: built, and its weights fixed
    fixed_weights(net.weights, seed=len(ANIMATORS), scale=0.01)
    optimizer = trainer_fn(**hyperparams)
    loss = tf.keras.losses.MeanSquaredError()
    animator = d2l.Animator(xlabel='epoch', ylabel='loss',
                            xlim=[0, num_epochs], ylim=[0.22, 0.35])
    n, timer = 0, d2l.Timer()
    for _ in range(num_epochs):
        for X, y in data_iter:
            with tf.GradientTape() as g:
                out = net(X)
                l = loss(y, out)
                params = net.trainable_variables
                grads = g.gradient(l, params)
            optimizer.apply_gradients(zip(grads, params))
            n += X.shape[0]
            if n % 200 == 0:
                timer.stop()
                p = n/X.shape[0]
                q = p/tf.data.experimental.cardinality(data_iter).numpy()
                # `MeanSquaredError` computes squared error without the 1/2
                # factor
                r = (d2l.evaluate_loss(net, data_iter, loss) / 2,)
                animator.add(q, r)
                timer.start()
    print(f'loss: {animator.Y[0][-1]:.3f}, {timer.sum()/num_epochs:.3f} sec/epoch')


for _name in ["train_2d", "show_trace_2d", "load_array", "get_data_ch11", "linreg",
              "squared_loss", "evaluate_loss", "train_ch11", "train_concise_ch11"]:
    setattr(d2l, _name, staticmethod(globals()[_name]))
d2l.Animator, d2l.Accumulator, d2l.Timer = Animator, Accumulator, Timer
# --- end of the inlined d2l helpers


def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2


def gd_2d(x1, x2, s1, s2):
    return (x1 - eta * 0.2 * x1, x2 - eta * 4 * x2, 0, 0)


def momentum_2d(x1, x2, v1, v2):
    v1 = beta * v1 + 0.2 * x1
    v2 = beta * v2 + 4 * x2
    return x1 - eta * v1, x2 - eta * v2, v1, v2


def init_momentum_states(features_dim):
    v_w = tf.Variable(d2l.zeros((features_dim, 1)))
    v_b = tf.Variable(d2l.zeros(1))
    return (v_w, v_b)


def sgd_momentum(params, grads, states, hyperparams):
    for p, v, g in zip(params, states, grads):
            v[:].assign(hyperparams['momentum'] * v + g)
            p[:].assign(p - hyperparams['lr'] * v)


def main():
    global eta, beta
    eta = 0.4
    d2l.show_trace_2d(f_2d, d2l.train_2d(gd_2d))
    eta = 0.6
    d2l.show_trace_2d(f_2d, d2l.train_2d(gd_2d))
    eta, beta = 0.6, 0.5
    d2l.show_trace_2d(f_2d, d2l.train_2d(momentum_2d))
    eta, beta = 0.6, 0.25
    d2l.show_trace_2d(f_2d, d2l.train_2d(momentum_2d))

    def train_momentum(lr, momentum, num_epochs=2):
        d2l.train_ch11(sgd_momentum, init_momentum_states(feature_dim),
                       {'lr': lr, 'momentum': momentum}, data_iter,
                       feature_dim, num_epochs)

    data_iter, feature_dim = d2l.get_data_ch11(batch_size=10)
    train_momentum(0.02, 0.5)
    train_momentum(0.01, 0.9)
    train_momentum(0.005, 0.9)

    trainer = tf.keras.optimizers.SGD
    d2l.train_concise_ch11(trainer, {'learning_rate': 0.005, 'momentum': 0.9},
                           data_iter)
    return {"traces": TRACES, "losses": [a.Y[0] for a in ANIMATORS]}
