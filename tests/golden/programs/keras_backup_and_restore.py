# tf.keras.callbacks.BackupAndRestore: a fit interrupted by an exception and resumed by a new
# fit of a fresh model with the same callback. With save_freq='epoch' the resumed fit starts
# at the epoch after the last one backed up; with an integer save_freq (every N batches) it
# starts at the batch after the last one backed up, in that epoch; weights and the optimizer's
# state (Adam's moments, its step) come back. Reported: the resumed fits' histories, which
# epochs and batches they ran, their final weights and optimizer step, what is left in the
# backup folder (delete_checkpoint), and the refusals.
import os
import tempfile

x = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
y = (x @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.3).astype(np.float32)


def make_model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(3,)),
                                 tf.keras.layers.Dense(4, activation="tanh", name="h"),
                                 tf.keras.layers.Dense(1, name="o")])
    model.set_weights([np.full(w.shape, 0.1 * (i + 1), np.float32)
                       + np.arange(w.size, dtype=np.float32).reshape(w.shape) * 0.01
                       for i, w in enumerate(model.get_weights())])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"])
    return model


class Interrupt(tf.keras.callbacks.Callback):
    """Raises at the end of epoch `epoch` or after `step` batches in all."""

    def __init__(self, epoch=None, step=None):
        super().__init__()
        self.epoch, self.step, self.count = epoch, step, 0

    def on_train_batch_end(self, batch, logs=None):
        self.count += 1
        if self.count == self.step:
            raise RuntimeError("Interruption")

    def on_epoch_end(self, epoch, logs=None):
        if epoch == self.epoch:
            raise RuntimeError("Interruption")


class Seen(tf.keras.callbacks.Callback):
    """The (epoch, batch) pairs a fit ran."""

    def __init__(self):
        super().__init__()
        self.pairs, self.epoch = [], None

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch

    def on_train_batch_begin(self, batch, logs=None):
        self.pairs.append([self.epoch, batch])


def contents(folder):
    """What the backup folder holds, as names (each library names its files its own way)."""
    found = []
    for root, dirs, names in os.walk(folder):
        rel = os.path.relpath(root, folder)
        found += [os.path.join(rel, d) for d in dirs]
        found += [os.path.join(rel, "checkpoint")] if "checkpoint" in names else []
    return sorted(found)


def case(name, interrupt, epochs=4, validation=True, **kwargs):
    folder = tempfile.mkdtemp()
    backup = tf.keras.callbacks.BackupAndRestore(backup_dir=folder, **kwargs)
    fit = dict(batch_size=2, epochs=epochs, shuffle=False, verbose=0,
               validation_data=(x[:4], y[:4]) if validation else None)
    model = make_model()
    try:
        model.fit(x, y, callbacks=[backup, interrupt], **fit)
    except RuntimeError as e:
        report(f"{name}.raised", str(e))
    report(f"{name}.after_interrupt", contents(folder))
    model = make_model()
    seen = Seen()
    history = model.fit(x, y, callbacks=[backup, seen], **fit)
    report(f"{name}.history", history.history)
    report(f"{name}.epochs", history.epoch)
    report(f"{name}.seen", seen.pairs)
    report(f"{name}.weights", model.get_weights())
    report(f"{name}.iterations", int(model.optimizer.iterations.numpy()))
    report(f"{name}.after_fit", contents(folder))
    return folder, backup


case("epoch_interrupted_at_epoch_end", Interrupt(epoch=1))
case("epoch_interrupted_mid_epoch", Interrupt(step=7))
case("every_3_batches_mid_epoch", Interrupt(step=7), save_freq=3)
case("every_2_batches_at_epoch_end", Interrupt(step=8), save_freq=2)
case("every_5_batches", Interrupt(step=11), save_freq=5, validation=False)
case("before_any_backup", Interrupt(step=2), save_freq=3)
folder, backup = case("kept", Interrupt(epoch=2), delete_checkpoint=False)
# the kept backup says every epoch ran: a third fit runs none
model = make_model()
history = model.fit(x, y, batch_size=2, epochs=4, shuffle=False, verbose=0,
                    callbacks=[backup])
report("kept.third_fit_epochs", history.epoch)
report("kept.third_fit_weights", model.get_weights())

# a fit that was never interrupted starts from scratch and leaves no backup
folder = tempfile.mkdtemp()
model = make_model()
history = model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0,
                    callbacks=[tf.keras.callbacks.BackupAndRestore(folder, save_freq=1)])
report("uninterrupted.history", history.history)
report("uninterrupted.after_fit", contents(folder))

expect_error("save_freq_false", lambda: tf.keras.callbacks.BackupAndRestore(
    tempfile.mkdtemp(), save_freq=False))
backup = tf.keras.callbacks.BackupAndRestore("backups", save_freq=7, delete_checkpoint=False)
report("attributes", [backup.backup_dir, backup.save_freq, backup.delete_checkpoint,
                      backup.save_before_preemption])
