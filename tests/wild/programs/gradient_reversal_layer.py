# After: https://github.com/michetonu/gradient_reversal_keras_tf (the gradient reversal
# layer of DANN, Ganin & Lempitsky 2015), in the TF2 form found in DANN ports: a
# tf.custom_gradient grad_reverse returning -dy, wrapped in a Keras Layer between a
# feature extractor and a domain classifier, trained with a label and a domain loss.
# Adapted: seeded synthetic source/target batches, fixed starting weights, 3 steps.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights, labels


@tf.custom_gradient
def grad_reverse(x):
    y = tf.identity(x)

    def custom_grad(dy):
        return -dy
    return y, custom_grad


class GradReverse(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()

    def call(self, x):
        return grad_reverse(x)


class DANN(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.feature = tf.keras.Sequential([tf.keras.layers.Dense(16, activation='relu'),
                                            tf.keras.layers.Dense(8, activation='relu')])
        self.label_classifier = tf.keras.layers.Dense(3)
        self.reverse = GradReverse()
        self.domain_classifier = tf.keras.Sequential([tf.keras.layers.Dense(8, activation='relu'),
                                                      tf.keras.layers.Dense(2)])

    def call(self, x):
        feat = self.feature(x)
        return self.label_classifier(feat), self.domain_classifier(self.reverse(feat))


def main():
    model = DANN()
    xs, ys = data(0, 16, 10), labels(1, 16, 3)
    xt = data(2, 16, 10) + 0.5
    model(xs)
    fixed_weights(model.trainable_variables)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.9)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    domain_labels = tf.concat([tf.zeros(16, tf.int32), tf.ones(16, tf.int32)], axis=0)

    @tf.function
    def train_step(xs, ys, xt):
        with tf.GradientTape() as tape:
            class_logits, _ = model(xs)
            _, domain_logits = model(tf.concat([xs, xt], axis=0))
            class_loss = loss_fn(ys, class_logits)
            domain_loss = loss_fn(domain_labels, domain_logits)
            loss = class_loss + domain_loss
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return class_loss, domain_loss, grads

    out = [train_step(xs, ys, xt) for _ in range(3)]
    return {"class_loss": [o[0] for o in out], "domain_loss": [o[1] for o in out],
            "last_grads": out[-1][2], "weights": model.trainable_variables}
