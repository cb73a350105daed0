"""What `image_dataset_from_directory` and `text_dataset_from_directory` share, as tf-keras 2
does it: the files of a folder (one subfolder per class, labels inferred from the sorted
subfolder names), the order (sorted, then shuffled by NumPy's RandomState(seed), as tf-keras
shuffles), the training/validation split (the last `validation_split` of the files are the
validation subset) and the labels as a dataset."""
from __future__ import annotations

import os

import numpy as np


def check_split(validation_split, subset, shuffle, seed):
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: "
                         f"{validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", '
                         f"received: {subset}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide "
                         "a `seed` argument, to make sure that there is no overlap between "
                         "the training and validation subset.")


def check_labels(labels, label_mode, class_names, what):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(f"`labels` argument should be a list/tuple of integer labels, of "
                             f"the same size as the number of {what} files in the target "
                             f'directory. If you wish to infer the labels from the '
                             f'subdirectory names in the target directory, pass '
                             f'`labels="inferred"`. If you wish to get a dataset that only '
                             f"contains {what}s (no labels), pass `labels=None`. Received: "
                             f"labels={labels}")
        if class_names:
            raise ValueError(f'You can only pass `class_names` if `labels="inferred"`. '
                             f"Received: labels={labels}, and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", '
                         f'"binary", or None. Received: label_mode={label_mode}')


def _valid_files(directory, formats, follow_links):
    walk = sorted(os.walk(directory, followlinks=follow_links), key=lambda x: x[0])
    for root, _, files in walk:
        for fname in sorted(files):
            if fname.lower().endswith(formats):
                yield root, fname


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None,
                    follow_links=False):
    """(file paths, int32 labels, class names) in tf-keras's order."""
    directory = os.fspath(directory)
    if not os.path.isdir(directory):
        from ...engine.errors import NotFoundError
        raise NotFoundError(f"Could not find directory {directory}", "ListDirectory")
    if labels != "inferred":
        subdirs = [""]
        class_names = subdirs
    else:
        subdirs = [d.rstrip("/") for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if not class_names:
            class_names = subdirs
        elif set(class_names) != set(subdirs):
            raise ValueError(f"The `class_names` passed did not match the names of the "
                             f"subdirectories of the target directory. Expected: {subdirs}, "
                             f"but received: {class_names}")
    class_indices = dict(zip(class_names, range(len(class_names))))
    filenames, found = [], []
    for subdir in subdirs:
        folder = os.path.join(directory, subdir)
        dirname = os.path.basename(folder)
        for root, fname in _valid_files(folder, formats, follow_links):
            found.append(class_indices[dirname])
            filenames.append(os.path.join(dirname, os.path.relpath(os.path.join(root, fname),
                                                                   folder)))
    if labels not in ("inferred", None):
        if len(labels) != len(filenames):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files "
                             f"in the target directory. len(labels) is {len(labels)} while we "
                             f"found {len(filenames)} files in directory {directory}.")
        class_names = sorted(set(labels))
    else:
        labels = np.asarray(found, dtype="int32")
    if labels is None:
        print(f"Found {len(filenames)} files.")
    else:
        print(f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            labels = list(labels) if isinstance(labels, tuple) else labels
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def split(samples, labels, validation_split, subset):
    """The training or validation part (the validation files are the last ones)."""
    if not validation_split:
        return samples, labels
    n = int(validation_split * len(samples))
    if subset == "training":
        print(f"Using {len(samples) - n} files for training.")
        return samples[:-n], (labels[:-n] if labels is not None else None)
    if subset == "validation":
        print(f"Using {n} files for validation.")
        return samples[-n:], (labels[-n:] if labels is not None else None)
    raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')


def labels_dataset(labels, label_mode, num_classes):
    from ...data import Dataset
    from ...engine.ops import cast, expand_dims, one_hot
    ds = Dataset.from_tensor_slices(np.asarray(labels, dtype="int32"))
    if label_mode == "binary":
        return ds.map(lambda x: expand_dims(cast(x, "float32"), axis=-1))
    if label_mode == "categorical":
        return ds.map(lambda x: one_hot(x, num_classes))
    return ds


def finish(dataset, batch_size, shuffle, seed, class_names, paths, train, with_paths):
    """Shuffled (training data only: a buffer of 8 batches, by `seed`), batched, and
    labelled with `class_names` (and image datasets with `file_paths`) as tf-keras's."""
    from ...data import AUTOTUNE
    if shuffle and train:
        dataset = dataset.shuffle(buffer_size=1024 if batch_size is None else batch_size * 8,
                                  seed=seed)
    if batch_size is not None:
        dataset = dataset.batch(batch_size)
    dataset = dataset.prefetch(AUTOTUNE)
    dataset.class_names = class_names
    if with_paths:                          # (tf-keras gives image datasets their file paths)
        dataset.file_paths = paths
    return dataset


def make(directory, labels, label_mode, class_names, batch_size, shuffle, seed,
         validation_split, subset, follow_links, formats, what, to_dataset):
    """The dataset (or [training, validation] for subset="both") of `to_dataset(paths)`
    beside its labels."""
    from ...data import Dataset
    check_split(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, formats, class_names,
                                                 shuffle, seed, follow_links)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 '
                         f"class_names. Received: class_names={class_names}")

    def dataset_of(part, train):
        part_paths, part_labels = split(paths, labels, validation_split, part)
        if not part_paths:
            raise ValueError(f"No {what} found in directory {directory}. Allowed "
                             f"format{'s' if len(formats) > 1 else ''}: {formats}")
        ds = to_dataset(part_paths)
        if label_mode:
            ds = Dataset.zip((ds, labels_dataset(part_labels, label_mode, len(class_names))))
        return finish(ds, batch_size, shuffle, seed, class_names, part_paths, train,
                      what == "images")
    if subset == "both":
        return [dataset_of("training", True), dataset_of("validation", False)]
    return dataset_of(subset, True)
