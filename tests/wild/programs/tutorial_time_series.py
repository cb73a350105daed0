# After: https://www.tensorflow.org/tutorials/structured_data/time_series (the 70/20/10
# split normalized by the training mean and std; WindowGenerator with split_window
# (tf.stack of label columns, set_shape), make_dataset by
# tf.keras.utils.timeseries_dataset_from_array, the train/val/test/example properties;
# compile_and_fit with EarlyStopping, MeanSquaredError, Adam and MeanAbsoluteError; the
# Baseline model evaluated with return_dict=True; linear, dense, multi_step_dense (Flatten
# and Reshape), conv_model and lstm_model; ResidualWrapper with a zeros-initialized
# Dense; the autoregressive FeedBack model with LSTMCell, RNN(return_state=True), warmup
# and call)
# Adapted: 300 rows of seeded synthetic weather (three columns) in a small stand-in for
# the pandas DataFrame instead of the Jena climate CSV, MAX_EPOCHS 2 instead of 20,
# shuffle=False in make_dataset; each model called on the example batch (as the
# tutorial does) and then given fixed weights; plots left out.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights

MAX_EPOCHS = 2
CONV_WIDTH = 3
OUT_STEPS = 6


class Frame:
    """The DataFrame operations the tutorial uses: columns, slicing rows, mean, std, arithmetic."""

    def __init__(self, values, columns):
        self.values, self.columns = np.asarray(values, dtype=np.float64), list(columns)

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __len__(self):
        return len(self.values)

    def __getitem__(self, rows):
        return Frame(self.values[rows], self.columns)

    def mean(self):
        return self.values.mean(axis=0)

    def std(self):
        return self.values.std(axis=0, ddof=1)

    def __sub__(self, other):
        return Frame(self.values - other, self.columns)

    def __truediv__(self, other):
        return Frame(self.values / other, self.columns)


class WindowGenerator():
  def __init__(self, input_width, label_width, shift,
               train_df, val_df, test_df,
               label_columns=None):
    # Store the raw data.
    self.train_df = train_df
    self.val_df = val_df
    self.test_df = test_df

    # Work out the label column indices.
    self.label_columns = label_columns
    if label_columns is not None:
      self.label_columns_indices = {name: i for i, name in
                                    enumerate(label_columns)}
    self.column_indices = {name: i for i, name in
                           enumerate(train_df.columns)}

    # Work out the window parameters.
    self.input_width = input_width
    self.label_width = label_width
    self.shift = shift

    self.total_window_size = input_width + shift

    self.input_slice = slice(0, input_width)
    self.input_indices = np.arange(self.total_window_size)[self.input_slice]

    self.label_start = self.total_window_size - self.label_width
    self.labels_slice = slice(self.label_start, None)
    self.label_indices = np.arange(self.total_window_size)[self.labels_slice]

  def __repr__(self):
    return '\n'.join([
        f'Total window size: {self.total_window_size}',
        f'Input indices: {self.input_indices}',
        f'Label indices: {self.label_indices}',
        f'Label column name(s): {self.label_columns}'])


def split_window(self, features):
  inputs = features[:, self.input_slice, :]
  labels = features[:, self.labels_slice, :]
  if self.label_columns is not None:
    labels = tf.stack(
        [labels[:, :, self.column_indices[name]] for name in self.label_columns],
        axis=-1)

  # Slicing doesn't preserve static shape information, so set the shapes
  # manually. This way the `tf.data.Datasets` are easier to inspect.
  inputs.set_shape([None, self.input_width, None])
  labels.set_shape([None, self.label_width, None])

  return inputs, labels

WindowGenerator.split_window = split_window


def make_dataset(self, data):
  data = np.array(data, dtype=np.float32)
  ds = tf.keras.utils.timeseries_dataset_from_array(
      data=data,
      targets=None,
      sequence_length=self.total_window_size,
      sequence_stride=1,
      shuffle=False,
      batch_size=32,)

  ds = ds.map(self.split_window)

  return ds

WindowGenerator.make_dataset = make_dataset


@property
def train(self):
  return self.make_dataset(self.train_df)

@property
def val(self):
  return self.make_dataset(self.val_df)

@property
def test(self):
  return self.make_dataset(self.test_df)

@property
def example(self):
  """Get and cache an example batch of `inputs, labels` for plotting."""
  result = getattr(self, '_example', None)
  if result is None:
    # No example batch was found, so get one from the `.train` dataset
    result = next(iter(self.train))
    # And cache it for next time
    self._example = result
  return result

WindowGenerator.train = train
WindowGenerator.val = val
WindowGenerator.test = test
WindowGenerator.example = example


def compile_and_fit(model, window, patience=2):
  early_stopping = tf.keras.callbacks.EarlyStopping(monitor='val_loss',
                                                    patience=patience,
                                                    mode='min')

  model.compile(loss=tf.keras.losses.MeanSquaredError(),
                optimizer=tf.keras.optimizers.Adam(),
                metrics=[tf.keras.metrics.MeanAbsoluteError()])

  history = model.fit(window.train, epochs=MAX_EPOCHS,
                      validation_data=window.val,
                      callbacks=[early_stopping])
  return history


class Baseline(tf.keras.Model):
  def __init__(self, label_index=None):
    super().__init__()
    self.label_index = label_index

  def call(self, inputs):
    if self.label_index is None:
      return inputs
    result = inputs[:, :, self.label_index]
    return result[:, :, tf.newaxis]


class ResidualWrapper(tf.keras.Model):
  def __init__(self, model):
    super().__init__()
    self.model = model

  def call(self, inputs, *args, **kwargs):
    delta = self.model(inputs, *args, **kwargs)

    # The prediction for each time step is the input
    # from the previous time step plus the delta
    # calculated by the model.
    return inputs + delta


class FeedBack(tf.keras.Model):
  def __init__(self, units, out_steps):
    super().__init__()
    self.out_steps = out_steps
    self.units = units
    self.lstm_cell = tf.keras.layers.LSTMCell(units)
    # Also wrap the LSTMCell in an RNN to simplify the `warmup` method.
    self.lstm_rnn = tf.keras.layers.RNN(self.lstm_cell, return_state=True)
    self.dense = tf.keras.layers.Dense(num_features)


def warmup(self, inputs):
  # inputs.shape => (batch, time, features)
  # x.shape => (batch, lstm_units)
  x, *state = self.lstm_rnn(inputs)

  # predictions.shape => (batch, features)
  prediction = self.dense(x)
  return prediction, state

FeedBack.warmup = warmup


def call(self, inputs, training=None):
  # Use a TensorArray to capture dynamically unrolled outputs.
  predictions = []
  # Initialize the LSTM state.
  prediction, state = self.warmup(inputs)

  # Insert the first prediction.
  predictions.append(prediction)

  # Run the rest of the prediction steps.
  for n in range(1, self.out_steps):
    # Use the last prediction as input.
    x = prediction
    # Execute one lstm step.
    x, state = self.lstm_cell(x, states=state,
                              training=training)
    # Convert the LSTM output to a prediction.
    prediction = self.dense(x)
    # Add the prediction to the output.
    predictions.append(prediction)

  # predictions.shape => (time, batch, features)
  predictions = tf.stack(predictions)
  # predictions.shape => (batch, time, features)
  predictions = tf.transpose(predictions, [1, 0, 2])
  return predictions

FeedBack.call = call

num_features = 3


def main():
    t = np.arange(300)
    df = Frame(np.stack([990 + 5 * np.sin(t / 20) + data(1, 300),
                         10 + 8 * np.sin(t / 12) + data(2, 300),
                         70 + 10 * np.cos(t / 15) + data(3, 300)], axis=1),
               ['p (mbar)', 'T (degC)', 'rh (%)'])
    column_indices = {name: i for i, name in enumerate(df.columns)}

    n = len(df)
    train_df = df[0:int(n*0.7)]
    val_df = df[int(n*0.7):int(n*0.9)]
    test_df = df[int(n*0.9):]

    train_mean = train_df.mean()
    train_std = train_df.std()

    train_df = (train_df - train_mean) / train_std
    val_df = (val_df - train_mean) / train_std
    test_df = (test_df - train_mean) / train_std

    out = {}
    single_step_window = WindowGenerator(
        input_width=1, label_width=1, shift=1,
        train_df=train_df, val_df=val_df, test_df=test_df,
        label_columns=['T (degC)'])
    print(single_step_window)
    for example_inputs, example_labels in single_step_window.train.take(1):
      print(f'Inputs shape (batch, time, features): {example_inputs.shape}')
      print(f'Labels shape (batch, time, features): {example_labels.shape}')
      out["example_labels"] = example_labels[:4]

    baseline = Baseline(label_index=column_indices['T (degC)'])

    baseline.compile(loss=tf.keras.losses.MeanSquaredError(),
                     metrics=[tf.keras.metrics.MeanAbsoluteError()])

    val_performance = {}
    performance = {}
    val_performance['Baseline'] = baseline.evaluate(single_step_window.val, return_dict=True)
    performance['Baseline'] = baseline.evaluate(single_step_window.test, verbose=0, return_dict=True)

    wide_window = WindowGenerator(
        input_width=24, label_width=24, shift=1,
        train_df=train_df, val_df=val_df, test_df=test_df,
        label_columns=['T (degC)'])

    linear = tf.keras.Sequential([
        tf.keras.layers.Dense(units=1)
    ])
    print('Output shape:', linear(single_step_window.example[0]).shape)
    fixed_weights(linear.trainable_variables, seed=4)
    history = compile_and_fit(linear, single_step_window)
    out["linear_history"] = history.history
    val_performance['Linear'] = linear.evaluate(single_step_window.val, return_dict=True)
    performance['Linear'] = linear.evaluate(single_step_window.test, verbose=0, return_dict=True)

    dense = tf.keras.Sequential([
        tf.keras.layers.Dense(units=64, activation='relu'),
        tf.keras.layers.Dense(units=64, activation='relu'),
        tf.keras.layers.Dense(units=1)
    ])
    dense(single_step_window.example[0])
    fixed_weights(dense.trainable_variables, seed=5)
    history = compile_and_fit(dense, single_step_window)
    val_performance['Dense'] = dense.evaluate(single_step_window.val, return_dict=True)

    conv_window = WindowGenerator(
        input_width=CONV_WIDTH,
        label_width=1,
        shift=1,
        train_df=train_df, val_df=val_df, test_df=test_df,
        label_columns=['T (degC)'])

    multi_step_dense = tf.keras.Sequential([
        # Shape: (time, features) => (time*features)
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(units=32, activation='relu'),
        tf.keras.layers.Dense(units=32, activation='relu'),
        tf.keras.layers.Dense(units=1),
        # Add back the time dimension.
        # Shape: (outputs) => (1, outputs)
        tf.keras.layers.Reshape([1, -1]),
    ])
    print('Output shape:', multi_step_dense(conv_window.example[0]).shape)
    fixed_weights(multi_step_dense.trainable_variables, seed=6)
    history = compile_and_fit(multi_step_dense, conv_window)
    val_performance['Multi step dense'] = multi_step_dense.evaluate(conv_window.val, return_dict=True)

    conv_model = tf.keras.Sequential([
        tf.keras.layers.Conv1D(filters=32,
                               kernel_size=(CONV_WIDTH,),
                               activation='relu'),
        tf.keras.layers.Dense(units=32, activation='relu'),
        tf.keras.layers.Dense(units=1),
    ])
    print("Output shape:", conv_model(conv_window.example[0]).shape)
    fixed_weights(conv_model.trainable_variables, seed=7)
    history = compile_and_fit(conv_model, conv_window)
    val_performance['Conv'] = conv_model.evaluate(conv_window.val, return_dict=True)

    lstm_model = tf.keras.models.Sequential([
        # Shape [batch, time, features] => [batch, time, lstm_units]
        tf.keras.layers.LSTM(32, return_sequences=True),
        # Shape => [batch, time, features]
        tf.keras.layers.Dense(units=1)
    ])
    print('Output shape:', lstm_model(wide_window.example[0]).shape)
    fixed_weights(lstm_model.trainable_variables, seed=8)
    history = compile_and_fit(lstm_model, wide_window)
    val_performance['LSTM'] = lstm_model.evaluate(wide_window.val, return_dict=True)

    wide_window_all = WindowGenerator(
        input_width=24, label_width=24, shift=1,
        train_df=train_df, val_df=val_df, test_df=test_df)
    residual_lstm = ResidualWrapper(
        tf.keras.Sequential([
        tf.keras.layers.LSTM(32, return_sequences=True),
        tf.keras.layers.Dense(
            num_features,
            # The predicted deltas should start small.
            # Therefore, initialize the output layer with zeros.
            kernel_initializer=tf.initializers.zeros())
    ]))
    residual_lstm(wide_window_all.example[0])
    fixed_weights(residual_lstm.trainable_variables[:3], seed=9)
    history = compile_and_fit(residual_lstm, wide_window_all)
    val_performance['Residual LSTM'] = residual_lstm.evaluate(wide_window_all.val, return_dict=True)

    multi_window = WindowGenerator(input_width=24,
                                   label_width=OUT_STEPS,
                                   shift=OUT_STEPS,
                                   train_df=train_df, val_df=val_df, test_df=test_df)
    feedback_model = FeedBack(units=32, out_steps=OUT_STEPS)
    prediction, state = feedback_model.warmup(multi_window.example[0])
    print('Output shape (batch, time, features): ', feedback_model(multi_window.example[0]).shape)
    fixed_weights(feedback_model.trainable_variables, seed=10)
    history = compile_and_fit(feedback_model, multi_window)
    val_performance['AR LSTM'] = feedback_model.evaluate(multi_window.val, return_dict=True)
    out["feedback_history"] = history.history
    out["val_performance"] = val_performance
    out["performance"] = performance
    out["feedback_prediction"] = feedback_model(multi_window.example[0])[0]
    return out
