# After: https://keras.io/examples/vision/simsiam/
# Adapted: small dense encoder and predictor instead of ResNet20, two seeded synthetic
# "augmented views" instead of the CIFAR-10 augmentation pipeline, fixed weights, one
# epoch of 3 batches; the cosine-decay schedule and SGD momentum kept.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers, regularizers
from adapt import data, fixed_weights

PROJECT_DIM = 16
LATENT_DIM = 8
WEIGHT_DECAY = 0.0005

def get_encoder():
    inputs = layers.Input((12,))
    x = layers.Dense(24, use_bias=False)(inputs)
    x = layers.BatchNormalization()(x)
    x = layers.ReLU()(x)
    x = layers.Dense(PROJECT_DIM, use_bias=False, kernel_regularizer=regularizers.l2(WEIGHT_DECAY))(x)
    outputs = layers.BatchNormalization()(x)
    return keras.Model(inputs, outputs, name="encoder")

def get_predictor():
    model = keras.Sequential(
        [
            # Note the AutoEncoder-like structure.
            layers.Input((PROJECT_DIM,)),
            layers.Dense(
                LATENT_DIM,
                use_bias=False,
                kernel_regularizer=regularizers.l2(WEIGHT_DECAY),
            ),
            layers.ReLU(),
            layers.BatchNormalization(),
            layers.Dense(PROJECT_DIM),
        ],
        name="predictor",
    )
    return model

def compute_loss(p, z):
    # The authors of SimSiam emphasize the impact of
    # the `stop_gradient` operator in the paper as it
    # has an important role in the overall optimization.
    z = tf.stop_gradient(z)
    p = tf.math.l2_normalize(p, axis=1)
    z = tf.math.l2_normalize(z, axis=1)
    # Negative cosine similarity (minimizing this is
    # equivalent to maximizing the similarity).
    return -tf.reduce_mean(tf.reduce_sum((p * z), axis=1))

class SimSiam(keras.Model):
    def __init__(self, encoder, predictor):
        super().__init__()
        self.encoder = encoder
        self.predictor = predictor
        self.loss_tracker = keras.metrics.Mean(name="loss")

    @property
    def metrics(self):
        return [self.loss_tracker]

    def train_step(self, data):
        # Unpack the data.
        ds_one, ds_two = data

        # Forward pass through the encoder and predictor.
        with tf.GradientTape() as tape:
            z1, z2 = self.encoder(ds_one), self.encoder(ds_two)
            p1, p2 = self.predictor(z1), self.predictor(z2)
            # Note that here we are enforcing the network to match
            # the representations of two differently augmented batches
            # of data.
            loss = compute_loss(p1, z2) / 2 + compute_loss(p2, z1) / 2

        # Compute gradients and update the parameters.
        learnable_params = (
            self.encoder.trainable_variables + self.predictor.trainable_variables
        )
        gradients = tape.gradient(loss, learnable_params)
        self.optimizer.apply_gradients(zip(gradients, learnable_params))

        # Monitor loss.
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}

def main():
    base = data(1, 24, 12)
    ssl_ds_one = tf.data.Dataset.from_tensor_slices(base + 0.1 * data(2, 24, 12)).batch(8)
    ssl_ds_two = tf.data.Dataset.from_tensor_slices(base + 0.1 * data(3, 24, 12)).batch(8)
    ssl_ds = tf.data.Dataset.zip((ssl_ds_one, ssl_ds_two))
    num_training_samples = 24
    steps = 2 * (num_training_samples // 8)
    lr_decayed_fn = keras.optimizers.schedules.CosineDecay(
        initial_learning_rate=0.03, decay_steps=steps
    )
    simsiam = SimSiam(get_encoder(), get_predictor())
    fixed_weights(simsiam.encoder.trainable_variables, seed=4)
    fixed_weights(simsiam.predictor.trainable_variables, seed=5)
    simsiam.compile(optimizer=keras.optimizers.SGD(lr_decayed_fn, momentum=0.6))
    history = simsiam.fit(ssl_ds, epochs=2, verbose=0)
    return {"history": history.history, "encoder": simsiam.encoder.weights,
            "predictor": simsiam.predictor.trainable_variables}
