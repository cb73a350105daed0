# After: https://www.tensorflow.org/guide/mixed_precision (mixed_precision.Policy
# ('mixed_float16') and set_global_policy; a functional model of Dense layers whose outputs
# are float16 and kernels float32, a float32 softmax Activation; compile with RMSprop and
# sparse_categorical_crossentropy, fit with validation_split; float16 overflow and
# underflow; the custom loop with LossScaleOptimizer, get_scaled_loss and
# get_unscaled_gradients in a tf.function train_step, Mean and SparseCategoricalAccuracy)
# Adapted: 96 training and 32 test seeded synthetic 784-pixel images instead of MNIST, 2
# epochs instead of 5 (batch 8192 covers the data, so fit's shuffle cannot change a step;
# the dataset's shuffle(10000) left out for the same reason); fixed weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras import mixed_precision
from adapt import data, fixed_weights, labels


def main():
    out = {}
    policy = mixed_precision.Policy('mixed_float16')
    mixed_precision.set_global_policy(policy)
    print('Compute dtype: %s' % policy.compute_dtype)
    print('Variable dtype: %s' % policy.variable_dtype)
    try:
        inputs = keras.Input(shape=(784,), name='digits')
        if tf.config.list_physical_devices('GPU'):
          print('The model will run with 4096 units on a GPU')
          num_units = 4096
        else:
          # Use fewer units on CPUs so the model finishes in a reasonable amount of time
          print('The model will run with 64 units on a CPU')
          num_units = 64
        dense1 = layers.Dense(num_units, activation='relu', name='dense_1')
        x = dense1(inputs)
        dense2 = layers.Dense(num_units, activation='relu', name='dense_2')
        x = dense2(x)

        print(dense1.dtype_policy)
        print('x.dtype: %s' % x.dtype.name)
        # 'kernel' is dense1's variable
        print('dense1.kernel.dtype: %s' % dense1.kernel.dtype.name)
        out["dtypes"] = [str(dense1.dtype_policy.name), x.dtype.name, dense1.kernel.dtype.name]

        # INCORRECT: softmax and model output will be float16, when it should be float32
        x = layers.Dense(10, name='dense_logits')(x)
        outputs = layers.Activation('softmax', dtype='float32', name='predictions')(x)
        print('Outputs dtype: %s' % outputs.dtype.name)
        out["outputs_dtype"] = outputs.dtype.name

        model = keras.Model(inputs=inputs, outputs=outputs)
        fixed_weights(model.trainable_variables, seed=1, scale=0.1)
        model.compile(loss='sparse_categorical_crossentropy',
                      optimizer=keras.optimizers.RMSprop(),
                      metrics=['accuracy'])

        x_train, y_train = np.round(data(2, 96, 28, 28, low=0, high=255)), labels(3, 96, 10)
        x_test, y_test = np.round(data(4, 32, 28, 28, low=0, high=255)), labels(5, 32, 10)
        x_train = x_train.reshape(96, 784).astype('float32') / 255
        x_test = x_test.reshape(32, 784).astype('float32') / 255

        initial_weights = model.get_weights()

        history = model.fit(x_train, y_train,
                            batch_size=8192,
                            epochs=2,
                            validation_split=0.2)
        test_scores = model.evaluate(x_test, y_test, verbose=2)
        print('Test loss:', test_scores[0])
        print('Test accuracy:', test_scores[1])
        out["history"] = history.history
        out["test_scores"] = test_scores

        x = tf.constant(256, dtype='float16')
        out["overflow"] = (x ** 2).numpy()  # Overflow
        x = tf.constant(1e-5, dtype='float16')
        out["underflow"] = (x ** 2).numpy()  # Underflow

        optimizer = keras.optimizers.RMSprop()
        optimizer = mixed_precision.LossScaleOptimizer(optimizer)
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
        train_dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
                         .batch(8192))
        test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(8192)

        @tf.function
        def train_step(x, y):
          with tf.GradientTape() as tape:
            predictions = model(x)
            loss = loss_object(y, predictions)
            scaled_loss = optimizer.get_scaled_loss(loss)
          scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
          gradients = optimizer.get_unscaled_gradients(scaled_gradients)
          optimizer.apply_gradients(zip(gradients, model.trainable_variables))
          return loss

        @tf.function
        def test_step(x):
          return model(x, training=False)

        model.set_weights(initial_weights)

        losses = []
        for epoch in range(2):
          epoch_loss_avg = tf.keras.metrics.Mean()
          test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
              name='test_accuracy')
          for x, y in train_dataset:
            loss = train_step(x, y)
            epoch_loss_avg(loss)
          for x, y in test_dataset:
            predictions = test_step(x)
            test_accuracy.update_state(y, predictions)
          print('Epoch {}: loss={}, test accuracy={}'.format(epoch, epoch_loss_avg.result(), test_accuracy.result()))
          losses.append([epoch_loss_avg.result(), test_accuracy.result()])
        out["custom_loop"] = losses
        out["loss_scale"] = optimizer.loss_scale
    finally:
        mixed_precision.set_global_policy('float32')
    return out
