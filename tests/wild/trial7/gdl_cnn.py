# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/02_deeplearning/02_cnn/cnn.ipynb)
# Adapted: the notebook's code cells placed one after another in main(); 32 training and
# 16 test images of CIFAR-10's shape and dtype (seeded NumPy uint8 32x32x3, labels 0-9)
# instead of datasets.cifar10.load_data(), so that fit's data is one batch of 32 and its
# shuffle decides nothing; 3 epochs instead of 10; the Dropout layer left out (its random
# mask is drawn by TensorFlow inside fit); the model's weights fixed from seeded NumPy
# (adapt.fixed_weights, then BatchNormalization's moving variances set back to ones)
# instead of the random initializers; the display and plotting cells (matplotlib, the
# notebook's utils) left out; main() returns fit's history, evaluate's result and the
# predictions.
import numpy as np

from tensorflow.keras import layers, models, optimizers, utils, datasets
from adapt import fixed_weights


def main():
    NUM_CLASSES = 10

    rng = np.random.default_rng(0)
    (x_train, y_train), (x_test, y_test) = (
        (rng.integers(0, 256, size=(32, 32, 32, 3)).astype(np.uint8), rng.integers(0, 10, size=(32, 1)).astype(np.uint8)),
        (rng.integers(0, 256, size=(16, 32, 32, 3)).astype(np.uint8), rng.integers(0, 10, size=(16, 1)).astype(np.uint8)))

    x_train = x_train.astype("float32") / 255.0
    x_test = x_test.astype("float32") / 255.0

    y_train = utils.to_categorical(y_train, NUM_CLASSES)
    y_test = utils.to_categorical(y_test, NUM_CLASSES)

    print(y_train[:10])

    input_layer = layers.Input((32, 32, 3))

    x = layers.Conv2D(filters=32, kernel_size=3, strides=1, padding="same")(
        input_layer
    )
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU()(x)

    x = layers.Conv2D(filters=32, kernel_size=3, strides=2, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU()(x)

    x = layers.Conv2D(filters=64, kernel_size=3, strides=1, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU()(x)

    x = layers.Conv2D(filters=64, kernel_size=3, strides=2, padding="same")(x)
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU()(x)

    x = layers.Flatten()(x)

    x = layers.Dense(128)(x)
    x = layers.BatchNormalization()(x)
    x = layers.LeakyReLU()(x)

    x = layers.Dense(NUM_CLASSES)(x)
    output_layer = layers.Activation("softmax")(x)

    model = models.Model(input_layer, output_layer)

    model.summary()
    fixed_weights(model.weights, seed=1, scale=0.1)
    for layer in model.layers:
        if isinstance(layer, layers.BatchNormalization):
            layer.moving_variance.assign(np.ones(layer.moving_variance.shape, np.float32))

    opt = optimizers.Adam(learning_rate=0.0005)
    model.compile(
        loss="categorical_crossentropy", optimizer=opt, metrics=["accuracy"]
    )

    history = model.fit(
        x_train,
        y_train,
        batch_size=32,
        epochs=3,
        shuffle=True,
        validation_data=(x_test, y_test),
    )

    evaluation = model.evaluate(x_test, y_test, batch_size=1000)

    preds = model.predict(x_test)
    return {"history": history.history, "evaluate": evaluation, "preds": np.round(preds, 5)}
