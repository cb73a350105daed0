# AdamW (Adam with a decoupled weight decay), weight_decay= on the other optimizers (SGD,
# Adam, RMSprop), exclude_from_weight_decay, Adamax, their slots, names in compile, and a
# compiled fit with each.
def steps(opt, n=3):
    w = tf.Variable([[1.0, -2.0], [0.5, 3.0]], name="w")
    b = tf.Variable([0.25, -0.75], name="b")
    for i in range(n):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum((tf.matmul(tf.constant([[1.0, 2.0]]), w) + b - i) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    return {"w": w, "b": b, "slots": {v.name: v for v in opt.variables()}}


O = tf.keras.optimizers
report("adamw_default", steps(O.AdamW(0.1)))
report("adamw_decay", steps(O.AdamW(0.05, weight_decay=0.1, amsgrad=True)))
report("adamw_schedule", steps(O.AdamW(O.schedules.ExponentialDecay(0.1, 1, 0.5),
                                       weight_decay=0.2)))
report("adam_weight_decay", steps(O.Adam(0.1, weight_decay=0.05)))
report("sgd_weight_decay", steps(O.SGD(0.1, momentum=0.9, weight_decay=0.01)))
report("rmsprop_weight_decay", steps(O.RMSprop(0.01, weight_decay=0.5)))
report("adamax", steps(O.Adamax(0.1)))
report("adamax_args", steps(O.Adamax(0.02, beta_1=0.8, beta_2=0.9, epsilon=1e-3)))
report("adamax_decay", steps(O.Adamax(0.1, weight_decay=0.1)))

excluded = O.AdamW(0.1, weight_decay=0.5)
excluded.exclude_from_weight_decay(var_names=["b"])
report("adamw_exclude_names", steps(excluded))
w_var = tf.Variable([1.0, 2.0], name="kept")
opt = O.AdamW(0.1, weight_decay=0.5)
opt.exclude_from_weight_decay(var_list=[w_var])
opt.apply_gradients([(tf.constant([0.1, 0.1]), w_var)])
report("adamw_exclude_list", w_var)

report("names", [type(O.get("adamw")).__name__, type(O.get("adamax")).__name__,
                 O.get("adamw").weight_decay, O.AdamW().name, O.Adamax().name])
expect_error("adamw_none", lambda: O.AdamW(weight_decay=None))

x = np.linspace(-1, 1, 12).reshape(6, 2).astype(np.float32)
y = (x[:, :1] - 2.0 * x[:, 1:]).astype(np.float32)
for name in ("adamw", "adamax"):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,),
                                                       kernel_initializer="ones")])
    model.compile(optimizer=name, loss="mse")
    history = model.fit(x, y, batch_size=3, epochs=2, verbose=0, shuffle=False)
    report("fit_" + name, [history.history["loss"], model.get_weights()])
