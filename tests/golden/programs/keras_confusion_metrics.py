# tf.keras.metrics TruePositives/FalsePositives/TrueNegatives/FalseNegatives/Precision/Recall:
# default threshold 0.5 (strictly above), thresholds= lists, sample_weight, class_id,
# reset_state, variables, errors, and compile(metrics=[...]) in fit/evaluate

Y_TRUE = [[0], [1], [1], [0], [1], [0]]
Y_PRED = [[0.1], [0.5], [0.8], [0.6], [0.3], [0.5000001]]
for cls in (tf.keras.metrics.TruePositives, tf.keras.metrics.FalsePositives,
            tf.keras.metrics.TrueNegatives, tf.keras.metrics.FalseNegatives,
            tf.keras.metrics.Precision, tf.keras.metrics.Recall):
    key = cls.__name__
    m = cls()
    report(key + ".empty", m.result())
    report(key + ".name", m.name)
    report(key + ".variables", [v.name for v in m.variables])
    m.update_state(Y_TRUE, Y_PRED)
    report(key + ".one", m.result())
    m.update_state([1, 0, 1], [0.9, 0.2, 0.1], sample_weight=[2.0, 3.0, 0.5])
    report(key + ".weighted", m.result())
    m.reset_state()
    report(key + ".reset", m.result())
    many = cls(thresholds=[0.0, 0.3, 0.5, 0.75, 1.0])
    many.update_state(Y_TRUE, Y_PRED)
    report(key + ".thresholds", many.result())
    single = cls(thresholds=[0.2])
    single.update_state(Y_TRUE, Y_PRED)
    report(key + ".thresholds_one", single.result())
    report(key + ".call", cls(thresholds=0.25)(tf.constant([True, False, True]),
                                               tf.constant([0.3, 0.3, 0.1])))

p = tf.keras.metrics.Precision(class_id=1)
p.update_state([[0, 1], [1, 0], [0, 1]], [[0.2, 0.9], [0.1, 0.7], [0.8, 0.4]])
report("precision_class_id", p.result())
r = tf.keras.metrics.Recall(class_id=0, thresholds=[0.15, 0.5])
r.update_state([[1, 0], [1, 0], [0, 1]], [[0.2, 0.9], [0.1, 0.7], [0.8, 0.4]])
report("recall_class_id_thresholds", r.result())
w = tf.keras.metrics.TruePositives()
w.update_state([[1, 1], [1, 0]], [[0.9, 0.8], [0.7, 0.1]], sample_weight=[0.5, 2.0])
report("row_weights", w.result())
expect_error("prediction_above_one",
             lambda: tf.keras.metrics.Precision().update_state([1, 0], [1.5, 0.2]))
expect_error("prediction_negative",
             lambda: tf.keras.metrics.TruePositives().update_state([1, 0], [-0.1, 0.2]))
expect_error("threshold_out_of_range", lambda: tf.keras.metrics.Recall(thresholds=[1.5]))

model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
model.layers[0].kernel.assign([[1.0], [-2.0]])
model.layers[0].bias.assign([0.1])
model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
              metrics=[tf.keras.metrics.FalseNegatives(name="fn"),
                       tf.keras.metrics.FalsePositives(name="fp"),
                       tf.keras.metrics.TrueNegatives(name="tn"),
                       tf.keras.metrics.TruePositives(name="tp"),
                       tf.keras.metrics.Precision(name="precision"),
                       tf.keras.metrics.Recall(name="recall")])
x = tf.constant([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0], [-1.0, -1.0], [0.5, 0.5], [1.0, 2.0]])
y = tf.constant([[1.0], [0.0], [1.0], [0.0], [1.0], [1.0]])
history = model.fit(x, y, epochs=3, batch_size=4, shuffle=False, verbose=0,
                    validation_data=(x, y))
report("fit.history", history.history)
report("evaluate", model.evaluate(x, y, verbose=0, return_dict=True))
