# After: https://github.com/YunYang1994/TensorFlow2.0-Examples (2-Basical_Models/Logistic_Regression.py)
# Adapted: 600 seeded NumPy images of MNIST's shape and dtype (uint8 28x28, labels 0-9)
# instead of tf.keras.datasets.mnist, so that the data is one batch of 600 and the batch
# shuffle has one element to shuffle; the script's body wrapped in main(), which returns
# every printed loss and accuracy and the final W and b.
import numpy as np
import tensorflow as tf


def main():
    # Parameters
    learning_rate = 0.001
    training_epochs = 6
    batch_size = 600

    # Import MNIST data
    rng = np.random.default_rng(0)
    x_train = rng.integers(0, 256, size=(600, 28, 28)).astype(np.uint8)
    y_train = rng.integers(0, 10, size=600).astype(np.uint8)

    train_dataset = (
        tf.data.Dataset.from_tensor_slices((tf.reshape(x_train, [-1, 784]), y_train))
        .batch(batch_size)
        .shuffle(1000)
    )

    train_dataset = (
        train_dataset.map(lambda x, y:
                          (tf.divide(tf.cast(x, tf.float32), 255.0),
                           tf.reshape(tf.one_hot(y, 10), (-1, 10))))
    )


    # Set model weights
    W = tf.Variable(tf.zeros([784, 10]))
    b = tf.Variable(tf.zeros([10]))

    # Construct model
    model = lambda x: tf.nn.softmax(tf.matmul(x, W) + b) # Softmax
    # Minimize error using cross entropy
    compute_loss = lambda true, pred: tf.reduce_mean(tf.reduce_sum(tf.losses.binary_crossentropy(true, pred), axis=-1))
    # caculate accuracy
    compute_accuracy = lambda true, pred: tf.reduce_mean(tf.keras.metrics.categorical_accuracy(true, pred))
    # Gradient Descent
    optimizer = tf.optimizers.Adam(learning_rate)

    losses, accs = [], []
    for epoch in range(training_epochs):
        for i, (x_, y_) in enumerate(train_dataset):
            with tf.GradientTape() as tape:
                pred = model(x_)
                loss = compute_loss(y_, pred)
            acc = compute_accuracy(y_, pred)
            grads = tape.gradient(loss, [W, b])
            optimizer.apply_gradients(zip(grads, [W, b]))
            print("=> loss %.2f acc %.2f" %(loss.numpy(), acc.numpy()))
            losses.append(loss)
            accs.append(acc)
    return {"losses": losses, "accs": accs, "W": W, "b": b}
