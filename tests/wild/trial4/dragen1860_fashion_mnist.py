# After: https://github.com/dragen1860/TensorFlow-2.x-Tutorials (05-FashionMNIST/
# mnist_custommodel.py: prepare_mnist_features_and_labels mapped over one-hot datasets,
# shuffle/batch(100), MyModel subclassing keras.Model with a reshape and three Dense layers,
# compile with Adam and CategoricalCrossentropy(from_logits=True), fit on repeat() with
# steps_per_epoch, validation_data and validation_steps)
# Adapted: 100 seeded synthetic 28x28 uint8 images to train and 200 to validate instead of
# Fashion-MNIST (each training step is the whole set of 100, so the shuffle reorders rows
# within a batch only), 2 epochs of 2 steps instead of 30 of 500; the model built with
# model.build((None, 28, 28)) so its weights can be fixed.
import  os
import  numpy as np
import  tensorflow as tf
from    tensorflow import keras
from    tensorflow.keras import layers, optimizers
from adapt import data, fixed_weights, labels


def prepare_mnist_features_and_labels(x, y):
  x = tf.cast(x, tf.float32) / 255.0
  y = tf.cast(y, tf.int64)
  return x, y


def mnist_dataset():

  x = np.round(data(1, 100, 28, 28, low=0, high=255)).astype(np.uint8)
  y = labels(2, 100, 10).astype(np.uint8)
  x_val = np.round(data(3, 200, 28, 28, low=0, high=255)).astype(np.uint8)
  y_val = labels(4, 200, 10).astype(np.uint8)
  print('x/y shape:', x.shape, y.shape)
  y = tf.one_hot(y, depth=10)
  y_val = tf.one_hot(y_val, depth=10)

  ds = tf.data.Dataset.from_tensor_slices((x, y))
  ds = ds.map(prepare_mnist_features_and_labels)
  ds = ds.shuffle(60000).batch(100)

  ds_val = tf.data.Dataset.from_tensor_slices((x_val, y_val))
  ds_val = ds_val.map(prepare_mnist_features_and_labels)
  ds_val = ds_val.shuffle(10000).batch(100)

  sample = next(iter(ds))
  print('sample:', sample[0].shape, sample[1].shape)

  return ds,ds_val


class MyModel(keras.Model):

    def __init__(self):
        super(MyModel, self).__init__()

        self.layer1 = layers.Dense(200, activation=tf.nn.relu)
        self.layer2 = layers.Dense(200, activation=tf.nn.relu)
        # self.layer3 = layers.Dense(200, activation=tf.nn.relu)
        self.layer4 = layers.Dense(10)

    def call(self, x, training=False):

        x = tf.reshape(x, [-1, 28*28])
        x = self.layer1(x)
        x = self.layer2(x)
        # x = self.layer3(x)
        x = self.layer4(x)

        return x


def main():

    tf.random.set_seed(22)

    os.environ['TF_CPP_MIN_LOG_LEVEL'] = '2'  # or any {'0', '1', '2'}

    train_dataset, val_dataset = mnist_dataset()

    model = MyModel()
    model.build((None, 28, 28))
    fixed_weights(model.weights, seed=5, scale=0.05)
    model.compile(optimizer=optimizers.Adam(1e-3),
                  loss=tf.losses.CategoricalCrossentropy(from_logits=True),
                  metrics=['accuracy'])

    history = model.fit(train_dataset.repeat(), epochs=2, steps_per_epoch=2, verbose=1,
                        validation_data=val_dataset.repeat(),
                        validation_steps=2)
    return {"history": history.history,
            "weights": [w[:4, :8] if len(w.shape) == 2 else w[:8] for w in model.weights]}
