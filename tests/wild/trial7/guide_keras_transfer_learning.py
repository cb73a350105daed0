# After: https://www.tensorflow.org/guide/keras/transfer_learning
# Adapted: the guide's code cells placed one after another in main(), their repeated
# imports once at the top; np.random.random's training data drawn from seeded NumPy; the
# models' weights fixed from seeded NumPy (adapt.fixed_weights) instead of the random
# initializers; in the end-to-end example, 32 training, 16 validation and 16 test images
# (seeded NumPy 0-255 float32 40x40x3, labels 0/1) instead of tfds.load("cats_vs_dogs"),
# resized to 32x32 instead of 150x150, so that the training data is one batch of 32, and
# a small convolutional base model (Conv2D, BatchNormalization, ReLU, twice) with fixed
# weights and moving statistics instead of keras.applications.Xception with ImageNet
# weights; the random augmentation (RandomFlip, RandomRotation) and the Dropout layer
# left out (their random draws are TensorFlow's, inside fit); 2 epochs instead of 20 and
# of 10; the plotting cells (matplotlib) left out; main() returns what the cells print
# (the weight counts) and both fits' histories, the evaluation on the test set and the
# base model's weights after fine-tuning.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights


def main():
    out = {}
    layer = keras.layers.Dense(3)
    layer.build((None, 4))  # Create the weights

    print("weights:", len(layer.weights))
    print("trainable_weights:", len(layer.trainable_weights))
    print("non_trainable_weights:", len(layer.non_trainable_weights))
    out["dense_counts"] = [len(layer.weights), len(layer.trainable_weights), len(layer.non_trainable_weights)]

    layer = keras.layers.BatchNormalization()
    layer.build((None, 4))  # Create the weights

    print("weights:", len(layer.weights))
    print("trainable_weights:", len(layer.trainable_weights))
    print("non_trainable_weights:", len(layer.non_trainable_weights))
    out["bn_counts"] = [len(layer.weights), len(layer.trainable_weights), len(layer.non_trainable_weights)]

    layer = keras.layers.Dense(3)
    layer.build((None, 4))  # Create the weights
    layer.trainable = False  # Freeze the layer

    print("weights:", len(layer.weights))
    print("trainable_weights:", len(layer.trainable_weights))
    print("non_trainable_weights:", len(layer.non_trainable_weights))
    out["frozen_counts"] = [len(layer.weights), len(layer.trainable_weights), len(layer.non_trainable_weights)]

    # Make a model with 2 layers
    layer1 = keras.layers.Dense(3, activation="relu")
    layer2 = keras.layers.Dense(3, activation="sigmoid")
    model = keras.Sequential([keras.Input(shape=(3,)), layer1, layer2])
    fixed_weights(model.weights, seed=1)

    # Freeze the first layer
    layer1.trainable = False

    # Keep a copy of the weights of layer1 for later reference
    initial_layer1_weights_values = layer1.get_weights()

    # Train the model
    model.compile(optimizer="adam", loss="mse")
    rng = np.random.default_rng(0)
    history = model.fit(rng.random((2, 3)), rng.random((2, 3)))
    out["frozen_fit"] = history.history
    out["layer2_weights"] = layer2.get_weights()

    # Check that the weights of layer1 have not changed during training
    final_layer1_weights_values = layer1.get_weights()
    np.testing.assert_allclose(
        initial_layer1_weights_values[0], final_layer1_weights_values[0]
    )
    np.testing.assert_allclose(
        initial_layer1_weights_values[1], final_layer1_weights_values[1]
    )

    inner_model = keras.Sequential(
        [
            keras.Input(shape=(3,)),
            keras.layers.Dense(3, activation="relu"),
            keras.layers.Dense(3, activation="relu"),
        ]
    )

    model = keras.Sequential(
        [keras.Input(shape=(3,)), inner_model, keras.layers.Dense(3, activation="sigmoid"),]
    )

    model.trainable = False  # Freeze the outer model

    assert inner_model.trainable == False  # All layers in `model` are now frozen
    assert inner_model.layers[0].trainable == False  # `trainable` is propagated recursively
    out["recursive_frozen"] = [inner_model.trainable, inner_model.layers[0].trainable]

    def stand_in(n):
        images = rng.integers(0, 256, size=(n, 40, 40, 3)).astype("float32")
        labels = rng.integers(0, 2, size=n).astype("int64")
        return tf.data.Dataset.from_tensor_slices((images, labels))

    train_ds, validation_ds, test_ds = stand_in(32), stand_in(16), stand_in(16)

    print("Number of training samples: %d" % tf.data.experimental.cardinality(train_ds))
    print(
        "Number of validation samples: %d" % tf.data.experimental.cardinality(validation_ds)
    )
    print("Number of test samples: %d" % tf.data.experimental.cardinality(test_ds))

    size = (32, 32)

    train_ds = train_ds.map(lambda x, y: (tf.image.resize(x, size), y))
    validation_ds = validation_ds.map(lambda x, y: (tf.image.resize(x, size), y))
    test_ds = test_ds.map(lambda x, y: (tf.image.resize(x, size), y))

    batch_size = 32

    train_ds = train_ds.cache().batch(batch_size).prefetch(buffer_size=10)
    validation_ds = validation_ds.cache().batch(batch_size).prefetch(buffer_size=10)
    test_ds = test_ds.cache().batch(batch_size).prefetch(buffer_size=10)

    base_inputs = keras.Input(shape=(32, 32, 3))
    b = layers.Conv2D(16, 3, strides=2, padding="same")(base_inputs)
    b = layers.BatchNormalization()(b)
    b = layers.ReLU()(b)
    b = layers.Conv2D(32, 3, strides=2, padding="same")(b)
    b = layers.BatchNormalization()(b)
    b = layers.ReLU()(b)
    base_model = keras.Model(base_inputs, b)
    fixed_weights(base_model.weights, seed=2, scale=0.2)
    for w in base_model.weights:
        if "moving_variance" in w.name:
            w.assign(np.full(w.shape, 1.5, np.float32))

    # Freeze the base_model
    base_model.trainable = False

    # Create new model on top
    inputs = keras.Input(shape=(32, 32, 3))
    x = inputs

    # Pre-trained Xception weights requires that input be scaled
    # from (0, 255) to a range of (-1., +1.), the rescaling layer
    # outputs: `(inputs * scale) + offset`
    scale_layer = keras.layers.Rescaling(scale=1 / 127.5, offset=-1)
    x = scale_layer(x)

    # The base model contains batchnorm layers. We want to keep them in inference mode
    # when we unfreeze the base model for fine-tuning, so we make sure that the
    # base_model is running in inference mode here.
    x = base_model(x, training=False)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(1)(x)
    model = keras.Model(inputs, outputs)
    fixed_weights(model.layers[-1].weights, seed=3)

    model.summary()

    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy()],
    )

    epochs = 2
    history = model.fit(train_ds, epochs=epochs, validation_data=validation_ds)
    out["top_fit"] = history.history

    # Unfreeze the base_model. Note that it keeps running in inference mode
    # since we passed `training=False` when calling it. This means that
    # the batchnorm layers will not update their batch statistics.
    # This prevents the batchnorm layers from undoing all the training
    # we've done so far.
    base_model.trainable = True
    model.summary()

    model.compile(
        optimizer=keras.optimizers.Adam(1e-5),  # Low learning rate
        loss=keras.losses.BinaryCrossentropy(from_logits=True),
        metrics=[keras.metrics.BinaryAccuracy()],
    )

    epochs = 2
    history = model.fit(train_ds, epochs=epochs, validation_data=validation_ds)
    out["fine_tune_fit"] = history.history
    out["test_evaluate"] = model.evaluate(test_ds)
    out["base_weights"] = [w.numpy() for w in base_model.weights]
    return out
