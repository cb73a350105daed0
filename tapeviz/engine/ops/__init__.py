"""Every op, one module a family, loaded in the order they build on each other.

makers (zeros, ones, random) and elementwise come first; axes moves axes; reduce holds
broadcasts and reductions (each the other's VJP); indexing and join (concat, split) cut and
glue; linalg, gradient_ops, nn, losses, clip, conv, pooling and normalization build on those;
info answers shape questions; arrange (pad, sort, roll, ...) reorders with gather;
inverse_trig holds atan2 and the inverse hyperbolic functions; special lgamma, erfinv
and the other special functions; counting bincount, in_top_k and the order checks.
Each family lists its public ops in `__all__`; `tapeviz` exports these (nn's and losses' ops
are `tv.nn.*` only, as in TensorFlow).
"""
from . import makers, elementwise, axes, reduce, indexing, join, linalg  # noqa: E401
from . import gradient_ops, nn, losses, clip, info, einstein, scatter  # noqa: E401
from . import conv, depthwise, pooling, normalization, arrange, inverse_trig  # noqa: E401
from . import special, counting  # noqa: E401
from .arrange import *  # noqa: F401,F403
from .axes import *  # noqa: F401,F403
from .clip import *  # noqa: F401,F403
from .einstein import *  # noqa: F401,F403
from .elementwise import *  # noqa: F401,F403
from .elementwise import abs, pow, round  # noqa: F401  (names that shadow builtins)
from .elementwise import add_v2  # noqa: F401  (`+`, TensorFlow's raw AddV2: `tf.add` converts as it does)
from .gradient_ops import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .info import *  # noqa: F401,F403
from .inverse_trig import *  # noqa: F401,F403
from .join import *  # noqa: F401,F403
from .linalg import *  # noqa: F401,F403
from .makers import *  # noqa: F401,F403
from .makers import range  # noqa: F401
from .reduce import *  # noqa: F401,F403
from .scatter import *  # noqa: F401,F403
from .reduce import spread_to, sum_to  # noqa: F401  (the engine's unbroadcast, for backprop)

__all__ = [name for family in (makers, elementwise, axes, reduce, indexing, join, linalg,
                               gradient_ops, clip, info, einstein, scatter, arrange,
                               inverse_trig)
           for name in family.__all__]
