# After: https://www.tensorflow.org/tutorials/keras/save_and_load (create_model with a
# Dense(512) Sequential compiled with adam, SparseCategoricalCrossentropy(from_logits=True)
# and SparseCategoricalAccuracy; ModelCheckpoint(save_weights_only=True) during fit;
# evaluate an untrained model, load_weights, evaluate again; checkpoints named
# cp-{epoch:04d} every 5 epochs by save_freq, tf.train.latest_checkpoint; manual
# save_weights and load_weights; saving the entire model with model.save and
# tf.keras.models.load_model)
# Adapted: 100 training and 50 test seeded synthetic 784-pixel images instead of MNIST's
# first 1000, 3 epochs instead of 10, 10 instead of 50 (batch 32, shuffle=False), 2
# instead of 5 for the whole-model part; each create_model() given fixed weights; the
# Dropout(0.2) layer left out (its random masks differ between libraries); files written
# to a temporary folder.
import math
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights, labels


def main():
    out = {}
    work = tempfile.mkdtemp()
    train_images, train_labels = np.round(data(1, 100, 28, 28, low=0, high=255)), labels(2, 100, 10)
    test_images, test_labels = np.round(data(3, 50, 28, 28, low=0, high=255)), labels(4, 50, 10)

    train_images = train_images.reshape(-1, 28 * 28) / 255.0
    test_images = test_images.reshape(-1, 28 * 28) / 255.0

    # Define a simple sequential model
    def create_model():
      model = tf.keras.Sequential([
        keras.layers.Dense(512, activation='relu', input_shape=(784,)),
        keras.layers.Dense(10)
      ])
      fixed_weights(model.trainable_variables, seed=5, scale=0.05)

      model.compile(optimizer='adam',
                    loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                    metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])

      return model

    # Create a basic model instance
    model = create_model()

    # Display the model's architecture
    model.summary()

    checkpoint_path = os.path.join(work, "training_1/cp.ckpt")
    checkpoint_dir = os.path.dirname(checkpoint_path)

    # Create a callback that saves the model's weights
    cp_callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path,
                                                     save_weights_only=True,
                                                     verbose=1)

    # Train the model with the new callback
    history = model.fit(train_images,
              train_labels,
              epochs=3,
              validation_data=(test_images, test_labels),
              callbacks=[cp_callback], shuffle=False)  # Pass callback to training
    out["history"] = history.history

    # Create a basic model instance
    model = create_model()

    # Evaluate the model
    loss, acc = model.evaluate(test_images, test_labels, verbose=2)
    print("Untrained model, accuracy: {:5.2f}%".format(100 * acc))
    out["untrained"] = [loss, acc]

    # Loads the weights
    model.load_weights(checkpoint_path)

    # Re-evaluate the model
    loss, acc = model.evaluate(test_images, test_labels, verbose=2)
    print("Restored model, accuracy: {:5.2f}%".format(100 * acc))
    out["restored"] = [loss, acc]

    # Include the epoch in the file name (uses `str.format`)
    checkpoint_path = os.path.join(work, "training_2/cp-{epoch:04d}.ckpt")
    checkpoint_dir = os.path.dirname(checkpoint_path)

    batch_size = 32

    # Calculate the number of batches per epoch
    n_batches = len(train_images) / batch_size
    n_batches = math.ceil(n_batches)    # round up the number of batches to the nearest whole integer

    # Create a callback that saves the model's weights every 5 epochs
    cp_callback = tf.keras.callbacks.ModelCheckpoint(
        filepath=checkpoint_path,
        verbose=1,
        save_weights_only=True,
        save_freq=5*n_batches)

    # Create a new model instance
    model = create_model()

    # Save the weights using the `checkpoint_path` format
    model.save_weights(checkpoint_path.format(epoch=0))

    # Train the model with the new callback
    model.fit(train_images,
              train_labels,
              epochs=10,
              batch_size=batch_size,
              callbacks=[cp_callback],
              validation_data=(test_images, test_labels),
              verbose=0, shuffle=False)

    latest = tf.train.latest_checkpoint(checkpoint_dir)
    out["latest"] = os.path.basename(latest)

    # Create a new model instance
    model = create_model()

    # Load the previously saved weights
    model.load_weights(latest)

    # Re-evaluate the model
    loss, acc = model.evaluate(test_images, test_labels, verbose=2)
    print("Restored model, accuracy: {:5.2f}%".format(100 * acc))
    out["restored_latest"] = [loss, acc]

    # Save the weights
    model.save_weights(os.path.join(work, 'checkpoints/my_checkpoint'))

    # Create a new model instance
    model = create_model()

    # Restore the weights
    model.load_weights(os.path.join(work, 'checkpoints/my_checkpoint'))

    # Evaluate the model
    loss, acc = model.evaluate(test_images, test_labels, verbose=2)
    print("Restored model, accuracy: {:5.2f}%".format(100 * acc))
    out["restored_manual"] = [loss, acc]

    # Create and train a new model instance.
    model = create_model()
    model.fit(train_images, train_labels, epochs=2, shuffle=False)

    # Save the entire model as a `.keras` zip archive.
    model.save(os.path.join(work, 'my_model.keras'))

    new_model = tf.keras.models.load_model(os.path.join(work, 'my_model.keras'))

    # Show the model architecture
    new_model.summary()

    # Evaluate the restored model
    loss, acc = new_model.evaluate(test_images, test_labels, verbose=2)
    print('Restored model, accuracy: {:5.2f}%'.format(100 * acc))
    out["restored_whole"] = [loss, acc]
    out["predict_shape"] = list(new_model.predict(test_images).shape)
    return out
