"""Every name API.md promises exists where TensorFlow users look for it."""
import pytest

import tapeviz as tv

TOP_AND_MATH = """add subtract multiply divide floordiv truediv pow square sqrt rsqrt exp log log1p
expm1 sin cos tan tanh sinh cosh asin acos atan sigmoid abs sign negative reciprocal maximum
minimum where clip_by_value reduce_sum reduce_mean reduce_max reduce_min reduce_prod
reduce_logsumexp reduce_std reduce_variance matmul transpose reshape concat stack unstack split
squeeze expand_dims tile gather gather_nd one_hot cast argmax argmin equal not_equal greater less
greater_equal less_equal logical_and logical_or logical_not cumsum norm""".split()
LINALG = "matmul inv det trace norm diag_part".split()
NN = """relu relu6 leaky_relu elu gelu softplus softsign sigmoid tanh softmax log_softmax l2_loss
sigmoid_cross_entropy_with_logits softmax_cross_entropy_with_logits
sparse_softmax_cross_entropy_with_logits dropout""".split()
MAKERS = "zeros ones zeros_like ones_like fill range linspace eye".split()
RANDOM = "normal uniform set_seed".split()
CLIPPING = "clip_by_norm clip_by_global_norm clip_by_value".split()
TOP = """constant convert_to_tensor Variable Tensor GradientTape stop_gradient custom_gradient
float16 float32 float64 int32 int64 bool string as_dtype UnconnectedGradients Module
show record load_recording get_current_name_scope""".split()


@pytest.mark.parametrize("name", TOP_AND_MATH)
def test_op_is_at_top_level_and_in_math(name):
    assert callable(getattr(tv, name)) and callable(getattr(tv.math, name))


@pytest.mark.parametrize("namespace,names", [("linalg", LINALG), ("nn", NN), ("random", RANDOM)])
def test_namespace_holds_its_ops(namespace, names):
    ns = getattr(tv, namespace)
    assert [n for n in names if not callable(getattr(ns, n, None))] == []


@pytest.mark.parametrize("name", MAKERS + CLIPPING + TOP)
def test_top_level_name_exists(name):
    assert hasattr(tv, name)


@pytest.mark.parametrize("path", ["image.resize", "image.rgb_to_yuv", "image.yuv_to_rgb",
                                  "image.ResizeMethod", "test.TestCase", "test.compute_gradient",
                                  "test.main", "keras.metrics.AUC", "keras.utils.Sequence",
                                  "numpy_function", "py_function", "metrics.Mean",
                                  "keras.metrics.SparseCategoricalCrossentropy",
                                  "keras.metrics.CategoricalCrossentropy",
                                  "keras.metrics.KLDivergence", "keras.metrics.Hinge",
                                  "keras.optimizers.Adagrad", "keras.optimizers.legacy.Adagrad",
                                  "keras.preprocessing.text.Tokenizer",
                                  "keras.preprocessing.text.text_to_word_sequence",
                                  "data.Dataset.window", "data.Dataset.flat_map",
                                  "data.Dataset.shard", "data.experimental.cardinality"])
def test_name_is_where_tensorflow_has_it(path):
    obj = tv
    for part in path.split("."):
        obj = getattr(obj, part)
    assert callable(obj) or isinstance(obj, type)


def test_dtypes_have_tensorflow_attributes():
    for d in (tv.float16, tv.float32, tv.float64, tv.int32, tv.int64, tv.bool, tv.string):
        assert d == tv.as_dtype(d.name)
        assert isinstance(d.is_floating, bool)
    assert tv.float32.is_floating and not tv.int32.is_floating


def test_keras_kit_names():
    k = tv.keras
    for obj in (k.layers.Dense, k.Sequential, k.optimizers.SGD, k.optimizers.Adam,
                k.losses.MeanSquaredError, k.losses.SparseCategoricalCrossentropy):
        assert callable(obj)
    assert tv.UnconnectedGradients.NONE.value == "none"
    assert tv.UnconnectedGradients.ZERO.value == "zero"


def test_a_missing_tensorflow_name_says_what_to_write_instead():
    with pytest.raises(AttributeError, match=r"'Graph'.*Fix: .*call the ops directly"):
        tv.Graph
    with pytest.raises(AttributeError, match=r"'no_such_thing'.*README") as info:
        tv.no_such_thing
    assert "Fix" not in str(info.value) and "API.md" not in str(info.value)
