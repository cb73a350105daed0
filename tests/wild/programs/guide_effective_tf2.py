# After: https://www.tensorflow.org/guide/effective_tf2 ("Keras training loops": scale,
# a Sequential Conv2D with an l2 kernel_regularizer, MaxPooling2D, Flatten, Dense,
# BatchNormalization, Dense; compile, fit, evaluate; "Customize training and write your
# own loop": the @tf.function train_step adding tf.math.add_n(model.losses); "Take advantage
# of tf.metrics and tf.losses": Mean and SparseCategoricalAccuracy metrics updated in the
# step, reset_states each epoch and printed with format)
# Adapted: 32 seeded synthetic 28x28x1 uint8 images instead of tensorflow_datasets' MNIST,
# mapped with the guide's scale and batched by 16 without the shuffle; NUM_EPOCHS 2;
# fixed weights; the Dropout(0.1) layer left out (its random masks differ between
# libraries).
import numpy as np
import tensorflow as tf
from adapt import fixed_weights, labels as class_labels

BATCH_SIZE = 16
NUM_EPOCHS = 2


def scale(image, label):
  image = tf.cast(image, tf.float32)
  image /= 255

  return image, label


def main():
  rng = np.random.default_rng(1)
  mnist_train = tf.data.Dataset.from_tensor_slices(
      (rng.integers(0, 256, size=(32, 28, 28, 1)).astype(np.uint8), class_labels(2, 32, 10).astype(np.int64)))
  mnist_test = tf.data.Dataset.from_tensor_slices(
      (rng.integers(0, 256, size=(16, 28, 28, 1)).astype(np.uint8), class_labels(3, 16, 10).astype(np.int64)))
  train_data = mnist_train.map(scale).batch(BATCH_SIZE)
  test_data = mnist_test.map(scale).batch(BATCH_SIZE)

  model = tf.keras.Sequential([
      tf.keras.layers.Conv2D(32, 3, activation='relu',
                             kernel_regularizer=tf.keras.regularizers.l2(0.02),
                             input_shape=(28, 28, 1)),
      tf.keras.layers.MaxPooling2D(),
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(64, activation='relu'),
      tf.keras.layers.BatchNormalization(),
      tf.keras.layers.Dense(10)
  ])
  fixed_weights(model.trainable_variables, seed=4, scale=0.05)

  # Model is the full model w/o custom layers
  model.compile(optimizer='adam',
                loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                metrics=['accuracy'])

  history = model.fit(train_data, epochs=NUM_EPOCHS, verbose=0)
  loss, acc = model.evaluate(test_data, verbose=0)

  optimizer = tf.keras.optimizers.Adam(0.001)
  loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

  @tf.function
  def train_step(inputs, labels):
    with tf.GradientTape() as tape:
      predictions = model(inputs, training=True)
      regularization_loss=tf.math.add_n(model.losses)
      pred_loss=loss_fn(labels, predictions)
      total_loss=pred_loss + regularization_loss

    gradients = tape.gradient(total_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))

  for epoch in range(NUM_EPOCHS):
    for inputs, labels in train_data:
      train_step(inputs, labels)
    print("Finished epoch", epoch)

  loss_metric = tf.keras.metrics.Mean(name='train_loss')
  accuracy_metric = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')

  @tf.function
  def train_step(inputs, labels):
    with tf.GradientTape() as tape:
      predictions = model(inputs, training=True)
      regularization_loss=tf.math.add_n(model.losses)
      pred_loss=loss_fn(labels, predictions)
      total_loss=pred_loss + regularization_loss

    gradients = tape.gradient(total_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    # Update metrics
    loss_metric.update_state(total_loss)
    accuracy_metric.update_state(labels, predictions)

  results = []
  for epoch in range(NUM_EPOCHS):
    # Reset metrics
    loss_metric.reset_states()
    accuracy_metric.reset_states()

    for inputs, labels in train_data:
      train_step(inputs, labels)
    # Get results
    mean_loss=loss_metric.result()
    mean_accuracy = accuracy_metric.result()

    print('Epoch: ', epoch)
    print('  loss:     {:.3f}'.format(mean_loss))
    print('  accuracy: {:.3f}'.format(mean_accuracy))
    results.append([float(mean_loss), float(mean_accuracy)])
  return {"history": history.history, "evaluate": [loss, acc], "results": results,
          "moving_variance": model.layers[4].moving_variance[:5]}
