# After: https://keras.io/examples/vision/siamese_contrastive/ (the tf.keras version:
# euclidean_distance with keras.backend.epsilon, the contrastive loss(margin) closure, the
# embedding network with BatchNormalization, Conv2D tanh, AveragePooling2D, a Lambda distance
# layer and a sigmoid head, compile with RMSprop and accuracy, fit with validation_data)
# Adapted: 16 seeded synthetic pairs of 28x28 images instead of MNIST pairs, 4 filters instead
# of 4/16 (one conv block), 2 epochs of batch 8, fixed weights; shuffle=False.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights

epochs = 2
batch_size = 8
margin = 1  # Margin for contrastive loss.


# Provided two tensors t1 and t2
# Euclidean distance = sqrt(sum(square(t1-t2)))
def euclidean_distance(vects):
    """Find the Euclidean distance between two vectors.

    Arguments:
        vects: List containing two tensors of same length.

    Returns:
        Tensor containing euclidean distance
        (as floating point value) between vectors.
    """

    x, y = vects
    sum_square = tf.math.reduce_sum(tf.math.square(x - y), axis=1, keepdims=True)
    return tf.math.sqrt(tf.math.maximum(sum_square, tf.keras.backend.epsilon()))


def loss(margin=1):
    """Provides 'contrastive_loss' an enclosing scope with variable 'margin'.

    Arguments:
        margin: Integer, defines the baseline for distance for which pairs
                should be classified as dissimilar. - (default is 1).

    Returns:
        'contrastive_loss' function with data ('margin') attached.
    """

    # Contrastive loss = mean( (1-true_value) * square(prediction) +
    #                         true_value * square( max(margin-prediction, 0) ))
    def contrastive_loss(y_true, y_pred):
        """Calculates the contrastive loss.

        Arguments:
            y_true: List of labels, each label is of type float32.
            y_pred: List of predictions of same length as of y_true,
                    each label is of type float32.

        Returns:
            A tensor containing contrastive loss as floating point value.
        """

        square_pred = tf.math.square(y_pred)
        margin_square = tf.math.square(tf.math.maximum(margin - (y_pred), 0))
        return tf.math.reduce_mean(
            (1 - y_true) * square_pred + (y_true) * margin_square
        )

    return contrastive_loss


def main():
    input = layers.Input((28, 28, 1))
    x = tf.keras.layers.BatchNormalization()(input)
    x = layers.Conv2D(4, (5, 5), activation="tanh")(x)
    x = layers.AveragePooling2D(pool_size=(2, 2))(x)
    x = layers.Conv2D(4, (5, 5), activation="tanh")(x)
    x = layers.AveragePooling2D(pool_size=(2, 2))(x)
    x = layers.Flatten()(x)

    x = tf.keras.layers.BatchNormalization()(x)
    x = layers.Dense(10, activation="tanh")(x)
    embedding_network = keras.Model(input, x)

    input_1 = layers.Input((28, 28, 1))
    input_2 = layers.Input((28, 28, 1))

    # As mentioned above, Siamese Network share weights between
    # tower networks (sister networks). To allow this, we will use
    # same embedding network for both tower networks.
    tower_1 = embedding_network(input_1)
    tower_2 = embedding_network(input_2)

    merge_layer = layers.Lambda(euclidean_distance)([tower_1, tower_2])
    normal_layer = tf.keras.layers.BatchNormalization()(merge_layer)
    output_layer = layers.Dense(1, activation="sigmoid")(normal_layer)
    siamese = keras.Model(inputs=[input_1, input_2], outputs=output_layer)
    fixed_weights(siamese.trainable_weights, seed=3, scale=0.3)

    x_train_1, x_train_2 = data(1, 16, 28, 28, 1, low=0.0, high=1.0), data(2, 16, 28, 28, 1, low=0.0, high=1.0)
    labels_train = (np.arange(16) % 2).astype("float32")
    x_val_1, x_val_2 = data(3, 8, 28, 28, 1, low=0.0, high=1.0), data(4, 8, 28, 28, 1, low=0.0, high=1.0)
    labels_val = (np.arange(8) % 2).astype("float32")

    siamese.compile(loss=loss(margin=margin), optimizer="RMSprop", metrics=["accuracy"])
    history = siamese.fit(
        [x_train_1, x_train_2],
        labels_train,
        validation_data=([x_val_1, x_val_2], labels_val),
        batch_size=batch_size,
        epochs=epochs,
        shuffle=False,
        verbose=0,
    )
    results = siamese.evaluate([x_val_1, x_val_2], labels_val, verbose=0)
    return {"history": history.history, "results": results,
            "moving_means": [w for w in siamese.weights if "moving_mean" in w.name]}
