# A model's architecture as data: Sequential and functional get_config / from_config,
# to_json with models.model_from_json and model_from_config, and models.clone_model (same
# layers and names, new weights: predictions agree once the weights are copied).
import json

L = tf.keras.layers
x = np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32)


def fill(model):
    for i, w in enumerate(model.weights):
        w.assign(np.sin(np.arange(int(np.prod(w.shape))) * 0.7 + i).reshape(w.shape) * 0.5)


def describe(model):
    return {"sequential": isinstance(model, tf.keras.Sequential),
            "layers": [type(layer).__name__ for layer in model.layers],
            "names": [layer.name for layer in model.layers],
            "weights": [list(w.shape) for w in model.weights] if model.built else None,
            "built": model.built}


seq = tf.keras.Sequential([L.Dense(4, activation="relu", input_shape=(3,), name="hidden"),
                           L.Dropout(0.1), L.Dense(2, name="out")], name="seq")
fill(seq)
config = seq.get_config()
report("seq_config_keys", sorted(config))
report("seq_config_layers", [(c["class_name"], c["config"]["name"]) for c in config["layers"]])
again = tf.keras.Sequential.from_config(config)
report("seq_from_config", describe(again))
again.set_weights(seq.get_weights())
report("seq_from_config_predicts", again(x))

text = seq.to_json()
doc = json.loads(text)
report("to_json_keys", sorted(doc))
report("to_json_class", [doc["class_name"], doc["backend"], sorted(doc["config"])])
loaded = tf.keras.models.model_from_json(text)
report("model_from_json", describe(loaded))
loaded.set_weights(seq.get_weights())
report("model_from_json_predicts", loaded(x))
report("model_from_config", describe(tf.keras.models.model_from_config(
    {"class_name": "Sequential", "config": config})))
report("to_json_indent", json.loads(seq.to_json(indent=2)) == doc)

unbuilt = tf.keras.Sequential([L.Dense(3), L.Dense(1)])
report("unbuilt_config", [sorted(unbuilt.get_config()),
                          describe(tf.keras.Sequential.from_config(unbuilt.get_config()))])

inp = tf.keras.Input((3,), name="features")
h = L.Dense(4, activation="tanh", name="h")(inp)
out = L.Concatenate(name="cat")([h, L.Dense(2, name="skip")(inp)])
func = tf.keras.Model(inp, L.Dense(1, name="head")(out), name="func")
fill(func)
fconfig = func.get_config()
report("func_config_keys", sorted(fconfig))
report("func_config_io", [fconfig["input_layers"], fconfig["output_layers"]])
rebuilt = tf.keras.Model.from_config(fconfig)
report("func_from_config", describe(rebuilt))
rebuilt.set_weights(func.get_weights())
report("func_from_config_predicts", rebuilt(x))
from_json = tf.keras.models.model_from_json(func.to_json())
from_json.set_weights(func.get_weights())
report("func_model_from_json_predicts", [describe(from_json), from_json(x)])

for name, model in (("seq", seq), ("func", func)):
    clone = tf.keras.models.clone_model(model)
    report(name + "_clone", describe(clone))
    report(name + "_clone_is_new", [a is b for a, b in zip(clone.layers, model.layers)])
    report(name + "_clone_weight_names", [w.name for w in clone.weights])
    clone.set_weights(model.get_weights())
    report(name + "_clone_predicts", clone(x))
    report(name + "_clone_compiled", hasattr(clone, "optimizer") and clone.optimizer is not None)

expect_error("model_from_config_list", lambda: tf.keras.models.model_from_config([config]))
layer_clone = tf.keras.models.clone_model(L.Dense(2, activation="relu", name="lonely"))
report("clone_layer", [type(layer_clone).__name__, layer_clone.name, layer_clone.units,
                       layer_clone.built])
