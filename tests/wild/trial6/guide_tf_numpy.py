# After: https://www.tensorflow.org/guide/tf_numpy (site/en/guide/tf_numpy.ipynb in tensorflow/docs)
# Adapted: the guide's model and gradient cells (the Model class, compute_gradients,
# prediction_batch_jacobian, the vectorized and unvectorized per-example gradients, the
# prediction in a tf.device scope) placed in main(), after the setup cell's
# tnp.experimental_enable_numpy_behavior(); the cells that only show array
# behaviour, plot, or time computations (timeit) left out; tnp.random.randn (TensorFlow's
# random draws) taken from seeded NumPy's standard normal, through tnp.asarray; main()
# returns the predictions, gradients, batch Jacobian and per-example gradients the cells
# print the shapes of.
import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

_rng = np.random.default_rng(0)


def randn(*shape):
  return tnp.asarray(_rng.standard_normal(shape))


def main():
  out = {}
  tnp.experimental_enable_numpy_behavior()

  class Model(object):
    """Model with a dense and a linear layer."""

    def __init__(self):
      self.weights = None

    def predict(self, inputs):
      if self.weights is None:
        size = inputs.shape[1]
        # Note that type `tnp.float32` is used for performance.
        stddev = tnp.sqrt(size).astype(tnp.float32)
        w1 = randn(size, 64).astype(tnp.float32) / stddev
        bias = randn(64).astype(tnp.float32)
        w2 = randn(64, 2).astype(tnp.float32) / 8
        self.weights = (w1, bias, w2)
      else:
        w1, bias, w2 = self.weights
      y = tnp.matmul(inputs, w1) + bias
      y = tnp.maximum(y, 0)  # Relu
      return tnp.matmul(y, w2)  # Linear projection

  model = Model()
  # Create input data and compute predictions.
  print(model.predict(tnp.ones([2, 32], dtype=tnp.float32)))
  out["predict_ones"] = model.predict(tnp.ones([2, 32], dtype=tnp.float32))

  def create_batch(batch_size=32):
    """Creates a batch of input and labels."""
    return (randn(batch_size, 32).astype(tnp.float32),
            randn(batch_size, 2).astype(tnp.float32))

  def compute_gradients(model, inputs, labels):
    """Computes gradients of squared loss between model prediction and labels."""
    with tf.GradientTape() as tape:
      assert model.weights is not None
      # Note that `model.weights` need to be explicitly watched since they
      # are not tf.Variables.
      tape.watch(model.weights)
      # Compute prediction and loss
      prediction = model.predict(inputs)
      loss = tnp.sum(tnp.square(prediction - labels))
    # This call computes the gradient through the computation above.
    return tape.gradient(loss, model.weights)

  inputs, labels = create_batch()
  gradients = compute_gradients(model, inputs, labels)

  # Inspect the shapes of returned gradients to verify they match the
  # parameter shapes.
  print("Parameter shapes:", [w.shape for w in model.weights])
  print("Gradient shapes:", [g.shape for g in gradients])
  # Verify that gradients are of type ND array.
  assert isinstance(gradients[0], tnp.ndarray)
  out["gradients"] = list(gradients)

  # Computes a batch of jacobians. Each row is the jacobian of an element in the
  # batch of outputs w.r.t. the corresponding input batch element.
  def prediction_batch_jacobian(inputs):
    with tf.GradientTape() as tape:
      tape.watch(inputs)
      prediction = model.predict(inputs)
    return prediction, tape.batch_jacobian(prediction, inputs)

  inp_batch = tnp.ones([16, 32], tnp.float32)
  output, batch_jacobian = prediction_batch_jacobian(inp_batch)
  # Note how the batch jacobian shape relates to the input and output shapes.
  print("Output shape: %s, input shape: %s" % (output.shape, inp_batch.shape))
  print("Batch jacobian shape:", batch_jacobian.shape)
  out["batch_jacobian"] = batch_jacobian

  @tf.function
  def vectorized_per_example_gradients(inputs, labels):
    def single_example_gradient(arg):
      inp, label = arg
      return compute_gradients(model,
                               tnp.expand_dims(inp, 0),
                               tnp.expand_dims(label, 0))
    # Note that a call to `tf.vectorized_map` semantically maps
    # `single_example_gradient` over each row of `inputs` and `labels`.
    # The interface is similar to `tf.map_fn`.
    # The underlying machinery vectorizes away this map loop which gives
    # nice speedups.
    return tf.vectorized_map(single_example_gradient, (inputs, labels))

  batch_size = 128
  inputs, labels = create_batch(batch_size)

  per_example_gradients = vectorized_per_example_gradients(inputs, labels)
  for w, p in zip(model.weights, per_example_gradients):
    print("Weight shape: %s, batch size: %s, per example gradient shape: %s " % (
        w.shape, batch_size, p.shape))
  out["vectorized"] = [p[:4] for p in per_example_gradients]

  # Benchmark the vectorized computation above and compare with
  # unvectorized sequential computation using `tf.map_fn`.
  @tf.function
  def unvectorized_per_example_gradients(inputs, labels):
    def single_example_gradient(arg):
      inp, label = arg
      return compute_gradients(model,
                               tnp.expand_dims(inp, 0),
                               tnp.expand_dims(label, 0))

    return tf.map_fn(single_example_gradient, (inputs, labels),
                     fn_output_signature=(tf.float32, tf.float32, tf.float32))

  per_example_gradients = unvectorized_per_example_gradients(inputs, labels)
  out["unvectorized"] = [p[:4] for p in per_example_gradients]

  print("All logical devices:", tf.config.list_logical_devices())
  print("All physical devices:", tf.config.list_physical_devices())

  # Try to get the GPU device. If unavailable, fallback to CPU.
  try:
    device = tf.config.list_logical_devices(device_type="GPU")[0]
  except IndexError:
    device = "/device:CPU:0"

  print("Using device: %s" % str(device))
  # Run operations in the `tf.device` scope.
  # If a GPU is available, these operations execute on the GPU and outputs are
  # placed on the GPU memory.
  with tf.device(device):
    prediction = model.predict(create_batch(5)[0])

  print("prediction is placed on %s" % prediction.device)
  out["prediction"] = prediction
  return out
