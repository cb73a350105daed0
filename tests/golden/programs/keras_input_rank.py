# A model conforms an input to the rank of its Input, in Sequential and functional models
# alike: a last axis of 1 the Input lacks is squeezed, a missing one it has is added


def dense():
    return tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")


column = tf.reshape(tf.range(12, dtype=tf.float32), (4, 3, 1))
flat = tf.constant([1.0, 2.0, 3.0, 4.0])

squeezing = tf.keras.Sequential([tf.keras.Input((3,)), dense()])
report("sequential.extra_axis", squeezing(column))
adding = tf.keras.Sequential([tf.keras.Input((1,)), dense()])
report("sequential.missing_axis", adding(flat))
inferred = tf.keras.Sequential([dense()])
report("sequential.inferred_first", inferred(tf.ones((4, 3))))
report("sequential.inferred_extra_axis", inferred(column))

inputs = tf.keras.Input((3,))
functional = tf.keras.Model(inputs, dense()(inputs))
report("functional.extra_axis", functional(column))
inputs = tf.keras.Input((1,))
functional = tf.keras.Model(inputs, dense()(inputs))
report("functional.missing_axis", functional(flat))
