# After: https://keras.io/examples/vision/metric_learning/ (the tf.keras version: images
# scaled to [0, 1], class_idx_to_train_idxs, AnchorPositivePairs as a keras.utils.Sequence
# drawing an anchor and a positive per class with random.choice, EmbeddingModel with a
# train_step computing tf.einsum similarities over a temperature and compiled_loss against
# tf.range labels, three strided Conv2D layers, GlobalAveragePooling2D, a Dense embedding
# and tf.nn.l2_normalize; fit on the Sequence; predict embeddings of the test set and the
# nearest-neighbour confusion matrix)
# Adapted: 60 training and 30 test seeded synthetic 32x32 RGB images with 10 classes
# instead of CIFAR-10, 3 batches per epoch instead of 1000, 2 epochs instead of 20, random
# seeded; fixed weights (seeds whose embeddings after training move less than 2e-4 when
# TensorFlow's starting weights move by 1e-6: some draws make Adam's first sign-like steps
# chaotic); show_collage (matplotlib) left out.
import random
from collections import defaultdict

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels

height_width = 32
num_classes = 10


def main():
    random.seed(0)
    x_train = np.round(data(1, 60, 32, 32, 3, low=0, high=255)).astype("float32") / 255.0
    y_train = np.squeeze(np.arange(60) % 10)
    x_test = np.round(data(2, 30, 32, 32, 3, low=0, high=255)).astype("float32") / 255.0
    y_test = np.squeeze(np.arange(30) % 10)

    class_idx_to_train_idxs = defaultdict(list)
    for y_train_idx, y in enumerate(y_train):
        class_idx_to_train_idxs[y].append(y_train_idx)

    class_idx_to_test_idxs = defaultdict(list)
    for y_test_idx, y in enumerate(y_test):
        class_idx_to_test_idxs[y].append(y_test_idx)

    class AnchorPositivePairs(keras.utils.Sequence):
        def __init__(self, num_batchs):
            self.num_batchs = num_batchs

        def __len__(self):
            return self.num_batchs

        def __getitem__(self, _idx):
            x = np.empty((2, num_classes, height_width, height_width, 3), dtype=np.float32)
            for class_idx in range(num_classes):
                examples_for_class = class_idx_to_train_idxs[class_idx]
                anchor_idx = random.choice(examples_for_class)
                positive_idx = random.choice(examples_for_class)
                while positive_idx == anchor_idx:
                    positive_idx = random.choice(examples_for_class)
                x[0, class_idx] = x_train[anchor_idx]
                x[1, class_idx] = x_train[positive_idx]
            return x

    class EmbeddingModel(keras.Model):
        def train_step(self, data):
            # Note: Workaround for open issue, to be removed.
            if isinstance(data, tuple):
                data = data[0]
            anchors, positives = data[0], data[1]

            with tf.GradientTape() as tape:
                # Run both anchors and positives through model.
                anchor_embeddings = self(anchors, training=True)
                positive_embeddings = self(positives, training=True)

                # Calculate cosine similarity between anchors and positives. As they have
                # been normalised this is just the pair wise dot products.
                similarities = tf.einsum(
                    "ae,pe->ap", anchor_embeddings, positive_embeddings
                )

                # Since we intend to use these as logits we scale them by a temperature.
                # This value would normally be chosen as a hyper parameter.
                temperature = 0.2
                similarities /= temperature

                # We use these similarities as logits for a softmax. The labels for
                # this call are just the sequence [0, 1, 2, ..., num_classes] since we
                # want the main diagonal values, which correspond to the anchor/positive
                # pairs, to be high. This loss will move embeddings for the
                # anchor/positive pairs together and move all other pairs apart.
                sparse_labels = tf.range(num_classes)
                loss = self.compiled_loss(sparse_labels, similarities)

            # Calculate gradients and apply via optimizer.
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))

            # Update and return metrics (specifically the one for the loss value).
            self.compiled_metrics.update_state(sparse_labels, similarities)
            return {m.name: m.result() for m in self.metrics}

    inputs = layers.Input(shape=(height_width, height_width, 3))
    x = layers.Conv2D(filters=32, kernel_size=3, strides=2, activation="relu")(inputs)
    x = layers.Conv2D(filters=64, kernel_size=3, strides=2, activation="relu")(x)
    x = layers.Conv2D(filters=128, kernel_size=3, strides=2, activation="relu")(x)
    x = layers.GlobalAveragePooling2D()(x)
    embeddings = layers.Dense(units=8, activation=None)(x)
    embeddings = tf.nn.l2_normalize(embeddings, axis=-1)

    model = EmbeddingModel(inputs, embeddings)
    fixed_weights(model.trainable_variables, seed=5)

    model.compile(
        optimizer=keras.optimizers.Adam(learning_rate=1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )

    history = model.fit(AnchorPositivePairs(num_batchs=3), epochs=2)

    near_neighbours_per_example = 10

    embeddings = model.predict(x_test)
    gram_matrix = np.einsum("ae,be->ab", embeddings, embeddings)
    near_neighbours = np.argsort(gram_matrix.T)[:, -(near_neighbours_per_example + 1) :]

    confusion_matrix = np.zeros((num_classes, num_classes))

    # For each class.
    for class_idx in range(num_classes):
        # Consider 10 examples.
        example_idxs = class_idx_to_test_idxs[class_idx][:10]
        for y_test_idx in example_idxs:
            # And count the classes of its near neighbours.
            for nn_idx in near_neighbours[y_test_idx][:-1]:
                nn_class_idx = y_test[nn_idx]
                confusion_matrix[class_idx, nn_class_idx] += 1
    return {"history": history.history, "embeddings": embeddings,
            "confusion_total": float(confusion_matrix.sum())}
