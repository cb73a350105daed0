# After: https://www.tensorflow.org/tutorials/structured_data/imbalanced_data (METRICS
# with BinaryCrossentropy, MeanSquaredError, the confusion-matrix counts, BinaryAccuracy,
# Precision, Recall, AUC and AUC(curve='PR'); make_model with an output_bias Constant
# initializer; evaluate before training; the initial bias log(pos/neg); save_weights of
# the initial weights and load_weights into each model; the zero-bias and careful-bias
# fits; the baseline fit with EarlyStopping(monitor='val_prc', mode='max',
# restore_best_weights=True); class weights and the weighted fit)
# Adapted: 400 seeded synthetic transactions with 30 features (about 8% positive) instead
# of the credit-card CSV (read with pandas, scaled with sklearn: done here in NumPy), 3
# epochs instead of 20 and 100 with BATCH_SIZE 2048 (one batch per epoch); fixed weights;
# the Dropout(0.5) layer left out (its random masks differ between libraries); the
# weights file in a temporary folder; plots left out. (The first model's output layer gets
# fixed weights too: with bias_initializer=None Keras draws its bias with glorot_uniform.)
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights

METRICS = [
      keras.metrics.BinaryCrossentropy(name='cross entropy'),  # same as model's loss
      keras.metrics.MeanSquaredError(name='Brier score'),
      keras.metrics.TruePositives(name='tp'),
      keras.metrics.FalsePositives(name='fp'),
      keras.metrics.TrueNegatives(name='tn'),
      keras.metrics.FalseNegatives(name='fn'),
      keras.metrics.BinaryAccuracy(name='accuracy'),
      keras.metrics.Precision(name='precision'),
      keras.metrics.Recall(name='recall'),
      keras.metrics.AUC(name='auc'),
      keras.metrics.AUC(name='prc', curve='PR'), # precision-recall curve
]

EPOCHS = 3
BATCH_SIZE = 2048


def main():
    features = data(1, 400, 30)
    labels_ = (features[:, 0] + 0.3 * data(2, 400) > 0.8).astype(np.int64)
    neg, pos = np.bincount(labels_)
    total = neg + pos
    print('Examples:\n    Total: {}\n    Positive: {} ({:.2f}% of total)\n'.format(
        total, pos, 100 * pos / total))

    train_features, val_features, test_features = features[:240], features[240:320], features[320:]
    train_labels, val_labels, test_labels = labels_[:240], labels_[240:320], labels_[320:]
    mean, std = train_features.mean(axis=0), train_features.std(axis=0)
    train_features = np.clip((train_features - mean) / std, -5, 5)
    val_features = np.clip((val_features - mean) / std, -5, 5)
    test_features = np.clip((test_features - mean) / std, -5, 5)

    def make_model(metrics=METRICS, output_bias=None):
      if output_bias is not None:
        output_bias = tf.keras.initializers.Constant(output_bias)
      model = keras.Sequential([
          keras.layers.Dense(
              16, activation='relu',
              input_shape=(train_features.shape[-1],)),
          keras.layers.Dense(1, activation='sigmoid',
                             bias_initializer=output_bias),
      ])

      model.compile(
          optimizer=keras.optimizers.Adam(learning_rate=1e-3),
          loss=keras.losses.BinaryCrossentropy(),
          metrics=metrics)

      return model

    out = {}
    early_stopping = tf.keras.callbacks.EarlyStopping(
        monitor='val_prc',
        verbose=1,
        patience=10,
        mode='max',
        restore_best_weights=True)

    model = make_model()
    model.summary()
    fixed_weights(model.trainable_variables, seed=3)
    out["predict_first"] = model.predict(train_features[:10])
    results = model.evaluate(train_features, train_labels, batch_size=BATCH_SIZE, verbose=0)
    print("Loss: {:0.4f}".format(results[0]))

    initial_bias = np.log([pos/neg])
    out["initial_bias"] = initial_bias

    model = make_model(output_bias=initial_bias)
    fixed_weights(model.trainable_variables[:3], seed=3)
    out["predict_bias"] = model.predict(train_features[:10])
    results = model.evaluate(train_features, train_labels, batch_size=BATCH_SIZE, verbose=0)
    out["results_bias"] = results

    initial_weights = os.path.join(tempfile.mkdtemp(), 'initial.weights.h5')
    model.save_weights(initial_weights)

    model = make_model()
    model.load_weights(initial_weights)
    model.layers[-1].bias.assign([0.0])
    zero_bias_history = model.fit(
        train_features,
        train_labels,
        batch_size=BATCH_SIZE,
        epochs=3,
        validation_data=(val_features, val_labels),
        verbose=0)
    out["zero_bias"] = zero_bias_history.history

    model = make_model()
    model.load_weights(initial_weights)
    careful_bias_history = model.fit(
        train_features,
        train_labels,
        batch_size=BATCH_SIZE,
        epochs=3,
        validation_data=(val_features, val_labels),
        verbose=0)
    out["careful_bias"] = careful_bias_history.history

    model = make_model()
    model.load_weights(initial_weights)
    baseline_history = model.fit(
        train_features,
        train_labels,
        batch_size=BATCH_SIZE,
        epochs=EPOCHS,
        callbacks=[early_stopping],
        validation_data=(val_features, val_labels))
    out["baseline"] = baseline_history.history
    baseline_results = model.evaluate(test_features, test_labels,
                                      batch_size=BATCH_SIZE, verbose=0)
    out["baseline_results"] = {name: value for name, value in zip(model.metrics_names, baseline_results)}

    weight_for_0 = (1 / neg) * (total / 2.0)
    weight_for_1 = (1 / pos) * (total / 2.0)

    class_weight = {0: weight_for_0, 1: weight_for_1}

    weighted_model = make_model()
    weighted_model.load_weights(initial_weights)

    weighted_history = weighted_model.fit(
        train_features,
        train_labels,
        batch_size=BATCH_SIZE,
        epochs=EPOCHS,
        callbacks=[early_stopping],
        validation_data=(val_features, val_labels),
        # The class weights go here
        class_weight=class_weight)
    out["weighted"] = weighted_history.history
    out["test_predictions_weighted"] = weighted_model.predict(test_features, batch_size=BATCH_SIZE)
    return out
