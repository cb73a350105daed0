# After: https://www.tensorflow.org/tutorials/images/cnn (Sequential Conv2D(32)/MaxPooling2D/
# Conv2D(64)/MaxPooling2D/Conv2D(64), Flatten, Dense(64), Dense(10); compile with adam,
# SparseCategoricalCrossentropy(from_logits=True) and accuracy; fit with validation_data;
# evaluate; model.summary)
# Adapted: 16 seeded synthetic 32x32x3 images instead of CIFAR-10, 2 epochs with
# batch_size=16 (one batch per epoch, so fit's shuffle cannot change a step), fixed weights;
# `datasets` left out of the keras import (it only loaded CIFAR-10).
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers, models
from adapt import data, fixed_weights, labels


def main():
    train_images = np.round(data(1, 16, 32, 32, 3, low=0, high=255))
    test_images = np.round(data(2, 8, 32, 32, 3, low=0, high=255))
    train_labels = labels(3, 16, 10).reshape(-1, 1)
    test_labels = labels(4, 8, 10).reshape(-1, 1)
    train_images, test_images = train_images / 255.0, test_images / 255.0

    model = models.Sequential()
    model.add(layers.Conv2D(32, (3, 3), activation='relu', input_shape=(32, 32, 3)))
    model.add(layers.MaxPooling2D((2, 2)))
    model.add(layers.Conv2D(64, (3, 3), activation='relu'))
    model.add(layers.MaxPooling2D((2, 2)))
    model.add(layers.Conv2D(64, (3, 3), activation='relu'))
    model.summary()
    model.add(layers.Flatten())
    model.add(layers.Dense(64, activation='relu'))
    model.add(layers.Dense(10))
    model.summary()
    fixed_weights(model.trainable_variables, seed=5, scale=0.1)

    model.compile(optimizer='adam',
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=['accuracy'])

    history = model.fit(train_images, train_labels, epochs=2, batch_size=16,
                        validation_data=(test_images, test_labels), verbose=0)
    test_loss, test_acc = model.evaluate(test_images,  test_labels, verbose=2)
    return {"history": history.history, "test_loss": test_loss, "test_acc": test_acc,
            "n_params": model.count_params()}
