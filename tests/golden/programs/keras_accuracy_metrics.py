# Keras's accuracy functions (one 0/1 match per example), the top-k metrics (ties and
# non-finite scores), RootMeanSquaredError, metrics.get by name, and the same names given to
# compile(metrics=[...]) and fit.
P = tf.constant([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.2, 0.6], [0.4, 0.4, 0.2]])
ONE_HOT = tf.constant([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]])
SPARSE = tf.constant([1, 2, 2, 1])
M = tf.keras.metrics

report("categorical_accuracy", M.categorical_accuracy(ONE_HOT, P))
report("sparse_categorical_accuracy", M.sparse_categorical_accuracy(SPARSE, P))
report("sparse_categorical_accuracy_column",
       M.sparse_categorical_accuracy(tf.reshape(SPARSE, (4, 1)), P))
report("sparse_categorical_accuracy_float_labels",
       M.sparse_categorical_accuracy(tf.constant([1.0, 0.0, 2.0, 0.0]), P))
report("sparse_categorical_accuracy_3d",
       M.sparse_categorical_accuracy(tf.constant([[1, 0], [2, 2]]), tf.reshape(
           tf.range(12, dtype=tf.float32) % 5.0, (2, 2, 3))))
for k in (1, 2, 3):
    report(f"top_{k}", M.top_k_categorical_accuracy(ONE_HOT, P, k=k))
    report(f"sparse_top_{k}", M.sparse_top_k_categorical_accuracy(SPARSE, P, k=k))
report("sparse_top_default_k", M.sparse_top_k_categorical_accuracy(SPARSE, P))
report("sparse_top_column", M.sparse_top_k_categorical_accuracy(tf.reshape(SPARSE, (4, 1)), P,
                                                                k=1))
report("sparse_top_nonfinite", M.sparse_top_k_categorical_accuracy(
    tf.constant([0, 1]), tf.constant([[np.nan, 0.1, 0.2], [0.3, np.inf, 0.0]]), k=2))
report("sparse_top_3d", M.sparse_top_k_categorical_accuracy(
    tf.constant([[1, 0], [2, 2]]), tf.reshape(tf.range(12, dtype=tf.float32) % 5.0,
                                              (2, 2, 3)), k=2))

top2 = M.TopKCategoricalAccuracy(k=2)
top2.update_state(ONE_HOT, P)
top2.update_state(ONE_HOT[:2], P[2:], sample_weight=[0.5, 2.0])
report("TopKCategoricalAccuracy", [top2.result(), top2.name])
stop1 = M.SparseTopKCategoricalAccuracy(k=1, name="top1")
report("SparseTopKCategoricalAccuracy", [stop1(SPARSE, P), stop1.name])
report("SparseTopK_default", [M.SparseTopKCategoricalAccuracy()(SPARSE, P),
                              M.SparseTopKCategoricalAccuracy().name])
rmse = M.RootMeanSquaredError()
rmse.update_state([[1.0, 2.0], [3.0, 4.0]], [[1.5, 2.0], [2.0, 6.0]])
report("rmse_one", rmse.result())
rmse.update_state([[0.0], [1.0]], [[1.0], [1.0]], sample_weight=[2.0, 1.0])
report("rmse_weighted", [rmse.result(), rmse.name])
rmse.reset_state()
report("rmse_reset", rmse.result())

for name in ("acc", "accuracy", "mse", "categorical_accuracy", "top_k_categorical_accuracy",
             "sparse_top_k_categorical_accuracy", "binary_accuracy"):
    report("get_" + name, M.get(name).__name__)
report("get_accuracy_values", M.get("acc")(tf.constant([1.0, 2.0, 3.0]),
                                          tf.constant([1.0, 0.0, 3.0])))
report("get_class", type(M.get("TopKCategoricalAccuracy")).__name__)
report("get_object", M.get(stop1).name)

x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -1.0]], np.float32)
model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,))])
model.layers[0].kernel.assign([[0.5, -0.2, 0.1], [0.3, 0.4, -0.6]])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["sparse_top_k_categorical_accuracy",
                       M.SparseTopKCategoricalAccuracy(k=1, name="t1"),
                       M.RootMeanSquaredError()])
history = model.fit(x, np.array([0, 1, 2, 1]), batch_size=2, epochs=2, verbose=0,
                    shuffle=False)
report("fit_history", history.history)
