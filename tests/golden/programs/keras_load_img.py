# tf.keras.utils.load_img / img_to_array / array_to_img / save_img and
# keras.preprocessing.image.smart_resize (tf-keras 2), on images this program writes:
# colour modes, target_size with Pillow's interpolations and keep_aspect_ratio, dtypes,
# channels_first, scaling, and the errors.
import os
import tempfile

import PIL.Image

folder = tempfile.mkdtemp()
rng = np.random.default_rng(21)
pixels = rng.integers(0, 256, size=(9, 12, 3)).astype(np.uint8)
png = os.path.join(folder, "a.png")
jpg = os.path.join(folder, "b.jpg")
PIL.Image.fromarray(pixels).save(png)
PIL.Image.fromarray(pixels).save(jpg, quality=85)

U = tf.keras.utils
for name, kwargs in [("png", {}), ("gray", {"color_mode": "grayscale"}),
                     ("rgba", {"color_mode": "rgba"}), ("resized", {"target_size": (5, 7)}),
                     ("bilinear", {"target_size": (4, 4), "interpolation": "bilinear"}),
                     ("aspect", {"target_size": (6, 4), "interpolation": "bicubic",
                                 "keep_aspect_ratio": True})]:
    img = U.load_img(png, **kwargs)
    report("load." + name, [img.size, img.mode, U.img_to_array(img)])
report("load.jpeg", U.img_to_array(U.load_img(jpg)))
report("load.grayscale_flag", U.img_to_array(U.load_img(jpg, grayscale=True))[0])
report("img_to_array.uint8", U.img_to_array(U.load_img(png), dtype="uint8")[0])
report("img_to_array.channels_first", U.img_to_array(U.load_img(png),
                                                     data_format="channels_first").shape)
back = U.array_to_img(pixels.astype(np.float32) * 0.5 + 3)
report("array_to_img", [back.size, back.mode, np.asarray(back)])
report("array_to_img.unscaled", np.asarray(U.array_to_img(pixels[..., :1] * 1.0, scale=False)))
out = os.path.join(folder, "c.png")
U.save_img(out, pixels.astype(np.float32))
report("save_img", U.img_to_array(U.load_img(out)))
report("smart_resize.array", tf.keras.preprocessing.image.smart_resize(pixels * 1.0, (4, 6)))
report("smart_resize.tensor", tf.keras.preprocessing.image.smart_resize(
    tf.constant(pixels), (5, 5), interpolation="nearest"))
expect_error("load.bad_mode", lambda: U.load_img(png, color_mode="cmyk"))
expect_error("load.bad_interpolation", lambda: U.load_img(png, target_size=(3, 3),
                                                          interpolation="cubic"))
expect_error("load.bad_path", lambda: U.load_img(12))
expect_error("array_to_img.rank", lambda: U.array_to_img(np.zeros((2, 2))))
expect_error("smart_resize.rank", lambda: tf.keras.preprocessing.image.smart_resize(
    np.zeros((3, 3)), (2, 2)))
