# After: https://github.com/d2l-ai/d2l-en (chapter_convolutional-neural-networks/lenet.md, TensorFlow tab)
# Adapted: the chapter's TensorFlow code placed one after another (classes at module level,
# the rest in main()), with the d2l helpers it uses (d2l/tensorflow.py: HyperParameters,
# ProgressBoard, Module, DataModule, Trainer, Classifier, FashionMNIST, try_gpu) inlined and
# ProgressBoard's plotting left out (main() returns the points it would plot); the
# tab.selected branches reduced to their TensorFlow branch; layer_summary's input a seeded
# NumPy normal draw instead of d2l.normal; FashionMNIST's data 256 training and 128
# validation images of its shape and dtype (seeded NumPy uint8, labels 0-9) instead of
# load_data(), not shuffled (buffer 1) instead of shuffled by an unseeded buffer; 2 epochs
# instead of 10; the model built and its weights fixed from seeded NumPy
# (adapt.fixed_weights) instead of the random initializers.
import numpy as np
import tensorflow as tf
from adapt import fixed_weights

TRAIN_N, VAL_N = 256, 128

# --- the d2l package's TensorFlow helpers the program uses (d2l/tensorflow.py), inlined;
# the plotting of ProgressBoard.draw left out (it keeps the averaged points it would plot)
import collections
import inspect


class d2l:
    """Stands in for `from d2l import tensorflow as d2l`: the names are filled in below."""
    nn_Module = tf.keras.Model
    reshape = staticmethod(tf.reshape)
    reduce_sum = staticmethod(tf.reduce_sum)
    reduce_mean = staticmethod(tf.reduce_mean)
    argmax = staticmethod(tf.argmax)
    astype = staticmethod(tf.cast)
    matmul = staticmethod(tf.matmul)
    ones = staticmethod(tf.ones)
    zeros = staticmethod(tf.zeros)
    float32 = tf.float32
    tensor = staticmethod(tf.constant)
    numpy = staticmethod(lambda x, *args, **kwargs: x.numpy(*args, **kwargs))


def add_to_class(Class):
    """Register functions as methods in created class."""
    def wrapper(obj):
        setattr(Class, obj.__name__, obj)
    return wrapper


class HyperParameters:
    """The base class of hyperparameters."""
    def save_hyperparameters(self, ignore=[]):
        """Save function arguments into class attributes."""
        frame = inspect.currentframe().f_back
        _, _, _, local_vars = inspect.getargvalues(frame)
        self.hparams = {k:v for k, v in local_vars.items()
                        if k not in set(ignore+['self']) and not k.startswith('_')}
        for k, v in self.hparams.items():
            setattr(self, k, v)


class ProgressBoard(HyperParameters):
    """The board that plots data points in animation."""
    def __init__(self, xlabel=None, ylabel=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'],
                 fig=None, axes=None, figsize=(3.5, 2.5), display=True):
        self.save_hyperparameters()

    def draw(self, x, y, label, every_n=1):
        Point = collections.namedtuple('Point', ['x', 'y'])
        if not hasattr(self, 'raw_points'):
            self.raw_points = collections.OrderedDict()
            self.data = collections.OrderedDict()
        if label not in self.raw_points:
            self.raw_points[label] = []
            self.data[label] = []
        points = self.raw_points[label]
        line = self.data[label]
        points.append(Point(x, y))
        if len(points) != every_n:
            return
        mean = lambda x: sum(x) / len(x)
        line.append(Point(mean([p.x for p in points]),
                          mean([p.y for p in points])))
        points.clear()


class Module(d2l.nn_Module, HyperParameters):
    """The base class of models."""
    def __init__(self, plot_train_per_epoch=2, plot_valid_per_epoch=1):
        super().__init__()
        self.save_hyperparameters()
        self.board = ProgressBoard()
        self.training = None

    def loss(self, y_hat, y):
        raise NotImplementedError

    def forward(self, X):
        assert hasattr(self, 'net'), 'Neural network is defined'
        return self.net(X)

    def call(self, X, *args, **kwargs):
        if kwargs and "training" in kwargs:
            self.training = kwargs['training']
        return self.forward(X, *args)

    def plot(self, key, value, train):
        """Plot a point in animation."""
        assert hasattr(self, 'trainer'), 'Trainer is not inited'
        self.board.xlabel = 'epoch'
        if train:
            x = self.trainer.train_batch_idx / \
                self.trainer.num_train_batches
            n = self.trainer.num_train_batches / \
                self.plot_train_per_epoch
        else:
            x = self.trainer.epoch + 1
            n = self.trainer.num_val_batches / \
                self.plot_valid_per_epoch
        self.board.draw(x, d2l.numpy(value), (
            'train_' if train else 'val_') + key, every_n=int(n))

    def training_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.plot('loss', l, train=True)
        return l

    def validation_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.plot('loss', l, train=False)

    def configure_optimizers(self):
        return tf.keras.optimizers.SGD(self.lr)


class DataModule(HyperParameters):
    """The base class of data."""
    def __init__(self, root='../data'):
        self.save_hyperparameters()

    def get_dataloader(self, train):
        raise NotImplementedError

    def train_dataloader(self):
        return self.get_dataloader(train=True)

    def val_dataloader(self):
        return self.get_dataloader(train=False)

    def get_tensorloader(self, tensors, train, indices=slice(0, None)):
        tensors = tuple(a[indices] for a in tensors)
        shuffle_buffer = 1  # adapted: tensors[0].shape[0] if train else 1
        return tf.data.Dataset.from_tensor_slices(tensors).shuffle(
            buffer_size=shuffle_buffer).batch(self.batch_size)


class Trainer(HyperParameters):
    """The base class for training models with data."""
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0):
        self.save_hyperparameters()
        assert num_gpus == 0, 'No GPU support yet'

    def prepare_data(self, data):
        self.train_dataloader = data.train_dataloader()
        self.val_dataloader = data.val_dataloader()
        self.num_train_batches = len(self.train_dataloader)
        self.num_val_batches = (len(self.val_dataloader)
                                if self.val_dataloader is not None else 0)

    def prepare_model(self, model):
        model.trainer = self
        model.board.xlim = [0, self.max_epochs]
        self.model = model

    def fit(self, model, data):
        self.prepare_data(data)
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        self.epoch = 0
        self.train_batch_idx = 0
        self.val_batch_idx = 0
        for self.epoch in range(self.max_epochs):
            self.fit_epoch()

    def prepare_batch(self, batch):
        return batch

    def fit_epoch(self):
        self.model.training = True
        for batch in self.train_dataloader:
            with tf.GradientTape() as tape:
                loss = self.model.training_step(self.prepare_batch(batch))
            grads = tape.gradient(loss, self.model.trainable_variables)
            if self.gradient_clip_val > 0:
                grads = self.clip_gradients(self.gradient_clip_val, grads)
            self.optim.apply_gradients(zip(grads, self.model.trainable_variables))
            self.train_batch_idx += 1
        if self.val_dataloader is None:
            return
        self.model.training = False
        for batch in self.val_dataloader:
            self.model.validation_step(self.prepare_batch(batch))
            self.val_batch_idx += 1

    def clip_gradients(self, grad_clip_val, grads):
        grad_clip_val = tf.constant(grad_clip_val, dtype=tf.float32)
        new_grads = [tf.convert_to_tensor(grad) if isinstance(
            grad, tf.IndexedSlices) else grad for grad in grads]
        norm = tf.math.sqrt(sum((tf.reduce_sum(grad ** 2)) for grad in new_grads))
        if tf.greater(norm, grad_clip_val):
            for i, grad in enumerate(new_grads):
                new_grads[i] = grad * grad_clip_val / norm
            return new_grads
        return grads


class Classifier(Module):
    """The base class of classification models."""
    def validation_step(self, batch):
        Y_hat = self(*batch[:-1])
        self.plot('loss', self.loss(Y_hat, batch[-1]), train=False)
        self.plot('acc', self.accuracy(Y_hat, batch[-1]), train=False)

    def accuracy(self, Y_hat, Y, averaged=True):
        """Compute the number of correct predictions."""
        Y_hat = d2l.reshape(Y_hat, (-1, Y_hat.shape[-1]))
        preds = d2l.astype(d2l.argmax(Y_hat, axis=1), Y.dtype)
        compare = d2l.astype(preds == d2l.reshape(Y, -1), d2l.float32)
        return d2l.reduce_mean(compare) if averaged else compare

    def loss(self, Y_hat, Y, averaged=True):
        Y_hat = d2l.reshape(Y_hat, (-1, Y_hat.shape[-1]))
        Y = d2l.reshape(Y, (-1,))
        fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        return fn(Y, Y_hat)

    def layer_summary(self, X_shape):
        X = tf.constant(np.random.default_rng(99).normal(size=X_shape).astype("float32"))  # adapted: d2l.normal(X_shape)
        for layer in self.net.layers:
            X = layer(X)
            print(layer.__class__.__name__, 'output shape:\t', X.shape)


class FashionMNIST(DataModule):
    """The Fashion-MNIST dataset (adapted: seeded NumPy uint8 images of its shape and dtype,
    TRAIN_N training and VAL_N validation images, instead of load_data())."""
    def __init__(self, batch_size=64, resize=(28, 28)):
        super().__init__()
        self.save_hyperparameters()
        rng = np.random.default_rng(7)
        self.train = (rng.integers(0, 256, size=(TRAIN_N, 28, 28)).astype("uint8"),
                      rng.integers(0, 10, size=TRAIN_N).astype("uint8"))
        self.val = (rng.integers(0, 256, size=(VAL_N, 28, 28)).astype("uint8"),
                    rng.integers(0, 10, size=VAL_N).astype("uint8"))

    def get_dataloader(self, train):
        data = self.train if train else self.val
        process = lambda X, y: (tf.expand_dims(X, axis=3) / 255,
                                tf.cast(y, dtype='int32'))
        resize_fn = lambda X, y: (tf.image.resize_with_pad(X, *self.resize), y)
        shuffle_buf = 1  # adapted: len(data[0]) if train else 1
        return tf.data.Dataset.from_tensor_slices(process(*data)).batch(
            self.batch_size).map(resize_fn).shuffle(shuffle_buf)


d2l.add_to_class = staticmethod(add_to_class)
d2l.HyperParameters = HyperParameters
d2l.ProgressBoard = ProgressBoard
d2l.Module = Module
d2l.DataModule = DataModule
d2l.Trainer = Trainer
d2l.Classifier = Classifier
d2l.FashionMNIST = FashionMNIST
# --- end of the inlined d2l helpers


def try_gpu(i=0):
    """Return gpu(i) if exists, otherwise return cpu()."""
    return tf.device('/CPU:0')


d2l.try_gpu = try_gpu


class LeNet(d2l.Classifier):  #@save
    """The LeNet-5 model."""
    def __init__(self, lr=0.1, num_classes=10):
        super().__init__()
        self.save_hyperparameters()
        self.net = tf.keras.models.Sequential([
            tf.keras.layers.Conv2D(filters=6, kernel_size=5,
                                   activation='sigmoid', padding='same'),
            tf.keras.layers.AvgPool2D(pool_size=2, strides=2),
            tf.keras.layers.Conv2D(filters=16, kernel_size=5,
                                   activation='sigmoid'),
            tf.keras.layers.AvgPool2D(pool_size=2, strides=2),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(120, activation='sigmoid'),
            tf.keras.layers.Dense(84, activation='sigmoid'),
            tf.keras.layers.Dense(num_classes)])


@d2l.add_to_class(d2l.Classifier)  #@save
def layer_summary(self, X_shape):
    X = tf.constant(np.random.default_rng(99).normal(size=X_shape).astype("float32"))
    shapes = []
    for layer in self.net.layers:
        X = layer(X)
        print(layer.__class__.__name__, 'output shape:\t', X.shape)
        shapes.append([layer.__class__.__name__, list(X.shape)])
    return shapes


def main():
    model = LeNet()
    shapes = model.layer_summary((1, 28, 28, 1))

    trainer = d2l.Trainer(max_epochs=2)
    data = d2l.FashionMNIST(batch_size=128)
    with d2l.try_gpu():
        model = LeNet(lr=0.1)
        model.net.build((None, 28, 28, 1))
        fixed_weights(model.net.weights, seed=1, scale=0.2)
        trainer.fit(model, data)
    return {"shapes": shapes,
            "board": {k: [[p.x, float(p.y)] for p in v] for k, v in model.board.data.items()},
            "last_kernel": model.net.weights[-2], "first_bias": model.net.weights[1]}
