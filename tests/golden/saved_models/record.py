"""Model files TensorFlow writes, recorded for tests/test_saving.py.

Run with a Python that has tensorflow-cpu and tf-keras (never project dependencies), from the
repository's root::

    ../tfvenv/bin/python tests/golden/saved_models/record.py                 # record
    PYTHONPATH=. ../tfvenv/bin/python tests/golden/saved_models/record.py --check-tapeviz

Recording builds each model of `build_models` under TensorFlow (Keras 2 from tf-keras) with
fixed weights, trains it one step (Adam, RMSprop), and saves it as a `.keras` zip, a whole-model
`.h5` file, `.h5` weights and `.weights.h5` weights into tf_files/. answers.json keeps each
model's predictions on fixed inputs, and the predictions after TensorFlow loaded the `.keras`
and `.h5` files and trained one more step (which needs the optimizer's restored state).
tests/test_saving.py loads the same files with tapeviz and must find the same numbers.
`--check-tapeviz` goes the other way: the same models built and saved by tapeviz, loaded by
TensorFlow, must predict what TensorFlow's own predicted.
"""
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(HERE, "tf_files")
SUFFIXES = {"keras": ".keras", "h5": ".h5", "weights_h5": "_weights.h5",
            "weights_v3": ".weights.h5"}


def _fill(model):
    """Fixed trainable weights (moving statistics keep their initial 0 and 1)."""
    for i, w in enumerate(model.trainable_weights):
        n = int(np.prod(w.shape))
        values = np.sin(np.arange(n) * 0.37 + i) * 0.3
        w.assign(values.reshape(tuple(w.shape)).astype(w.dtype.name if hasattr(w.dtype, "name")
                                                        else "float32"))


def build_models(tf):
    """name -> (model, inputs, targets), compiled."""
    keras = tf.keras
    out = {}
    rng = np.random.default_rng(0)

    conv = keras.Sequential([
        keras.layers.Conv2D(4, 3, activation="relu", input_shape=(8, 8, 1)),
        keras.layers.MaxPooling2D(),
        keras.layers.Flatten(),
        keras.layers.Dropout(0.0),   # (a random mask would differ between libraries)
        keras.layers.Dense(6, activation="relu"),
        keras.layers.Dense(3),
    ])
    conv.compile(optimizer=keras.optimizers.Adam(0.01),
                 loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                 metrics=["accuracy"])
    out["conv"] = (conv, rng.uniform(0, 1, (4, 8, 8, 1)).astype("float32"),
                   np.array([0, 1, 2, 1]))

    x = keras.Input(shape=(10, 2))
    h = keras.layers.Conv1D(4, 3, padding="same")(x)
    h = keras.layers.BatchNormalization()(h)
    h = keras.layers.ReLU()(h)
    h = keras.layers.LayerNormalization()(h)
    h = keras.layers.GlobalAveragePooling1D()(h)
    y = keras.layers.Dense(2, activation="softmax")(h)
    series = keras.Model(x, y)
    series.compile(optimizer="adam", loss="sparse_categorical_crossentropy",
                   metrics=["sparse_categorical_accuracy"])
    out["series"] = (series, rng.uniform(-1, 1, (4, 10, 2)).astype("float32"),
                     np.array([0, 1, 1, 0]))

    tokens = keras.Input(shape=(5,))
    decoder_in = keras.Input(shape=(None, 3))
    embedded = keras.layers.Embedding(7, 4)(tokens)
    _, state_h, state_c = keras.layers.LSTM(3, return_state=True)(embedded)
    seq = keras.layers.LSTM(3, return_sequences=True)(decoder_in,
                                                      initial_state=[state_h, state_c])
    seq = keras.layers.GRU(2, return_sequences=True)(seq)
    probs = keras.layers.Dense(3, activation="softmax")(seq)
    seq2seq = keras.Model([tokens, decoder_in], probs)
    seq2seq.compile(optimizer="adam", loss="categorical_crossentropy")
    out["seq2seq"] = (seq2seq, [rng.integers(0, 7, (4, 5)).astype("float32"),
                                rng.uniform(0, 1, (4, 4, 3)).astype("float32")],
                      np.eye(3)[rng.integers(0, 3, (4, 4))].astype("float32"))
    out["layers"] = _many_layers(keras, rng)
    for model, _, _ in out.values():
        _fill(model)
    return out


def _many_layers(keras, rng):
    """One functional model of many layer classes, for their configs."""
    layers = keras.layers
    image = keras.Input(shape=(8, 8, 2))
    a = layers.Conv2D(3, 3, padding="same", activation="relu")(image)
    a = layers.DepthwiseConv2D(3, padding="same")(a)
    a = layers.SeparableConv2D(4, 3, padding="same")(a)
    a = layers.Conv2DTranspose(2, 2, strides=2)(a)
    a = layers.AveragePooling2D()(a)
    a = layers.ZeroPadding2D(1)(a)
    a = layers.UpSampling2D()(a)
    a = layers.LeakyReLU(0.2)(a)
    pooled = layers.Concatenate()([layers.GlobalAveragePooling2D()(a),
                                   layers.GlobalMaxPooling2D()(a)])
    series = keras.Input(shape=(5, 3))
    s = layers.Masking()(series)
    s = layers.Bidirectional(layers.LSTM(2, return_sequences=True))(s)
    s = layers.TimeDistributed(layers.Dense(3))(s)
    s = layers.SimpleRNN(2)(s)
    s = layers.Reshape((4,))(layers.RepeatVector(2)(s))
    m = layers.Activation("tanh")(layers.Concatenate()([pooled, s]))
    m = layers.Add()([layers.Dense(4)(m), layers.Dense(4)(m)])
    model = keras.Model([image, series], layers.Softmax()(m))
    # (RMSprop's slots are saved grouped by kind, not by variable as Adam's)
    model.compile(optimizer=keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True),
                  loss="categorical_crossentropy")
    inputs = [rng.uniform(-1, 1, (4, 8, 8, 2)).astype("float32"),
              rng.uniform(-1, 1, (4, 5, 3)).astype("float32")]
    return model, inputs, np.eye(4)[rng.integers(0, 4, 4)].astype("float32")


def train_step(model, inputs, targets):
    model.fit(inputs, targets, batch_size=4, epochs=1, verbose=0, shuffle=False)


def predict(model, inputs):
    return np.asarray(model.predict(inputs, verbose=0)).tolist()


def record(tf):
    os.makedirs(FILES, exist_ok=True)
    answers = {"tensorflow_version": tf.__version__}
    for name, (model, inputs, targets) in build_models(tf).items():
        train_step(model, inputs, targets)
        model.save(os.path.join(FILES, name + SUFFIXES["keras"]))
        model.save(os.path.join(FILES, name + SUFFIXES["h5"]))
        model.save_weights(os.path.join(FILES, name + SUFFIXES["weights_h5"]))
        model.save_weights(os.path.join(FILES, name + SUFFIXES["weights_v3"]))
        entry = {"predict": predict(model, inputs)}
        for kind in ("keras", "h5"):
            loaded = tf.keras.models.load_model(os.path.join(FILES, name + SUFFIXES[kind]))
            train_step(loaded, inputs, targets)
            entry["after_step_" + kind] = predict(loaded, inputs)
        answers[name] = entry
    with open(os.path.join(HERE, "answers.json"), "w", encoding="utf-8") as f:
        json.dump(answers, f, indent=1)


def check_tapeviz(tf):
    """Save the models with tapeviz, load them with TensorFlow, compare predictions."""
    import tapeviz
    with open(os.path.join(HERE, "answers.json"), encoding="utf-8") as f:
        answers = json.load(f)
    work, failures = tempfile.mkdtemp(), 0
    for name, (model, inputs, targets) in build_models(tapeviz).items():
        train_step(model, inputs, targets)
        for kind in ("keras", "h5"):
            path = os.path.join(work, name + SUFFIXES[kind])
            model.save(path)
            loaded = tf.keras.models.load_model(path)
            ok = np.allclose(predict(loaded, inputs), answers[name]["predict"], rtol=1e-4,
                             atol=1e-6)
            train_step(loaded, inputs, targets)
            ok_step = np.allclose(predict(loaded, inputs), answers[name]["after_step_" + kind],
                                  rtol=1e-3, atol=1e-5)
            print(f"{name}{SUFFIXES[kind]}: TensorFlow loads tapeviz's file: predictions "
                  f"{'match' if ok else 'DIFFER'}, after one more step "
                  f"{'match' if ok_step else 'DIFFER'}")
            failures += (not ok) + (not ok_step)
        for kind in ("weights_h5", "weights_v3"):
            path = os.path.join(work, name + SUFFIXES[kind])
            model.save_weights(path)
            fresh = build_models(tf)[name][0]
            fresh.load_weights(path)
            ok = np.allclose(predict(fresh, inputs), answers[name]["predict"], rtol=1e-4,
                             atol=1e-6)
            print(f"{name}{SUFFIXES[kind]}: TensorFlow loads tapeviz's weights: "
                  f"{'match' if ok else 'DIFFER'}")
            failures += not ok
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "-1")
    import tensorflow
    tensorflow.keras.utils.set_random_seed(0)
    if "--check-tapeviz" in sys.argv:
        check_tapeviz(tensorflow)
    else:
        record(tensorflow)
