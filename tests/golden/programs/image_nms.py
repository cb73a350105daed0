# tf.image.non_max_suppression, non_max_suppression_with_scores (hard and Soft-NMS) and
# non_max_suppression_padded: which boxes are kept, in which order, with score and IoU
# thresholds (ties, an IoU exactly at the threshold, flipped corners, empty boxes)
boxes = tf.constant([[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, -0.1, 1.0, 0.9],
                     [0.0, 10.0, 1.0, 11.0], [0.0, 10.1, 1.0, 11.1], [0.0, 100.0, 1.0, 101.0]])
scores = tf.constant([0.9, 0.75, 0.6, 0.95, 0.5, 0.3])
nms = tf.image.non_max_suppression
report("nms.basic", nms(boxes, scores, 3, iou_threshold=0.5))
report("nms.all", nms(boxes, scores, 10))
report("nms.iou_0.9", nms(boxes, scores, 10, iou_threshold=0.9))
report("nms.score_threshold", nms(boxes, scores, 10, score_threshold=0.55))
report("nms.score_threshold_equal", nms(boxes, scores, 10, score_threshold=0.6))
report("nms.zero_outputs", nms(boxes, scores, 0))
report("nms.tensor_args", nms(boxes, scores, tf.constant(2), tf.constant(0.5)))
report("nms.flipped_corners", nms(tf.constant([[1.0, 1.0, 0.0, 0.0], [0.0, 0.1, 1.0, 1.1]]),
                                  tf.constant([0.5, 0.9]), 2, iou_threshold=0.5))
report("nms.ties_lower_index_first", nms(tf.constant([[0.0, 0.0, 1.0, 1.0]] * 3),
                                         tf.constant([0.5, 0.7, 0.7]), 3))
# two unit squares shifted by 1/3: IoU exactly 0.5
half = tf.constant([[0.0, 0.0, 1.0, 3.0], [0.0, 1.0, 1.0, 4.0]])
report("nms.iou_at_threshold", nms(half, tf.constant([0.9, 0.8]), 2, iou_threshold=0.5))
report("nms.empty_box", nms(tf.constant([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]),
                            tf.constant([0.9, 0.8]), 2, iou_threshold=0.0))
expect_error("nms.float64", lambda: nms(tf.cast(boxes, tf.float64), tf.cast(scores, tf.float64),
                                         4))
report("nms.no_boxes", nms(tf.zeros((0, 4)), tf.zeros((0,)), 3))

with_scores = tf.image.non_max_suppression_with_scores
report("with_scores.hard", with_scores(boxes, scores, 4, iou_threshold=0.5))
report("with_scores.soft", with_scores(boxes, scores, 6, iou_threshold=1.0,
                                       soft_nms_sigma=0.5))
report("with_scores.soft_threshold", with_scores(boxes, scores, 6, iou_threshold=0.7,
                                                 score_threshold=0.2, soft_nms_sigma=0.3))
report("padded.unpadded", tf.image.non_max_suppression_padded(boxes, scores, 5))
report("padded.padded", tf.image.non_max_suppression_padded(boxes, scores, 5,
                                                            pad_to_max_output_size=True))
expect_error("nms.iou_above_1", lambda: nms(boxes, scores, 3, iou_threshold=1.5))
expect_error("nms.boxes_shape", lambda: nms(tf.zeros((3, 3)), tf.zeros((3,)), 2))
expect_error("nms.scores_shape", lambda: nms(boxes, tf.zeros((5,)), 2))
expect_error("with_scores.negative_sigma", lambda: with_scores(boxes, scores, 2,
                                                               soft_nms_sigma=-1.0))
