"""What TensorFlow's summary writer puts in an event file, recorded for tests/test_summary.py.

Run with a Python that has TensorFlow and TensorBoard (never project dependencies), from the
repository's root::

    ../tfvenv/bin/pip install tensorflow-cpu tensorboard
    ../tfvenv/bin/python tests/golden/summary_events/record.py           # record
    PYTHONPATH=. ../tfvenv/bin/python tests/golden/summary_events/record.py --check-tapeviz

Recording runs `write_summaries` and `fit_with_tensorboard` (tf.keras's TensorBoard callback)
under TensorFlow, reads the event file back with TensorFlow's
own reader (`tf.compat.v1.train.summary_iterator`, images decoded by `tf.io.decode_png`) and
stores what it read in answers.json, and the file itself as tensorflow.tfevents (which
tests/test_summary.py reads with tapeviz's reader). `--check-tapeviz` runs the same function
under tapeviz and reads tapeviz's file with TensorFlow's reader, which must find the same.
"""
import glob
import json
import os
import shutil
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def write_summaries(tf, logdir):
    """The summaries whose files are compared: every kind, steps given three ways, a name
    scope, a description, a histogram's edge cases, grey, RGB and RGBA images."""
    writer = tf.summary.create_file_writer(logdir)
    with writer.as_default(step=3):
        tf.summary.scalar("loss", 0.25, description="the training loss")
        tf.summary.scalar("loss", tf.constant(0.125, tf.float64), step=4)
        tf.summary.scalar("count", 7, step=-2)
        with tf.name_scope("outer"):
            tf.summary.scalar("inner", 2.0)
        tf.summary.histogram("weights", [1.0, 2.0, 3.0, 10.0, -4.5], buckets=4)
        tf.summary.histogram("default_buckets", np.linspace(-1, 1, 50))
        tf.summary.histogram("one_value", [2.0, 2.0, 2.0], buckets=3)
        tf.summary.histogram("empty", tf.zeros([0]), buckets=2)
        tf.summary.text("note", "**bold** and ünïcode")
        tf.summary.text("table", [["a", "b"], ["c", "d"]])
        grey = np.linspace(-0.2, 1.2, 2 * 3 * 4).reshape(2, 3, 4, 1).astype(np.float32)
        tf.summary.image("grey", grey, max_outputs=1)
        rgb = (np.arange(2 * 2 * 3 * 3) * 7 % 256).reshape(2, 2, 3, 3).astype(np.uint8)
        tf.summary.image("rgb", rgb)
        rgba = np.linspace(0, 1, 1 * 2 * 2 * 4).reshape(1, 2, 2, 4)
        tf.summary.image("rgba", rgba, step=9, description="four channels")
        tf.summary.write("raw", tf.constant([[1, 2], [3, 4]], tf.int32), step=5)
    writer.close()
    (path,) = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    return path


def fit_with_tensorboard(tf, logdir):
    """tf.keras's TensorBoard callback on a small fit: {run: its event file}."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="tanh"),
                                 tf.keras.layers.Dense(1)])
    model.build((None, 3))
    model.set_weights([np.array([[0.5, -0.25], [0.125, 0.75], [-0.5, 0.25]], np.float32),
                       np.array([0.1, -0.1], np.float32),
                       np.array([[1.0], [-0.5]], np.float32), np.array([0.2], np.float32)])
    rate = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
    model.compile(tf.keras.optimizers.SGD(rate), "mse", metrics=["mae"])
    x = np.linspace(-1, 1, 8 * 3).reshape(8, 3).astype(np.float32)
    y = np.sin(x.sum(axis=1, keepdims=True))
    callback = tf.keras.callbacks.TensorBoard(logdir, histogram_freq=2, write_graph=False)
    model.fit(x, y, batch_size=4, epochs=3, shuffle=False, validation_data=(x[:4], y[:4]),
              callbacks=[callback], verbose=0)
    return {run: glob.glob(os.path.join(logdir, run, "events.out.tfevents.*"))[0]
            for run in ("train", "validation")}


def read_with_tensorflow(tf, path):
    """Every event as TensorFlow's reader sees it, as JSON (wall times left out)."""
    events = []
    for event in tf.compat.v1.train.summary_iterator(path):
        if event.HasField("file_version") or event.file_version:
            events.append({"file_version": event.file_version})
            continue
        for value in event.summary.value:
            array = tf.make_ndarray(value.tensor)
            entry = {"step": event.step, "tag": value.tag,
                     "plugin": value.metadata.plugin_data.plugin_name,
                     "description": value.metadata.summary_description,
                     "dtype": tf.as_dtype(value.tensor.dtype).name, "shape": list(array.shape)}
            if entry["plugin"] == "images":
                entry["value"] = [s.decode() for s in array[:2]]
                entry["png_hex"] = [s.hex() for s in array[2:]]
                entry["pixels"] = [tf.io.decode_png(s).numpy().tolist() for s in array[2:]]
            elif array.dtype == object:
                entry["value"] = [s.decode() for s in array.reshape(-1)]
            else:
                entry["value"] = array.reshape(-1).tolist()
            events.append(entry)
    return events


def main(argv):
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")     # Keras 2 (tf-keras), as generate.py
    import tensorflow as tf

    with tempfile.TemporaryDirectory() as tmp:
        if "--check-tapeviz" in argv:
            import tapeviz
            with open(os.path.join(HERE, "answers.json"), encoding="utf-8") as f:
                answers = json.load(f)
            ours = read_with_tensorflow(tf, write_summaries(tapeviz, tmp))
            runs = fit_with_tensorboard(tapeviz, os.path.join(tmp, "fit"))
            same = _same(ours, answers["events"]) and all(
                _same(read_with_tensorflow(tf, runs[run]), answers["fit"][run], rtol=1e-5)
                for run in runs)
            print("TensorFlow reads tapeviz's event files " +
                  ("as it reads its own" if same else "DIFFERENTLY"))
            return 0 if same else 1
        path = write_summaries(tf, tmp)
        shutil.copyfile(path, os.path.join(HERE, "tensorflow.tfevents"))
        doc = {"tensorflow_version": tf.__version__, "events": read_with_tensorflow(tf, path)}
        runs = fit_with_tensorboard(tf, os.path.join(tmp, "fit"))
        doc["fit"] = {run: read_with_tensorflow(tf, runs[run]) for run in runs}
    with open(os.path.join(HERE, "answers.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(doc['events'])} events recorded")
    return 0


def _same(ours, theirs, rtol=1e-6):
    """Equal but for the PNG bytes (encoders differ; their pixels must not) and float values
    within `rtol`; prints the first difference."""
    if len(ours) != len(theirs):
        print(f"tapeviz wrote {len(ours)} events, TensorFlow {len(theirs)}")
        return False
    for a, b in zip(ours, theirs):
        a, b = ({k: v for k, v in e.items() if k != "png_hex"} for e in (a, b))
        floats = a.get("dtype") in ("float32", "float64") and b.get("dtype") == a["dtype"]
        same = a.keys() == b.keys() and all(
            np.allclose(a[k], b[k], rtol=rtol, atol=1e-7) if k == "value" and floats
            else a[k] == b[k] for k in a)
        if not same:
            print("tapeviz:   ", str(a)[:300], "\nTensorFlow:", str(b)[:300])
            return False
    return True


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
