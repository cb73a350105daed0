# Names and conventions that public TensorFlow programs use (CleverHans, the Keras guides on
# callbacks and built-in training, keras.io's endpoint-layer and antirectifier recipes, a
# focal loss written with keras.backend, a PINN's ProgbarLogger): tf.dtypes, tf.one_hot of a
# NumPy float array, the binary metrics, Layer.get_config, initializers.serialize, the logs
# every callback hook gets, compile(loss=[fn]), which metrics sample weights reach, and the
# label rank a compiled metric sees.
report("dtypes.cast", tf.dtypes.cast(tf.constant([1.7, -2.2]), tf.dtypes.int32))
report("dtypes.names", [tf.dtypes.float32.name, tf.dtypes.as_dtype("float64").name,
                        tf.dtypes.int64 == tf.int64])
report("one_hot.numpy_float32", tf.one_hot(np.array([1.0, 2.7, -1.0], np.float32), 3))
report("one_hot.numpy_float64", tf.one_hot(np.array([[0.0], [1.9]]), 2))
expect_error("one_hot.float_tensor", lambda: tf.one_hot(tf.constant([1.0, 2.0]), 3))

y_true = np.array([[1.0], [0.0], [1.0], [0.0]], np.float32)
y_pred = np.array([[0.8], [0.6], [0.3], [0.1]], np.float32)
acc = tf.keras.metrics.BinaryAccuracy()
report("binary_accuracy", acc(y_true, y_pred))
report("binary_accuracy.threshold", tf.keras.metrics.BinaryAccuracy(threshold=0.2)(y_true, y_pred))
report("binary_accuracy.weighted",
       tf.keras.metrics.BinaryAccuracy()(y_true, y_pred, sample_weight=[[1.0], [2.0], [0.5], [0.0]]))
report("binary_accuracy.name", acc.name)
bce = tf.keras.metrics.BinaryCrossentropy()
bce.update_state(y_true, y_pred)
bce.update_state([[1.0]], [[0.5]])
report("binary_crossentropy", bce.result())
report("binary_crossentropy.logits",
       tf.keras.metrics.BinaryCrossentropy(from_logits=True, name="bce")(y_true, y_pred * 4 - 2))
report("mape", tf.keras.metrics.MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 5.0]]))

report("layer.get_config", tf.keras.layers.Layer(name="plain").get_config())


class WithConfig(tf.keras.layers.Layer):
    def __init__(self, initializer="he_normal", **kwargs):
        super().__init__(**kwargs)
        self.initializer = tf.keras.initializers.get(initializer)

    def get_config(self):
        base = super().get_config()
        return dict(base, initializer=tf.keras.initializers.serialize(self.initializer))


config = WithConfig(name="with_config").get_config()
report("custom.get_config.name", config["name"])
report("custom.get_config.initializer", config["initializer"]["class_name"])

hooks = []


class LogKeys(tf.keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        hooks.append(["train_begin", type(logs).__name__, sorted(logs)])

    def on_epoch_begin(self, epoch, logs=None):
        hooks.append(["epoch_begin", epoch, type(logs).__name__, sorted(logs)])

    def on_train_batch_begin(self, batch, logs=None):
        hooks.append(["batch_begin", batch, type(logs).__name__])

    def on_test_begin(self, logs=None):
        hooks.append(["test_begin", type(logs).__name__, sorted(logs)])

    def on_predict_begin(self, logs=None):
        hooks.append(["predict_begin", type(logs).__name__])

    def on_predict_end(self, logs=None):
        hooks.append(["predict_end", type(logs).__name__])


def focal(y_true, y_pred):
    K = tf.keras.backend
    y_pred = K.clip(y_pred, K.epsilon(), 1.0 - K.epsilon())
    p_t = tf.where(K.equal(y_true, 1), y_pred, 1 - y_pred)
    return K.mean(K.sum(-K.pow(1 - p_t, 2.0) * K.log(p_t), axis=1))


x = np.array([[0.5, -1.0], [1.0, 2.0], [-0.5, 0.25], [2.0, 1.0]], np.float32)
y = np.array([[1.0], [0.0], [1.0], [1.0]], np.float32)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(2,),
                                                   kernel_initializer="ones")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=[focal],
              metrics=[tf.keras.metrics.BinaryAccuracy(name="acc")])
history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
                    callbacks=[LogKeys()])
model.evaluate(x, y, verbose=0, callbacks=[LogKeys()])
model.predict(x, verbose=0, callbacks=[LogKeys()])
report("compile_loss_list.history", history.history)
report("callback_hooks", hooks)
progbar = tf.keras.callbacks.ProgbarLogger(count_mode="steps", stateful_metrics=["loss"])
progbar.set_params({"verbose": 1, "epochs": 1, "steps": 3, "metrics": ["loss"]})
report("progbar.made", type(progbar).__name__)
K = tf.keras.backend
report("backend.misc", [K.std(tf.constant([1.0, 2.0, 4.0])), K.var(tf.constant([1.0, 3.0])),
                        K.flatten(tf.ones((2, 3))), K.batch_flatten(tf.ones((2, 2, 2))),
                        K.not_equal(tf.constant([1.0, 2.0]), 2.0),
                        K.concatenate([tf.ones((1, 2)), tf.zeros((1, 2))], axis=0)])

# sample weights reach only weighted_metrics; labels of shape (batch,) meet (batch, n)
labels = np.array([0.0, 1.0, 2.0, 1.0], np.float32)
clf = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,), kernel_initializer="ones",
                                                 bias_initializer=tf.keras.initializers.Constant([0.0, 0.5, -0.5]))])


class SeenShapes(tf.keras.metrics.Metric):
    def __init__(self, name="seen", **kwargs):
        super().__init__(name=name, **kwargs)
        self.hits = self.add_weight(name="hits", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        pred = tf.reshape(tf.argmax(y_pred, axis=1), shape=(-1, 1))
        values = tf.cast(tf.cast(y_true, "int32") == tf.cast(pred, "int32"), "float32")
        self.hits.assign_add(tf.reduce_sum(values))

    def result(self):
        return self.hits


clf.compile(optimizer=tf.keras.optimizers.SGD(0.0),
            loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
            metrics=["sparse_categorical_accuracy", SeenShapes()],
            weighted_metrics=["sparse_categorical_accuracy"])
weighted = clf.fit(x, labels, sample_weight=np.array([1.0, 0.0, 3.0, 2.0], np.float32),
                   batch_size=4, epochs=1, shuffle=False, verbose=0)
report("weighted_metrics.history", weighted.history)
