# The `experimental` namespaces older Keras code imports from (layers.experimental.preprocessing,
# optimizers.experimental, keras.experimental) and the CosineDecayRestarts schedule
pre = tf.keras.layers.experimental.preprocessing
report("preprocessing.same_classes", [pre.Rescaling is tf.keras.layers.Rescaling,
                                      pre.Normalization is tf.keras.layers.Normalization,
                                      pre.Resizing is tf.keras.layers.Resizing])
report("preprocessing.rescaling", pre.Rescaling(1.0 / 255, offset=-0.5)(
    tf.constant([[0.0, 51.0, 255.0]])))
norm = pre.Normalization(axis=-1)
norm.adapt(np.array([[1.0, 10.0], [3.0, 30.0]], np.float32))
report("preprocessing.normalization", norm(tf.constant([[2.0, 20.0]])))

opt = tf.keras.optimizers.experimental
report("optimizers.same_classes", [opt.Adam is tf.keras.optimizers.Adam,
                                   opt.SGD is tf.keras.optimizers.SGD,
                                   opt.Optimizer is tf.keras.optimizers.Optimizer])
v = tf.Variable([1.0, -2.0])
sgd = opt.SGD(learning_rate=0.1, momentum=0.5)
for _ in range(2):
    sgd.apply_gradients([(tf.constant([0.5, 1.0]), v)])
report("optimizers.sgd_steps", v)

exp = tf.keras.experimental
report("experimental.same_classes", [
    exp.CosineDecay is tf.keras.optimizers.schedules.CosineDecay,
    exp.CosineDecayRestarts is tf.keras.optimizers.schedules.CosineDecayRestarts])
for name, kwargs in (("default", {}), ("t_mul_1", {"t_mul": 1.0}),
                     ("m_mul_alpha", {"t_mul": 1.5, "m_mul": 0.5, "alpha": 0.1})):
    schedule = exp.CosineDecayRestarts(0.1, 4, **kwargs)
    report(f"restarts.{name}", [schedule(step) for step in (0, 1, 3, 4, 5, 9, 12, 13, 20, 27)])
schedule = tf.keras.optimizers.schedules.CosineDecayRestarts(0.5, 3, t_mul=2.0, m_mul=0.9,
                                                             alpha=0.2, name="sgdr")
report("restarts.config", schedule.get_config())
report("restarts.dtype", schedule(tf.constant(2)).dtype.name)
report("restarts.variable_step", schedule(tf.Variable(7, dtype=tf.int64)))
model_opt = tf.keras.optimizers.SGD(learning_rate=schedule)
w = tf.Variable(1.0)
for _ in range(4):
    model_opt.apply_gradients([(tf.constant(1.0), w)])
report("restarts.in_optimizer", w)
