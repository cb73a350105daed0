# Custom initializers, regularizers and constraints registered with
# tf.keras.utils.get_custom_objects() and then named by string (as tf_SIREN and other
# libraries do), and the few names of the private tensorflow.python package that public
# programs import (init_ops_v2._compute_fans, client.device_lib, framework.ops/dtypes).
import importlib


class HalfInit(tf.keras.initializers.Initializer):
    def __init__(self, value=0.5):
        self.value = value

    def __call__(self, shape, dtype=None):
        return tf.fill(shape, self.value)


def quarter_l1(x):
    return 0.25 * tf.reduce_sum(tf.abs(x))


class CapAt(tf.keras.constraints.Constraint):
    def __call__(self, w):
        return tf.minimum(w, 0.3)


tf.keras.utils.get_custom_objects().update(
    {"half_init": HalfInit, "quarter_l1": quarter_l1, "cap_at": CapAt})
dense = tf.keras.layers.Dense(3, kernel_initializer="half_init", bias_initializer="half_init",
                              kernel_regularizer="quarter_l1", kernel_constraint="cap_at")
x = tf.constant([[1.0, -2.0], [0.5, 4.0]])
y = dense(x)
report("custom_init.kernel", dense.kernel)
report("custom_init.output", y)
report("custom_regularizer.losses", dense.losses)
opt = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(dense(x)) + tf.add_n(dense.losses)
grads = tape.gradient(loss, dense.trainable_variables)
opt.apply_gradients(zip(grads, dense.trainable_variables))
report("custom_constraint.kernel_after_step", dense.kernel)
expect_error("unknown_initializer_name",
             lambda: tf.keras.layers.Dense(2, kernel_initializer="no_such_init")(x))

fans = importlib.import_module(tf.__name__ + ".python.ops.init_ops_v2")._compute_fans
report("compute_fans", [list(fans(s)) for s in [(), (3,), (3, 4), (3, 3, 2, 5),
                                                 (2, 3, 3, 2, 5)]])
report("compute_fans.types", [type(v).__name__ for v in fans((3, 3, 2, 5))])
device_lib = importlib.import_module(tf.__name__ + ".python.client.device_lib")
devices = device_lib.list_local_devices()
report("device_lib", [[d.name, d.device_type, d.memory_limit] for d in devices])
ops = importlib.import_module(tf.__name__ + ".python.framework.ops")
dtypes = importlib.import_module(tf.__name__ + ".python.framework.dtypes")
report("framework", [isinstance(tf.constant(1.0), ops.EagerTensor),
                     ops.convert_to_tensor([1, 2]), ops.executing_eagerly_outside_functions(),
                     dtypes.float32 == tf.float32, dtypes.as_dtype("int32") == tf.int32])
