# After: https://github.com/timsainb/tensorflow2-generative-models
# (0.0-Autoencoder-fashion-mnist.ipynb: Fashion-MNIST reshaped to (n, 28, 28, 1) / 255.0 in
# shuffled, batched datasets; the AE tf.keras.Model taking its encoder and decoder layer lists
# as keyword arguments into Sequentials, @tf.function encode, decode, compute_loss and
# compute_gradients (a GradientTape inside a tf.function), and train() applying Adam(1e-3);
# the encoder of Conv2D strides 2 and Dense(64), the decoder of Dense, Reshape and
# Conv2DTranspose; the epoch loop training over zip(range(N_TRAIN_BATCHES), train_dataset)
# and averaging the holdout losses)
# Adapted: 64 seeded synthetic 28x28 uint8 images to train and 64 to test instead of
# Fashion-MNIST (one batch of 512 holds them all, so the shuffles reorder rows within a batch
# only); 3 epochs instead of 50; fixed weights after the first reconstruction builds the
# decoder; the losses kept in a list instead of a pandas DataFrame and the loops not wrapped
# in tqdm (neither is installed where the answers were recorded); the Colab pip cell,
# display.clear_output and the plots left out; the reconstruction plot's example batch
# answered as numbers, and the test codes rounded to 4 decimals (TensorFlow's own two runs
# differ in their last float32 digits).
import tensorflow as tf
import numpy as np
from adapt import data, fixed_weights

print(tf.__version__)

TRAIN_BUF=60000
BATCH_SIZE=512
TEST_BUF=10000
DIMS = (28,28,1)
N_TRAIN_BATCHES =int(TRAIN_BUF/BATCH_SIZE)
N_TEST_BATCHES = int(TEST_BUF/BATCH_SIZE)


class AE(tf.keras.Model):
    """a basic autoencoder class for tensorflow
    Extends:
        tf.keras.Model
    """
    def __init__(self, **kwargs):
        super(AE, self).__init__()
        self.__dict__.update(kwargs)
        
        self.enc = tf.keras.Sequential(self.enc)
        self.dec = tf.keras.Sequential(self.dec)

    @tf.function
    def encode(self, x):
        return self.enc(x)

    @tf.function
    def decode(self, z):
        return self.dec(z)
    
    @tf.function
    def compute_loss(self, x):
        z = self.encode(x)
        _x = self.decode(z)
        ae_loss = tf.reduce_mean(tf.square(x - _x))
        return ae_loss
    
    @tf.function
    def compute_gradients(self, x):
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x)
        return tape.gradient(loss, self.trainable_variables)

    def train(self, train_x):    
        gradients = self.compute_gradients(train_x)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables)) 


def main():
    out = {}
    # load dataset
    (train_images, _), (test_images, _) = (
        (data(1, 64, 28, 28, low=0, high=255).round().astype(np.uint8), None),
        (data(2, 64, 28, 28, low=0, high=255).round().astype(np.uint8), None))

    # split dataset
    train_images = train_images.reshape(train_images.shape[0], 28, 28, 1).astype(
        "float32"
    ) / 255.0
    test_images = test_images.reshape(test_images.shape[0], 28, 28, 1).astype("float32") / 255.0

    # batch datasets
    train_dataset = (
        tf.data.Dataset.from_tensor_slices(train_images)
        .shuffle(TRAIN_BUF)
        .batch(BATCH_SIZE)
    )
    test_dataset = (
        tf.data.Dataset.from_tensor_slices(test_images)
        .shuffle(TEST_BUF)
        .batch(BATCH_SIZE)
    )

    N_Z = 64
    encoder = [
        tf.keras.layers.InputLayer(input_shape=DIMS),
        tf.keras.layers.Conv2D(
            filters=32, kernel_size=3, strides=(2, 2), activation="relu"
        ),
        tf.keras.layers.Conv2D(
            filters=64, kernel_size=3, strides=(2, 2), activation="relu"
        ),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(units=N_Z),
    ]

    decoder = [
        tf.keras.layers.Dense(units=7 * 7 * 64, activation="relu"),
        tf.keras.layers.Reshape(target_shape=(7, 7, 64)),
        tf.keras.layers.Conv2DTranspose(
            filters=64, kernel_size=3, strides=(2, 2), padding="SAME", activation="relu"
        ),
        tf.keras.layers.Conv2DTranspose(
            filters=32, kernel_size=3, strides=(2, 2), padding="SAME", activation="relu"
        ),
        tf.keras.layers.Conv2DTranspose(
            filters=1, kernel_size=3, strides=(1, 1), padding="SAME", activation="sigmoid"
        ),
    ]

    # the optimizer for the model
    optimizer = tf.keras.optimizers.Adam(1e-3)
    # train the model
    model = AE(
        enc = encoder,
        dec = decoder,
        optimizer = optimizer,
    )

    # exampled data for plotting results
    example_data = next(iter(train_dataset))
    model.decode(model.encode(example_data))
    fixed_weights(model.weights, seed=3, scale=0.08)

    # a list to save the loss information to
    losses = []

    n_epochs = 3
    reconstructions = []
    for epoch in range(n_epochs):
        # train
        for batch, train_x in zip(range(N_TRAIN_BATCHES), train_dataset):
            model.train(train_x)
        # test on holdout
        loss = []
        for batch, test_x in zip(range(N_TRAIN_BATCHES), train_dataset):
            loss.append(model.compute_loss(train_x))
        losses.append(np.mean(loss, axis=0))
        print("Epoch: {} | MSE: {}".format(epoch, losses[-1]))
        example_data_reconstructed = model.decode(model.encode(example_data))
        reconstructions.append(tf.reduce_sum(example_data_reconstructed))
    out["losses"] = losses
    out["reconstructions"] = reconstructions
    out["code"] = np.round(model.encode(test_images[:2])[:, :8].numpy(), 4)
    return out
