"""`tv.linalg`: matrix ops."""
from .engine.ops.linalg import det, diag_part, inv, matmul, matvec, solve, tensordot, trace  # noqa: F401
from .engine.ops.makers import eye  # noqa: F401
from .engine.ops.linalg import norm  # noqa: F401
from .engine.ops.axes import matrix_transpose  # noqa: F401
from .engine.ops.einstein import einsum  # noqa: F401,E402
from .engine.ops.clip import global_norm  # noqa: F401,E402
from .engine.ops.normalization import l2_normalize  # noqa: F401,E402
from .linalg_parts import (adjoint, band_part, cross, diag, normalize, set_diag,  # noqa: F401,E402
                           tensor_diag, tensor_diag_part)
from .engine.ops.decompositions import eigh, eigvalsh, svd  # noqa: F401,E402
