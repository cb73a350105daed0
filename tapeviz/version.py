"""`tf.version`: the TensorFlow release whose API tapeviz imitates, as `tf.__version__` names it
(with tapeviz's own release as a PEP 440 local label)."""
from . import TAPEVIZ_VERSION as _TAPEVIZ_VERSION
from . import __version__ as VERSION

GIT_VERSION = "v" + VERSION
#: tapeviz is pure Python on NumPy: no compiler built it
COMPILER_VERSION = "tapeviz " + _TAPEVIZ_VERSION
