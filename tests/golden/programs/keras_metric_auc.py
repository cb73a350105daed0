# tf.keras.metrics.AUC as the imbalanced-data tutorial uses it: ROC and PR, every summation
# method, few and many thresholds, thresholds given (evenly spaced or not), from_logits,
# sample_weight, labels other than 0/1, predictions outside [0, 1], multi_label with and
# without label_weights, its state (thresholds, variables, reset_state), inside compile/fit,
# and TensorFlow's errors for bad arguments
labels = tf.constant([0, 0, 1, 1, 0, 1, 0, 0, 1, 0], tf.float32)
scores = tf.constant([0.1, 0.4, 0.35, 0.8, 0.65, 0.9, 0.05, 0.5, 0.5, 0.2])


def auc(values=(labels, scores), sample_weight=None, **kwargs):
    metric = tf.keras.metrics.AUC(**kwargs)
    metric.update_state(values[0], values[1], sample_weight=sample_weight)
    return metric.result()


report("roc_default", auc())
report("pr_default", auc(curve="PR"))
for curve in ("ROC", "PR"):
    for method in ("interpolation", "minoring", "majoring"):
        for n in (3, 7, 200):
            report("%s_%s_%d" % (curve, method, n),
                   auc(curve=curve, summation_method=method, num_thresholds=n))
report("thresholds_even", auc(thresholds=[0.25, 0.5, 0.75]))
report("thresholds_uneven", auc(thresholds=[0.3, 0.5, 0.55, 0.9]))
report("thresholds_uneven_pr", auc(thresholds=[0.3, 0.5, 0.55, 0.9], curve="PR"))
report("from_logits", auc((labels, tf.math.log(scores / (1.0 - scores))), from_logits=True))
report("sample_weight", auc(sample_weight=tf.constant([1.0, 2.0, 0.5, 1.0, 0.0, 3.0, 1.0,
                                                       1.0, 2.0, 1.0])))
report("labels_not_binary", auc((labels * 2.0, scores)))
report("out_of_range_even", auc((labels, scores * 2.0 - 0.5)))
report("out_of_range_uneven", auc((labels, scores * 2.0 - 0.5), thresholds=[0.3, 0.5, 0.55]))
report("column_labels", auc((tf.reshape(labels, [-1, 1]), tf.reshape(scores, [-1, 1]))))
multi_true = tf.constant([[0, 1], [1, 1], [0, 0], [1, 0], [1, 1]], tf.float32)
multi_pred = tf.constant([[0.2, 0.7], [0.6, 0.4], [0.3, 0.1], [0.9, 0.6], [0.4, 0.8]])
report("multi_label", auc((multi_true, multi_pred), multi_label=True, num_thresholds=5))
report("multi_label_pr", auc((multi_true, multi_pred), multi_label=True, curve="PR"))
report("multi_label_weights", auc((multi_true, multi_pred), multi_label=True,
                                  label_weights=[0.25, 0.75]))
report("multi_label_num_labels", auc((multi_true, multi_pred), multi_label=True, num_labels=2))
report("flattened_two_columns", auc((multi_true, multi_pred)))
report("label_weights_single", auc((multi_true, multi_pred), label_weights=[0.25, 0.75]))

metric = tf.keras.metrics.AUC(num_thresholds=4, name="auc_state")
report("thresholds", metric.thresholds)
report("before_update", metric.result())
metric.update_state([0, 1, 1], [0.2, 0.6, 0.9])
report("variables", [[v.name, list(v.shape), v.numpy()] for v in metric.variables])
metric.update_state([1, 0], [0.3, 0.4])
report("accumulated", metric.result())
metric.reset_state()
report("after_reset", [metric.result(), metric.variables[0]])
report("name_default", tf.keras.metrics.AUC().name)

x = np.linspace(-1.0, 1.0, 16).reshape(8, 2).astype(np.float32)
y = np.array([0, 0, 1, 0, 1, 1, 0, 1], np.float32)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])
model.build((None, 2))
model.layers[0].kernel.assign([[1.5], [-0.5]])
model.layers[0].bias.assign([0.1])
model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy",
              metrics=[tf.keras.metrics.AUC(name="auc"), tf.keras.metrics.AUC(name="prc",
                                                                             curve="PR")])
history = model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
report("fit_history", history.history)
report("evaluate", model.evaluate(x, y, verbose=0, return_dict=True))

expect_error("num_thresholds_1", lambda: tf.keras.metrics.AUC(num_thresholds=1))
expect_error("bad_curve", lambda: tf.keras.metrics.AUC(curve="ROCPR"))
expect_error("bad_summation", lambda: tf.keras.metrics.AUC(summation_method="trapezoid"))
expect_error("num_labels_without_multi_label", lambda: tf.keras.metrics.AUC(num_labels=3))
expect_error("multi_label_rank_1", lambda: auc(multi_label=True))
expect_error("negative_label_weights",
             lambda: tf.keras.metrics.AUC(label_weights=[0.5, -1.0]))
