# After: https://www.tensorflow.org/tutorials/keras/overfit_and_underfit (InverseTimeDecay
# schedule, get_optimizer, get_callbacks, compile_and_fit with BinaryCrossentropy from logits
# as loss and metric, the L2-regularized model, the dropout-free "small" model)
# Adapted: 32 seeded synthetic rows with 28 features instead of the Higgs CSV, 16-row batches
# (two per epoch), 6 epochs; fixed starting weights; the callbacks keep EarlyStopping and
# leave out tfdocs' EpochDots (not installed) and TensorBoard (tf.summary).
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras import regularizers
from adapt import data, fixed_weights

FEATURES = 28
N_VALIDATION = 16
N_TRAIN = 32
BATCH_SIZE = 16
STEPS_PER_EPOCH = N_TRAIN//BATCH_SIZE

lr_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(
  0.001,
  decay_steps=STEPS_PER_EPOCH*1000,
  decay_rate=1,
  staircase=False)


def get_optimizer():
  return tf.keras.optimizers.Adam(lr_schedule)


def get_callbacks(name):
  return [
    tf.keras.callbacks.EarlyStopping(monitor='val_binary_crossentropy', patience=200),
  ]


def compile_and_fit(model, name, train_ds, validate_ds, optimizer=None, max_epochs=6):
  if optimizer is None:
    optimizer = get_optimizer()
  model.compile(optimizer=optimizer,
                loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                metrics=[
                  tf.keras.metrics.BinaryCrossentropy(
                      from_logits=True, name='binary_crossentropy'),
                  'accuracy'])

  model.summary()

  history = model.fit(
    train_ds,
    steps_per_epoch = STEPS_PER_EPOCH,
    epochs=max_epochs,
    validation_data=validate_ds,
    callbacks=get_callbacks(name),
    verbose=0)
  return history


def main():
    x = data(1, N_VALIDATION + N_TRAIN, FEATURES)
    y = (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(np.float32)
    packed_ds = tf.data.Dataset.from_tensor_slices((x, y))
    validate_ds = packed_ds.take(N_VALIDATION).cache()
    train_ds = packed_ds.skip(N_VALIDATION).take(N_TRAIN).cache()
    validate_ds = validate_ds.batch(BATCH_SIZE)
    train_ds = train_ds.batch(BATCH_SIZE).repeat()

    small_model = tf.keras.Sequential([
        # `input_shape` is only required here so that `.summary` works.
        layers.Dense(16, activation='elu', input_shape=(FEATURES,)),
        layers.Dense(16, activation='elu'),
        layers.Dense(1)
    ])
    fixed_weights(small_model.trainable_variables, seed=2)
    small = compile_and_fit(small_model, 'sizes/Small', train_ds, validate_ds)

    l2_model = tf.keras.Sequential([
        layers.Dense(64, activation='elu',
                     kernel_regularizer=regularizers.l2(0.001),
                     input_shape=(FEATURES,)),
        layers.Dense(64, activation='elu',
                     kernel_regularizer=regularizers.l2(0.001)),
        layers.Dense(64, activation='elu',
                     kernel_regularizer=regularizers.l2(0.001)),
        layers.Dense(64, activation='elu',
                     kernel_regularizer=regularizers.l2(0.001)),
        layers.Dense(1)
    ])
    fixed_weights(l2_model.trainable_variables, seed=3, scale=0.15)
    l2 = compile_and_fit(l2_model, "regularizers/l2", train_ds, validate_ds)
    result = l2_model(x[:4])
    regularization_loss = tf.add_n(l2_model.losses)
    return {"small": small.history, "l2": l2.history, "result": result,
            "regularization_loss": regularization_loss,
            "lr_at": [lr_schedule(0), lr_schedule(2000), lr_schedule(10000)]}
