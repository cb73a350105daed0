# Keras's random image layers given a seed draw TensorFlow's numbers: each layer's
# tf.random.Generator.from_seed(seed) (Philox, its counter moved on by every draw) feeds
# RandomRotation, RandomZoom, RandomTranslation, RandomBrightness and RandomCrop directly,
# and RandomFlip and RandomContrast through make_seeds() and stateless draws; called
# several times, on batches and on one image.

L = tf.keras.layers
rng = np.random.default_rng(8)
batch = tf.constant(rng.uniform(0, 255, size=(4, 6, 7, 3)).astype(np.float32))
one = batch[0]

layers = {"flip": L.RandomFlip(seed=11), "flip_h": L.RandomFlip("horizontal", seed=12),
          "flip_v": L.RandomFlip("vertical", seed=2 ** 40 + 5),
          "rotation": L.RandomRotation(0.25, seed=13),
          "rotation_nearest": L.RandomRotation((-0.1, 0.3), seed=14, interpolation="nearest",
                                               fill_mode="constant"),
          "zoom": L.RandomZoom(0.4, seed=15),
          "zoom_wh": L.RandomZoom((-0.3, 0.2), (0.1, 0.5), seed=16, fill_mode="wrap"),
          "translation": L.RandomTranslation(0.3, (-0.2, 0.4), seed=17, fill_mode="nearest"),
          "contrast": L.RandomContrast((0.3, 0.6), seed=18),
          "brightness": L.RandomBrightness(0.3, seed=19),
          "crop": L.RandomCrop(4, 5, seed=20)}
for name, layer in layers.items():
    report(name, [layer(batch, training=True), layer(one, training=True),
                  layer(batch, training=True)])

model = tf.keras.Sequential([L.RandomFlip(seed=1), L.RandomRotation(0.1, seed=2),
                             L.RandomZoom(0.2, seed=3)])
report("sequential", [model(batch, training=True), model(batch, training=False),
                      model(batch, training=True)])

pixels = tf.constant(rng.integers(0, 256, size=(2, 9, 8, 3)).astype(np.uint8))
for name, layer in [("height", L.RandomHeight(0.4, seed=21)),
                    ("width", L.RandomWidth((-0.5, 0.3), interpolation="nearest", seed=22)),
                    ("height_area", L.RandomHeight((0.2, 0.9), interpolation="area", seed=23))]:
    report(name, [layer(pixels, training=True), layer(pixels[0], training=True),
                  layer(pixels, training=False), list(layer.compute_output_shape((2, 9, 8, 3)))])
expect_error("height.below_minus_one", lambda: L.RandomHeight(-1.5))
expect_error("width.bad_interpolation", lambda: L.RandomWidth(0.2, interpolation="cubic"))

# unseeded layers: tf-keras seeds each from Python's random (set_random_seed's generator)
# at its first random call
tf.keras.utils.set_random_seed(7)
unseeded = [L.RandomFlip(), L.RandomRotation(0.2), L.RandomContrast(0.5), L.RandomCrop(5, 5)]
report("unseeded", [layer(batch, training=True) for layer in unseeded] +
       [layer(batch, training=True) for layer in reversed(unseeded)])

# built on a tf.keras.Input, tf-keras traces the random ops without drawing (an unseeded
# layer takes its seed from Python's random then); fit draws once per step
import random

tf.keras.utils.set_random_seed(3)
small = tf.constant(rng.uniform(0, 1, size=(16, 6, 6, 2)).astype(np.float32))
targets = tf.constant(rng.uniform(0, 1, size=(16, 1)).astype(np.float32))
model = tf.keras.Sequential([L.Input((6, 6, 2)), L.RandomFlip(seed=1), L.RandomRotation(0.1),
                             L.RandomZoom(0.2, seed=3), L.Flatten(), L.Dense(1)])
report("input.python_random_after_build", random.random())
model.layers[-1].set_weights([np.linspace(-1, 1, 72).reshape(72, 1).astype(np.float32),
                              np.zeros(1, np.float32)])
model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
history = model.fit(small, targets, batch_size=4, epochs=2, shuffle=False, verbose=0)
report("fit.loss", history.history["loss"])
report("fit.predict", model.predict(small[:3], verbose=0))
report("fit.call_after", model(small[:2], training=True))
