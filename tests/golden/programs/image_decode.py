# tf.io.read_file and the image decoders on files this program writes with Pillow: JPEGs of
# 4:2:0, 4:2:2 and 4:4:4 chroma, odd sizes, progressive, grayscale (TensorFlow's default
# decoding: libjpeg-turbo's fast integer IDCT with fancy upsampling, compared pixel for
# pixel; and dct_method="INTEGER_ACCURATE"), PNGs (RGB, RGBA, gray, palette, 16-bit gray),
# BMP, decode_image's signature sniffing, dtypes and channels, and the errors. (uint16
# results are left out: tapeviz has no uint16 dtype.)
import os
import tempfile

import PIL.Image

os.chdir(tempfile.mkdtemp())      # (relative paths: no temporary folder in the answers)
folder = "."
rng = np.random.default_rng(11)


def photo(h, w, channels=3):
    base = rng.uniform(0, 255, size=(1, 1, channels)) * np.ones((h, w, channels))
    ramp = np.linspace(0, 70, w)[None, :, None]
    return np.clip(base + ramp + rng.normal(0, 35, size=(h, w, channels)), 0, 255).astype(np.uint8)


def save(name, pixels, **kwargs):
    path = os.path.join(folder, name)
    PIL.Image.fromarray(pixels).save(path, **kwargs)
    return path


jpegs = {"420": save("a.jpg", photo(12, 16), quality=90, subsampling=2),
         "420_odd": save("b.jpg", photo(13, 11), quality=70, subsampling=2),
         "422": save("c.jpg", photo(9, 14), quality=85, subsampling=1),
         "444": save("d.jpg", photo(7, 10), quality=95, subsampling=0),
         "progressive": save("e.jpg", photo(11, 13), quality=80, progressive=True),
         "narrow": save("f.jpg", photo(10, 2), quality=90, subsampling=2),
         "gray": save("g.jpeg", photo(9, 12, 1)[..., 0], quality=85)}
for key, path in jpegs.items():
    data = tf.io.read_file(path)
    report("jpeg." + key, tf.io.decode_jpeg(data))
    report("jpeg." + key + ".rgb", tf.image.decode_jpeg(data, channels=3))
    report("jpeg." + key + ".gray", tf.io.decode_jpeg(data, channels=1))
    report("jpeg." + key + ".accurate", tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE"))
expect_error("jpeg.rgba", lambda: tf.io.decode_jpeg(tf.io.read_file(jpegs["420"]), channels=4))
report("read_file", [tf.io.read_file(jpegs["gray"]).dtype.name,
                     tf.strings.length(tf.io.read_file(jpegs["gray"]))])

pngs = {"rgb": save("a.png", photo(5, 6)),
        "rgba": save("b.png", np.concatenate([photo(4, 5), photo(4, 5, 1)], axis=-1)),
        "gray": save("c.png", photo(6, 4, 1)[..., 0])}
palette = PIL.Image.fromarray(photo(5, 5)).convert("P", palette=PIL.Image.Palette.ADAPTIVE,
                                                     colors=6)
palette.save(os.path.join(folder, "d.png"))
pngs["palette"] = os.path.join(folder, "d.png")
PIL.Image.fromarray((np.arange(12).reshape(3, 4) * 5000).astype(np.uint16)).save(
    os.path.join(folder, "e.png"))
pngs["gray16"] = os.path.join(folder, "e.png")
for key, path in pngs.items():
    data = tf.io.read_file(path)
    report("png." + key, tf.io.decode_png(data))
    report("image." + key, tf.io.decode_image(data))
    report("image." + key + ".float", tf.io.decode_image(data, dtype=tf.float32))
report("png.gray_to_rgb", tf.io.decode_png(tf.io.read_file(pngs["gray"]), channels=3))
report("png.gray_to_rgba", tf.io.decode_png(tf.io.read_file(pngs["gray"]), channels=4))
report("png.rgb_to_gray", tf.io.decode_png(tf.io.read_file(pngs["rgb"]), channels=1))
report("png.rgba_to_gray", tf.io.decode_png(tf.io.read_file(pngs["rgba"]), channels=1))
report("png.palette_to_gray", tf.io.decode_png(tf.io.read_file(pngs["palette"]), channels=1))
report("png.rgba_to_rgb", tf.io.decode_png(tf.io.read_file(pngs["rgba"]), channels=3))
bmp = save("a.bmp", photo(3, 5))
report("bmp", tf.io.decode_bmp(tf.io.read_file(bmp)))
report("image.bmp", tf.io.decode_image(tf.io.read_file(bmp), channels=3))
report("image.jpeg", tf.io.decode_image(tf.io.read_file(jpegs["422"])))
report("image.jpeg_float", tf.image.decode_image(tf.io.read_file(jpegs["444"]),
                                                 dtype=tf.float32)[0, :3])
report("image.jpeg_gray_as_rgb", tf.io.decode_image(tf.io.read_file(jpegs["gray"]), channels=3))
report("resized", tf.image.resize(tf.io.decode_jpeg(tf.io.read_file(jpegs["420"]), channels=3),
                                  [7, 9]))

expect_error("jpeg.not_an_image", lambda: tf.io.decode_jpeg(tf.constant(b"hello world")))
expect_error("image.not_an_image", lambda: tf.io.decode_image(tf.constant(b"hello world")))
expect_error("read_file.missing", lambda: tf.io.read_file("nope.jpg"))
expect_error("jpeg.batch", lambda: tf.io.decode_jpeg(tf.stack([tf.io.read_file(jpegs["420"])] * 2)))

# every decoder reads JPEG, PNG and BMP alike; truncated data and a folder are errors
report("any_format.png_by_decode_jpeg", tf.io.decode_jpeg(tf.io.read_file(pngs["rgb"])))
report("any_format.jpeg_by_decode_png", tf.io.decode_png(tf.io.read_file(jpegs["444"])))
expect_error("any_format.bmp_by_decode_png", lambda: tf.io.decode_png(tf.io.read_file(bmp)))
expect_error("any_format.png_by_decode_bmp", lambda: tf.io.decode_bmp(tf.io.read_file(
    pngs["rgb"])))
expect_error("bmp.one_channel", lambda: tf.io.decode_bmp(tf.io.read_file(bmp), channels=1))
whole = open(jpegs["420"], "rb").read()
expect_error("jpeg.truncated", lambda: tf.io.decode_jpeg(whole[:300]))
expect_error("png.garbage", lambda: tf.io.decode_png(b"\x89PNG\r\n\x1a\n" + b"x" * 40))
os.makedirs("sub")
expect_error("read_file.folder", lambda: tf.io.read_file("sub"))
