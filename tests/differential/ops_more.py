"""Generator entries (see ops.py) for scans, decompositions, segment reductions and the image
transform of Keras's augmentation layers: ops whose operands need more care than a shape.

- Svd and SelfAdjointEigV2 get fresh matrices, never planted with special values, whose
  singular values or eigenvalues are well apart (program.DOMAINS); a singular vector or
  eigenvector is used only squared, as its sign is the kernel's choice.
- Segment ids are literal lists (sorted for Segment*, any order and some -1, which drops a
  row, for UnsortedSegment*); the sums may have empty segments, the maxima and minima not
  (see _no_empty_segment). Ties of SegmentMax and friends come from the `tie` tag. SegmentMax and SegmentMin never see a NaN: what TensorFlow's sorted kernel
  makes of one depends on the CPU's vector width (Eigen reduces packets of rows with other
  NaN rules than single values), so they get a fresh input, with only infinities planted,
  in every tag but `smooth`.
- ImageProjectiveTransformV3 is reached, as users reach it, through RandomRotation,
  RandomZoom and RandomTranslation in training with ranges of one value, which makes the
  transform deterministic (a layer step: interpret.LAYERS).
"""
from __future__ import annotations

import numpy as np

from program import ref


def _cumprod(b):
    # TensorFlow's gradient divides by x: away from 0 in smooth programs, exactly 0 in kinks
    x = b.operand(min_rank=1, domain="nonzero", special=(0.0,))
    rank = len(b.shapes[x])
    axis = int(b.rng.integers(0, rank))
    kw = {"axis": axis - rank if b.rng.random() < 0.3 else axis,
          "exclusive": bool(b.rng.random() < 0.3), "reverse": bool(b.rng.random() < 0.3)}
    return b.step("math.cumprod", [ref(x)], kw, shape=b.shapes[x])


def _batch(b):
    return (2,) if b.rng.random() < 0.3 else ()


def _svd(b):
    m, n = int(b.rng.integers(1, 4)), int(b.rng.integers(1, 4))
    batch = _batch(b)
    x = b.fresh(batch + (m, n), "separated_singular_values", plant=False)
    k = min(m, n)
    which = int(b.rng.integers(0, 4))
    if which == 3:
        return b.step("linalg.svd", [ref(x)], {"compute_uv": False}, shape=batch + (k,))
    shape = batch + [(k,), (m, k), (n, k)][which]
    out = b.step("linalg.svd", [ref(x)], {"full_matrices": False}, shape=shape, index=which)
    return out if which == 0 else _squared(b, out, shape)


def _eigh(b):
    n = int(b.rng.integers(1, 4))
    batch = _batch(b)
    x = b.fresh(batch + (n, n), "separated_eigenvalues", plant=False)
    which = int(b.rng.integers(0, 3))
    if which == 2:
        return b.step("linalg.eigvalsh", [ref(x)], shape=batch + (n,))
    shape = batch + [(n,), (n, n)][which]
    out = b.step("linalg.eigh", [ref(x)], shape=shape, index=which)
    return out if which == 0 else _squared(b, out, shape)


def _squared(b, vectors, shape):
    """Singular vectors or eigenvectors squared; later steps may not pick the vectors
    themselves, whose signs are the kernel's choice."""
    b.floats.remove(vectors)
    return b.step("multiply", [ref(vectors), ref(vectors)], shape=shape)


def _segment(fn):
    def entry(b):
        if fn == "math.segment_sum" or b.tag == "smooth":
            x = b.operand(min_rank=1)
        else:
            x = b.fresh(b.random_shape(min_rank=1), nonfinite=(np.inf, -np.inf))
        shape = b.shapes[x]
        rows = shape[0]
        ids = sorted(int(i) for i in b.rng.integers(0, rows + 1, size=rows))
        if fn != "math.segment_sum":    # no empty segment: see _no_empty_segment
            ids = _no_empty_segment(ids)
        return b.step(fn, [ref(x), b.integers(ids)], shape=(ids[-1] + 1,) + shape[1:])
    return entry


def _unsorted_segment(fn):
    def entry(b):
        x = b.operand(min_rank=1)
        shape = b.shapes[x]
        id_rank = 2 if len(shape) >= 2 and b.rng.random() < 0.3 else 1
        num = int(b.rng.integers(1, 4))
        low = -1 if b.rng.random() < 0.2 else 0
        ids = b.rng.integers(low, num, size=shape[:id_rank])
        if fn != "math.unsorted_segment_sum":     # no empty segment: see _no_empty_segment
            ids.flat[0] = max(ids.flat[0], 0)
            kept = np.unique(ids[ids >= 0])
            ids, num = np.where(ids >= 0, np.searchsorted(kept, ids), ids), len(kept)
        return b.step(fn, [ref(x), b.integers(ids), num], shape=(num,) + shape[id_rank:])
    return entry


def _no_empty_segment(ids):
    """Sorted ids renumbered 0, 1, ... without gaps. TensorFlow's gradient of a max or min
    divides by the count of each segment's maxima, 0/0 at an empty segment: a NaN that its
    second derivative spreads to other inputs, where finite differences (which
    test_differential checks some second derivatives against) see none."""
    distinct = sorted(set(ids))
    return [distinct.index(i) for i in ids]


def _image_transform(b):
    x = b.operand(min_rank=4)
    if len(b.shapes[x]) != 4:
        x = b.fresh((int(b.rng.integers(1, 3)), int(b.rng.integers(2, 5)),
                     int(b.rng.integers(2, 5)), int(b.rng.integers(1, 3))))
    kw = {"fill_mode": str(b.rng.choice(["reflect", "wrap", "constant", "nearest"])),
          "interpolation": str(b.rng.choice(["bilinear", "nearest"])), "dtype": b.dtype}

    def one_value(low, high):
        v = round(float(b.rng.uniform(low, high)), 3)
        return [v, v]

    kind = int(b.rng.integers(0, 3))
    if kind == 0:
        layer, kw["factor"] = "RandomRotation", one_value(-0.25, 0.25)
    elif kind == 1:
        layer = "RandomZoom"
        kw["height_factor"], kw["width_factor"] = one_value(-0.5, 0.5), one_value(-0.5, 0.5)
    else:
        layer = "RandomTranslation"
        kw["height_factor"], kw["width_factor"] = one_value(-0.6, 0.6), one_value(-0.6, 0.6)
    if kw["fill_mode"] == "constant":
        kw["fill_value"] = round(float(b.rng.normal()), 2)
    return b.step("keras.layers." + layer, [ref(x)], kw, shape=b.shapes[x])


MORE = {
    "Cumprod": _cumprod, "Svd": _svd, "SelfAdjointEigV2": _eigh,
    "SegmentSum": _segment("math.segment_sum"), "SegmentMax": _segment("math.segment_max"),
    "SegmentMin": _segment("math.segment_min"),
    "UnsortedSegmentSum": _unsorted_segment("math.unsorted_segment_sum"),
    "UnsortedSegmentMax": _unsorted_segment("math.unsorted_segment_max"),
    "UnsortedSegmentMin": _unsorted_segment("math.unsorted_segment_min"),
    "ImageProjectiveTransformV3": _image_transform,
}
