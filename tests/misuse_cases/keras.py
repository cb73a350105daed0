"""The Keras-like kit: arguments, layers, losses, metrics, functional models, fit."""
from __future__ import annotations

import numpy as np

from .case_table import family, keras_of, raises


# =============================================================================================
family("keras arguments")


@raises("ValueError", "Dense", "units='x'", "str")
def dense_units_a_string(tf):
    return tf.keras.layers.Dense("x")


@raises("ValueError", "Dense", "units=2.5", "float")
def dense_units_a_float(tf):
    return tf.keras.layers.Dense(2.5)


@raises("ValueError", "Dense", "units=None")
def dense_units_none(tf):
    return tf.keras.layers.Dense(None)


@raises("ValueError", "Dense", "string", "(1, 1)")
def dense_on_strings(tf):
    return tf.keras.layers.Dense(2)(tf.constant([["a"]]))


@raises("ValueError", "Dropout", "rate=1.5")
def dropout_layer_rate_above_one(tf):
    return tf.keras.layers.Dropout(1.5)


@raises("ValueError", "Dropout", "rate=-0.1")
def dropout_layer_negative_rate(tf):
    return tf.keras.layers.Dropout(-0.1)


@raises("TypeError", "Dropout", "'x'")
def dropout_layer_rate_a_string(tf):
    return tf.keras.layers.Dropout("x")


@raises("ValueError", "SGD", "learning_rate='x'")
def sgd_learning_rate_a_string(tf):
    return tf.keras.optimizers.SGD(learning_rate="x")


@raises("ValueError", "SGD", "learning_rate=None")
def sgd_learning_rate_none(tf):
    return tf.keras.optimizers.SGD(learning_rate=None)


@raises("ValueError", "Adam", "learning_rate='x'")
def adam_learning_rate_a_string(tf):
    return tf.keras.optimizers.Adam(learning_rate="x")


@raises("ValueError", "SGD", "momentum='x'", "[0, 1]")
def sgd_momentum_a_string(tf):
    return tf.keras.optimizers.SGD(momentum="x")


@raises("ValueError", "Adam", "epsilon=None")
def adam_epsilon_none(tf):
    opt = tf.keras.optimizers.Adam(epsilon=None)     # TF fails at the first update
    v = tf.Variable(1.0)
    return opt.apply_gradients([(tf.constant(1.0), v)])


@raises("InvalidArgumentError", "apply_gradients", "(2,)", "(3,)", "float32")
def apply_gradients_wrong_shape(tf):
    v = tf.Variable([1.0, 2.0])
    return tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.ones(3), v)])


@raises("AttributeError", "minimize", "var_list", "None", differs=(
        "TypeError", "Keras 3 optimizers (TensorFlow 2.16+) have no minimize(); tapeviz keeps "
        "Keras 2's minimize(loss, var_list) and refuses a var_list that is not a list of "
        "variables, naming the argument and the fix"))
def minimize_without_var_list(tf):
    v = tf.Variable(1.0)
    return tf.keras.optimizers.SGD(0.1).minimize(lambda: v * v, var_list=None)


# =============================================================================================
family("keras layers, losses, metrics, initializers")


@raises("ValueError", "Sequential", "5", "int")
def sequential_of_a_number(tf):
    return tf.keras.Sequential([5])


@raises("ValueError", "categorical_crossentropy", "(2, 3)", "(2, 4)")
def categorical_crossentropy_shapes_differ(tf):
    return tf.keras.losses.CategoricalCrossentropy()(tf.ones((2, 3)), tf.ones((2, 4)))


@raises("InvalidArgumentError", "accuracy", "[2]", "[3]")
def accuracy_metric_shapes_differ(tf):
    m = tf.keras.metrics.Accuracy()
    m.update_state([1, 2], [1, 2, 3])
    return m.result()


@raises("ValueError", "Flatten", "ndim=0")
def flatten_a_scalar(tf):
    return tf.keras.layers.Flatten()(tf.constant(1.0))


@raises("UnimplementedError", "Adam", "beta_1='x'", differs=(
        "ValueError", "Keras takes any beta_1 when the optimizer is made and fails at the first "
        "update, inside a cast; tapeviz refuses a non-number when the optimizer is made, naming "
        "the argument and the fix"))
def adam_beta_1_a_string(tf):
    opt = tf.keras.optimizers.Adam(beta_1="x")
    return opt.apply_gradients([(tf.constant(1.0), tf.Variable(1.0))])


@raises("UnimplementedError", "Constant", "'x'", "float32")
def constant_initializer_of_a_string(tf):
    return tf.keras.initializers.Constant("x")((2,))


@raises("InvalidArgumentError", "RandomNormal", "-1")
def random_normal_initializer_negative_shape(tf):
    return tf.keras.initializers.RandomNormal()((-1,))


@raises("UnimplementedError", "mean", "string", "b'x'")
def mean_metric_of_a_string(tf):
    m = tf.keras.metrics.Mean()
    m.update_state("x")
    return m.result()


# =============================================================================================
family("keras functional models and fit")
# Checked against Keras 2 (tf-keras), as tests/golden: TensorFlow 2.16+ makes `tf.keras`
# Keras 3, whose messages and some classes differ (a ValueError for fit before compile).


def _two_input_model(tf):
    keras = keras_of(tf)
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(2,), name="b")
    joined = keras.layers.Concatenate()([keras.layers.Dense(4)(a), b])
    return keras.Model([a, b], keras.layers.Dense(1)(joined), name="two_in")


@raises("ValueError", "Input 0", "two_in", "(None, 3)", "(2, 4)")
def functional_model_called_with_the_wrong_width(tf):
    return _two_input_model(tf)([tf.ones((2, 4)), tf.ones((2, 2))])


@raises("ValueError", "two_in", "expects 2 input(s)", "received 1")
def functional_model_called_with_one_of_two_inputs(tf):
    return _two_input_model(tf)(tf.ones((2, 3)))


@raises("ValueError", "Graph disconnected", "'a'")
def functional_model_missing_an_input(tf):
    keras = keras_of(tf)
    a = keras.Input(shape=(3,), name="a")
    b = keras.Input(shape=(2,), name="b")
    out = keras.layers.Concatenate()([a, b])
    return keras.Model(b, out)


@raises("TypeError", "TypeSpec", "object")
def lambda_layer_returning_an_object(tf):
    keras = keras_of(tf)
    return keras.layers.Lambda(lambda t: object())(keras.Input(shape=(3,)))


@raises("NotImplementedError", "numpy", "lambda")
def lambda_layer_using_numpy_on_a_symbolic_input(tf):
    keras = keras_of(tf)
    return keras.layers.Lambda(lambda t: np.asarray(t) * 2)(keras.Input(shape=(3,)))


@raises("ValueError", "tf.math.reduce_sum", "Invalid reduction dimension 5", "2 dimensions")
def tf_function_on_a_symbolic_input_with_a_bad_axis(tf):
    keras = keras_of(tf)
    return tf.reduce_sum(keras.Input(shape=(3,)), axis=5)


@raises("RuntimeError", "You must compile your model before training/testing",
        "model.compile(optimizer, loss)")
def fit_before_compile(tf):
    keras = keras_of(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    return model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


@raises("RuntimeError", "You must compile your model before training/testing")
def evaluate_before_compile(tf):
    keras = keras_of(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    return model.evaluate(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


@raises("ValueError", "Unknown optimizer", "'adamx'")
def compile_with_an_unknown_optimizer_name(tf):
    keras = keras_of(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    return model.compile(optimizer="adamx", loss="mse")


@raises("ValueError", "Unknown loss function", "'msex'")
def fit_with_an_unknown_loss_name(tf):
    keras = keras_of(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="msex")      # TensorFlow raises at the first step
    return model.fit(np.ones((4, 2)), np.ones((4, 1)), verbose=0)


@raises("ValueError", "`y` argument is not supported when using dataset")
def fit_a_dataset_with_separate_targets(tf):
    keras = keras_of(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    data = tf.data.Dataset.from_tensor_slices(np.ones((4, 2), np.float32)).batch(2)
    return model.fit(data, np.ones((4, 1)), verbose=0)


@raises("ValueError", "Data cardinality is ambiguous", "4", "3")
def fit_arrays_of_different_lengths(tf):
    keras = keras_of(tf)
    model = keras.Sequential([keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    return model.fit(np.ones((4, 2)), np.ones((3, 1)), verbose=0)
