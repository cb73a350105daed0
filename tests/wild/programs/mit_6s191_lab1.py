# After: https://github.com/aamini/introtodeeplearning (lab1/Part1_TensorFlow.ipynb,
# sections 1.2 to 1.4: the computation graph func(a, b); OurDenseLayer with add_weight and
# build/call, tf.keras.utils.set_random_seed; a Sequential of one sigmoid Dense; a
# SubclassModel and an IdentityModel with an isidentity argument; GradientTape of x*x;
# gradient descent on (x - x_f)**2 from x = tf.Variable([tf.random.normal([1])]))
# Adapted: fixed weights after each build (the layers' random initial weights differ
# between libraries), x's random start assigned a fixed value, 100 steps instead of 500;
# the plots left out. Section 1.1 (string tensors, listed as not imitated) is not part of
# this program.
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


def func(a, b):
  c = tf.add(a, b)
  d = tf.subtract(b, 1)
  e = tf.multiply(c, d)
  return e


class OurDenseLayer(tf.keras.layers.Layer):
  def __init__(self, n_output_nodes):
    super(OurDenseLayer, self).__init__()
    self.n_output_nodes = n_output_nodes

  def build(self, input_shape):
    d = int(input_shape[-1])
    # Define and initialize parameters: a weight matrix W and bias b
    # Note that parameter initialization is random!
    self.W = self.add_weight("weight", shape=[d, self.n_output_nodes]) # note the dimensionality
    self.b = self.add_weight("bias", shape=[1, self.n_output_nodes]) # note the dimensionality

  def call(self, x):
    '''TODO: define the operation for z (hint: use tf.matmul)'''
    z = tf.matmul(x, self.W) + self.b

    '''TODO: define the operation for out (hint: use tf.sigmoid)'''
    y = tf.sigmoid(z)
    return y


from tensorflow.keras import Sequential
from tensorflow.keras.layers import Dense
from tensorflow.keras import Model


class SubclassModel(tf.keras.Model):

  # In __init__, we define the Model's layers
  def __init__(self, n_output_nodes):
    super(SubclassModel, self).__init__()
    '''TODO: Our model consists of a single Dense layer. Define this layer.'''
    self.dense_layer = Dense(n_output_nodes, activation='sigmoid')

  # In the call function, we define the Model's forward pass.
  def call(self, inputs):
    return self.dense_layer(inputs)


class IdentityModel(tf.keras.Model):

  # As before, in __init__ we define the Model's layers
  # Since our desired behavior involves the forward pass, this part is unchanged
  def __init__(self, n_output_nodes):
    super(IdentityModel, self).__init__()
    self.dense_layer = tf.keras.layers.Dense(n_output_nodes, activation='sigmoid')

  '''TODO: Implement the behavior where the network outputs the input, unchanged,
      under control of the isidentity argument.'''
  def call(self, inputs, isidentity=False):
    x = self.dense_layer(inputs)
    '''TODO: Implement identity behavior'''
    if isidentity:
      return inputs
    return x


def main():
    out = {}
    # Consider example values for a,b
    a, b = 1.5, 2.5
    # Execute the computation
    e_out = func(a,b)
    print(e_out)
    out["e_out"] = e_out

    # Test model output
    tf.keras.utils.set_random_seed(1)
    layer = OurDenseLayer(3)
    layer.build((1,2))
    fixed_weights(layer.trainable_variables, seed=1)
    x_input = tf.constant([[1,2.]], shape=(1,2))
    y = layer.call(x_input)
    out["our_dense"] = y

    # Define the number of outputs
    n_output_nodes = 3

    # First define the model
    model = Sequential()

    '''TODO: Define a dense (fully connected) layer to compute z'''
    # Remember: dense layers are defined by the parameters W and b!
    # You can read more about the initialization of W and b in the TF documentation :)
    # https://www.tensorflow.org/api_docs/python/tf/keras/layers/Dense?version=stable
    dense_layer = Dense(n_output_nodes, activation='sigmoid')

    # Add the dense layer to the model
    model.add(dense_layer)

    # Test model with example input
    x_input = tf.constant([[1,2.]], shape=(1,2))

    '''TODO: feed input into the model and predict the output!'''
    model(x_input)
    fixed_weights(model.trainable_variables, seed=2)
    model_output = model(x_input).numpy()
    print(model_output)
    out["sequential"] = model_output

    n_output_nodes = 3
    model = SubclassModel(n_output_nodes)

    x_input = tf.constant([[1,2.]], shape=(1,2))

    model.call(x_input)
    fixed_weights(model.trainable_variables, seed=3)
    out["subclass"] = model.call(x_input)

    n_output_nodes = 3
    model = IdentityModel(n_output_nodes)

    x_input = tf.constant([[1,2.]], shape=(1,2))
    '''TODO: pass the input into the model and call with and without the input identity option.'''
    model.call(x_input)
    fixed_weights(model.trainable_variables, seed=4)
    out_activate = model.call(x_input)
    out_identity = model.call(x_input, isidentity=True)

    print("Network output with activation: {}; network identity output: {}".format(out_activate.numpy(), out_identity.numpy()))
    out["identity"] = [out_activate, out_identity]

    # y = x^2
    # Example: x = 3.0
    x = tf.Variable(3.0)

    # Initiate the gradient tape
    with tf.GradientTape() as tape:
      # Define the function
      y = x * x
    # Access the gradient -- derivative of y with respect to x
    dy_dx = tape.gradient(y, x)

    assert dy_dx.numpy() == 6.0
    out["dy_dx"] = dy_dx

    # Initialize a random value for our initial x
    x = tf.Variable([tf.random.normal([1])])
    x.assign([[0.3]])
    print("Initializing x={}".format(x.numpy()))

    learning_rate = 1e-2 # learning rate for SGD
    history = []
    # Define the target value
    x_f = 4

    # We will run SGD for a number of iterations. At each iteration, we compute the loss,
    #   compute the derivative of the loss with respect to x, and perform the SGD update.
    for i in range(100):
      with tf.GradientTape() as tape:
        '''TODO: define the loss as described above'''
        loss = (x - x_f)**2

      # loss minimization using gradient tape
      grad = tape.gradient(loss, x) # compute the derivative of the loss with respect to x
      new_x = x - learning_rate*grad # sgd update
      x.assign(new_x) # update the value of x
      history.append(x.numpy()[0])
    out["history"] = history
    out["x"] = x
    return out
