# tf.train.Checkpoint and CheckpointManager as training scripts use them: what save/write
# return, the numbering (`ckpt-1`), what the manager keeps after max_to_keep, the directory's
# latest checkpoint, the restore statuses and the error for a missing checkpoint. (The files
# differ: each library reads only its own; docs/tensorflow-differences.md.)
import os
import tempfile

directory = tempfile.mkdtemp()


def short(path):
    return None if path is None else os.path.relpath(path, directory)


def error_text(fn, length=100):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the class and TensorFlow's words are the answer
        return [type(exc).__name__, str(exc).split("\n")[0].replace(directory, "DIR")[:length]]
    return None


step = tf.Variable(0, dtype=tf.int64)
weights = tf.Variable([1.0, 2.0])
ckpt = tf.train.Checkpoint(step=step, weights=weights)
report("latest_before_any", tf.train.latest_checkpoint(directory))
report("save_counter_before", ckpt.save_counter)
report("save_1", short(ckpt.save(os.path.join(directory, "ckpt"))))
weights.assign([3.0, 4.0])
report("save_2", short(ckpt.save(os.path.join(directory, "ckpt"))))
report("save_counter_after", ckpt.save_counter)
report("write", short(ckpt.write(os.path.join(directory, "plain"))))
report("latest", short(tf.train.latest_checkpoint(directory)))
report("latest_missing_dir", tf.train.latest_checkpoint(os.path.join(directory, "none")))

weights.assign([9.0, 9.0])
status = ckpt.restore(os.path.join(directory, "ckpt-1"))
report("restored_weights", weights)
report("restored_counter", ckpt.save_counter)
report("status_methods", [type(status.assert_consumed()).__name__,
                          type(status.expect_partial()).__name__,
                          type(status.assert_existing_objects_matched()).__name__])
report("read", type(ckpt.read(os.path.join(directory, "plain"))).__name__)
report("read_weights", weights)

none_status = ckpt.restore(None)
report("restore_none", type(none_status).__name__)
report("restore_none_consumed", error_text(none_status.assert_consumed))
report("restore_none_partial", type(none_status.expect_partial()).__name__)
report("restore_missing", error_text(lambda: ckpt.restore(os.path.join(directory, "nope-3"))))
report("read_missing", error_text(lambda: ckpt.read(os.path.join(directory, "nope-3"))))

fewer = tf.train.Checkpoint(weights=tf.Variable([0.0, 0.0]), extra=tf.Variable(1.0))
partial = fewer.restore(os.path.join(directory, "ckpt-2"))
report("partial_weights", fewer.weights)
report("partial_existing", error_text(partial.assert_existing_objects_matched)[0])
report("wrong_shape", error_text(lambda: tf.train.Checkpoint(weights=tf.Variable(
    [1.0, 2.0, 3.0])).restore(os.path.join(directory, "ckpt-2"))))
report("not_trackable", error_text(lambda: tf.train.Checkpoint(x=3), length=96))

managed = os.path.join(directory, "managed")
counter = tf.Variable(0.0)
manager = tf.train.CheckpointManager(tf.train.Checkpoint(counter=counter), managed,
                                     max_to_keep=2)
report("manager_before", [manager.latest_checkpoint, manager.checkpoints])
saved = []
for i in range(4):
    counter.assign(float(i))
    saved.append(os.path.relpath(manager.save(), managed))
report("manager_saved", saved)
report("manager_kept", [os.path.relpath(p, managed) for p in manager.checkpoints])
report("manager_latest", os.path.relpath(manager.latest_checkpoint, managed))
report("manager_numbered", os.path.relpath(manager.save(checkpoint_number=10), managed))
report("manager_after_numbered", os.path.relpath(manager.save(), managed))
report("latest_of_managed", os.path.relpath(tf.train.latest_checkpoint(managed), managed))
reopened = tf.train.CheckpointManager(tf.train.Checkpoint(counter=tf.Variable(0.0)), managed,
                                      max_to_keep=3, checkpoint_name="model")
report("reopened_kept", [os.path.relpath(p, managed) for p in reopened.checkpoints])
report("reopened_save", os.path.relpath(reopened.save(), managed))
restored_counter = tf.Variable(-1.0)
tf.train.Checkpoint(counter=restored_counter).restore(tf.train.latest_checkpoint(managed))
report("restored_from_latest", restored_counter)

# a checkpoint holding more than the program restores into
both = tf.train.Checkpoint(v=tf.Variable(2.0), w=tf.Variable(3.0))
more = tf.train.Checkpoint(v=tf.Variable(1.0)).restore(both.save(os.path.join(directory, "b")))
report("extra_consumed", error_text(more.assert_consumed, length=36))
report("extra_existing", type(more.assert_existing_objects_matched()).__name__)
# an attribute of the Checkpoint is the object given, and a root may be positional
counted = tf.train.Checkpoint(step=tf.Variable(1))
counted.step.assign_add(1)
report("step_attribute", counted.step)
report("positional_root", short(tf.train.Checkpoint(tf.Variable(1.0)).save(
    os.path.join(directory, "r"))))

# a dataset iterator goes on where the saved one stopped
iterator = iter(tf.data.Dataset.range(10).batch(3))
report("iterator_first", [next(iterator), next(iterator)])
iterator_path = tf.train.Checkpoint(iterator=iterator).write(os.path.join(directory, "it"))
report("iterator_next_after_saving", next(iterator))
resumed = iter(tf.data.Dataset.range(10).batch(3))
tf.train.Checkpoint(iterator=resumed).read(iterator_path).assert_consumed()
report("iterator_resumed", [next(resumed), next(resumed)])
report("iterator_resumed_end", error_text(lambda: next(resumed)))
