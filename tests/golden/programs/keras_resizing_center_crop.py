# tf.keras.layers.Resizing (each interpolation, crop_to_aspect_ratio, one image or a batch,
# integer images, gradients) and CenterCrop (a smaller window, or resized up when the image is
# smaller), their output shapes in a model and their configs.
L = tf.keras.layers
IMG = tf.reshape(tf.sin(tf.range(2 * 5 * 6 * 2, dtype=tf.float32) * 0.37), (2, 5, 6, 2))


def vg(name, layer, x=IMG):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
    report(name, y)
    report(name + ".grad", tape.gradient(tf.reduce_sum(y * y), x))


for method in ("bilinear", "nearest", "bicubic", "area"):
    vg("resize_" + method, L.Resizing(3, 4, interpolation=method))
vg("resize_up", L.Resizing(7, 9))
vg("resize_crop_ratio", L.Resizing(2, 2, crop_to_aspect_ratio=True))
vg("resize_crop_ratio_wide", L.Resizing(2, 6, crop_to_aspect_ratio=True))
report("resize_one_image", L.Resizing(2, 3)(IMG[0]))
report("resize_int_image", L.Resizing(2, 2, interpolation="nearest")(
    tf.reshape(tf.range(16), (1, 4, 4, 1))))
vg("center_crop", L.CenterCrop(3, 4))
vg("center_crop_odd", L.CenterCrop(2, 3))
vg("center_crop_up", L.CenterCrop(7, 4))
report("center_crop_one_image", L.CenterCrop(3, 3)(IMG[1]))
model = tf.keras.Sequential([tf.keras.Input((5, 6, 2)), L.Resizing(4, 4), L.CenterCrop(2, 2)])
report("model", [model.output_shape, model(IMG)])
cfg = L.Resizing(3, 4, "nearest", True).get_config()
report("resizing_config", {k: cfg[k] for k in ("height", "width", "interpolation",
                                               "crop_to_aspect_ratio")})
cfg = L.CenterCrop(3, 4).get_config()
report("center_crop_config", {k: cfg[k] for k in ("height", "width")})
