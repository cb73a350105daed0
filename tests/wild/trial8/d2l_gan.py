# After: https://github.com/d2l-ai/d2l-en (chapter_generative-adversarial-networks/gan.md, TensorFlow tab)
# Adapted: the chapter's TensorFlow cells placed one after another (functions at module
# level, the rest in main()), with the d2l helpers they use (d2l/tensorflow.py: Animator,
# Accumulator, Timer, load_array) inlined and the plotting left out (Animator keeps the
# losses, which main() returns); every tf.random.normal draw (the data's X, the weights'
# re-initialization in train, the latent Z) a draw of one seeded NumPy generator instead;
# 200 data points instead of 1000, batched without load_array's unseeded shuffle; 5 epochs
# instead of 20.
import numpy as np
import tensorflow as tf

# --- the d2l package's TensorFlow helpers the program uses (d2l/tensorflow.py), inlined;
# the plotting left out (Animator keeps its points; its axes and figure do nothing)
import time

RNG = np.random.default_rng(1)


def normal(mean, stddev, shape):
    """A seeded NumPy normal draw standing in for tf.random.normal (adapted)."""
    return tf.constant(RNG.normal(mean, stddev, size=shape).astype("float32"))


class _NoPlot:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class Animator:
    """For plotting data in animation (the plotting left out)."""
    def __init__(self, xlabel=None, ylabel=None, legend=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 fmts=('-', 'm--', 'g-.', 'r:'), nrows=1, ncols=1,
                 figsize=(3.5, 2.5)):
        self.fig, self.axes = _NoPlot(), [_NoPlot() for _ in range(nrows * ncols)]
        self.X, self.Y, self.fmts = None, None, fmts
        ANIMATORS.append(self)

    def add(self, x, y):
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


ANIMATORS = []


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


def load_array(data_arrays, batch_size, is_train=True):
    """Construct a TensorFlow data iterator."""
    dataset = tf.data.Dataset.from_tensor_slices(data_arrays)
    # adapted: no dataset.shuffle(buffer_size=1000) (unseeded) when is_train
    dataset = dataset.batch(batch_size)
    return dataset


def try_gpu(i=0):
    """Return gpu(i) if exists, otherwise return cpu()."""
    return tf.device('/CPU:0')


class d2l:
    """Stands in for `from d2l import tensorflow as d2l`."""
    Animator, Accumulator, Timer = Animator, Accumulator, Timer
    load_array = staticmethod(load_array)
    try_gpu = staticmethod(try_gpu)
    matmul = staticmethod(tf.matmul)
    tensor = staticmethod(tf.constant)
    numpy = staticmethod(lambda x: x.numpy())
# --- end of the inlined d2l helpers


#@save
def update_D(X, Z, net_D, net_G, loss, optimizer_D):
    """Update discriminator."""
    batch_size = X.shape[0]
    ones = tf.ones((batch_size,)) # Labels corresponding to real data
    zeros = tf.zeros((batch_size,)) # Labels corresponding to fake data
    # Do not need to compute gradient for `net_G`, so it is outside GradientTape
    fake_X = net_G(Z)
    with tf.GradientTape() as tape:
        real_Y = net_D(X)
        fake_Y = net_D(fake_X)
        # We multiply the loss by batch_size to match PyTorch's BCEWithLogitsLoss
        loss_D = (loss(ones, tf.squeeze(real_Y)) + loss(
            zeros, tf.squeeze(fake_Y))) * batch_size / 2
    grads_D = tape.gradient(loss_D, net_D.trainable_variables)
    optimizer_D.apply_gradients(zip(grads_D, net_D.trainable_variables))
    return loss_D


#@save
def update_G(Z, net_D, net_G, loss, optimizer_G):
    """Update generator."""
    batch_size = Z.shape[0]
    ones = tf.ones((batch_size,))
    with tf.GradientTape() as tape:
        # We could reuse `fake_X` from `update_D` to save computation
        fake_X = net_G(Z)
        # Recomputing `fake_Y` is needed since `net_D` is changed
        fake_Y = net_D(fake_X)
        # We multiply the loss by batch_size to match PyTorch's BCEWithLogits loss
        loss_G = loss(ones, tf.squeeze(fake_Y)) * batch_size
    grads_G = tape.gradient(loss_G, net_G.trainable_variables)
    optimizer_G.apply_gradients(zip(grads_G, net_G.trainable_variables))
    return loss_G


d2l.update_D, d2l.update_G = staticmethod(update_D), staticmethod(update_G)


def train(net_D, net_G, data_iter, num_epochs, lr_D, lr_G, latent_dim, data):
    loss = tf.keras.losses.BinaryCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.SUM)
    for w in net_D.trainable_variables:
        w.assign(normal(mean=0, stddev=0.02, shape=w.shape))
    for w in net_G.trainable_variables:
        w.assign(normal(mean=0, stddev=0.02, shape=w.shape))
    optimizer_D = tf.keras.optimizers.Adam(learning_rate=lr_D)
    optimizer_G = tf.keras.optimizers.Adam(learning_rate=lr_G)
    animator = d2l.Animator(
        xlabel="epoch", ylabel="loss", xlim=[1, num_epochs], nrows=2,
        figsize=(5, 5), legend=["discriminator", "generator"])
    animator.fig.subplots_adjust(hspace=0.3)
    for epoch in range(num_epochs):
        # Train one epoch
        timer = d2l.Timer()
        metric = d2l.Accumulator(3)  # loss_D, loss_G, num_examples
        for (X,) in data_iter:
            batch_size = X.shape[0]
            Z = normal(
                mean=0, stddev=1, shape=(batch_size, latent_dim))
            metric.add(update_D(X, Z, net_D, net_G, loss, optimizer_D),
                       update_G(Z, net_D, net_G, loss, optimizer_G),
                       batch_size)
        # Visualize generated examples
        Z = normal(mean=0, stddev=1, shape=(100, latent_dim))
        fake_X = net_G(Z)
        animator.axes[1].cla()
        animator.axes[1].scatter(data[:, 0], data[:, 1])
        animator.axes[1].scatter(fake_X[:, 0], fake_X[:, 1])
        animator.axes[1].legend(["real", "generated"])

        # Show the losses
        loss_D, loss_G = metric[0] / metric[2], metric[1] / metric[2]
        animator.add(epoch + 1, (loss_D, loss_G))

    print(f'loss_D {loss_D:.3f}, loss_G {loss_G:.3f}, '
          f'{metric[2] / timer.stop():.1f} examples/sec')
    return fake_X


def main():
    X = normal(0.0, 1, (200, 2))
    A = d2l.tensor([[1, 2], [-0.1, 0.5]])
    b = d2l.tensor([1, 2], tf.float32)
    data = d2l.matmul(X, A) + b
    print(f'The covariance matrix is\n{tf.matmul(A, A, transpose_a=True)}')

    batch_size = 8
    data_iter = d2l.load_array((data,), batch_size)
    net_G = tf.keras.layers.Dense(2)
    net_D = tf.keras.models.Sequential([
        tf.keras.layers.Dense(5, activation="tanh", input_shape=(2,)),
        tf.keras.layers.Dense(3, activation="tanh"),
        tf.keras.layers.Dense(1)
    ])
    net_G.build((None, 2))  # adapted: built so that train can re-initialize its weights
    lr_D, lr_G, latent_dim, num_epochs = 0.05, 0.005, 2, 5
    fake_X = train(net_D, net_G, data_iter, num_epochs, lr_D, lr_G,
                   latent_dim, d2l.numpy(data[:100]))
    return {"losses": ANIMATORS[0].Y, "fake_X": fake_X[:10],
            "G": net_G.weights, "D_last": net_D.weights[-2:]}
