# TF-Keras's unseeded random initializers take a seed from Python's global `random` the first
# time they are called (`random.randint(1, 10**9)`, tf_keras/src/backend.py RandomGenerator),
# so building a model moves the generator a program seeded for its own draws (a DQN's
# replay-buffer sampling and epsilon-greedy exploration, after marload/DeepRL-TensorFlow2)
import random


def draws_after(build):
    """The next Python draws after `build()`, from a freshly seeded generator."""
    random.seed(0)
    build()
    return [random.randint(0, 10 ** 6) for _ in range(3)]


report("nothing_built", draws_after(lambda: None))


def dense_model():
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    model.compile(loss="mse", optimizer="adam")


report("two_dense_layers", draws_after(dense_model))
report("dense_built_lazily", draws_after(lambda: tf.keras.layers.Dense(3)(tf.ones((1, 2)))))
report("dense_not_built", draws_after(lambda: tf.keras.layers.Dense(3)))
report("dense_random_bias", draws_after(lambda: tf.keras.layers.Dense(
    3, bias_initializer="random_normal")(tf.ones((1, 2)))))
report("dense_seeded_kernel", draws_after(lambda: tf.keras.layers.Dense(
    3, kernel_initializer=tf.keras.initializers.GlorotUniform(seed=5))(tf.ones((1, 2)))))


def shared_initializer():
    init = tf.keras.initializers.HeNormal()
    tf.keras.layers.Dense(3, kernel_initializer=init)(tf.ones((1, 2)))
    tf.keras.layers.Dense(3, kernel_initializer=init)(tf.ones((1, 2)))


report("shared_initializer", draws_after(shared_initializer))


def direct_calls():
    for init in (tf.keras.initializers.RandomUniform(), tf.keras.initializers.RandomNormal(),
                 tf.keras.initializers.TruncatedNormal(), tf.keras.initializers.GlorotNormal(),
                 tf.keras.initializers.LecunNormal(), tf.keras.initializers.HeUniform(),
                 tf.keras.initializers.VarianceScaling(), tf.keras.initializers.Orthogonal()):
        init((3, 3))
        init((3, 3))


report("direct_calls", draws_after(direct_calls))
report("constant_initializers", draws_after(lambda: [
    init((2, 2)) for init in (tf.keras.initializers.Zeros(), tf.keras.initializers.Ones(),
                              tf.keras.initializers.Constant(0.5))]))
report("by_name", draws_after(lambda: tf.keras.initializers.get("glorot_uniform")((2, 2))))
report("embedding", draws_after(lambda: tf.keras.layers.Embedding(5, 2)(tf.constant([[1, 2]]))))
report("lstm", draws_after(lambda: tf.keras.layers.LSTM(2)(tf.ones((1, 3, 2)))))
report("conv_batchnorm_dropout", draws_after(lambda: tf.keras.Sequential([
    tf.keras.layers.Conv2D(2, 3), tf.keras.layers.BatchNormalization(),
    tf.keras.layers.Dropout(0.5)])(tf.ones((1, 5, 5, 1)))))


def after_set_random_seed():
    # Keras's own generator, seeded alongside: the global one is not moved by initializers
    tf.keras.utils.set_random_seed(3)
    tf.keras.layers.Dense(3)(tf.ones((1, 2)))


report("set_random_seed", draws_after(after_set_random_seed))
report("set_random_seed_then_reseeded", draws_after(lambda: tf.keras.layers.Dense(3)(
    tf.ones((1, 2)))))
