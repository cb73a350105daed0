# After: https://github.com/davidADSP/Generative_Deep_Learning_2nd_Edition (notebooks/02_deeplearning/01_mlp/mlp.ipynb)
# Adapted: the notebook's code cells placed one after another in main(); 32 training and
# 16 test images of CIFAR-10's shape and dtype (seeded NumPy uint8 32x32x3, labels 0-9)
# instead of datasets.cifar10.load_data(), so that fit's data is one batch of 32 and its
# shuffle decides nothing; 3 epochs instead of 10; the model's weights fixed from seeded
# NumPy (adapt.fixed_weights) instead of the random initializers; the display and
# plotting cells (matplotlib, the notebook's utils) and the random choice of images to
# plot left out; main() returns fit's history, evaluate's result and the predicted
# classes.
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

    x = layers.Flatten()(input_layer)
    x = layers.Dense(200, activation="relu")(x)
    x = layers.Dense(150, activation="relu")(x)

    output_layer = layers.Dense(NUM_CLASSES, activation="softmax")(x)

    model = models.Model(input_layer, output_layer)

    model.summary()
    fixed_weights(model.weights, seed=1, scale=0.05)

    opt = optimizers.Adam(learning_rate=0.0005)
    model.compile(
        loss="categorical_crossentropy", optimizer=opt, metrics=["accuracy"]
    )

    history = model.fit(x_train, y_train, batch_size=32, epochs=3, shuffle=True)

    evaluation = model.evaluate(x_test, y_test)

    CLASSES = np.array(
        [
            "airplane",
            "automobile",
            "bird",
            "cat",
            "deer",
            "dog",
            "frog",
            "horse",
            "ship",
            "truck",
        ]
    )

    preds = model.predict(x_test)
    preds_single = CLASSES[np.argmax(preds, axis=-1)]
    actual_single = CLASSES[np.argmax(y_test, axis=-1)]
    return {"history": history.history, "evaluate": evaluation, "preds": preds,
            "preds_single": list(preds_single), "actual_single": list(actual_single)}
