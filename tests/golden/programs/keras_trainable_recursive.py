# Setting `trainable` on a layer or model sets it on every layer inside, as Keras does: the
# transfer-learning guide freezes a model holding a model and asserts the inner layers are
# frozen; unfreezing the outer model unfreezes them all, and one inner layer can then be
# frozen again on its own
inner = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(3),
                             tf.keras.layers.Dense(3)])
model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), inner,
                             tf.keras.layers.Dense(2, activation="sigmoid")])
model.trainable = False
report("frozen_flags", [model.trainable, inner.trainable, inner.layers[0].trainable,
                        model.layers[-1].trainable])
report("frozen_counts", [len(model.trainable_weights), len(model.non_trainable_weights)])
model.trainable = True
inner.layers[0].trainable = False
report("refrozen_flags", [model.trainable, inner.trainable, inner.layers[0].trainable,
                          inner.layers[1].trainable])
report("refrozen_counts", [len(model.trainable_weights), len(model.non_trainable_weights)])
inner.trainable = False
report("inner_frozen_counts", [len(model.trainable_weights), len(inner.trainable_weights)])
layer = tf.keras.layers.Dense(2, trainable=False)
report("constructor_flag", layer.trainable)
