# After: https://github.com/YunYang1994/TensorFlow2.0-Examples (2-Basical_Models/Linear_Regression.py)
# Adapted: the inputs and noise drawn from seeded NumPy instead of tf.random.normal, 200
# examples instead of 1000; the plotting (matplotlib) left out; the script's body wrapped
# in main(), which returns each epoch's loss and the final W and b.
import numpy as np
import tensorflow as tf

# Define model and Loss

class Model(object):
    def __init__(self):
        self.W = tf.Variable(10.0)
        self.b = tf.Variable(-5.0)

    def __call__(self, inputs):
        return self.W * inputs + self.b

def compute_loss(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true-y_pred))


def main():
    model = Model()

    # Define True weight and bias

    TRUE_W = 3.0
    TRUE_b = 2.0

    # Obtain training data, Let's synthesize the training data with some noise.

    NUM_EXAMPLES = 200
    rng = np.random.default_rng(0)
    inputs  = tf.constant(rng.standard_normal(NUM_EXAMPLES).astype(np.float32))
    noise   = tf.constant(rng.standard_normal(NUM_EXAMPLES).astype(np.float32))
    outputs = inputs * TRUE_W + TRUE_b + noise

    # Define a training loop
    learning_rate = 0.1
    losses = []
    for epoch in range(30):
        with tf.GradientTape() as tape:
            loss = compute_loss(outputs, model(inputs))

        dW, db = tape.gradient(loss, [model.W, model.b])

        model.W.assign_sub(learning_rate * dW)
        model.b.assign_sub(learning_rate * db)

        print("=> epoch %2d: w_true= %.2f, w_pred= %.2f; b_true= %.2f, b_pred= %.2f, loss= %.2f" %(
              epoch+1, TRUE_W, model.W.numpy(), TRUE_b, model.b.numpy(), loss.numpy()))
        losses.append(loss)
    return {"losses": losses, "W": model.W, "b": model.b}
