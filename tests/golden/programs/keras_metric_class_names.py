# compile(metrics=["AUC", "Precision", "Recall", ...]): a metric class's name makes one of
# that class, named by the class's own default name ("auc", "precision"), as tf-keras
x = np.array([[1.0, 2.0], [2.0, 0.0], [0.0, 1.0], [3.0, 1.0], [-1.0, 0.5]], np.float32)
y = np.array([[1.0], [0.0], [1.0], [0.0], [1.0]], np.float32)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
model.set_weights([np.array([[0.5], [-0.3]], np.float32), np.zeros(1, np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
              metrics=["AUC", "Precision", "Recall", "BinaryAccuracy", "MeanSquaredError",
                       "accuracy"])
history = model.fit(x, y, epochs=3, batch_size=5, shuffle=False, verbose=0).history
report("history", history)
report("metrics_names", model.metrics_names)
report("evaluate", model.evaluate(x, y, verbose=0))
