"""`image_dataset_from_directory` and `text_dataset_from_directory` (tf-keras 2): a folder of
files, one subfolder per class, as a `tv.data.Dataset` of (images or texts, labels) batches
with `class_names` and `file_paths`. The files' order and the split are tf-keras's (NumPy
shuffles them); the batches of the training data are then shuffled by `Dataset.shuffle`
with `seed`, whose order is tapeviz's (see tv.data)."""
from __future__ import annotations

from . import directory as _directory

IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5",
                   "gaussian", "mitchellcubic")


def _load_image(path, image_size, num_channels, interpolation, crop_to_aspect_ratio):
    from ... import io
    from ...image_resize import resize
    from ..layers_image_preprocessing import smart_resize
    image = io.decode_image(io.read_file(path), channels=num_channels,
                            expand_animations=False)
    if crop_to_aspect_ratio:
        return smart_resize(image, list(image_size), interpolation=interpolation)
    return resize(image, list(image_size), method=interpolation)


def image_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                 class_names=None, color_mode="rgb", batch_size=32,
                                 image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear",
                                 follow_links=False, crop_to_aspect_ratio=False, **kwargs):
    """Batches of float32 images resized to `image_size` (with their int32 labels)."""
    from ...data import Dataset
    if "smart_resize" in kwargs:
        crop_to_aspect_ratio = kwargs.pop("smart_resize")
    if kwargs:
        raise TypeError(f"Unknown keywords argument(s): {tuple(kwargs.keys())}")
    _directory.check_labels(labels, label_mode, class_names, "image")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError('`color_mode` must be one of {"rgb", "rgba", "grayscale"}. '
                         f"Received: color_mode={color_mode}")
    if interpolation not in _INTERPOLATIONS:
        raise NotImplementedError(f"Value not recognized for `interpolation`: {interpolation}."
                                  f" Supported values are: {set(_INTERPOLATIONS)}")
    size = tuple(int(d) for d in image_size)

    def images(paths):
        return Dataset.from_tensor_slices(paths).map(
            lambda p: _load_image(p, size, channels, interpolation, crop_to_aspect_ratio))
    return _directory.make(directory, labels, label_mode, class_names, batch_size, shuffle,
                           seed, validation_split, subset, follow_links, IMAGE_FORMATS,
                           "images", images)


def text_dataset_from_directory(directory, labels="inferred", label_mode="int",
                                class_names=None, batch_size=32, max_length=None,
                                shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False):
    """Batches of the `.txt` files' contents as strings (the first `max_length` bytes)."""
    from ... import io
    from ...data import Dataset
    from ...strings import substr
    _directory.check_labels(labels, label_mode, class_names, "text")
    if labels is None or label_mode is None:
        labels, label_mode = None, None

    def read(path):
        text = io.read_file(path)
        return text if max_length is None else substr(text, 0, max_length)

    def texts(paths):
        return Dataset.from_tensor_slices(paths).map(read)
    return _directory.make(directory, labels, label_mode, class_names, batch_size, shuffle,
                           seed, validation_split, subset, follow_links, (".txt",),
                           "text files", texts)
