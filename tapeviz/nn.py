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
from .engine.ops.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d  # noqa: F401
from .engine.ops.scatter import embedding_lookup  # noqa: F401
from .engine.ops.nn import erf as _erf  # noqa: F401  (tv.math.erf belongs to tv.math)

def swish(features, beta=1.0, name=None):
    """x · sigmoid(β·x) (also `tv.nn.silu`)."""
    return features * sigmoid(features * beta) if beta != 1.0 else features * sigmoid(features)


silu = swish
