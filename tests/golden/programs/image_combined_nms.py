# tf.image.combined_non_max_suppression: boxes shared by all classes or one per class, the
# per-class and total limits, padding, score threshold, clipping
boxes = tf.constant([[[[0.0, 0.0, 0.5, 0.5]], [[0.0, 0.05, 0.5, 0.55]], [[0.5, 0.5, 1.2, 1.0]],
                      [[0.2, 0.2, 0.4, 0.4]]],
                     [[[0.1, 0.1, 0.3, 0.3]], [[0.6, 0.6, 0.9, 0.9]], [[0.1, 0.1, 0.31, 0.3]],
                      [[-0.2, 0.0, 0.2, 0.2]]]])
scores = tf.constant([[[0.9, 0.1], [0.8, 0.35], [0.3, 0.7], [0.05, 0.6]],
                      [[0.4, 0.55], [0.65, 0.2], [0.38, 0.52], [0.75, 0.15]]])
cnms = tf.image.combined_non_max_suppression
report("shared_boxes", cnms(boxes, scores, 2, 5))
report("limits", cnms(boxes, scores, 1, 3))
report("pad_per_class", cnms(boxes, scores, 1, 10, pad_per_class=True))
report("score_threshold", cnms(boxes, scores, 3, 6, score_threshold=0.5))
report("no_clip", cnms(boxes, scores, 3, 6, clip_boxes=False))
report("iou_0.1", cnms(boxes, scores, 4, 8, iou_threshold=0.1))
per_class = tf.concat([boxes, boxes[:, :, :, ::-1] * 0.5], axis=2)
report("per_class_boxes", cnms(per_class, scores, 2, 4))
expect_error("bad_shapes", lambda: cnms(boxes[:, :, 0], scores, 2, 4))
