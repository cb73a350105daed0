# After: https://www.tensorflow.org/tutorials/keras/regression (the Normalization layer
# adapted to the features, the linear model and the DNN built with build_and_compile_model,
# fit with validation_split, evaluate and predict)
# Adapted: 40 seeded synthetic rows with 9 features instead of the Auto MPG CSV, 5 epochs
# instead of 100; fixed starting weights; batch_size covers the whole training split so
# fit's shuffling cannot change a step.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights


def build_and_compile_model(norm):
  model = keras.Sequential([
      norm,
      layers.Dense(64, activation='relu'),
      layers.Dense(64, activation='relu'),
      layers.Dense(1)
  ])

  model.compile(loss='mean_absolute_error',
                optimizer=tf.keras.optimizers.Adam(0.001))
  return model


def main():
    train_features = data(1, 32, 9, low=0.0, high=50.0)
    train_labels = (train_features[:, 0] * 0.4 + train_features[:, 3] * 0.1 + 5.0).astype(np.float32)
    test_features = data(2, 8, 9, low=0.0, high=50.0)
    test_labels = (test_features[:, 0] * 0.4 + test_features[:, 3] * 0.1 + 5.0).astype(np.float32)

    normalizer = tf.keras.layers.Normalization(axis=-1)
    normalizer.adapt(np.array(train_features))
    mean = normalizer.mean.numpy()
    first = np.array(train_features[:1])
    normalized_first = normalizer(first).numpy()

    linear_model = tf.keras.Sequential([
        normalizer,
        layers.Dense(units=1)
    ])
    first_predictions = linear_model.predict(train_features[:10], verbose=0)
    fixed_weights(linear_model.trainable_variables, seed=3)
    linear_model.compile(
        optimizer=tf.keras.optimizers.Adam(learning_rate=0.1),
        loss='mean_absolute_error')
    history = linear_model.fit(
        train_features,
        train_labels,
        epochs=5,
        batch_size=32,
        # Suppress logging.
        verbose=0,
        # Calculate validation results on 20% of the training data.
        validation_split = 0.2)

    dnn_model = build_and_compile_model(normalizer)
    fixed_weights(dnn_model.trainable_variables, seed=4, scale=0.2)
    dnn_history = dnn_model.fit(
        train_features,
        train_labels,
        validation_split=0.2,
        batch_size=32,
        verbose=0, epochs=5)
    test_results = {}
    test_results['linear_model'] = linear_model.evaluate(
        test_features, test_labels, verbose=0)
    test_results['dnn_model'] = dnn_model.evaluate(test_features, test_labels, verbose=0)
    test_predictions = dnn_model.predict(test_features, verbose=0).flatten()
    return {"mean": mean, "normalized_first": normalized_first, "linear": history.history,
            "dnn": dnn_history.history, "test_results": test_results,
            "test_predictions": test_predictions,
            "n_weights": [len(dnn_model.weights), len(dnn_model.trainable_weights)],
            "first_predictions_shape": list(first_predictions.shape)}
