# tf.keras.utils.plot_model where pydot and graphviz are not installed (as in a plain
# `pip install tensorflow`): ImportError in a script, ValueError for an unbuilt model, and no
# file written
import os
import tempfile

os.chdir(tempfile.mkdtemp())
model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
expect_error("unbuilt", lambda: tf.keras.utils.plot_model(model, "unbuilt.png"))
model.build((None, 3))
expect_error("built", lambda: tf.keras.utils.plot_model(model, "model.png", show_shapes=True))
report("no_file", os.path.exists("model.png"))
