# A subclassed Model's trainable_variables (what `tape.gradient(loss,
# model.trainable_variables)` and `zip(grads, ...)` pair in order) when the model holds a
# tf.Variable of its own beside its layers, as a VAE's learned noise scale: Keras lists the
# layers' variables first, then the model's own, as in `weights`.


class WithScale(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.log_scale = tf.Variable(0.0, name="log_scale")
        self.hidden = tf.keras.layers.Dense(3, name="hidden")
        self.steps = tf.Variable(0, trainable=False, name="steps")
        self.norm = tf.keras.layers.BatchNormalization(name="norm")
        self.out = tf.keras.layers.Dense(1, name="out")

    def build(self, input_shape):
        self.shift = self.add_weight(shape=(), name="shift", initializer="zeros")

    def call(self, x):
        return self.out(self.norm(self.hidden(x))) * tf.exp(self.log_scale) + self.shift


def names(variables):
    return [v.name for v in variables]


model = WithScale()
model(tf.ones([2, 4]))
for attr in ("trainable_variables", "non_trainable_variables", "trainable_weights",
             "non_trainable_weights", "weights", "variables"):
    report(attr, names(getattr(model, attr)))
model.hidden.trainable = False
report("hidden_frozen.trainable_variables", names(model.trainable_variables))
report("hidden_frozen.non_trainable_variables", names(model.non_trainable_variables))
model.hidden.trainable = True
model.trainable = False
report("model_frozen.trainable_variables", names(model.trainable_variables))
report("model_frozen.non_trainable_variables", names(model.non_trainable_variables))
