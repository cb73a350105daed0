# After: https://github.com/aymericdamien/TensorFlow-Examples (tensorflow_v2/notebooks/
# 3_NeuralNetworks/neural_network.ipynb: a subclassed tf.keras Model NeuralNet with
# layers.Dense and a softmax when not training, tf.nn.sparse_softmax_cross_entropy_with_logits,
# accuracy with tf.argmax, tf.optimizers.SGD)
# Adapted: seeded synthetic "digits", fixed starting weights, hidden layers of 32,
# 15 steps.
import numpy as np
import tensorflow as tf
from tensorflow.keras import Model, layers

from adapt import data, fixed_weights, labels

num_classes = 10
num_features = 784
learning_rate = 0.1
training_steps = 15
batch_size = 16
display_step = 5
n_hidden_1 = 32
n_hidden_2 = 32

x_train = data(0, 64, num_features, low=0, high=1)
y_train = labels(1, 64, num_classes)
train_data = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)


# Create TF Model.
class NeuralNet(Model):
    # Set layers.
    def __init__(self):
        super(NeuralNet, self).__init__()
        # First fully-connected hidden layer.
        self.fc1 = layers.Dense(n_hidden_1, activation=tf.nn.relu)
        # First fully-connected hidden layer.
        self.fc2 = layers.Dense(n_hidden_2, activation=tf.nn.relu)
        # Second fully-connecter hidden layer.
        self.out = layers.Dense(num_classes)

    # Set forward pass.
    def call(self, x, is_training=False):
        x = self.fc1(x)
        x = self.fc2(x)
        x = self.out(x)
        if not is_training:
            # tf cross entropy expect logits without softmax, so only
            # apply softmax when not training.
            x = tf.nn.softmax(x)
        return x


# Build neural network model.
neural_net = NeuralNet()


# Cross-Entropy Loss.
# Note that this will apply 'softmax' to the logits.
def cross_entropy_loss(x, y):
    # Convert labels to int 64 for tf cross-entropy function.
    y = tf.cast(y, tf.int64)
    # Apply softmax to logits and compute cross-entropy.
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=x)
    # Average loss across the batch.
    return tf.reduce_mean(loss)


# Accuracy metric.
def accuracy(y_pred, y_true):
    # Predicted class is the index of highest score in prediction vector (i.e. argmax).
    correct_prediction = tf.equal(tf.argmax(y_pred, 1), tf.cast(y_true, tf.int64))
    return tf.reduce_mean(tf.cast(correct_prediction, tf.float32), axis=-1)


# Stochastic gradient descent optimizer.
optimizer = tf.optimizers.SGD(learning_rate)


# Optimization process.
def run_optimization(x, y):
    # Wrap computation inside a GradientTape for automatic differentiation.
    with tf.GradientTape() as g:
        # Forward pass.
        pred = neural_net(x, is_training=True)
        # Compute loss.
        loss = cross_entropy_loss(pred, y)

    # Variables to update, i.e. trainable variables.
    trainable_variables = neural_net.trainable_variables

    # Compute gradients.
    gradients = g.gradient(loss, trainable_variables)

    # Update W and b following gradients.
    optimizer.apply_gradients(zip(gradients, trainable_variables))


def main():
    neural_net(x_train[:1])
    fixed_weights(neural_net.trainable_variables, scale=0.1)
    logged = []
    for step, (batch_x, batch_y) in enumerate(train_data.take(training_steps), 1):
        run_optimization(batch_x, batch_y)
        if step % display_step == 0:
            pred = neural_net(batch_x, is_training=True)
            loss = cross_entropy_loss(pred, batch_y)
            acc = accuracy(pred, batch_y)
            logged.append((step, loss, acc))
    return {"logged": logged,
            # each variable's norm and first row (the whole arrays make a 0.8 MB answer file)
            "variable_norms": [tf.norm(v) for v in neural_net.trainable_variables],
            "variable_rows": [v[:1] for v in neural_net.trainable_variables],
            "names": [v.name for v in neural_net.trainable_variables]}
