"""Generator entries: for every differentiable op of tapeviz's registry, how a random program
calls it through the public `tf.` API (operands that fit, attributes, where its kinks are).

`ENTRIES` maps a registry name to `entry(builder) -> output variable`. `REACHED_THROUGH` names
the registry's gradient kernels, which programs reach by differentiating a public op twice.
tests/test_differential.py fails when a differentiable op is in neither, as
tests/test_op_gradients.py does for an op without a gradient spec.
"""
from __future__ import annotations

from ops_more import MORE
from program import broadcast_shape, ref

UNARY = {   # registry name: (tf function, input domain, kink points)
    "Neg": ("negative", "real", ()), "Abs": ("abs", "real", (0.0,)),
    "Sign": ("sign", "real", (0.0,)), "Square": ("square", "real", ()),
    "Sqrt": ("sqrt", "positive", (0.0,)), "Rsqrt": ("math.rsqrt", "positive", ()),
    "Exp": ("exp", "real", ()), "Expm1": ("math.expm1", "real", ()),
    "Log": ("math.log", "positive", ()), "Log1p": ("math.log1p", "positive", ()),
    "Reciprocal": ("math.reciprocal", "nonzero", ()), "Sin": ("sin", "real", ()),
    "Cos": ("cos", "real", ()), "Tan": ("tan", "unit", ()), "Tanh": ("tanh", "real", ()),
    "Sinh": ("sinh", "real", ()), "Cosh": ("cosh", "real", ()), "Asin": ("asin", "unit", ()),
    "Acos": ("acos", "unit", ()), "Atan": ("atan", "real", ()),
    "Sigmoid": ("sigmoid", "real", ()), "Erf": ("math.erf", "real", ()),
    "Identity": ("identity", "real", ()),
    "Relu": ("nn.relu", "real", (0.0,)), "Relu6": ("nn.relu6", "real", (0.0, 6.0)),
    "Elu": ("nn.elu", "real", (0.0,)), "Softplus": ("nn.softplus", "real", ()),
    "Softsign": ("nn.softsign", "real", (0.0,)), "L2Loss": ("nn.l2_loss", "real", ()),
    "LogSigmoid": ("math.log_sigmoid", "real", ()),
    "Asinh": ("asinh", "real", ()), "Acosh": ("acosh", "above_one", ()),
    "Atanh": ("atanh", "unit", ()), "Lgamma": ("math.lgamma", "positive", ()),
    "Digamma": ("math.digamma", "positive", ()), "Erfc": ("math.erfc", "real", ()),
    "Erfinv": ("math.erfinv", "unit", ()), "Ndtri": ("math.ndtri", "open_unit", ()),
}

BINARY = {  # registry name: (tf function, domain of x, domain of y, kink points)
    "AddV2": ("add", "real", "real", ()), "Sub": ("subtract", "real", "real", ()),
    "Mul": ("multiply", "real", "real", ()), "RealDiv": ("divide", "real", "nonzero", ()),
    "Maximum": ("maximum", "real", "real", ()), "Minimum": ("minimum", "real", "real", ()),
    "SquaredDifference": ("math.squared_difference", "real", "real", ()),
    "DivNoNan": ("math.divide_no_nan", "real", "nonzero", (0.0,)),
    "FloorMod": ("math.floormod", "mod_safe", "positive", ()),
    "Pow": ("pow", "positive", "real", ()),
    "Atan2": ("atan2", "nonzero", "real", ()),
}

REDUCE = {"Sum": "reduce_sum", "Mean": "reduce_mean", "Max": "reduce_max",
          "Min": "reduce_min", "Prod": "reduce_prod", "LogSumExp": "reduce_logsumexp"}

# Registered ops whose VJP only raises, as TensorFlow's missing gradient does (nothing to
# compare but the error, which tests/golden/programs/image_resize.py checks).
NO_GRADIENT = {"ResizeArea": "tf.image.resize(method='area'): TensorFlow raises LookupError",
               "DenseBincount": "tf.math.bincount's weights: TensorFlow raises LookupError"}

# Gradient kernels of the registry, reached by second derivatives of the public op named.
REACHED_THROUGH = {
    "ReluGrad": "Relu", "Relu6Grad": "Relu6", "LeakyReluGrad": "LeakyRelu", "EluGrad": "Elu",
    "SoftplusGrad": "Softplus", "SoftmaxGrad": "Softmax", "SqrtGrad": "Sqrt",
    "RsqrtGrad": "Rsqrt", "ReciprocalGrad": "Reciprocal", "Polygamma": "Digamma",
    "LogSoftmaxGrad": "LogSoftmax", "ScatterGrad": "StridedSlice", "SumToShape": "AddV2",
    "MatrixSetDiagGrad": "MatrixDiagPart", "ProdOthers": "Prod",
    "TopSingularOuter": "SpectralNorm",
    "SoftmaxCrossEntropyGrad": "SoftmaxCrossEntropyWithLogits",
    "SparseSoftmaxCrossEntropyGrad": "SparseSoftmaxCrossEntropyWithLogits",
    "Conv2DBackpropFilter": "Conv2D", "MaxPoolGrad": "MaxPool", "MaxPoolGradGrad": "MaxPool",
    "AvgPoolGrad": "AvgPool",
    "DepthwiseConv2dNativeBackpropFilter": "DepthwiseConv2dNative",
    "DepthwiseConv2dNativeBackpropInput": "DepthwiseConv2dNative",
}


def _unary(fn, domain, kinks):
    def entry(b):
        x = b.operand(domain=domain, special=kinks)
        out_shape = () if fn == "nn.l2_loss" else b.shapes[x]
        return b.step(fn, [ref(x)], shape=out_shape)
    return entry


def _binary(fn, dx, dy, kinks):
    def entry(b):
        x = b.operand(domain=dx, special=kinks)
        shape = b.compatible_shape(b.shapes[x])
        y = b.operand(domain=dy, shape=shape, special=kinks)
        if b.rng.random() < 0.5:
            x, y = (y, x) if dx == dy else (x, y)
        return b.step(fn, [ref(x), ref(y)], shape=broadcast_shape(b.shapes[x], b.shapes[y]))
    return entry


def _axes(b, rank):
    """None, one axis (maybe negative) or a list of distinct axes."""
    r = b.rng.random()
    if rank == 0 or r < 0.25:
        return None
    if r < 0.65:
        a = int(b.rng.integers(0, rank))
        return a - rank if b.rng.random() < 0.3 else a
    k = int(b.rng.integers(1, rank + 1))
    return sorted(int(a) for a in b.rng.choice(rank, size=k, replace=False))


def _reduced_shape(shape, axis, keepdims):
    rank = len(shape)
    axes = range(rank) if axis is None else [a % rank for a in
                                             (axis if isinstance(axis, list) else [axis])]
    return tuple(1 if i in axes else d for i, d in enumerate(shape) if keepdims or i not in axes)


def _reduce(fn):
    def entry(b):
        kinks = (0.0,) if fn == "reduce_prod" else ()
        x = b.operand(special=kinks)
        axis, keepdims = _axes(b, len(b.shapes[x])), bool(b.rng.random() < 0.4)
        kw = {"axis": axis, "keepdims": keepdims}
        return b.step(fn, [ref(x)], kw, shape=_reduced_shape(b.shapes[x], axis, keepdims))
    return entry


def _norm(b, matrix):
    if matrix:
        x = b.operand(min_rank=2, special=(0.0,))
        rank = len(b.shapes[x])
        ord_ = [1, 2, "inf", "fro", "euclidean"][int(b.rng.integers(0, 5))]
        axis = [rank - 2, rank - 1] if b.rng.random() < 0.7 else [-1, -2]
    else:
        x = b.operand(min_rank=1, special=(0.0,))
        rank = len(b.shapes[x])
        ord_ = [1, 2, "inf", 3.0, 1.5, "euclidean"][int(b.rng.integers(0, 6))]
        axis = None if b.rng.random() < 0.3 else int(b.rng.integers(0, rank))
    keepdims = bool(b.rng.random() < 0.3)
    shape = b.shapes[x]
    if axis is None and keepdims:
        out = (1,) * len(shape)
    elif axis is None:
        out = ()
    else:
        out = _reduced_shape(shape, axis, keepdims)
    return b.step("norm", [ref(x)], {"ord": ord_, "axis": axis, "keepdims": keepdims},
                  shape=out)


def _select(b):
    x = b.operand(special=(0.0,))
    y = b.operand(shape=b.compatible_shape(b.shapes[x]))
    cond = b.step("greater", [ref(x), 0.0], shape=b.shapes[x], dtype="bool")
    args = [ref(x), ref(y)] if b.rng.random() < 0.5 else [ref(y), ref(x)]
    return b.step("where", [ref(cond)] + args,
                  shape=broadcast_shape(b.shapes[x], b.shapes[y]))


def _clip(b):
    x = b.operand(special=(-0.5, 0.7))
    return b.step("clip_by_value", [ref(x), -0.5, 0.7], shape=b.shapes[x])


def _cast(b):
    x = b.operand()
    other = "float64" if b.dtypes[x] == "float32" else "float32"
    y = b.step("cast", [ref(x), other], shape=b.shapes[x], dtype=other)
    return b.step("cast", [ref(y), b.dtype], shape=b.shapes[x]) if b.rng.random() < 0.7 else y


def _reshape(b):
    x = b.operand(min_rank=1)
    shape = b.shapes[x]
    size = 1
    for d in shape:
        size *= d
    new = [size] if b.rng.random() < 0.5 else [1, size]
    if b.rng.random() < 0.3:
        new[0] = -1
    out = tuple(size if d == -1 else d for d in new)
    return b.step("reshape", [ref(x), new], shape=out)


def _broadcast_to(b):
    x = b.operand()
    target = (2,) + tuple(b.shapes[x]) if len(b.shapes[x]) < 3 else tuple(b.shapes[x])
    return b.step("broadcast_to", [ref(x), list(target)], shape=target)


def _transpose(b):
    x = b.operand(min_rank=2)
    perm = [int(p) for p in b.rng.permutation(len(b.shapes[x]))]
    return b.step("transpose", [ref(x)], {"perm": perm},
                  shape=tuple(b.shapes[x][p] for p in perm))


def _concat(b):
    x = b.operand(min_rank=1)
    shape = b.shapes[x]
    axis = int(b.rng.integers(0, len(shape)))
    other = list(shape)
    other[axis] = int(b.rng.integers(1, 3))
    y = b.operand(shape=tuple(other))
    parts = [x, y] + ([x] if b.rng.random() < 0.3 else [])
    out = list(shape)
    out[axis] = sum(b.shapes[p][axis] for p in parts)
    return b.step("concat", [[ref(p) for p in parts]], {"axis": axis}, shape=tuple(out))


def _split(b):
    x = b.operand(min_rank=1, min_dim=2)
    shape = b.shapes[x]
    axis = int(b.rng.integers(0, len(shape)))
    first = int(b.rng.integers(1, shape[axis]))
    sizes = [first, shape[axis] - first]
    index = int(b.rng.integers(0, 2))
    out = list(shape)
    out[axis] = sizes[index]
    return b.step("split", [ref(x), sizes], {"axis": axis}, shape=tuple(out), index=index)


def _tile(b):
    x = b.operand(min_rank=1)
    mult = [int(m) for m in b.rng.integers(1, 3, size=len(b.shapes[x]))]
    return b.step("tile", [ref(x), mult], shape=tuple(d * m for d, m in zip(b.shapes[x], mult)))


def _slice(b):
    x = b.operand(min_rank=1)
    key, out = [], []
    for d in b.shapes[x]:
        r = b.rng.random()
        if r < 0.25:
            key.append(int(b.rng.integers(0, d)))
        elif r < 0.6:
            key.append({"slice": [None, None, 2 if d > 1 else 1]})
            out.append((d + 1) // 2 if d > 1 else d)
        else:
            start = int(b.rng.integers(0, d))
            key.append({"slice": [start, None, None]})
            out.append(d - start)
    return b.step("getitem", [ref(x), key], shape=tuple(out))


def _gather(b):
    x = b.operand(min_rank=1)
    shape = b.shapes[x]
    axis = int(b.rng.integers(0, len(shape)))
    idx = b.integers(b.rng.integers(0, shape[axis], size=int(b.rng.integers(1, 4))))
    out = shape[:axis] + (len(idx),) + shape[axis + 1:]
    return b.step("gather", [ref(x), idx], {"axis": axis}, shape=out)


def _gather_nd(b):
    x = b.operand(min_rank=2)
    shape = b.shapes[x]
    idx = b.integers([[int(b.rng.integers(0, shape[0])), int(b.rng.integers(0, shape[1]))]
                      for _ in range(int(b.rng.integers(1, 4)))])
    return b.step("gather_nd", [ref(x), idx], shape=(len(idx),) + shape[2:])


def _cumsum(b):
    x = b.operand(min_rank=1)
    axis = int(b.rng.integers(0, len(b.shapes[x])))
    kw = {"axis": axis, "exclusive": bool(b.rng.random() < 0.3),
          "reverse": bool(b.rng.random() < 0.3)}
    return b.step("cumsum", [ref(x)], kw, shape=b.shapes[x])


def _matmul(b):
    x = b.operand(min_rank=2)
    *batch, m, k = b.shapes[x]
    n = int(b.rng.integers(1, 4))
    ta, tb = bool(b.rng.random() < 0.3), bool(b.rng.random() < 0.3)
    if ta:
        x = b.step("transpose", [ref(x)], {"perm": list(range(len(batch))) + [len(batch) + 1,
                                                                             len(batch)]},
                   shape=tuple(batch) + (k, m))
    y = b.operand(shape=(n, k) if tb else (k, n))
    return b.step("matmul", [ref(x), ref(y)], {"transpose_a": ta, "transpose_b": tb},
                  shape=tuple(batch) + (m, n))


def _square_input(b, fn):
    n = int(b.rng.integers(1, 4))
    batch = (2,) if b.rng.random() < 0.3 else ()
    x = b.fresh(batch + (n, n), "well_conditioned")
    return b.step(fn, [ref(x)], shape=batch + ((n, n) if fn == "linalg.inv" else ()))


def _einsum(b):
    x = b.operand(min_rank=2)
    if len(b.shapes[x]) != 2:
        x = b.fresh((int(b.rng.integers(1, 4)), int(b.rng.integers(1, 4))))
    m, k = b.shapes[x]
    form = int(b.rng.integers(0, 4))
    if form == 0:       # a matrix product
        n = int(b.rng.integers(1, 4))
        y = b.operand(shape=(k, n))
        return b.step("einsum", ["ij,jk->ik", ref(x), ref(y)], shape=(m, n))
    if form == 1:       # rowwise dot products
        y = b.operand(shape=(m, k))
        return b.step("einsum", ["ij,ij->i", ref(x), ref(y)], shape=(m,))
    if form == 2:       # a sum over one axis, transposed output
        return b.step("einsum", ["ij->j", ref(x)], shape=(k,))
    y = b.fresh((k, k))   # a trace of a product
    return b.step("einsum", ["ij,jk,ki->", ref(x), ref(y), ref(b.fresh((k, m)))], shape=())


def _solve(b):
    """A well-conditioned matrix, never planted with special values: they make it singular
    too often. The `zero` tag instead gives an exactly singular matrix (a row of zeros), which
    TensorFlow refuses with InvalidArgumentError."""
    n, k = int(b.rng.integers(1, 4)), int(b.rng.integers(1, 3))
    a = b.fresh((n, n), "singular" if b.tag == "zero" else "well_conditioned", plant=False)
    rhs = b.operand(shape=(n, k))
    return b.step("linalg.solve", [ref(a), ref(rhs)], {"adjoint": bool(b.rng.random() < 0.3)},
                  shape=(n, k))


def _scatter_nd(b):
    u = b.operand(min_rank=1)
    rows, *rest = b.shapes[u]
    n = int(b.rng.integers(1, 5))
    idx = b.integers([[int(i)] for i in b.rng.integers(0, n, size=rows)])
    return b.step("scatter_nd", [idx, ref(u), [n] + list(rest)], shape=(n, *rest))


def _diag_part(b):
    x = b.operand(min_rank=2)
    *batch, m, n = b.shapes[x]
    return b.step("linalg.diag_part", [ref(x)], shape=tuple(batch) + (min(m, n),))


def _leaky_relu(b):
    x = b.operand(special=(0.0,))
    return b.step("nn.leaky_relu", [ref(x)], {"alpha": [0.1, 0.2, 0.3][int(b.rng.integers(3))]},
                  shape=b.shapes[x])


def _gelu(b):
    x = b.operand()
    return b.step("nn.gelu", [ref(x)], {"approximate": bool(b.rng.random() < 0.5)},
                  shape=b.shapes[x])


def _softmax(fn):
    def entry(b):
        x = b.operand(min_rank=1)
        axis = -1 if b.rng.random() < 0.6 else int(b.rng.integers(0, len(b.shapes[x])))
        return b.step(fn, [ref(x)], {"axis": axis}, shape=b.shapes[x])
    return entry


def _sigmoid_xent(b):
    x = b.operand()
    z = b.fresh(b.shapes[x], "probability")
    return b.step("nn.sigmoid_cross_entropy_with_logits", [], {"labels": ref(z),
                                                               "logits": ref(x)},
                  shape=b.shapes[x])


def _softmax_xent(b):
    x = b.operand(min_rank=1)
    z = b.fresh(b.shapes[x], "simplex")
    return b.step("nn.softmax_cross_entropy_with_logits", [], {"labels": ref(z),
                                                               "logits": ref(x)},
                  shape=b.shapes[x][:-1])


def _sparse_xent(b):
    x = b.operand(min_rank=2)
    if len(b.shapes[x]) != 2:
        x = b.fresh((int(b.rng.integers(1, 4)), int(b.rng.integers(2, 4))))
    n, k = b.shapes[x]
    labels = b.integers(b.rng.integers(0, k, size=n))
    return b.step("nn.sparse_softmax_cross_entropy_with_logits", [],
                  {"labels": labels, "logits": ref(x)}, shape=(n,))


def _window(b, size):
    """A window length that fits `size`, a stride and a padding for convolutions and pools."""
    k = int(b.rng.integers(1, min(3, size) + 1))
    s = int(b.rng.integers(1, 3))
    return k, s


def _out_size(size, k, s, padding):
    return -(-size // s) if padding == "SAME" else (size - k) // s + 1


def _image(b, max_channels=2):
    shape = (int(b.rng.integers(1, 3)), int(b.rng.integers(2, 5)), int(b.rng.integers(2, 5)),
             int(b.rng.integers(1, max_channels + 1)))
    x = b.operand(min_rank=4)
    return x if len(b.shapes[x]) == 4 else b.fresh(shape)


def _conv2d(b):
    x = _image(b)
    n, h, w, c = b.shapes[x]
    (kh, sh), (kw, sw) = _window(b, h), _window(b, w)
    padding = "SAME" if b.rng.random() < 0.5 else "VALID"
    out_c = int(b.rng.integers(1, 3))
    f = b.fresh((kh, kw, c, out_c))
    out = (n, _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding), out_c)
    return b.step("nn.conv2d", [ref(x), ref(f)], {"strides": [sh, sw], "padding": padding},
                  shape=out)


def _depthwise_conv2d(b):
    x = _image(b)
    n, h, w, c = b.shapes[x]
    (kh, sh), (kw, sw) = _window(b, h), _window(b, w)
    stride = min(sh, sw)            # TensorFlow's reference kernel takes equal strides only
    padding = "SAME" if b.rng.random() < 0.5 else "VALID"
    multiplier = int(b.rng.integers(1, 3))
    f = b.fresh((kh, kw, c, multiplier))
    out = (n, _out_size(h, kh, stride, padding), _out_size(w, kw, stride, padding),
           c * multiplier)
    return b.step("nn.depthwise_conv2d", [ref(x), ref(f)],
                  {"strides": [1, stride, stride, 1], "padding": padding}, shape=out)


def _conv2d_transpose(b):
    n, h, w = int(b.rng.integers(1, 3)), int(b.rng.integers(2, 5)), int(b.rng.integers(2, 5))
    (kh, sh), (kw, sw) = _window(b, h), _window(b, w)
    padding = "SAME" if b.rng.random() < 0.5 else "VALID"
    out_c, in_c = int(b.rng.integers(1, 3)), int(b.rng.integers(1, 3))
    g = b.fresh((n, _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding), in_c))
    f = b.fresh((kh, kw, out_c, in_c))
    return b.step("nn.conv2d_transpose", [ref(g), ref(f)],
                  {"output_shape": [n, h, w, out_c], "strides": [sh, sw], "padding": padding},
                  shape=(n, h, w, out_c))


def _pool(fn):
    def entry(b):
        x = _image(b)
        n, h, w, c = b.shapes[x]
        (kh, sh), (kw, sw) = _window(b, h), _window(b, w)
        padding = "SAME" if b.rng.random() < 0.5 else "VALID"
        out = (n, _out_size(h, kh, sh, padding), _out_size(w, kw, sw, padding), c)
        return b.step(fn, [ref(x)], {"ksize": [kh, kw], "strides": [sh, sw],
                                     "padding": padding}, shape=out)
    return entry


ENTRIES = {name: _unary(*spec) for name, spec in UNARY.items()}
ENTRIES.update({name: _binary(*spec) for name, spec in BINARY.items()})
ENTRIES.update({name: _reduce(fn) for name, fn in REDUCE.items()})
ENTRIES.update({
    "SpectralNorm": lambda b: _norm(b, matrix=True),
    "SelectV2": _select, "ClipByValue": _clip, "Cast": _cast, "Reshape": _reshape,
    "BroadcastTo": _broadcast_to, "Transpose": _transpose, "ConcatV2": _concat,
    "SplitV": _split, "Tile": _tile, "StridedSlice": _slice, "GatherV2": _gather,
    "GatherNd": _gather_nd, "Cumsum": _cumsum, "MatMul": _matmul,
    "MatrixInverse": lambda b: _square_input(b, "linalg.inv"),
    "MatrixDeterminant": lambda b: _square_input(b, "linalg.det"),
    "MatrixDiagPart": _diag_part, "LeakyRelu": _leaky_relu, "Gelu": _gelu,
    "Softmax": _softmax("nn.softmax"), "LogSoftmax": _softmax("nn.log_softmax"),
    "SigmoidCrossEntropyWithLogits": _sigmoid_xent,
    "SoftmaxCrossEntropyWithLogits": _softmax_xent,
    "SparseSoftmaxCrossEntropyWithLogits": _sparse_xent,
    "Conv2D": _conv2d, "Conv2DBackpropInput": _conv2d_transpose,
    "DepthwiseConv2dNative": _depthwise_conv2d,
    "MaxPool": _pool("nn.max_pool2d"), "AvgPool": _pool("nn.avg_pool2d"),
    "Einsum": _einsum, "MatrixSolve": _solve, "ScatterNd": _scatter_nd,
})
ENTRIES.update(MORE)    # scans, decompositions, segments, image transforms: ops_more.py
# Vector norms are composite ops (abs, pow, reductions): an entry of their own all the same.
EXTRA = {"VectorNorm": lambda b: _norm(b, matrix=False)}
