# After: https://www.tensorflow.org/tutorials/quickstart/beginner (Sequential of Flatten and
# Dense, untrained logits and tf.nn.softmax, SparseCategoricalCrossentropy(from_logits=True)
# scored on them, compile with adam and accuracy, fit, evaluate, a probability model with
# a Softmax layer)
# Adapted: 40 seeded synthetic 28x28 images instead of MNIST, 3 epochs of batch 40, fixed
# weights, and the Dropout(0.2) layer left out (its random masks differ between libraries).
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def main():
    x_train, x_test = np.round(data(1, 40, 28, 28, low=0, high=255)), np.round(data(2, 10, 28, 28, low=0, high=255))
    y_train, y_test = labels(3, 40, 10), labels(4, 10, 10)
    x_train, x_test = x_train / 255.0, x_test / 255.0

    model = tf.keras.models.Sequential([
      tf.keras.layers.Flatten(input_shape=(28, 28)),
      tf.keras.layers.Dense(128, activation='relu'),
      tf.keras.layers.Dense(10)
    ])
    fixed_weights(model.trainable_variables, seed=5, scale=0.1)

    predictions = model(x_train[:1]).numpy()
    probs = tf.nn.softmax(predictions).numpy()
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    first_loss = loss_fn(y_train[:1], predictions).numpy()

    model.compile(optimizer='adam',
                  loss=loss_fn,
                  metrics=['accuracy'])
    history = model.fit(x_train, y_train, epochs=3, batch_size=40, verbose=0)
    score = model.evaluate(x_test,  y_test, verbose=0)

    probability_model = tf.keras.Sequential([
      model,
      tf.keras.layers.Softmax()
    ])
    return {"predictions": predictions, "probs": probs, "first_loss": first_loss,
            "history": history.history, "score": score,
            "probabilities": probability_model(x_test[:5])}
