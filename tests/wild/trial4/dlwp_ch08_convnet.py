# After: https://github.com/fchollet/deep-learning-with-python-notebooks (second_edition/
# chapter08_intro-to-dl-for-computer-vision.ipynb: the functional MNIST convnet with
# Conv2D/MaxPooling2D/Flatten, compile/fit/evaluate, the model without max pooling, the
# cats-vs-dogs convnet with Rescaling(1./255), and the tf.data demos: batch, map with
# tf.reshape)
# Adapted: 64 seeded synthetic 28x28 images instead of MNIST (one batch of 64, so fit's
# shuffle cannot change a step), 2 epochs instead of 5; 16 synthetic 90x90 RGB images (the
# smallest size near 180 the five convolutions and four poolings take) fed by
# tf.data.Dataset.from_tensor_slices(...).batch(32) instead of image_dataset_from_directory
# on the Kaggle download, 1 epoch; np.random.seed(0) for the demo's random numbers; fixed
# weights; the ModelCheckpoint to a .keras file, load_model and the data-augmentation and
# pretrained-VGG16 parts left out.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights, labels


def main():
    out = {}
    inputs = keras.Input(shape=(28, 28, 1))
    x = layers.Conv2D(filters=32, kernel_size=3, activation="relu")(inputs)
    x = layers.MaxPooling2D(pool_size=2)(x)
    x = layers.Conv2D(filters=64, kernel_size=3, activation="relu")(x)
    x = layers.MaxPooling2D(pool_size=2)(x)
    x = layers.Conv2D(filters=128, kernel_size=3, activation="relu")(x)
    x = layers.Flatten()(x)
    outputs = layers.Dense(10, activation="softmax")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.summary()
    fixed_weights(model.weights, seed=1, scale=0.05)
    out["params"] = model.count_params()

    train_images = data(2, 64, 28, 28, low=0, high=255).round()
    train_labels = labels(3, 64, 10)
    test_images = data(4, 32, 28, 28, low=0, high=255).round()
    test_labels = labels(5, 32, 10)
    train_images = train_images.reshape((64, 28, 28, 1))
    train_images = train_images.astype("float32") / 255
    test_images = test_images.reshape((32, 28, 28, 1))
    test_images = test_images.astype("float32") / 255
    model.compile(optimizer="rmsprop",
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"])
    out["mnist_history"] = model.fit(train_images, train_labels, epochs=2,
                                     batch_size=64).history
    test_loss, test_acc = model.evaluate(test_images, test_labels)
    print(f"Test accuracy: {test_acc:.3f}")
    out["test_loss"], out["test_acc"] = test_loss, test_acc

    inputs = keras.Input(shape=(28, 28, 1))
    x = layers.Conv2D(filters=32, kernel_size=3, activation="relu")(inputs)
    x = layers.Conv2D(filters=64, kernel_size=3, activation="relu")(x)
    x = layers.Conv2D(filters=128, kernel_size=3, activation="relu")(x)
    x = layers.Flatten()(x)
    outputs = layers.Dense(10, activation="softmax")(x)
    model_no_max_pool = keras.Model(inputs=inputs, outputs=outputs)
    model_no_max_pool.summary()
    out["params_no_max_pool"] = model_no_max_pool.count_params()

    inputs = keras.Input(shape=(90, 90, 3))
    x = layers.Rescaling(1./255)(inputs)
    x = layers.Conv2D(filters=32, kernel_size=3, activation="relu")(x)
    x = layers.MaxPooling2D(pool_size=2)(x)
    x = layers.Conv2D(filters=64, kernel_size=3, activation="relu")(x)
    x = layers.MaxPooling2D(pool_size=2)(x)
    x = layers.Conv2D(filters=128, kernel_size=3, activation="relu")(x)
    x = layers.MaxPooling2D(pool_size=2)(x)
    x = layers.Conv2D(filters=256, kernel_size=3, activation="relu")(x)
    x = layers.MaxPooling2D(pool_size=2)(x)
    x = layers.Conv2D(filters=256, kernel_size=3, activation="relu")(x)
    x = layers.Flatten()(x)
    outputs = layers.Dense(1, activation="sigmoid")(x)
    model = keras.Model(inputs=inputs, outputs=outputs)
    model.summary()
    fixed_weights(model.weights, seed=6, scale=0.05)
    model.compile(loss="binary_crossentropy",
                  optimizer="rmsprop",
                  metrics=["accuracy"])

    images = np.round(data(7, 24, 90, 90, 3, low=0, high=255))
    image_labels = labels(8, 24, 2)
    train_dataset = tf.data.Dataset.from_tensor_slices(
        (images[:16], image_labels[:16])).batch(32)
    validation_dataset = tf.data.Dataset.from_tensor_slices(
        (images[16:], image_labels[16:])).batch(32)

    np.random.seed(0)
    random_numbers = np.random.normal(size=(1000, 16))
    dataset = tf.data.Dataset.from_tensor_slices(random_numbers)
    shapes = []
    for i, element in enumerate(dataset):
        print(element.shape)
        shapes.append(list(element.shape))
        if i >= 2:
            break
    batched_dataset = dataset.batch(32)
    for i, element in enumerate(batched_dataset):
        print(element.shape)
        shapes.append(list(element.shape))
        if i >= 2:
            break
    reshaped_dataset = dataset.map(lambda x: tf.reshape(x, (4, 4)))
    for i, element in enumerate(reshaped_dataset):
        print(element.shape)
        shapes.append(list(element.shape))
        if i >= 2:
            break
    out["shapes"] = shapes
    out["reshaped"] = next(iter(reshaped_dataset))
    for data_batch, labels_batch in train_dataset:
        print("data batch shape:", data_batch.shape)
        print("labels batch shape:", labels_batch.shape)
        break
    history = model.fit(
        train_dataset,
        epochs=1,
        validation_data=validation_dataset)
    out["cats_dogs_history"] = history.history
    return out
