# After: https://www.tensorflow.org/tutorials/distribute/custom_training (MirroredStrategy,
# experimental_distribute_dataset, strategy.run / strategy.reduce in tf.function steps,
# per-example losses with tf.nn.compute_average_loss and scale_regularization_loss)
# Adapted: 24 seeded synthetic 28x28 images in place of Fashion-MNIST, a smaller convnet
# (8 and 16 filters, 32 units), fixed starting weights, two epochs, no shuffling, and the
# tutorial's checkpoint saving and restoring left out (tf.train.Checkpoint).
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights, labels


def main():
    train_images = np.expand_dims(data(0, 24, 28, 28, low=0, high=1), -1)
    train_labels = labels(1, 24, 10)
    test_images = np.expand_dims(data(2, 8, 28, 28, low=0, high=1), -1)
    test_labels = labels(3, 8, 10)

    strategy = tf.distribute.MirroredStrategy()
    print('Number of devices: {}'.format(strategy.num_replicas_in_sync))

    BATCH_SIZE_PER_REPLICA = 8
    GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
    EPOCHS = 2

    train_dataset = tf.data.Dataset.from_tensor_slices(
        (train_images, train_labels)).batch(GLOBAL_BATCH_SIZE)
    test_dataset = tf.data.Dataset.from_tensor_slices(
        (test_images, test_labels)).batch(GLOBAL_BATCH_SIZE)
    train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset)
    test_dist_dataset = strategy.experimental_distribute_dataset(test_dataset)

    def create_model():
        regularizer = tf.keras.regularizers.L2(1e-5)
        model = tf.keras.Sequential([
            tf.keras.layers.Conv2D(8, 3, activation='relu', kernel_regularizer=regularizer),
            tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Conv2D(16, 3, activation='relu', kernel_regularizer=regularizer),
            tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(32, activation='relu', kernel_regularizer=regularizer),
            tf.keras.layers.Dense(10, kernel_regularizer=regularizer)
        ])
        return model

    with strategy.scope():
        # Set reduction to `NONE` so you can do the reduction yourself.
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True,
            reduction=tf.keras.losses.Reduction.NONE)

        def compute_loss(labels, predictions, model_losses):
            per_example_loss = loss_object(labels, predictions)
            loss = tf.nn.compute_average_loss(per_example_loss)
            if model_losses:
                loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
            return loss

    with strategy.scope():
        test_loss = tf.keras.metrics.Mean(name='test_loss')
        train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')
        test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='test_accuracy')

    with strategy.scope():
        model = create_model()
        model.build((None, 28, 28, 1))
        fixed_weights(model.trainable_variables, scale=0.2)
        optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)

    def train_step(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(images, training=True)
            loss = compute_loss(labels, predictions, model.losses)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        train_accuracy.update_state(labels, predictions)
        return loss

    def test_step(inputs):
        images, labels = inputs
        predictions = model(images, training=False)
        t_loss = loss_object(labels, predictions)
        test_loss.update_state(t_loss)
        test_accuracy.update_state(labels, predictions)

    # `run` replicates the provided computation and runs it
    # with the distributed input.
    @tf.function
    def distributed_train_step(dataset_inputs):
        per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

    @tf.function
    def distributed_test_step(dataset_inputs):
        return strategy.run(test_step, args=(dataset_inputs,))

    history = {"loss": [], "acc": [], "test_loss": [], "test_acc": []}
    for epoch in range(EPOCHS):
        # TRAIN LOOP
        total_loss = 0.0
        num_batches = 0
        for x in train_dist_dataset:
            total_loss += distributed_train_step(x)
            num_batches += 1
        train_loss = total_loss / num_batches

        # TEST LOOP
        for x in test_dist_dataset:
            distributed_test_step(x)

        template = ("Epoch {}, Loss: {}, Accuracy: {}, Test Loss: {}, Test Accuracy: {}")
        print(template.format(epoch + 1, train_loss, train_accuracy.result() * 100,
                              test_loss.result(), test_accuracy.result() * 100))
        history["loss"].append(float(train_loss))
        history["acc"].append(float(train_accuracy.result()))
        history["test_loss"].append(float(test_loss.result()))
        history["test_acc"].append(float(test_accuracy.result()))

        test_loss.reset_states()
        train_accuracy.reset_states()
        test_accuracy.reset_states()
    return {"history": history, "weights": [v.numpy() for v in model.trainable_variables[-2:]]}
