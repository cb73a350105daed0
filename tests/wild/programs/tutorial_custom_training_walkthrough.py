# After: https://www.tensorflow.org/tutorials/customization/custom_training_walkthrough
# (penguin classification: Sequential model, loss(model, x, y, training), grad() with
# GradientTape, SGD, the epoch loop with Mean and SparseCategoricalAccuracy, evaluation)
# Adapted: 40 seeded synthetic penguins (4 features, 3 species) instead of the CSV from
# TensorFlow Datasets, 12 epochs instead of 201, fixed starting weights.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def main():
    features = data(1, 40, 4, low=0.0, high=1.0)
    species = labels(2, 40, 3).astype(np.int64)
    ds_train_batch = tf.data.Dataset.from_tensor_slices((features[:32], species[:32])).batch(8)
    ds_test = tf.data.Dataset.from_tensor_slices((features[32:], species[32:])).batch(8)

    model = tf.keras.Sequential([
      tf.keras.layers.Dense(10, activation=tf.nn.relu, input_shape=(4,)),  # input shape required
      tf.keras.layers.Dense(10, activation=tf.nn.relu),
      tf.keras.layers.Dense(3)
    ])
    fixed_weights(model.trainable_variables, seed=3, scale=0.6)

    features_batch, labels_batch = next(iter(ds_train_batch))
    predictions = model(features_batch)
    softmax_first = tf.nn.softmax(predictions[:5])
    print("Prediction: {}".format(tf.math.argmax(predictions, axis=1)))

    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    def loss(model, x, y, training):
      # training=training is needed only if there are layers with different
      # behavior during training versus inference (e.g. Dropout).
      y_ = model(x, training=training)

      return loss_object(y_true=y, y_pred=y_)

    l = loss(model, features_batch, labels_batch, training=False)
    print("Loss test: {}".format(l))

    def grad(model, inputs, targets):
      with tf.GradientTape() as tape:
        loss_value = loss(model, inputs, targets, training=True)
      return loss_value, tape.gradient(loss_value, model.trainable_variables)

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    loss_value, grads = grad(model, features_batch, labels_batch)
    print("Step: {}, Initial Loss: {}".format(optimizer.iterations.numpy(), loss_value.numpy()))
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print("Step: {},         Loss: {}".format(optimizer.iterations.numpy(),
                                              loss(model, features_batch, labels_batch, training=True).numpy()))

    ## Note: Rerunning this cell uses the same model parameters

    # Keep results for plotting
    train_loss_results = []
    train_accuracy_results = []

    num_epochs = 12

    for epoch in range(num_epochs):
      epoch_loss_avg = tf.keras.metrics.Mean()
      epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()

      # Training loop - using batches of 32
      for x, y in ds_train_batch:
        # Optimize the model
        loss_value, grads = grad(model, x, y)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

        # Track progress
        epoch_loss_avg.update_state(loss_value)  # Add current batch loss
        # Compare predicted label to actual label
        # training=True is needed only if there are layers with different
        # behavior during training versus inference (e.g. Dropout).
        epoch_accuracy.update_state(y, model(x, training=True))

      # End epoch
      train_loss_results.append(epoch_loss_avg.result())
      train_accuracy_results.append(epoch_accuracy.result())

      if epoch % 5 == 0:
        print("Epoch {:03d}: Loss: {:.3f}, Accuracy: {:.3%}".format(epoch,
                                                                    epoch_loss_avg.result(),
                                                                    epoch_accuracy.result()))

    test_accuracy = tf.keras.metrics.Accuracy()
    ds_test_batch = ds_test

    for (x, y) in ds_test_batch:
      # training=False is needed only if there are layers with different
      # behavior during training versus inference (e.g. Dropout).
      logits = model(x, training=False)
      prediction = tf.math.argmax(logits, axis=1, output_type=tf.int64)
      test_accuracy(prediction, y)

    print("Test set accuracy: {:.3%}".format(test_accuracy.result()))
    predict_dataset = tf.convert_to_tensor([
        [0.3, 0.8, 0.4, 0.5,],
        [0.4, 0.1, 0.8, 0.5,],
        [0.7, 0.9, 0.8, 0.4]
    ])
    predictions = model(predict_dataset, training=False)
    probs = [tf.nn.softmax(logits)[tf.argmax(logits)] for logits in predictions]
    return {"softmax_first": softmax_first, "initial_loss": l, "losses": train_loss_results,
            "accs": train_accuracy_results, "test_acc": test_accuracy.result(),
            "probs": probs, "iterations": optimizer.iterations}
