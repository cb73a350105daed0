# After: https://www.tensorflow.org/tutorials/keras/classification (Fashion MNIST: Flatten,
# Dense(128, relu), Dense(10), compile with adam, SparseCategoricalCrossentropy(from_logits=
# True) and accuracy, fit, evaluate, a probability model, np.argmax of its predictions, and
# one image predicted after np.expand_dims)
# Adapted: 60 seeded synthetic 28x28 images instead of Fashion MNIST, 4 epochs with
# batch_size=60 (one batch per epoch, so fit's shuffle cannot change a step), fixed weights.
import numpy as np
import tensorflow as tf
from adapt import data, fixed_weights, labels


def main():
    train_images = np.round(data(1, 60, 28, 28, low=0, high=255))
    test_images = np.round(data(2, 12, 28, 28, low=0, high=255))
    train_labels, test_labels = labels(3, 60, 10), labels(4, 12, 10)
    train_images = train_images / 255.0
    test_images = test_images / 255.0

    model = tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28)),
        tf.keras.layers.Dense(128, activation='relu'),
        tf.keras.layers.Dense(10)
    ])
    fixed_weights(model.trainable_variables, seed=5, scale=0.1)
    model.compile(optimizer='adam',
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=['accuracy'])
    history = model.fit(train_images, train_labels, epochs=4, batch_size=60, verbose=0)
    test_loss, test_acc = model.evaluate(test_images,  test_labels, verbose=2)

    probability_model = tf.keras.Sequential([model,
                                             tf.keras.layers.Softmax()])
    predictions = probability_model.predict(test_images, verbose=0)
    img = test_images[1]
    img = (np.expand_dims(img,0))
    predictions_single = probability_model.predict(img, verbose=0)
    return {"history": history.history, "test_loss": test_loss, "test_acc": test_acc,
            "predictions": predictions, "argmax": int(np.argmax(predictions[0])),
            "single": predictions_single, "single_shape": list(img.shape)}
