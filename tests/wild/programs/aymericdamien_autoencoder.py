# After: https://github.com/aymericdamien/TensorFlow-Examples (tensorflow_v2/notebooks/
# 3_NeuralNetworks/autoencoder.ipynb: encoder/decoder weight dicts of tf.Variable,
# sigmoid layers, mean_square loss, tf.optimizers.RMSprop, run_optimization returning
# the loss)
# Adapted: seeded synthetic "digits", fixed starting weights in place of
# tf.random.normal, hidden sizes 32 and 16, 10 steps.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights

num_features = 784
learning_rate = 0.01
training_steps = 10
batch_size = 16
display_step = 2
num_hidden_1 = 32
num_hidden_2 = 16

x_train = data(0, 64, num_features, low=0, high=1)
train_data = tf.data.Dataset.from_tensor_slices((x_train, np.zeros(64, np.int32)))
train_data = train_data.repeat().shuffle(1).batch(batch_size).prefetch(1)

random_normal = tf.initializers.RandomNormal()

weights = {
    'encoder_h1': tf.Variable(random_normal([num_features, num_hidden_1])),
    'encoder_h2': tf.Variable(random_normal([num_hidden_1, num_hidden_2])),
    'decoder_h1': tf.Variable(random_normal([num_hidden_2, num_hidden_1])),
    'decoder_h2': tf.Variable(random_normal([num_hidden_1, num_features])),
}
biases = {
    'encoder_b1': tf.Variable(random_normal([num_hidden_1])),
    'encoder_b2': tf.Variable(random_normal([num_hidden_2])),
    'decoder_b1': tf.Variable(random_normal([num_hidden_1])),
    'decoder_b2': tf.Variable(random_normal([num_features])),
}
fixed_weights(list(weights.values()) + list(biases.values()), scale=0.2)


# Building the encoder.
def encoder(x):
    # Encoder Hidden layer with sigmoid activation.
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['encoder_h1']),
                                   biases['encoder_b1']))
    # Encoder Hidden layer with sigmoid activation.
    layer_2 = tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['encoder_h2']),
                                   biases['encoder_b2']))
    return layer_2


# Building the decoder.
def decoder(x):
    # Decoder Hidden layer with sigmoid activation.
    layer_1 = tf.nn.sigmoid(tf.add(tf.matmul(x, weights['decoder_h1']),
                                   biases['decoder_b1']))
    # Decoder Hidden layer with sigmoid activation.
    layer_2 = tf.nn.sigmoid(tf.add(tf.matmul(layer_1, weights['decoder_h2']),
                                   biases['decoder_b2']))
    return layer_2


# Mean square loss between original images and reconstructed ones.
def mean_square(reconstructed, original):
    return tf.reduce_mean(tf.pow(original - reconstructed, 2))


# Adam Optimizer.
optimizer = tf.optimizers.Adam(learning_rate=learning_rate)


# Optimization process.
def run_optimization(x):
    # Wrap computation inside a GradientTape for automatic differentiation.
    with tf.GradientTape() as g:
        reconstructed_image = decoder(encoder(x))
        loss = mean_square(reconstructed_image, x)

    # Variables to update, i.e. trainable variables.
    trainable_variables = list(weights.values()) + list(biases.values())

    # Compute gradients.
    gradients = g.gradient(loss, trainable_variables)

    # Update W and b following gradients.
    optimizer.apply_gradients(zip(gradients, trainable_variables))

    return loss


def main():
    logged = []
    for step, (batch_x, _) in enumerate(train_data.take(training_steps + 1)):
        # Run the optimization.
        loss = run_optimization(batch_x)
        if step % display_step == 0:
            logged.append((step, loss))
    return {"logged": logged, "decoder_b2": biases['decoder_b2'],
            "encoder_h2": weights['encoder_h2']}
