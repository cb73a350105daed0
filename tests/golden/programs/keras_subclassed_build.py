# Model.build(input_shape) on a subclassed model runs `call` once so that every layer makes
# its weights (a public VAE builds, then sets its weights, before any call)
class TwoDense(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = tf.keras.layers.Dense(3, kernel_initializer="ones")
        self.out = tf.keras.layers.Dense(2, kernel_initializer="ones")

    def call(self, x, training=None):
        return self.out(self.hidden(x))


model = TwoDense()
model.build(input_shape=(4, 5))
report("weights_after_build", [list(w.shape) for w in model.weights])
report("built", model.built)
for w in model.weights:
    w.assign(tf.fill(w.shape, 0.5))
report("call_after_assign", model(tf.ones([1, 5])))
unknown_batch = TwoDense()
unknown_batch.build((None, 5))
report("unknown_batch", [list(w.shape) for w in unknown_batch.weights])
report("trainable_count_after_build", len(unknown_batch.trainable_variables))


class NeedsTraining(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)
        self.seen = []

    def call(self, x, training):
        self.seen.append(training)
        return self.dense(x)


needs = NeedsTraining()
needs.build((2, 3))
report("training_given_false", needs.seen)
report("needs_training_weights", [list(w.shape) for w in needs.weights])


class TwoInputs(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, xs):
        return self.dense(tf.concat(xs, -1))


two = TwoInputs()
two.build([(None, 2), (None, 3)])
report("list_of_shapes", [list(w.shape) for w in two.weights])


class ExtraArgument(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, x, flag):
        return self.dense(x)


expect_error("required_extra_argument", lambda: ExtraArgument().build((2, 3)))
expect_error("no_shape", lambda: TwoDense().build(None))
expect_error("int_shape", lambda: TwoDense().build(5))
called = TwoDense()
report("first_call_builds", called(tf.ones([2, 4])).shape.as_list())
report("first_call_weights", [list(w.shape) for w in called.weights])


# a call that refuses the float stand-ins: tf-keras turns its TypeError into a ValueError
class RejectsFloats(tf.keras.Model):
    def call(self, inputs):
        raise TypeError("this model reads integer ids")


expect_error("build_call_raises_type_error", lambda: RejectsFloats().build((2, 3)))
