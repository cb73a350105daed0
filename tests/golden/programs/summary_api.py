# tf.summary: writers, the default step, record_if, and what each summary function returns
# (True when written, False with no default writer or when recording is off), its errors,
# and which files a writer makes (the files' contents: tests/test_summary.py)
import os
import tempfile

logdir = tempfile.mkdtemp()
report("no_writer.scalar", tf.summary.scalar("loss", 1.0))
report("no_writer.scalar_with_step", tf.summary.scalar("loss", 1.0, step=3))
report("no_writer.histogram", tf.summary.histogram("h", [1.0, 2.0], step=1))
report("no_writer.text", tf.summary.text("t", "hello", step=1))
report("no_writer.image", tf.summary.image("i", np.zeros((1, 2, 2, 1), np.float32), step=1))
report("no_writer.should_record", tf.summary.should_record_summaries())
report("no_writer.step", tf.summary.experimental.get_step())
expect_error("no_writer.non_scalar", lambda: tf.summary.scalar("v", [1.0, 2.0], step=1))
expect_error("no_writer.text_of_a_number", lambda: tf.summary.text("t", 1.0, step=1))
expect_error("no_writer.scalar_of_a_string", lambda: tf.summary.scalar("s", "a", step=1))
report("no_writer.histogram_of_strings", tf.summary.histogram("h", ["a"], step=1))
report("no_writer.image_of_rank_2", tf.summary.image("i", [[1.0]], step=1))
expect_error("logdir_none", lambda: tf.summary.create_file_writer(None))

writer = tf.summary.create_file_writer(os.path.join(logdir, "train"))
report("files_after_create", len(os.listdir(os.path.join(logdir, "train"))))


def without_step():
    with writer.as_default():
        tf.summary.scalar("loss", 1.0)


expect_error("writer.no_step", without_step)
with writer.as_default(step=3) as entered:
    report("as_default.returns_the_writer", entered is writer)
    report("as_default.step", tf.summary.experimental.get_step())
    report("as_default.scalar", tf.summary.scalar("loss", 0.25, description="the loss"))
    report("as_default.scalar_int", tf.summary.scalar("count", 7, step=4))
    report("as_default.scalar_tensor", tf.summary.scalar("t", tf.constant(2.5, tf.float64)))
    report("as_default.histogram", tf.summary.histogram("h", [1.0, 2.0, 3.0, 10.0], buckets=3))
    report("as_default.text", tf.summary.text("t", "hello"))
    report("as_default.image", tf.summary.image("i", np.zeros((2, 3, 4, 3), np.float32)))
    report("as_default.write", tf.summary.write("raw", tf.constant([1, 2]), step=2))
    report("as_default.write_callable", tf.summary.write("raw", lambda: tf.constant(1.0)))
    report("as_default.should_record", tf.summary.should_record_summaries())
    with tf.summary.record_if(False):
        report("record_if_false.should_record", tf.summary.should_record_summaries())
        report("record_if_false.scalar", tf.summary.scalar("loss", 1.0))
    with tf.summary.record_if(lambda: tf.equal(tf.summary.experimental.get_step() % 2, 0)):
        report("record_if_callable.odd_step", tf.summary.scalar("loss", 1.0))
        report("record_if_callable.even_step", tf.summary.scalar("loss", 1.0, step=4))
    with tf.summary.record_if(tf.constant(True)):
        report("record_if_tensor.scalar", tf.summary.scalar("loss", 1.0))
    expect_error("as_default.non_scalar", lambda: tf.summary.scalar("v", [1.0, 2.0]))
    expect_error("as_default.histogram_of_strings", lambda: tf.summary.histogram("h", ["a"]))
    expect_error("as_default.image_of_rank_2", lambda: tf.summary.image("i", [[1.0]]))
    inner = tf.summary.create_file_writer(os.path.join(logdir, "eval"))
    with inner.as_default(step=20):
        report("nested.step", tf.summary.experimental.get_step())
    report("nested.step_restored", tf.summary.experimental.get_step())
    with inner.as_default():
        report("nested_without_step.step", tf.summary.experimental.get_step())
report("after.step", tf.summary.experimental.get_step())
report("after.should_record", tf.summary.should_record_summaries())
report("after.scalar", tf.summary.scalar("loss", 1.0, step=1))

tf.summary.experimental.set_step(7)
report("set_step.int", tf.summary.experimental.get_step())
step = tf.Variable(5, dtype=tf.int64)
tf.summary.experimental.set_step(step)
with writer.as_default():
    report("variable_step.scalar", tf.summary.scalar("loss", 0.5))
    step.assign_add(1)
    report("variable_step.after_assign", tf.summary.scalar("loss", 0.25))
tf.summary.experimental.set_step(None)
report("set_step.none", tf.summary.experimental.get_step())

writer.set_as_default(step=11)
report("set_as_default.step", tf.summary.experimental.get_step())
report("set_as_default.scalar", tf.summary.scalar("loss", 1.0))
report("flush", writer.flush())
report("close", writer.close())
report("close_again", writer.close())
report("flush_after_close", writer.flush())
expect_error("closed.scalar", lambda: tf.summary.scalar("loss", 1.0))
expect_error("closed.as_default", lambda: writer.as_default())
expect_error("closed.set_as_default", lambda: writer.set_as_default())

noop = tf.summary.create_noop_writer()
with noop.as_default(step=1) as entered:
    report("noop.entered", entered)
    report("noop.step_not_set", tf.summary.experimental.get_step())
    expect_error("noop.closed_writer_still_default", lambda: tf.summary.scalar("loss", 1.0))
report("noop.flush", noop.flush())
report("files_per_writer", sorted(len(os.listdir(os.path.join(logdir, d)))
                                  for d in os.listdir(logdir)))
report("file_suffix", sorted(os.listdir(os.path.join(logdir, "train")))[0].endswith(".v2"))
report("file_prefix", sorted(os.listdir(os.path.join(logdir, "train")))[0]
       .startswith("events.out.tfevents."))
