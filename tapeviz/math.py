"""`tv.math`: TensorFlow's math namespace (the same ops as at top level)."""
from .engine.ops import *  # noqa: F401,F403
from .engine.ops import abs, pow, round  # noqa: F401
from .engine.ops.elementwise import divide_no_nan, is_finite, is_inf, is_nan  # noqa: F401
from .engine.ops.nn import erf, log_sigmoid, log_softmax, softmax  # noqa: F401,E402
from .engine.ops.normalization import l2_normalize  # noqa: F401,E402
from .engine.ops.nn import softplus, softsign  # noqa: F401,E402
from .engine.ops.arrange import top_k  # noqa: F401,E402
from .engine.ops.scatter import confusion_matrix  # noqa: F401,E402
from .engine.ops.reduce import cumprod  # noqa: F401,E402  (tf.math only, as TensorFlow)
from .math_safe import multiply_no_nan, reciprocal_no_nan, scalar_mul  # noqa: F401,E402
from .math_safe import xdivy, xlog1py, xlogy  # noqa: F401,E402
from .engine.ops.inverse_trig import rint  # noqa: F401,E402  (tf.math only)
from .engine.ops.segment import *  # noqa: F401,F403,E402
from .engine.ops.special import digamma, erfc, erfinv, lgamma, ndtri  # noqa: F401,E402
from .engine.ops.counting import bincount, in_top_k, invert_permutation  # noqa: F401,E402
from .engine.ops.counting import is_non_decreasing, is_strictly_increasing  # noqa: F401,E402
from .engine.ops.counting import zero_fraction  # noqa: F401,E402
from .math_sums import accumulate_n, cumulative_logsumexp, polyval  # noqa: F401,E402
from .math_sums import reduce_euclidean_norm  # noqa: F401,E402
