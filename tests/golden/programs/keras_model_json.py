# model.to_json() and tf.keras.models.model_from_json: the architecture as JSON (no weights),
# read back as a model that, given the same weights, predicts the same
import json

seq = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                                                 name="hidden"),
                           tf.keras.layers.Dense(2, activation="softmax", name="out")],
                          name="iris")
inputs = tf.keras.Input(shape=(3,), name="x")
branch = tf.keras.layers.Dense(2, name="a")(inputs)
merged = tf.keras.layers.Concatenate(name="cat")([branch, inputs])
functional = tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="y")(merged), name="fn")
x = np.array([[0.1, -0.2, 0.3], [1.0, 0.5, -1.5]], np.float32)
for name, model in [("sequential", seq), ("functional", functional)]:
    model.set_weights([np.linspace(-1, 1, w.size, dtype=np.float32).reshape(w.shape)
                       for w in model.get_weights()])
    text = model.to_json()
    spec = json.loads(text)
    report(name + ".keys", sorted(spec))
    report(name + ".class_name", spec["class_name"])
    report(name + ".model_name", spec["config"]["name"])
    report(name + ".layer_classes", [layer["class_name"] for layer in spec["config"]["layers"]])
    report(name + ".layer_names", [layer["config"]["name"] for layer in spec["config"]["layers"]])
    again = tf.keras.models.model_from_json(text)
    report(name + ".rebuilt_layers", [layer.name for layer in again.layers])
    again.set_weights(model.get_weights())
    report(name + ".same_predictions", again.predict(x, verbose=0))
report("indent", seq.to_json(indent=2).count("\n") > 10)
expect_error("not_json", lambda: tf.keras.models.model_from_json("not json"))
