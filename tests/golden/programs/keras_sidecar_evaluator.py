# tf.keras.utils.SidecarEvaluator evaluating checkpoints written by a training run: the
# weights ModelCheckpoint(save_weights_only=True) writes as 'ckpt-{epoch}', and a
# tf.train.Checkpoint(model=..., optimizer=...) saved by a CheckpointManager in a custom loop.
# It evaluates the newest checkpoint and stops once a checkpoint's number reaches
# max_evaluations; reported: the logs its evaluations gave a callback, the weights and the
# optimizer step it restored. Also tf.train.checkpoints_iterator with timeout=0 (the newest
# checkpoint, then nothing new) and its timeout_fn.
import os
import tempfile

x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
y = (x @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)
data = tf.data.Dataset.from_tensor_slices((x, y)).batch(3)


def make_model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                                 tf.keras.layers.Dense(4, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model.set_weights([np.full(w.shape, 0.1 * (i + 1), np.float32)
                       + np.arange(w.size, dtype=np.float32).reshape(w.shape) * 0.01
                       for i, w in enumerate(model.get_weights())])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    return model


class Logs(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.ends, self.batches = [], 0

    def on_test_batch_end(self, batch, logs=None):
        self.batches += 1

    def on_test_end(self, logs=None):
        self.ends.append(logs)


# checkpoints written by fit
folder = tempfile.mkdtemp()
trained = make_model()
trained.fit(x, y, batch_size=2, epochs=3, shuffle=False, verbose=0, callbacks=[
    tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "ckpt-{epoch}"),
                                       save_weights_only=True)])
report("fit.iterator_timeout_0", [os.path.basename(p) for p in
                                  tf.train.checkpoints_iterator(folder, timeout=0)])
asked = []
report("fit.iterator_timeout_fn", [os.path.basename(p) for p in tf.train.checkpoints_iterator(
    folder, timeout=0, timeout_fn=lambda: asked.append(1) or len(asked) >= 2)])
report("fit.timeout_fn_asked", len(asked))
for max_evaluations, steps in ((3, None), (1, 2)):
    evaluator_model, logs = make_model(), Logs()
    tf.keras.utils.SidecarEvaluator(model=evaluator_model, data=data, checkpoint_dir=folder,
                                    steps=steps, max_evaluations=max_evaluations,
                                    callbacks=[logs]).start()
    name = f"fit.max_{max_evaluations}_steps_{steps}"
    report(f"{name}.logs", logs.ends)
    report(f"{name}.batches", logs.batches)
    report(f"{name}.weights", evaluator_model.get_weights())
    report(f"{name}.iterations", int(evaluator_model.optimizer.iterations.numpy()))
report("fit.trained_weights", trained.get_weights())

# checkpoints written by a custom loop's CheckpointManager
folder = tempfile.mkdtemp()
model = make_model()
optimizer = tf.keras.optimizers.SGD(0.1)
manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=optimizer),
                                     folder, max_to_keep=2)
for step in range(4):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    manager.save()
report("loop.iterator_timeout_0", [os.path.basename(p) for p in
                                   tf.train.checkpoints_iterator(folder, timeout=0)])
evaluator_model, logs = make_model(), Logs()
evaluator_model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
tf.keras.utils.SidecarEvaluator(evaluator_model, data, folder, max_evaluations=4,
                                callbacks=[logs]).start()
report("loop.logs", logs.ends)
report("loop.weights", evaluator_model.get_weights())
report("loop.iterations", int(evaluator_model.optimizer.iterations.numpy()))
report("empty.iterator_timeout_0", list(tf.train.checkpoints_iterator(tempfile.mkdtemp(),
                                                                      timeout=0)))
