"""Non-max suppression (`tf.image.non_max_suppression`, `_with_scores`, `_padded`,
`combined_non_max_suppression`), as TensorFlow's CPU kernel selects boxes.

Boxes are (y1, x1, y2, x2) in any corner order. Candidates above `score_threshold` are taken
by decreasing score (the lower index first on a tie); one is kept unless its IoU with a kept
box is above `iou_threshold`. With `soft_nms_sigma > 0` (Soft-NMS) overlapping candidates
are not dropped but their scores decay by exp(-IoU² / (2σ)), whatever `iou_threshold` says
(as TensorFlow's kernel), and a candidate whose score decayed goes back into the queue. The result is a list of indices (no gradient, as in
TensorFlow).
"""
from __future__ import annotations

import heapq

import numpy as np

from .engine.convert import convert_to_tensor
from .engine.errors import InvalidArgumentError

__all__ = ["combined_non_max_suppression", "non_max_suppression", "non_max_suppression_padded",
           "non_max_suppression_with_scores"]


def _iou(boxes, i, j):
    """Intersection over union of boxes i and j, 0 if either has no area."""
    a, b = boxes[i], boxes[j]
    a_lo, a_hi = np.minimum(a[:2], a[2:]), np.maximum(a[:2], a[2:])
    b_lo, b_hi = np.minimum(b[:2], b[2:]), np.maximum(b[:2], b[2:])
    area_a, area_b = np.prod(a_hi - a_lo), np.prod(b_hi - b_lo)
    if area_a <= 0 or area_b <= 0:
        return boxes.dtype.type(0)
    inter = np.prod(np.maximum(np.minimum(a_hi, b_hi) - np.maximum(a_lo, b_lo), 0))
    return inter / (area_a + area_b - inter)


def _select(boxes, scores, max_output_size, iou_threshold, score_threshold, sigma):
    """(indices, scores) of the kept boxes, in the order they were kept."""
    scale = -0.5 / sigma if sigma > 0 else 0.0
    soft = sigma > 0
    # a heap of (-score, index, first kept box not yet compared): highest score, lowest index
    queue = [(-s, i, 0) for i, s in enumerate(scores.tolist()) if s > score_threshold]
    heapq.heapify(queue)
    kept, kept_scores = [], []
    while len(kept) < max_output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = scores.dtype.type(-negative)
        suppressed = False
        for j in range(len(kept) - 1, begin - 1, -1):
            iou = _iou(boxes, index, kept[j])
            score = score * (np.exp(scale * iou * iou) if soft or iou <= iou_threshold else 0)
            if not soft and iou > iou_threshold:
                suppressed = True
                break
            if score <= score_threshold:
                break
        if suppressed:
            continue
        if score == original:
            kept.append(index)
            kept_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-score, index, len(kept)))
    return kept, kept_scores


def _inputs(boxes, scores, max_output_size, iou_threshold, score_threshold, op):
    b = convert_to_tensor(boxes)
    s = convert_to_tensor(scores, dtype=b.dtype)
    bv, sv = b._value, s._value
    if b.dtype.name not in ("float32", "float16"):
        raise InvalidArgumentError(f"{op}: Value for attr 'T' of {b.dtype.name} is not in the "
                                   "list of allowed values: half, float (boxes of shape "
                                   f"{tuple(bv.shape)}). Fix: tf.cast(boxes, tf.float32) "
                                   f"[Op:{op}]", op)
    if bv.ndim != 2 or bv.shape[1] != 4:
        raise InvalidArgumentError(f"{op}: boxes must be 2-D with 4 columns (y1, x1, y2, x2), "
                                   f"got shape {tuple(bv.shape)}. Fix: pass one row per box "
                                   f"[Op:{op}]", op)
    if sv.ndim != 1 or sv.shape[0] != bv.shape[0]:
        raise InvalidArgumentError(f"{op}: scores has incompatible shape {tuple(sv.shape)} for "
                                   f"{bv.shape[0]} boxes. Fix: one score per box [Op:{op}]", op)
    iou = float(getattr(iou_threshold, "_value", iou_threshold))
    if not 0 <= iou <= 1:
        raise InvalidArgumentError(f"{op}: iou_threshold must be in [0, 1], got {iou} "
                                   f"[Op:{op}]", op)
    size = int(getattr(max_output_size, "_value", max_output_size))
    if size < 0:
        raise InvalidArgumentError(f"{op}: max_output_size must be non-negative, got {size} "
                                   f"[Op:{op}]", op)
    threshold = sv.dtype.type(getattr(score_threshold, "_value", score_threshold))
    return bv, sv, size, sv.dtype.type(iou), threshold


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None):
    """The indices (int32) of at most `max_output_size` boxes kept, by decreasing score."""
    b, s, size, iou, threshold = _inputs(boxes, scores, max_output_size, iou_threshold,
                                         score_threshold, "NonMaxSuppressionV3")
    kept, _ = _select(b, s, size, iou, threshold, 0.0)
    return convert_to_tensor(np.array(kept, np.int32))


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """`(indices, scores)` of the boxes kept; with `soft_nms_sigma > 0` the scores are the
    decayed ones of Soft-NMS."""
    b, s, size, iou, threshold = _inputs(boxes, scores, max_output_size, iou_threshold,
                                         score_threshold, "NonMaxSuppressionV5")
    sigma = float(getattr(soft_nms_sigma, "_value", soft_nms_sigma))
    if sigma < 0:
        raise InvalidArgumentError(f"NonMaxSuppressionV5: soft_nms_sigma must be non-negative, "
                                   f"got {sigma} [Op:NonMaxSuppressionV5]", "NonMaxSuppressionV5")
    kept, kept_scores = _select(b, s, size, iou, threshold, sigma)
    return (convert_to_tensor(np.array(kept, np.int32)),
            convert_to_tensor(np.array(kept_scores, s.dtype)))


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """`(indices, valid)`: the kept indices (padded with 0 to `max_output_size` if asked)
    and how many are valid."""
    b, s, size, iou, threshold = _inputs(boxes, scores, max_output_size, iou_threshold,
                                         score_threshold, "NonMaxSuppressionV4")
    kept, _ = _select(b, s, size, iou, threshold, 0.0)
    valid = len(kept)
    if pad_to_max_output_size:
        kept = kept + [0] * (size - valid)
    return convert_to_tensor(np.array(kept, np.int32)), convert_to_tensor(np.int32(valid))


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Per image and per class non-max suppression, the survivors of all classes ranked by
    score: `(boxes [B, K, 4], scores [B, K], classes [B, K], valid_detections [B])`, K =
    `max_total_size` (with `pad_per_class`, at most per-class size × classes), zero-padded.
    `boxes` are [B, N, q, 4] with q = 1 (shared by all classes) or one per class."""
    op = "CombinedNonMaxSuppression"
    b = convert_to_tensor(boxes)
    s = convert_to_tensor(scores, dtype=b.dtype)
    bv, sv = b._value, s._value
    if bv.ndim != 4 or bv.shape[-1] != 4 or sv.ndim != 3 or sv.shape[:2] != bv.shape[:2] or \
            bv.shape[2] not in (1, sv.shape[2]):
        raise InvalidArgumentError(f"{op}: boxes must be [batch, boxes, q, 4] and scores "
                                   f"[batch, boxes, classes] with q 1 or classes, got "
                                   f"{tuple(bv.shape)} and {tuple(sv.shape)} [Op:{op}]", op)
    per_class = int(getattr(max_output_size_per_class, "_value", max_output_size_per_class))
    total = int(getattr(max_total_size, "_value", max_total_size))
    iou = sv.dtype.type(float(getattr(iou_threshold, "_value", iou_threshold)))
    threshold = sv.dtype.type(float(getattr(score_threshold, "_value", score_threshold)))
    classes = sv.shape[2]
    size = min(total, per_class * classes) if pad_per_class else total
    out_boxes = np.zeros((bv.shape[0], size, 4), bv.dtype)
    out_scores = np.zeros((bv.shape[0], size), sv.dtype)
    out_classes = np.zeros((bv.shape[0], size), sv.dtype)
    valid = np.zeros((bv.shape[0],), np.int32)
    for image in range(bv.shape[0]):
        found = []                      # (score, class, box index)
        for c in range(classes):
            class_boxes = bv[image, :, c if bv.shape[2] > 1 else 0]
            kept, kept_scores = _select(class_boxes, sv[image, :, c], per_class, iou,
                                        threshold, 0.0)
            found += [(score, c, i) for i, score in zip(kept, kept_scores)]
        found.sort(key=lambda item: -item[0])
        found = found[:size]
        valid[image] = len(found)
        for k, (score, c, i) in enumerate(found):
            box = bv[image, i, c if bv.shape[2] > 1 else 0]
            out_boxes[image, k] = np.clip(box, 0, 1) if clip_boxes else box
            out_scores[image, k], out_classes[image, k] = score, c
    return (convert_to_tensor(out_boxes), convert_to_tensor(out_scores),
            convert_to_tensor(out_classes), convert_to_tensor(valid))
