# After: https://www.tensorflow.org/tutorials/generative/autoencoder ("Third example: Anomaly
# detection": min-max normalisation with tf.reduce_min/max, the AnomalyDetector Model subclass
# with Sequential encoder and decoder, compile with 'mae', fit with validation_data, the
# threshold from tf.keras.losses.mae, predict with tf.math.less, and the metrics printout)
# Adapted: 40 seeded synthetic 140-sample "ECG" rows instead of the ECG5000 CSV, encoder
# 32/16/8 as the tutorial, 3 epochs of batch 16, fixed weights, shuffle=False.
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras.models import Model
from adapt import data, fixed_weights


class AnomalyDetector(Model):
  def __init__(self):
    super(AnomalyDetector, self).__init__()
    self.encoder = tf.keras.Sequential([
      layers.Dense(32, activation="relu"),
      layers.Dense(16, activation="relu"),
      layers.Dense(8, activation="relu")])

    self.decoder = tf.keras.Sequential([
      layers.Dense(16, activation="relu"),
      layers.Dense(32, activation="relu"),
      layers.Dense(140, activation="sigmoid")])

  def call(self, x):
    encoded = self.encoder(x)
    decoded = self.decoder(encoded)
    return decoded


def predict(model, data, threshold):
  reconstructions = model(data)
  loss = tf.keras.losses.mae(reconstructions, data)
  return tf.math.less(loss, threshold)


def main():
    t = np.linspace(0, 6, 140)
    base = np.sin(t)[None, :]
    train_data = (base + 0.1 * data(1, 32, 140)).astype(np.float32)
    test_data = (base + 0.1 * data(2, 8, 140)).astype(np.float32)
    test_data[::2] += data(3, 4, 140)  # anomalies
    train_labels = np.ones(32, dtype=bool)
    test_labels = np.array([i % 2 == 1 for i in range(8)])

    min_val = tf.reduce_min(train_data)
    max_val = tf.reduce_max(train_data)

    train_data = (train_data - min_val) / (max_val - min_val)
    test_data = (test_data - min_val) / (max_val - min_val)

    train_data = tf.cast(train_data, tf.float32)
    test_data = tf.cast(test_data, tf.float32)

    normal_train_data = train_data[train_labels]
    normal_test_data = test_data[test_labels]

    autoencoder = AnomalyDetector()
    autoencoder(normal_train_data[:1])
    fixed_weights(autoencoder.trainable_variables, seed=4, scale=0.2)
    autoencoder.compile(optimizer='adam', loss='mae')
    history = autoencoder.fit(normal_train_data, normal_train_data,
              epochs=3,
              batch_size=16,
              validation_data=(test_data, test_data),
              shuffle=False, verbose=0)
    reconstructions = autoencoder.predict(normal_train_data, verbose=0)
    train_loss = tf.keras.losses.mae(reconstructions, normal_train_data)
    threshold = np.mean(train_loss) + np.std(train_loss)
    preds = predict(autoencoder, test_data, threshold)
    accuracy = np.mean(preds.numpy() == test_labels)
    return {"history": history.history, "threshold": threshold, "preds": preds,
            "accuracy": accuracy, "normal_count": int(normal_test_data.shape[0])}
