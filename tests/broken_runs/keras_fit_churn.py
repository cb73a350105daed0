"""A churn classifier trained with `model.fit`, as the Keras guides write it: a functional
model with a wide and a deep branch. Its deep branch never learns (its bias starts at -30, so
every ReLU is off and its weights get zero gradients), and its softmax head is given to a loss
told `from_logits=True`. Printed at the end: how far each layer moved during training."""
import numpy as np
import tapeviz as tf

rng = np.random.default_rng(3)
features = rng.normal(size=(96, 8)).astype(np.float32)
churned = (features[:, 0] + 0.5 * features[:, 1] > 0).astype(np.int64)

inputs = tf.keras.Input(shape=(8,), name="features")
wide = tf.keras.layers.Dense(16, activation="relu", name="wide")(inputs)
deep = tf.keras.layers.Dense(16, activation="relu", name="deep",
                             bias_initializer=tf.keras.initializers.Constant(-30.0))(inputs)
merged = tf.keras.layers.Concatenate(name="merged")([wide, deep])
outputs = tf.keras.layers.Dense(2, activation="softmax", name="head")(merged)
model = tf.keras.Model(inputs, outputs, name="churn")
model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])

before = {w.name: w.numpy().copy() for w in model.trainable_weights}
history = model.fit(features, churned, batch_size=32, epochs=3, verbose=0)  # truth: deep/kernel zero dead_relu op=Relu#2 scope=churn/deep call=all; deep/bias zero dead_relu op=Relu#2 call=all; wide/kernel value ok line=none; head/bias value ok line=none call=all # note: softmax_as_logits sparse_categorical_crossentropy
for w in model.trainable_weights:
    print(w.name, float(np.abs(w.numpy() - before[w.name]).max()))
print("loss", [round(v, 4) for v in history.history["loss"]])
