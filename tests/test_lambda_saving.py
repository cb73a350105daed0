"""A model with a Lambda layer saved by tapeviz keeps the function by reference (its values
against TensorFlow are in tests/golden/programs/keras_lambda_saving.py): loaded in another
process it is refused with the reason and the fix, and no code is read from the folder."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SAVE = """
import numpy as np, tapeviz as tf
inputs = tf.keras.Input(shape=(3,))
outputs = tf.keras.layers.Dense(1)(tf.keras.layers.Lambda(lambda t: t * 2.0)(inputs))
model = tf.keras.Model(inputs, outputs)
model.save({path!r})
print("same process:", tf.keras.models.load_model({path!r}).predict(np.ones((1, 3)),
                                                                    verbose=0).shape)
"""

LOAD = """
import tapeviz as tf
try:
    tf.keras.models.load_model({path!r})
except ValueError as e:
    print("refused:", e)
"""


def _run(code, path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-c", code.format(path=path)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_a_lambda_saved_in_one_process_is_refused_in_another_with_the_fix(tmp_path):
    path = str(tmp_path / "model")
    assert "same process: (1, 1)" in _run(SAVE, path)
    out = _run(LOAD, path)
    assert "refused: Lambda layer 'lambda'" in out
    assert "saved by reference" in out and "Fix: load the model in the process" in out
