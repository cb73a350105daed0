# After: https://www.tensorflow.org/guide/keras/functional (a multi-input functional
# model: keras.Input for title, body and tags, tf ops applied directly to symbolic
# tensors as TF-Keras allows, layers.concatenate, two outputs) and
# https://keras.io/examples/structured_data/ (tf.* ops on KerasTensors wrapped as
# TFOpLambda layers: tf.concat, tf.nn.relu, scalar arithmetic, tf.reduce_mean)
# Adapted: dense features in place of text embeddings, seeded synthetic data, fixed
# starting weights; trained with compile/fit for 2 epochs with shuffle=False.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

from adapt import data, fixed_weights, labels


def main():
    num_tags = 4
    num_departments = 3
    title_input = keras.Input(shape=(6,), name="title")
    body_input = keras.Input(shape=(8,), name="body")
    tags_input = keras.Input(shape=(num_tags,), name="tags")

    title_features = layers.Dense(8)(title_input)
    body_features = layers.Dense(8)(body_input)
    # tf functions straight on symbolic tensors
    title_features = tf.nn.relu(title_features)
    body_features = tf.nn.relu(body_features) * 2.0 - 0.5
    x = tf.concat([title_features, body_features, tags_input], axis=-1)
    x = x / tf.reduce_mean(tf.abs(x) + 1.0, axis=-1, keepdims=True)

    priority_pred = layers.Dense(1, name="priority")(x)
    department_pred = layers.Dense(num_departments, name="department")(x)

    model = keras.Model(inputs=[title_input, body_input, tags_input],
                        outputs=[priority_pred, department_pred])
    fixed_weights(model.trainable_variables)
    model.compile(
        optimizer=keras.optimizers.RMSprop(1e-3),
        loss={"priority": keras.losses.BinaryCrossentropy(from_logits=True),
              "department": keras.losses.CategoricalCrossentropy(from_logits=True)},
        loss_weights={"priority": 1.0, "department": 0.2},
    )
    title_data = data(0, 32, 6)
    body_data = data(1, 32, 8)
    tags_data = (data(2, 32, num_tags, low=0, high=1) > 0.5).astype("float32")
    priority_targets = data(3, 32, 1, low=0, high=1)
    dept_targets = tf.one_hot(labels(4, 32, num_departments), num_departments).numpy()
    history = model.fit({"title": title_data, "body": body_data, "tags": tags_data},
                        {"priority": priority_targets, "department": dept_targets},
                        epochs=2, batch_size=8, verbose=0, shuffle=False)
    return {"history": history.history, "n_layers": len(model.layers),
            "weights": model.trainable_variables,
            "predict": model.predict([title_data[:4], body_data[:4], tags_data[:4]],
                                     verbose=0)}
