# After: https://github.com/d2l-ai/d2l-en (chapter_generative-adversarial-networks/dcgan.md, TensorFlow tab, with update_D and update_G of gan.md)
# Adapted: the chapter's TensorFlow cells placed one after another (classes and functions
# at module level, the rest in main()), with the d2l helpers they use (d2l/tensorflow.py:
# Animator, Accumulator, Timer, try_gpu, update_D, update_G) inlined and the plotting left
# out (Animator keeps the losses, which main() returns; the LeakyReLU curves are returned
# instead of plotted; the cell showing real images left out); the Pokemon images 16 seeded
# NumPy 64x64 RGB images (float32 in 0-255 as image_dataset_from_directory yields, with
# integer labels) in batches of 8 instead of the downloaded folder in batches of 256,
# without the unseeded shuffle (cache and prefetch kept); every tf.random.normal draw (the
# weights' re-initialization in train, the latent Z) a draw of one seeded NumPy generator
# instead; 1 epoch instead of 40.
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


def transform_func(X):
    X = X / 255.
    X = (X - 0.5) / (0.5)
    return X


class G_block(tf.keras.layers.Layer):
    def __init__(self, out_channels, kernel_size=4, strides=2, padding="same",
                 **kwargs):
        super().__init__(**kwargs)
        self.conv2d_trans = tf.keras.layers.Conv2DTranspose(
            out_channels, kernel_size, strides, padding, use_bias=False)
        self.batch_norm = tf.keras.layers.BatchNormalization()
        self.activation = tf.keras.layers.ReLU()

    def call(self, X):
        return self.activation(self.batch_norm(self.conv2d_trans(X)))


class D_block(tf.keras.layers.Layer):
    def __init__(self, out_channels, kernel_size=4, strides=2, padding="same",
                 alpha=0.2, **kwargs):
        super().__init__(**kwargs)
        self.conv2d = tf.keras.layers.Conv2D(out_channels, kernel_size,
                                             strides, padding, use_bias=False)
        self.batch_norm = tf.keras.layers.BatchNormalization()
        self.activation = tf.keras.layers.LeakyReLU(alpha)

    def call(self, X):
        return self.activation(self.batch_norm(self.conv2d(X)))


def train(net_D, net_G, data_iter, num_epochs, lr, latent_dim,
          device=d2l.try_gpu()):
    loss = tf.keras.losses.BinaryCrossentropy(
        from_logits=True, reduction=tf.keras.losses.Reduction.SUM)

    for w in net_D.trainable_variables:
        w.assign(normal(mean=0, stddev=0.02, shape=w.shape))
    for w in net_G.trainable_variables:
        w.assign(normal(mean=0, stddev=0.02, shape=w.shape))

    optimizer_hp = {"lr": lr, "beta_1": 0.5, "beta_2": 0.999}
    optimizer_D = tf.keras.optimizers.Adam(**optimizer_hp)
    optimizer_G = tf.keras.optimizers.Adam(**optimizer_hp)

    animator = d2l.Animator(xlabel='epoch', ylabel='loss',
                            xlim=[1, num_epochs], nrows=2, figsize=(5, 5),
                            legend=['discriminator', 'generator'])
    animator.fig.subplots_adjust(hspace=0.3)

    for epoch in range(1, num_epochs + 1):
        # Train one epoch
        timer = d2l.Timer()
        metric = d2l.Accumulator(3) # loss_D, loss_G, num_examples
        for X, _ in data_iter:
            batch_size = X.shape[0]
            Z = normal(mean=0, stddev=1,
                       shape=(batch_size, 1, 1, latent_dim))
            metric.add(d2l.update_D(X, Z, net_D, net_G, loss, optimizer_D),
                       d2l.update_G(Z, net_D, net_G, loss, optimizer_G),
                       batch_size)

        # Show generated examples
        Z = normal(mean=0, stddev=1, shape=(21, 1, 1, latent_dim))
        # Normalize the synthetic data to N(0, 1)
        fake_x = net_G(Z) / 2 + 0.5
        imgs = tf.concat([tf.concat([fake_x[i * 7 + j] for j in range(7)],
                                    axis=1)
                          for i in range(len(fake_x) // 7)], axis=0)
        animator.axes[1].cla()
        animator.axes[1].imshow(imgs)
        # Show the losses
        loss_D, loss_G = metric[0] / metric[2], metric[1] / metric[2]
        animator.add(epoch, (loss_D, loss_G))
    print(f'loss_D {loss_D:.3f}, loss_G {loss_G:.3f}, '
          f'{metric[2] / timer.stop():.1f} examples/sec on {str(device._device_name)}')
    return imgs


def main():
    answers = {}
    batch_size = 8
    rng = np.random.default_rng(5)
    images = rng.integers(0, 256, size=(16, 64, 64, 3)).astype("float32")
    labels = rng.integers(0, 5, size=16).astype("int32")
    pokemon = tf.data.Dataset.from_tensor_slices((images, labels)).batch(batch_size)

    # For TF>=2.4 use `num_parallel_calls = tf.data.AUTOTUNE`
    data_iter = pokemon.map(lambda x, y: (transform_func(x), y),
                            num_parallel_calls=tf.data.experimental.AUTOTUNE)
    data_iter = data_iter.cache().prefetch(
        buffer_size=tf.data.experimental.AUTOTUNE)

    x = tf.zeros((2, 16, 16, 3))  # Channel last convention
    g_blk = G_block(20)
    answers["g_blk_shape"] = list(g_blk(x).shape)
    x = tf.zeros((2, 1, 1, 3))
    # `padding="valid"` corresponds to no padding
    g_blk = G_block(20, strides=1, padding="valid")
    answers["g_blk_valid_shape"] = list(g_blk(x).shape)

    n_G = 64
    net_G = tf.keras.Sequential([
        # Output: (4, 4, 64 * 8)
        G_block(out_channels=n_G*8, strides=1, padding="valid"),
        G_block(out_channels=n_G*4), # Output: (8, 8, 64 * 4)
        G_block(out_channels=n_G*2), # Output: (16, 16, 64 * 2)
        G_block(out_channels=n_G), # Output: (32, 32, 64)
        # Output: (64, 64, 3)
        tf.keras.layers.Conv2DTranspose(
            3, kernel_size=4, strides=2, padding="same", use_bias=False,
            activation="tanh")
    ])
    x = tf.zeros((1, 1, 1, 100))
    answers["net_G_shape"] = list(net_G(x).shape)

    alphas = [0, .2, .4, .6, .8, 1]
    x = tf.range(-2, 1, 0.1)
    Y = [tf.keras.layers.LeakyReLU(alpha)(x).numpy() for alpha in alphas]
    answers["leaky"] = Y

    x = tf.zeros((2, 16, 16, 3))
    d_blk = D_block(20)
    answers["d_blk_shape"] = list(d_blk(x).shape)
    n_D = 64
    net_D = tf.keras.Sequential([
        D_block(n_D), # Output: (32, 32, 64)
        D_block(out_channels=n_D*2), # Output: (16, 16, 64 * 2)
        D_block(out_channels=n_D*4), # Output: (8, 8, 64 * 4)
        D_block(out_channels=n_D*8), # Outupt: (4, 4, 64 * 64)
        # Output: (1, 1, 1)
        tf.keras.layers.Conv2D(1, kernel_size=4, use_bias=False)
    ])
    x = tf.zeros((1, 64, 64, 3))
    answers["net_D_shape"] = list(net_D(x).shape)

    latent_dim, lr, num_epochs = 100, 0.0005, 1
    imgs = train(net_D, net_G, data_iter, num_epochs, lr, latent_dim)
    answers["losses"] = ANIMATORS[0].Y
    answers["imgs"] = imgs[::8, ::8, :]
    return answers
