# After: https://github.com/fchollet/deep-learning-with-python-notebooks (second_edition/
# chapter07_working-with-keras.ipynb: Sequential with build and named layers, the
# functional ticket classifier with three inputs and two outputs compiled by lists and by
# dicts, a new head on model.layers[4].output, CustomerTicketModel subclassing, a
# subclassed Classifier in a functional model, get_mnist_model, the RootMeanSquaredError
# metric, EarlyStopping, the LossHistory callback, standalone metrics, the custom training
# loop with train_step/test_step (and the tf.function test_step), and both CustomModel
# train_steps)
# Adapted: 32 seeded tickets (np.random.seed(0); one batch of 32, so fit's shuffle cannot
# change a step) and 64 seeded synthetic MNIST-like images instead of 1280 and MNIST (32
# to train, 32 to validate, 32 to test), 2 epochs instead of 3 and 10; fixed weights after
# each model is built; the Dropout(0.5) layers left out (random masks); plot_model, the
# plots and the TensorBoard callback left out; the ModelCheckpoint to a .keras file and
# keras.models.load_model left out (whole-model saving).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import data, fixed_weights
from adapt import labels as make_labels


class CustomerTicketModel(keras.Model):

    def __init__(self, num_departments):
        super().__init__()
        self.concat_layer = layers.Concatenate()
        self.mixing_layer = layers.Dense(64, activation="relu")
        self.priority_scorer = layers.Dense(1, activation="sigmoid")
        self.department_classifier = layers.Dense(
            num_departments, activation="softmax")

    def call(self, inputs):
        title = inputs["title"]
        text_body = inputs["text_body"]
        tags = inputs["tags"]

        features = self.concat_layer([title, text_body, tags])
        features = self.mixing_layer(features)
        priority = self.priority_scorer(features)
        department = self.department_classifier(features)
        return priority, department


class Classifier(keras.Model):

    def __init__(self, num_classes=2):
        super().__init__()
        if num_classes == 2:
            num_units = 1
            activation = "sigmoid"
        else:
            num_units = num_classes
            activation = "softmax"
        self.dense = layers.Dense(num_units, activation=activation)

    def call(self, inputs):
        return self.dense(inputs)


def get_mnist_model():
    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = keras.Model(inputs, outputs)
    fixed_weights(model.weights, seed=7, scale=0.05)
    return model


class RootMeanSquaredError(keras.metrics.Metric):

    def __init__(self, name="rmse", **kwargs):
        super().__init__(name=name, **kwargs)
        self.mse_sum = self.add_weight(name="mse_sum", initializer="zeros")
        self.total_samples = self.add_weight(
            name="total_samples", initializer="zeros", dtype="int32")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = tf.one_hot(y_true, depth=tf.shape(y_pred)[1])
        mse = tf.reduce_sum(tf.square(y_true - y_pred))
        self.mse_sum.assign_add(mse)
        num_samples = tf.shape(y_pred)[0]
        self.total_samples.assign_add(num_samples)

    def result(self):
        return tf.sqrt(self.mse_sum / tf.cast(self.total_samples, tf.float32))

    def reset_state(self):
        self.mse_sum.assign(0.)
        self.total_samples.assign(0)


class LossHistory(keras.callbacks.Callback):
    def on_train_begin(self, logs):
        self.per_batch_losses = []
        self.all_losses = []

    def on_batch_end(self, batch, logs):
        self.per_batch_losses.append(logs.get("loss"))

    def on_epoch_end(self, epoch, logs):
        self.all_losses.append(self.per_batch_losses)
        self.per_batch_losses = []


def main():
    out = {}
    model = keras.Sequential()
    model.add(layers.Dense(64, activation="relu"))
    model.add(layers.Dense(10, activation="softmax"))
    model.build(input_shape=(None, 3))
    out["weight_names"] = [w.name for w in model.weights]
    model = keras.Sequential(name="my_example_model")
    model.add(layers.Dense(64, activation="relu", name="my_first_layer"))
    model.add(layers.Dense(10, activation="softmax", name="my_last_layer"))
    model.build((None, 3))
    model.summary()
    out["named_weights"] = [w.name for w in model.weights]
    inputs = keras.Input(shape=(3,), name="my_input")
    out["input_shape"] = list(inputs.shape)
    out["input_dtype"] = inputs.dtype.name
    features = layers.Dense(64, activation="relu")(inputs)
    out["features_shape"] = list(features.shape)

    vocabulary_size = 10000
    num_tags = 100
    num_departments = 4

    title = keras.Input(shape=(vocabulary_size,), name="title")
    text_body = keras.Input(shape=(vocabulary_size,), name="text_body")
    tags = keras.Input(shape=(num_tags,), name="tags")

    features = layers.Concatenate()([title, text_body, tags])
    features = layers.Dense(64, activation="relu")(features)

    priority = layers.Dense(1, activation="sigmoid", name="priority")(features)
    department = layers.Dense(
        num_departments, activation="softmax", name="department")(features)

    model = keras.Model(inputs=[title, text_body, tags], outputs=[priority, department])
    fixed_weights(model.weights, seed=1, scale=0.02)

    np.random.seed(0)
    num_samples = 32

    title_data = np.random.randint(0, 2, size=(num_samples, vocabulary_size))
    text_body_data = np.random.randint(0, 2, size=(num_samples, vocabulary_size))
    tags_data = np.random.randint(0, 2, size=(num_samples, num_tags))

    priority_data = np.random.random(size=(num_samples, 1))
    department_data = np.random.randint(0, 2, size=(num_samples, num_departments))

    model.compile(optimizer="rmsprop",
                  loss=["mean_squared_error", "categorical_crossentropy"],
                  metrics=[["mean_absolute_error"], ["accuracy"]])
    out["tickets_list"] = model.fit([title_data, text_body_data, tags_data],
                                    [priority_data, department_data],
                                    epochs=1).history
    out["tickets_list_eval"] = model.evaluate([title_data, text_body_data, tags_data],
                                              [priority_data, department_data])
    priority_preds, department_preds = model.predict([title_data, text_body_data, tags_data])
    out["priority_preds"] = priority_preds[:4]
    model.compile(optimizer="rmsprop",
                  loss={"priority": "mean_squared_error",
                        "department": "categorical_crossentropy"},
                  metrics={"priority": ["mean_absolute_error"], "department": ["accuracy"]})
    out["tickets_dict"] = model.fit(
        {"title": title_data, "text_body": text_body_data, "tags": tags_data},
        {"priority": priority_data, "department": department_data},
        epochs=1).history
    out["tickets_dict_eval"] = model.evaluate(
        {"title": title_data, "text_body": text_body_data, "tags": tags_data},
        {"priority": priority_data, "department": department_data})
    priority_preds, department_preds = model.predict(
        {"title": title_data, "text_body": text_body_data, "tags": tags_data})
    out["department_preds"] = department_preds[:4]
    out["layer_names"] = [layer.name for layer in model.layers]
    features = model.layers[4].output
    difficulty = layers.Dense(3, activation="softmax", name="difficulty")(features)
    new_model = keras.Model(
        inputs=[title, text_body, tags],
        outputs=[priority, department, difficulty])
    out["new_model_outputs"] = [list(o.shape) for o in new_model([title_data[:2],
                                                            text_body_data[:2],
                                                            tags_data[:2]])]

    model = CustomerTicketModel(num_departments=4)
    priority, department = model(
        {"title": title_data, "text_body": text_body_data, "tags": tags_data})
    fixed_weights(model.weights, seed=2, scale=0.02)
    model.compile(optimizer="rmsprop",
                  loss=["mean_squared_error", "categorical_crossentropy"],
                  metrics=[["mean_absolute_error"], ["accuracy"]])
    out["subclassed"] = model.fit({"title": title_data,
                                   "text_body": text_body_data,
                                   "tags": tags_data},
                                  [priority_data, department_data],
                                  epochs=1).history
    out["subclassed_eval"] = model.evaluate({"title": title_data,
                                             "text_body": text_body_data,
                                             "tags": tags_data},
                                            [priority_data, department_data])

    inputs = keras.Input(shape=(3,))
    features = layers.Dense(64, activation="relu")(inputs)
    outputs = Classifier(num_classes=10)(features)
    model = keras.Model(inputs=inputs, outputs=outputs)
    out["mixed_model_outputs"] = list(outputs.shape)

    images = data(3, 96, 28, 28, low=0, high=255).round()
    labels = make_labels(4, 96, 10)
    images = images.reshape((96, 28 * 28)).astype("float32") / 255
    test_images, test_labels = images[64:], labels[64:]
    images, labels = images[:64], labels[:64]
    train_images, val_images = images[32:], images[:32]
    train_labels, val_labels = labels[32:], labels[:32]

    model = get_mnist_model()
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy", RootMeanSquaredError()])
    out["rmse_history"] = model.fit(train_images, train_labels,
                                    epochs=2,
                                    validation_data=(val_images, val_labels)).history
    out["rmse_test"] = model.evaluate(test_images, test_labels)

    callbacks_list = [
        keras.callbacks.EarlyStopping(
            monitor="val_accuracy",
            patience=2,
        ),
    ]
    model = get_mnist_model()
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    out["early_stopping"] = model.fit(train_images, train_labels,
                                      epochs=4,
                                      callbacks=callbacks_list,
                                      validation_data=(val_images, val_labels)).history

    model = get_mnist_model()
    model.compile(optimizer="rmsprop",
                  loss="sparse_categorical_crossentropy",
                  metrics=["accuracy"])
    loss_history = LossHistory()
    model.fit(train_images, train_labels,
              epochs=2,
              callbacks=[loss_history],
              validation_data=(val_images, val_labels))
    out["per_batch_losses"] = loss_history.all_losses

    metric = keras.metrics.SparseCategoricalAccuracy()
    targets = [0, 1, 2]
    predictions = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    metric.update_state(targets, predictions)
    current_result = metric.result()
    print(f"result: {current_result:.2f}")
    out["metric"] = current_result
    values = [0, 1, 2, 3, 4]
    mean_tracker = keras.metrics.Mean()
    for value in values:
        mean_tracker.update_state(value)
    print(f"Mean of values: {mean_tracker.result():.2f}")
    out["mean"] = mean_tracker.result()

    model = get_mnist_model()
    loss_fn = keras.losses.SparseCategoricalCrossentropy()
    optimizer = keras.optimizers.RMSprop()
    metrics = [keras.metrics.SparseCategoricalAccuracy()]
    loss_tracking_metric = keras.metrics.Mean()

    def train_step(inputs, targets):
        with tf.GradientTape() as tape:
            predictions = model(inputs, training=True)
            loss = loss_fn(targets, predictions)
        gradients = tape.gradient(loss, model.trainable_weights)
        optimizer.apply_gradients(zip(gradients, model.trainable_weights))

        logs = {}
        for metric in metrics:
            metric.update_state(targets, predictions)
            logs[metric.name] = metric.result()

        loss_tracking_metric.update_state(loss)
        logs["loss"] = loss_tracking_metric.result()
        return logs

    def reset_metrics():
        for metric in metrics:
            metric.reset_state()
        loss_tracking_metric.reset_state()

    training_dataset = tf.data.Dataset.from_tensor_slices((train_images, train_labels))
    training_dataset = training_dataset.batch(32)
    epochs = 2
    loop_logs = []
    for epoch in range(epochs):
        reset_metrics()
        for inputs_batch, targets_batch in training_dataset:
            logs = train_step(inputs_batch, targets_batch)
        print(f"Results at the end of epoch {epoch}")
        for key, value in logs.items():
            print(f"...{key}: {value:.4f}")
        loop_logs.append(logs)
    out["loop_logs"] = loop_logs

    def test_step(inputs, targets):
        predictions = model(inputs, training=False)
        loss = loss_fn(targets, predictions)

        logs = {}
        for metric in metrics:
            metric.update_state(targets, predictions)
            logs["val_" + metric.name] = metric.result()

        loss_tracking_metric.update_state(loss)
        logs["val_loss"] = loss_tracking_metric.result()
        return logs

    val_dataset = tf.data.Dataset.from_tensor_slices((val_images, val_labels))
    val_dataset = val_dataset.batch(32)
    reset_metrics()
    for inputs_batch, targets_batch in val_dataset:
        logs = test_step(inputs_batch, targets_batch)
    out["eval_logs"] = logs

    @tf.function
    def test_step(inputs, targets):
        predictions = model(inputs, training=False)
        loss = loss_fn(targets, predictions)

        logs = {}
        for metric in metrics:
            metric.update_state(targets, predictions)
            logs["val_" + metric.name] = metric.result()

        loss_tracking_metric.update_state(loss)
        logs["val_loss"] = loss_tracking_metric.result()
        return logs

    reset_metrics()
    for inputs_batch, targets_batch in val_dataset:
        logs = test_step(inputs_batch, targets_batch)
    out["eval_logs_tf_function"] = logs

    loss_fn = keras.losses.SparseCategoricalCrossentropy()
    loss_tracker = keras.metrics.Mean(name="loss")

    class CustomModel(keras.Model):
        def train_step(self, data):
            inputs, targets = data
            with tf.GradientTape() as tape:
                predictions = self(inputs, training=True)
                loss = loss_fn(targets, predictions)
            gradients = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_weights))

            loss_tracker.update_state(loss)
            return {"loss": loss_tracker.result()}

        @property
        def metrics(self):
            return [loss_tracker]

    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = CustomModel(inputs, outputs)
    fixed_weights(model.weights, seed=8, scale=0.05)
    model.compile(optimizer=keras.optimizers.RMSprop())
    out["custom_model_1"] = model.fit(train_images, train_labels, epochs=2).history

    class CustomModel(keras.Model):
        def train_step(self, data):
            inputs, targets = data
            with tf.GradientTape() as tape:
                predictions = self(inputs, training=True)
                loss = self.compiled_loss(targets, predictions)
            gradients = tape.gradient(loss, self.trainable_weights)
            self.optimizer.apply_gradients(zip(gradients, self.trainable_weights))
            self.compiled_metrics.update_state(targets, predictions)
            return {m.name: m.result() for m in self.metrics}

    inputs = keras.Input(shape=(28 * 28,))
    features = layers.Dense(512, activation="relu")(inputs)
    outputs = layers.Dense(10, activation="softmax")(features)
    model = CustomModel(inputs, outputs)
    fixed_weights(model.weights, seed=9, scale=0.05)
    model.compile(optimizer=keras.optimizers.RMSprop(),
                  loss=keras.losses.SparseCategoricalCrossentropy(),
                  metrics=[keras.metrics.SparseCategoricalAccuracy()])
    out["custom_model_2"] = model.fit(train_images, train_labels, epochs=2).history
    return out
