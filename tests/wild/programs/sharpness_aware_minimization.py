# After: https://github.com/sayakpaul/Sharpness-Aware-Minimization-TensorFlow
# (SAMModel.train_step: first tape for the gradient, e_w = grad * rho / (norm + 1e-12)
# added to each trainable variable, second tape at the perturbed point, e_w subtracted,
# then the optimizer step; _grad_norm with tf.norm over tf.stack of the gradient norms)
# Adapted: a small dense model in place of the ResNet, seeded synthetic data, fixed
# starting weights, fit for 2 epochs with shuffle=False.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights, labels


class SAMModel(tf.keras.Model):
    def __init__(self, resnet_model, rho=0.05):
        """
        p, q = 2 for optimal results as suggested in the paper
        (Section 2)
        """
        super(SAMModel, self).__init__()
        self.resnet_model = resnet_model
        self.rho = rho

    def train_step(self, data):
        (images, labels) = data
        e_ws = []
        with tf.GradientTape() as tape:
            predictions = self.resnet_model(images)
            loss = self.compiled_loss(labels, predictions)
        trainable_params = self.resnet_model.trainable_variables
        gradients = tape.gradient(loss, trainable_params)
        grad_norm = self._grad_norm(gradients)
        scale = self.rho / (grad_norm + 1e-12)

        for (grad, param) in zip(gradients, trainable_params):
            e_w = grad * scale
            param.assign_add(e_w)
            e_ws.append(e_w)

        with tf.GradientTape() as tape:
            predictions = self.resnet_model(images)
            loss = self.compiled_loss(labels, predictions)

        sam_gradients = tape.gradient(loss, trainable_params)
        for (param, e_w) in zip(trainable_params, e_ws):
            param.assign_sub(e_w)

        self.optimizer.apply_gradients(
            zip(sam_gradients, trainable_params))

        self.compiled_metrics.update_state(labels, predictions)
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        (images, labels) = data
        predictions = self.resnet_model(images, training=False)
        loss = self.compiled_loss(labels, predictions)
        self.compiled_metrics.update_state(labels, predictions)
        return {m.name: m.result() for m in self.metrics}

    def _grad_norm(self, gradients):
        norm = tf.norm(
            tf.stack([
                tf.norm(grad) for grad in gradients if grad is not None
            ])
        )
        return norm


def main():
    base = tf.keras.Sequential([tf.keras.Input(shape=(12,)),
                                tf.keras.layers.Dense(16, activation="relu"),
                                tf.keras.layers.Dense(4, activation="softmax")])
    fixed_weights(base.trainable_variables)
    model = SAMModel(base)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    x, y = data(0, 32, 12), labels(1, 32, 4)
    history = model.fit(x, y, batch_size=8, epochs=2, verbose=0, shuffle=False,
                        validation_data=(x[:8], y[:8]))
    return {"history": history.history, "weights": base.trainable_variables}
