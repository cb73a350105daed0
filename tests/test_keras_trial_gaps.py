"""Error messages of the pieces the second trial of public programs found missing (their
values and error classes are checked against TensorFlow in tests/golden/)."""
import pytest

import tapeviz as tv


def test_boolean_mask_of_the_wrong_shape_names_shapes_and_fix():
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(1,\).*shape \(2, 3\) "
                                         r"\(float32\).*Fix"):
        tv.boolean_mask(tv.zeros([2, 3]), [True])


def test_boolean_mask_refuses_a_scalar_mask_with_a_fix():
    with pytest.raises(ValueError, match=r"mask cannot be scalar.*Fix"):
        tv.boolean_mask(tv.zeros([2]), tv.constant(True))


def test_an_unknown_datatype_number_lists_the_known_ones():
    with pytest.raises(TypeError, match=r"99.*DataType enum.*1 is float32.*Fix"):
        tv.zeros([2], 99)


def test_selu_of_integers_names_the_op_and_the_cast():
    with pytest.raises(tv.errors.InvalidArgumentError, match=r"Selu.*int32.*tv.cast"):
        tv.nn.selu(tv.constant([1, 2]))


def test_confusion_metric_thresholds_out_of_range_say_the_range():
    with pytest.raises(ValueError, match=r"recall: Threshold values must be in \[0, 1\].*Fix"):
        tv.keras.metrics.Recall(thresholds=[1.5])


def test_nadam_is_found_by_name():
    assert type(tv.keras.optimizers.get("nadam")).__name__ == "Nadam"
    assert tv.keras.activations.get("selu") is tv.keras.activations.selu
