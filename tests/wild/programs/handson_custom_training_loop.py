# After: https://github.com/ageron/handson-ml2 (12_custom_models_and_training_with_tensorflow
# .ipynb, "Custom Training Loops": a Sequential with l2 kernel regularizers, random_batch,
# print_status_bar formatting metric results, Nadam, keras.losses.mean_squared_error, a
# Mean metric and MeanAbsoluteError, the GradientTape loop adding model.losses with
# tf.add_n, applying constraints, and reset_states each epoch)
# Adapted: 64 seeded synthetic rows of 8 features instead of California housing, already
# standardized; 3 epochs; fixed weights after the model is built; random_batch draws from
# np.random seeded as in the notebook (np.random.seed(42)).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights


def random_batch(X, y, batch_size=32):
    idx = np.random.randint(len(X), size=batch_size)
    return X[idx], y[idx]


def print_status_bar(iteration, total, loss, metrics=None):
    metrics = " - ".join(["{}: {:.4f}".format(m.name, m.result())
                         for m in [loss] + (metrics or [])])
    end = "" if iteration < total else "\n"
    print("\r{}/{} - ".format(iteration, total) + metrics,
          end=end)


def main():
    np.random.seed(42)
    X = data(1, 64, 8, low=-2.0, high=2.0)
    y = (X[:, :1] * 1.5 - X[:, 1:2] + 2.0 * np.sin(X[:, 2:3])).astype(np.float32)
    X_train_scaled, y_train = X, y

    l2_reg = keras.regularizers.l2(0.05)
    model = keras.models.Sequential([
        keras.layers.Dense(30, activation="elu", kernel_initializer="he_normal",
                           kernel_regularizer=l2_reg),
        keras.layers.Dense(1, kernel_regularizer=l2_reg)
    ])
    model.build((None, 8))
    fixed_weights(model.trainable_variables, seed=2)

    n_epochs = 3
    batch_size = 32
    n_steps = len(X_train_scaled) // batch_size
    optimizer = keras.optimizers.Nadam(learning_rate=0.01)
    loss_fn = keras.losses.mean_squared_error
    mean_loss = keras.metrics.Mean()
    metrics = [keras.metrics.MeanAbsoluteError()]

    results = []
    for epoch in range(1, n_epochs + 1):
        print("Epoch {}/{}".format(epoch, n_epochs))
        for step in range(1, n_steps + 1):
            X_batch, y_batch = random_batch(X_train_scaled, y_train)
            with tf.GradientTape() as tape:
                y_pred = model(X_batch)
                main_loss = tf.reduce_mean(loss_fn(y_batch, y_pred))
                loss = tf.add_n([main_loss] + model.losses)
            gradients = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            for variable in model.variables:
                if variable.constraint is not None:
                    variable.assign(variable.constraint(variable))
            mean_loss(loss)
            for metric in metrics:
                metric(y_batch, y_pred)
            print_status_bar(step * batch_size, len(y_train), mean_loss, metrics)
        print_status_bar(len(y_train), len(y_train), mean_loss, metrics)
        results.append([float(mean_loss.result())] + [float(m.result()) for m in metrics])
        for metric in [mean_loss] + metrics:
            metric.reset_states()
    return {"results": results, "names": [mean_loss.name] + [m.name for m in metrics],
            "kernel": model.layers[1].kernel}
