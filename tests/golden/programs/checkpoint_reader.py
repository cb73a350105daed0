# tf.train.list_variables, load_variable and load_checkpoint on a checkpoint the same program
# saved: TensorFlow's names, shapes, dtypes and values, a directory standing for its newest
# checkpoint, and the errors for a missing name (the object-graph entry's bytes are not
# compared: tapeviz writes its own index there)
import os
import tempfile

os.chdir(tempfile.mkdtemp())      # relative paths: no answer quotes a path of this machine
m = tf.Module()
m.w = tf.Variable([1.0, 2.0])
m.inner = tf.Module()
m.inner.b = tf.Variable(3)
ckpt = tf.train.Checkpoint(model=m, step=tf.Variable(5, dtype=tf.int64))
path = ckpt.save("ckpts/c")
report("path", path)
report("list_variables", tf.train.list_variables(path))
report("list_variables.directory", tf.train.list_variables("ckpts"))
report("load_variable", tf.train.load_variable(path, "model/w/.ATTRIBUTES/VARIABLE_VALUE"))
report("load_variable.int", tf.train.load_variable(path, "model/inner/b/.ATTRIBUTES/VARIABLE_VALUE"))
report("load_variable.type", type(tf.train.load_variable(
    path, "step/.ATTRIBUTES/VARIABLE_VALUE")).__name__)
reader = tf.train.load_checkpoint(path)
report("reader.type", type(reader).__name__)
report("reader.shapes", reader.get_variable_to_shape_map())
report("reader.dtypes", {k: v.name for k, v in reader.get_variable_to_dtype_map().items()})
report("reader.get_tensor", reader.get_tensor("model/w/.ATTRIBUTES/VARIABLE_VALUE"))
report("reader.has_tensor", [reader.has_tensor("step/.ATTRIBUTES/VARIABLE_VALUE"),
                             reader.has_tensor("nope")])
report("reader.graph_is_bytes", type(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")).__name__)
m.w.assign([7.0, 8.0])
path2 = ckpt.save("ckpts/c")
report("directory_is_newest", tf.train.load_variable("ckpts", "model/w/.ATTRIBUTES/VARIABLE_VALUE"))
report("first_kept", tf.train.load_variable(path, "model/w/.ATTRIBUTES/VARIABLE_VALUE"))
expect_error("missing_name", lambda: tf.train.load_variable(path, "nope"))
expect_error("missing_checkpoint", lambda: tf.train.list_variables("ckpts/none-1"))
os.makedirs("empty")
expect_error("empty_directory", lambda: tf.train.list_variables("empty"))
