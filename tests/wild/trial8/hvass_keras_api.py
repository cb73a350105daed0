# After: https://github.com/Hvass-Labs/TensorFlow-Tutorials (03C_Keras_API.ipynb, with the MNIST class of mnist.py)
# Adapted: the notebook's code cells placed one after another (imports and helpers at
# module level, the rest in main()); the MNIST class's data 256 training, 64 validation
# and 64 test images (seeded NumPy uint8 pixels scaled by 1/255 as the class does, one-hot
# labels as its one_hot_encoded makes them) instead of the downloaded files; the plotting
# helpers and the cells that only plot left out (what they show, the predicted classes,
# the conv weights and the conv layer's output, returned instead); the models' weights
# fixed from seeded NumPy (adapt.fixed_weights, scale 0.1) instead of the random
# initializers; fit with shuffle=False (its shuffle draws from TensorFlow's random stream)
# and verbose=0; the saved model written under a temporary folder (removed at the end)
# instead of the working directory; the disabled PrettyTensor cell (`if False:`) left out;
# Model and load_model imported from tensorflow.keras.models instead of the private
# tensorflow.python.keras.models, whose fit fails in TensorFlow 2.21 itself (its data adapter
# looks for input_lib.DistributedDatasetInterface, which TensorFlow 2.21 no longer has).
import os
import shutil
import tempfile

import tensorflow as tf
import numpy as np
import math

from tensorflow.keras.models import Sequential
from tensorflow.keras.layers import InputLayer, Input
from tensorflow.keras.layers import Reshape, MaxPooling2D
from tensorflow.keras.layers import Conv2D, Dense, Flatten
from adapt import fixed_weights


def one_hot_encoded(class_numbers, num_classes=None):
    if num_classes is None:
        num_classes = np.max(class_numbers) + 1
    return np.eye(num_classes, dtype=float)[class_numbers]


class MNIST:
    """The MNIST data-set (adapted: seeded NumPy images instead of the downloaded files)."""
    img_size = 28
    img_size_flat = img_size * img_size
    img_shape = (img_size, img_size)
    num_channels = 1
    img_shape_full = (img_size, img_size, num_channels)
    num_classes = 10

    def __init__(self, data_dir="data/MNIST/"):
        self.data_dir = data_dir
        self.num_train = 256
        self.num_val = 64
        self.num_test = 64
        rng = np.random.default_rng(0)
        x_train = rng.integers(0, 256, size=(320, self.img_size_flat)).astype(np.uint8)
        y_train_cls = rng.integers(0, 10, size=320).astype(np.uint8)
        self.x_train = x_train[0:self.num_train] / 255.0
        self.x_val = x_train[self.num_train:] / 255.0
        self.y_train_cls = y_train_cls[0:self.num_train]
        self.y_val_cls = y_train_cls[self.num_train:]
        self.x_test = rng.integers(0, 256, size=(64, self.img_size_flat)).astype(np.uint8) / 255.0
        self.y_test_cls = rng.integers(0, 10, size=64).astype(np.uint8)
        self.y_train_cls = self.y_train_cls.astype(int)
        self.y_val_cls = self.y_val_cls.astype(int)
        self.y_test_cls = self.y_test_cls.astype(int)
        self.y_train = one_hot_encoded(class_numbers=self.y_train_cls,
                                       num_classes=self.num_classes)
        self.y_val = one_hot_encoded(class_numbers=self.y_val_cls,
                                     num_classes=self.num_classes)
        self.y_test = one_hot_encoded(class_numbers=self.y_test_cls,
                                      num_classes=self.num_classes)


def main():
    answers = {}
    tmp = tempfile.mkdtemp()
    data = MNIST(data_dir="data/MNIST/")
    print("Size of:")
    print("- Training-set:\t\t{}".format(data.num_train))
    print("- Validation-set:\t{}".format(data.num_val))
    print("- Test-set:\t\t{}".format(data.num_test))

    # The number of pixels in each dimension of an image.
    img_size = data.img_size
    # The images are stored in one-dimensional arrays of this length.
    img_size_flat = data.img_size_flat
    # Tuple with height and width of images used to reshape arrays.
    img_shape = data.img_shape
    # Tuple with height, width and depth used to reshape arrays.
    # This is used for reshaping in Keras.
    img_shape_full = data.img_shape_full
    # Number of classes, one class for each of 10 digits.
    num_classes = data.num_classes
    # Number of colour channels for the images: 1 channel for gray-scale.
    num_channels = data.num_channels

    # Start construction of the Keras Sequential model.
    model = Sequential()
    # Add an input layer which is similar to a feed_dict in TensorFlow.
    # Note that the input-shape must be a tuple containing the image-size.
    model.add(InputLayer(input_shape=(img_size_flat,)))
    # The input is a flattened array with 784 elements,
    # but the convolutional layers expect images with shape (28, 28, 1)
    model.add(Reshape(img_shape_full))
    # First convolutional layer with ReLU-activation and max-pooling.
    model.add(Conv2D(kernel_size=5, strides=1, filters=16, padding='same',
                     activation='relu', name='layer_conv1'))
    model.add(MaxPooling2D(pool_size=2, strides=2))
    # Second convolutional layer with ReLU-activation and max-pooling.
    model.add(Conv2D(kernel_size=5, strides=1, filters=36, padding='same',
                     activation='relu', name='layer_conv2'))
    model.add(MaxPooling2D(pool_size=2, strides=2))
    # Flatten the 4-rank output of the convolutional layers
    # to 2-rank that can be input to a fully-connected / dense layer.
    model.add(Flatten())
    # First fully-connected / dense layer with ReLU-activation.
    model.add(Dense(128, activation='relu'))
    # Last fully-connected / dense layer with softmax-activation
    # for use in classification.
    model.add(Dense(num_classes, activation='softmax'))
    fixed_weights(model.weights, seed=1, scale=0.1)

    from tensorflow.keras.optimizers import Adam
    optimizer = Adam(lr=1e-3)
    model.compile(optimizer=optimizer,
                  loss='categorical_crossentropy',
                  metrics=['accuracy'])
    h = model.fit(x=data.x_train,
                  y=data.y_train,
                  epochs=1, batch_size=128, shuffle=False, verbose=0)
    answers["seq_history"] = h.history
    result = model.evaluate(x=data.x_test,
                            y=data.y_test, verbose=0)
    for name, value in zip(model.metrics_names, result):
        print(name, value)
    print("{0}: {1:.2%}".format(model.metrics_names[1], result[1]))
    answers["seq_result"] = result
    images = data.x_test[0:9]
    cls_true = data.y_test_cls[0:9]
    y_pred = model.predict(x=images, verbose=0)
    cls_pred = np.argmax(y_pred, axis=1)
    answers["seq_y_pred"] = y_pred

    # Create an input layer which is similar to a feed_dict in TensorFlow.
    # Note that the input-shape must be a tuple containing the image-size.
    inputs = Input(shape=(img_size_flat,))
    # Variable used for building the Neural Network.
    net = inputs
    # The input is an image as a flattened array with 784 elements.
    # But the convolutional layers expect images with shape (28, 28, 1)
    net = Reshape(img_shape_full)(net)
    # First convolutional layer with ReLU-activation and max-pooling.
    net = Conv2D(kernel_size=5, strides=1, filters=16, padding='same',
                 activation='relu', name='layer_conv1')(net)
    net = MaxPooling2D(pool_size=2, strides=2)(net)
    # Second convolutional layer with ReLU-activation and max-pooling.
    net = Conv2D(kernel_size=5, strides=1, filters=36, padding='same',
                 activation='relu', name='layer_conv2')(net)
    net = MaxPooling2D(pool_size=2, strides=2)(net)
    # Flatten the output of the conv-layer from 4-dim to 2-dim.
    net = Flatten()(net)
    # First fully-connected / dense layer with ReLU-activation.
    net = Dense(128, activation='relu')(net)
    # Last fully-connected / dense layer with softmax-activation
    # so it can be used for classification.
    net = Dense(num_classes, activation='softmax')(net)
    # Output of the Neural Network.
    outputs = net

    from tensorflow.keras.models import Model
    model2 = Model(inputs=inputs, outputs=outputs)
    fixed_weights(model2.weights, seed=2, scale=0.1)
    model2.compile(optimizer='rmsprop',
                   loss='categorical_crossentropy',
                   metrics=['accuracy'])
    h = model2.fit(x=data.x_train,
                   y=data.y_train,
                   epochs=1, batch_size=128, shuffle=False, verbose=0)
    answers["func_history"] = h.history
    result = model2.evaluate(x=data.x_test,
                             y=data.y_test, verbose=0)
    for name, value in zip(model2.metrics_names, result):
        print(name, value)
    answers["func_result"] = result
    y_pred = model2.predict(x=data.x_test, verbose=0)
    cls_pred = np.argmax(y_pred, axis=1)
    answers["func_cls_pred"] = cls_pred

    path_model = os.path.join(tmp, 'model.keras')
    model2.save(path_model)
    del model2
    from tensorflow.keras.models import load_model
    model3 = load_model(path_model)
    images = data.x_test[0:9]
    cls_true = data.y_test_cls[0:9]
    y_pred = model3.predict(x=images, verbose=0)
    answers["loaded_y_pred"] = y_pred

    model3.summary()
    layer_input = model3.layers[0]
    layer_conv1 = model3.layers[2]
    layer_conv2 = model3.layers[4]
    weights_conv1 = layer_conv1.get_weights()[0]
    answers["weights_conv1"] = weights_conv1[:, :, 0, :4]
    weights_conv2 = layer_conv2.get_weights()[0]
    answers["weights_conv2_shape"] = list(weights_conv2.shape)

    image1 = data.x_test[0]
    output_conv2 = Model(inputs=layer_input.input,
                         outputs=layer_conv2.output)
    layer_output2 = output_conv2.predict(np.array([image1]), verbose=0)
    answers["layer_output2"] = layer_output2[0, ::3, ::3, :4]
    shutil.rmtree(tmp)
    return answers
