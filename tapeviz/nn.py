"""`tv.nn`: activations, softmax, losses, dropout, convolutions, pooling and normalization (as
TensorFlow's `tf.nn`)."""
from .engine.ops.elementwise import sigmoid, tanh  # noqa: F401
from .engine.ops.losses import (sigmoid_cross_entropy_with_logits,  # noqa: F401
                                softmax_cross_entropy_with_logits,
                                sparse_softmax_cross_entropy_with_logits)
from .engine.ops.nn import (dropout, elu, gelu, l2_loss, leaky_relu, log_softmax,  # noqa: F401
                            relu, relu6, selu, softmax, softplus, softsign)
from .engine.ops.conv import conv1d, conv2d, conv2d_transpose  # noqa: F401
from .engine.ops.depthwise import depthwise_conv2d, separable_conv2d  # noqa: F401
from .distribute import compute_average_loss, scale_regularization_loss  # noqa: F401
from .engine.ops.normalization import batch_normalization, l2_normalize, moments  # noqa: F401
from .engine.ops.normalization import local_response_normalization, lrn  # noqa: F401
from .engine.ops.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d  # noqa: F401
from .engine.ops.scatter import embedding_lookup  # noqa: F401
from .engine.ops.arrange import top_k  # noqa: F401
from .engine.ops.nn import erf as _erf  # noqa: F401  (tv.math.erf belongs to tv.math)

def swish(features, beta=1.0, name=None):
    """x · sigmoid(β·x) (also `tv.nn.silu`)."""
    return features * sigmoid(features * beta) if beta != 1.0 else features * sigmoid(features)


silu = swish


def bias_add(value, bias, data_format=None, name=None):
    """`value + bias` along the channel axis (the last; the second for "NC..." formats)."""
    from .engine.convert import convert_to_tensor
    from .engine.ops import reshape
    from .errors import InvalidArgumentError
    x, b = convert_to_tensor(value), convert_to_tensor(bias)
    if b._value.ndim != 1:
        raise InvalidArgumentError(f"BiasAdd: Biases must be 1D: {list(b._value.shape)}. Fix: "
                                   "pass a vector with one bias per channel [Op:BiasAdd]")
    channels_first = bool(data_format) and data_format.startswith("NC")
    axis = 1 if channels_first else -1
    if x._value.ndim < 2 or x._value.shape[axis] != b._value.shape[0]:
        raise InvalidArgumentError(
            f"BiasAdd: Must provide as many biases as the {'channel' if channels_first else 'last'}"
            f" dimension of the input tensor: {list(b._value.shape)} vs. "
            f"{list(x._value.shape)} [Op:BiasAdd]")
    if channels_first:
        b = reshape(b, [-1] + [1] * (x._value.ndim - 2))
    return x + b


def _block_size(block_size, what):
    if not isinstance(block_size, int) or block_size < 2:
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(f"{what}: block_size should be > 1, got {block_size!r}")
    return block_size


def _nhwc_input(input, data_format, op_name):
    """``input`` as a rank-4 channels-last tensor, or TensorFlow's refusal naming ``op_name``."""
    from .engine.convert import convert_to_tensor
    x = convert_to_tensor(input)
    if data_format != "NHWC" or x._value.ndim != 4:
        raise ValueError(f"{op_name}: tapeviz takes a rank-4 NHWC input, got shape "
                         f"{tuple(x.shape)} and data_format={data_format!r}. Fix: "
                         "channels-last (batch, height, width, channels)")
    return x


def depth_to_space(input, block_size, data_format="NHWC", name=None):
    """Blocks of channels moved to space: (b, h, w, c) -> (b, h·bs, w·bs, c/bs²), channel
    (i·bs + j)·c' + k going to row offset i, column offset j (TensorFlow's NHWC order)."""
    from .engine.ops import reshape, transpose
    bs = _block_size(block_size, "depth_to_space")
    x = _nhwc_input(input, data_format, "depth_to_space")
    b, h, w, c = x._value.shape
    if c % (bs * bs):
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(f"depth_to_space: input depth {c} of shape {tuple(x.shape)} "
                                   f"should be divisible by block_size_sq {bs * bs}")
    y = transpose(reshape(x, [b, h, w, bs, bs, c // (bs * bs)]), [0, 1, 3, 2, 4, 5])
    return reshape(y, [b, h * bs, w * bs, c // (bs * bs)])


def space_to_depth(input, block_size, data_format="NHWC", name=None):
    """depth_to_space's inverse: (b, h, w, c) -> (b, h/bs, w/bs, c·bs²)."""
    from .engine.ops import reshape, transpose
    bs = _block_size(block_size, "space_to_depth")
    x = _nhwc_input(input, data_format, "space_to_depth")
    b, h, w, c = x._value.shape
    if h % bs or w % bs:
        from .errors import InvalidArgumentError
        raise InvalidArgumentError(f"space_to_depth: image width {w} and height {h} of shape "
                                   f"{tuple(x.shape)} should be divisible by block_size: {bs}")
    y = transpose(reshape(x, [b, h // bs, bs, w // bs, bs, c]), [0, 1, 3, 2, 4, 5])
    return reshape(y, [b, h // bs, w // bs, bs * bs * c])


def convolution(input, filters, strides=None, padding="VALID", data_format=None,
                dilations=None, name=None):
    """The N-D convolution the filters' rank asks for: conv1d for [k, in, out] filters,
    conv2d for [kh, kw, in, out]; `strides` and `dilations` an int or one per spatial axis."""
    from .engine.convert import convert_to_tensor
    rank = convert_to_tensor(filters)._value.ndim
    if rank == 4:
        return conv2d(input, filters, 1 if strides is None else strides, padding,
                      data_format or "NHWC", dilations)
    if rank == 3:
        first = (lambda v: v[0] if isinstance(v, (list, tuple)) else v)
        return conv1d(input, filters, 1 if strides is None else first(strides), padding,
                      data_format or "NWC", None if dilations is None else first(dilations))
    raise NotImplementedError(f"convolution: filters of rank {rank} ask for a "
                              f"{rank - 2}-D convolution, which tapeviz does not imitate (1-D "
                              "and 2-D only). Fix: use 1-D or 2-D convolutions")
