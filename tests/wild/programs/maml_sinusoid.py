# After: https://github.com/hereismari/tensorflow-maml (maml.ipynb: SinusoidGenerator,
# SineModel as a keras.Model of three Dense layers, copy_model, compute_loss, and
# train_maml with an inner SGD step written by hand on the copied model's weights
# inside the outer tape, then Adam on the meta-gradient)
# Adapted: sine tasks from a seeded NumPy generator, fixed starting weights, 3 epochs of
# 2 tasks.
import numpy as np
import tensorflow as tf
import tensorflow.keras as keras
import tensorflow.keras.backend as keras_backend

from adapt import fixed_weights


class SinusoidGenerator():
    def __init__(self, K=10, amplitude=None, phase=None, rng=None):
        self.K = K
        self.amplitude = amplitude if amplitude else rng.uniform(0.1, 5.0)
        self.phase = phase if amplitude else rng.uniform(0, np.pi)
        self.sampled_points = None
        self.x = self._sample_x(rng)

    def _sample_x(self, rng):
        return rng.uniform(-5, 5, self.K)

    def f(self, x):
        return self.amplitude * np.sin(x - self.phase)

    def batch(self, x=None, force_new=False):
        if x is None:
            x = self.x
        y = self.f(x)
        return x[:, None], y[:, None]


class SineModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden1 = keras.layers.Dense(40, input_shape=(1,))
        self.hidden2 = keras.layers.Dense(40)
        self.out = keras.layers.Dense(1)

    def forward(self, x):
        x = keras.activations.relu(self.hidden1(x))
        x = keras.activations.relu(self.hidden2(x))
        x = self.out(x)
        return x


def loss_function(pred_y, y):
    return keras_backend.mean(keras.losses.mean_squared_error(y, pred_y))


def np_to_tensor(list_of_numpy_objs):
    return (tf.convert_to_tensor(obj) for obj in list_of_numpy_objs)


def compute_loss(model, x, y, loss_fn=loss_function):
    logits = model.forward(x)
    mse = loss_fn(y, logits)
    return mse, logits


def copy_model(model, x):
    copied_model = SineModel()
    # If we don't run this step the weights are not "initialized"
    # and the gradients will not be computed.
    copied_model.forward(tf.convert_to_tensor(x))
    copied_model.set_weights(model.get_weights())
    return copied_model


def train_maml(model, epochs, dataset, lr_inner=0.01, batch_size=1):
    optimizer = keras.optimizers.Adam()
    losses = []
    # Step 2: instead of checking for convergence, we train for a number
    # of epochs
    for _ in range(epochs):
        total_loss = 0
        # Step 3 and 4
        for i, t in enumerate(dataset):
            x, y = np_to_tensor(t.batch())
            model.forward(x)  # run forward pass to initialize weights
            with tf.GradientTape() as test_tape:
                # test_tape.watch(model.trainable_variables)
                # Step 5
                with tf.GradientTape() as train_tape:
                    train_loss, _ = compute_loss(model, x, y)
                # Step 6
                gradients = train_tape.gradient(train_loss, model.trainable_variables)
                k = 0
                model_copy = copy_model(model, x)
                for j in range(len(model_copy.layers)):
                    model_copy.layers[j].kernel = tf.subtract(model.layers[j].kernel,
                                tf.multiply(lr_inner, gradients[k]))
                    model_copy.layers[j].bias = tf.subtract(model.layers[j].bias,
                                tf.multiply(lr_inner, gradients[k+1]))
                    k += 2
                # Step 8
                test_loss, logits = compute_loss(model_copy, x, y)
            # Step 8
            gradients = test_tape.gradient(test_loss, model.trainable_variables)
            optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            total_loss += test_loss
            losses.append(float(test_loss))
    return np.array(losses)


def main():
    rng = np.random.default_rng(0)
    dataset = [SinusoidGenerator(K=10, rng=rng) for _ in range(2)]
    maml = SineModel()
    maml.forward(tf.zeros((1, 1)))
    fixed_weights(maml.trainable_variables)
    losses = train_maml(maml, 3, dataset)
    return {"losses": losses, "weights": maml.get_weights()}
