"""Every differentiable op in the registry, against central finite differences in float64.

The table `SPECS` names, for each op, how to call it (public function, input shapes with
broadcasting, input domains, attributes). `test_every_differentiable_op_has_a_spec` fails as
soon as an op with VJPs is registered without a spec, so a new op brings its own test.
Each spec is checked for: first derivatives (tapeviz vs finite differences, float64), second
derivatives (Hessian-vector products through nested tapes vs finite differences of the
gradient), float32 gradients staying float32; a sample is checked for Hessian symmetry and
nested tapes vs `jacobian` of `gradient`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest

import tapeviz as tv
from tapeviz import image_transform
from tapeviz.engine.op import REGISTRY, apply


# --- input domains ------------------------------------------------------------------------------
def _real(rng, shape):
    return rng.normal(size=shape)


def _positive(rng, shape):
    return rng.uniform(0.5, 2.0, size=shape)


def _unit(rng, shape):
    return rng.uniform(-0.8, 0.8, size=shape)


def _above_one(rng, shape):
    return rng.uniform(1.2, 3.0, size=shape)


def _open_unit(rng, shape):
    return rng.uniform(0.1, 0.9, size=shape)


def _nonzero(rng, shape):
    """Away from 0 (kinks of relu, abs, ...)."""
    return rng.uniform(0.3, 2.0, size=shape) * rng.choice([-1.0, 1.0], size=shape)


def _distinct(rng, shape):
    """No ties and no two values closer than 0.1 (max, min, sorting kinks)."""
    n = int(np.prod(shape)) if shape else 1
    return (rng.permutation(n) * 0.37 - n * 0.15).reshape(shape) + rng.uniform(-0.05, 0.05,
                                                                               shape)


def _simplex(rng, shape):
    """Rows on the probability simplex (labels of softmax cross-entropy)."""
    e = rng.uniform(0.1, 1.0, size=shape)
    return e / e.sum(axis=-1, keepdims=True)


def _well_conditioned(rng, shape):
    n = shape[-1]
    return rng.normal(size=shape) * 0.3 + np.eye(n) * 2.0


def _mod_safe(rng, shape):
    """x in (0.2, 0.8) + k: away from the jumps of floor(x / y) for y = 1."""
    return rng.uniform(0.2, 0.8, size=shape) + rng.integers(-2, 3, size=shape)


def _clip_middle(rng, shape):
    return rng.uniform(-2.0, 2.0, size=shape)


def _int_labels(n_classes):
    def make(rng, shape):
        return rng.integers(0, n_classes, size=shape)
    make.integer = True
    return make


def _indices(n, dims=1):
    def make(rng, shape):
        return rng.integers(0, n, size=shape)
    make.integer = True
    return make


@dataclass
class Spec:
    op: str                              # registry name covered
    fn: Callable                         # fn(*tensors) -> tensor or list of tensors
    inputs: list                         # [(shape, domain)]
    second_order: bool = True            # Hessian-vector product check
    rtol: float = 1e-5
    note: str = ""
    covers: tuple = field(default_factory=tuple)   # more registry names this spec exercises
    none_inputs: tuple = ()              # float inputs whose gradient is None (a condition)
    hvp_inputs: tuple | None = None      # inputs moved in the Hessian check (default: all)
    eps: float = 1e-6                    # finite-difference step

    @property
    def id(self) -> str:
        return self.op + (f"[{self.note}]" if self.note else "")


def _sign_free_svd(a, **kwargs):
    s, u, v = tv.linalg.svd(a, **kwargs)
    return [s, u * u, v * v]


def _sign_free_eigh(a):
    e, v = tv.linalg.eigh(a)
    return [e, v * v]


def _direct(name, **attrs):
    """Call a registered op by name (internal ops: gradient kernels, unbroadcast)."""
    return lambda *xs: apply(REGISTRY[name], tuple(xs), attrs)


nn = tv.nn
S = Spec
BIN = [((3, 1, 4), _real), ((2, 4), _real)]          # broadcasting binary shapes
SPECS = [
    # arithmetic
    S("AddV2", tv.add, BIN),
    S("Sub", tv.subtract, BIN),
    S("Mul", tv.multiply, BIN),
    S("RealDiv", tv.divide, [((3, 1, 4), _real), ((2, 4), _nonzero)]),
    S("FloorMod", tv.math.floormod, [((2, 3), _mod_safe), ((2, 3), lambda r, s: np.ones(s))],
      note="jumps avoided"),
    S("Pow", tv.pow, [((2, 3), _positive), ((3,), _real)]),
    S("Maximum", tv.maximum, [((2, 3), _distinct), ((2, 3), _distinct)], second_order=True),
    S("Minimum", tv.minimum, [((2, 3), _distinct), ((3,), _distinct)]),
    S("SquaredDifference", tv.math.squared_difference, BIN),
    S("DivNoNan", tv.math.divide_no_nan, [((2, 3), _real), ((2, 3), _nonzero)]),
    # unary
    S("Neg", tv.negative, [((2, 3), _real)]),
    S("Abs", tv.abs, [((2, 3), _nonzero)]),
    S("Sign", tv.sign, [((2, 3), _nonzero)]),
    S("Square", tv.square, [((2, 3), _real)]),
    S("Sqrt", tv.sqrt, [((2, 3), _positive)]),
    S("Rsqrt", tv.math.rsqrt, [((2, 3), _positive)]),
    S("Exp", tv.exp, [((2, 3), _real)]),
    S("Expm1", tv.math.expm1, [((2, 3), _real)]),
    S("Log", tv.math.log, [((2, 3), _positive)]),
    S("Log1p", tv.math.log1p, [((2, 3), _positive)]),
    S("Reciprocal", tv.math.reciprocal, [((2, 3), _nonzero)]),
    S("SqrtGrad", _direct("SqrtGrad"), [((2, 3), _positive), ((2, 3), _real)],
      note="inputs: sqrt's output, the upstream gradient"),
    S("RsqrtGrad", _direct("RsqrtGrad"), [((2, 3), _positive), ((2, 3), _real)]),
    S("ReciprocalGrad", _direct("ReciprocalGrad"), [((2, 3), _nonzero), ((2, 3), _real)]),
    S("Sin", tv.sin, [((2, 3), _real)]),
    S("Cos", tv.cos, [((2, 3), _real)]),
    S("Tan", tv.tan, [((2, 3), _unit)]),
    S("Tanh", tv.tanh, [((2, 3), _real)]),
    S("Sinh", tv.sinh, [((2, 3), _real)]),
    S("Cosh", tv.cosh, [((2, 3), _real)]),
    S("Asin", tv.asin, [((2, 3), _unit)]),
    S("Acos", tv.acos, [((2, 3), _unit)]),
    S("Atan", tv.atan, [((2, 3), _real)]),
    S("Atan2", tv.atan2, [((3, 1, 4), _nonzero), ((2, 4), _real)]),
    S("Asinh", tv.asinh, [((2, 3), _real)]),
    S("Acosh", tv.acosh, [((2, 3), _above_one)]),
    S("Atanh", tv.atanh, [((2, 3), _unit)]),
    S("Lgamma", tv.math.lgamma, [((2, 3), _positive)]),
    S("Digamma", tv.math.digamma, [((2, 3), _positive)]),
    S("Polygamma", _direct("Polygamma", n=1), [((2, 3), _positive)], note="n = 1"),
    S("Erfc", tv.math.erfc, [((2, 3), _real)]),
    S("Erfinv", tv.math.erfinv, [((2, 3), _unit)]),
    S("Ndtri", tv.math.ndtri, [((2, 3), _open_unit)]),
    S("Sigmoid", tv.sigmoid, [((2, 3), _real)]),
    # selection, casts
    S("SelectV2", lambda c, a, b: tv.where(c > 0, a, b),
      [((2, 3), _nonzero), ((2, 3), _real), ((3,), _real)], none_inputs=(0,)),
    S("ClipByValue", tv.clip_by_value,
      [((3, 4), _clip_middle), ((), lambda r, s: np.array(-0.5)),
       ((), lambda r, s: np.array(0.7))]),
    S("Cast", lambda x: tv.cast(tv.cast(x, tv.float32), tv.float64) * 1.0,
      [((2, 3), _real)], rtol=1e-3, eps=1e-2, note="float round trip"),
    # shapes
    S("Reshape", lambda x: tv.reshape(x, (3, 2)), [((2, 3), _real)]),
    S("BroadcastTo", lambda x: tv.broadcast_to(x, (4, 2, 3)), [((2, 1), _real)]),
    S("SumToShape", _direct("SumToShape", shape=(2, 1)), [((3, 2, 4), _real)]),
    S("Transpose", lambda x: tv.transpose(x, [2, 0, 1]), [((2, 3, 4), _real)]),
    S("Einsum", lambda a, b: tv.einsum("bij,bjk->bik", a, b), [((2, 3, 4), _real),
                                                               ((2, 4, 2), _real)]),
    S("Einsum", lambda a, b: tv.einsum("...ij,jk->...k", a, b), [((2, 3, 4), _real),
                                                               ((4, 2), _real)],
      note="ellipsis, a letter summed in one operand only"),
    S("Einsum/1", lambda a: tv.einsum("ii->i", a), [((3, 3), _real)], note="diagonal"),
    S("Einsum/1", lambda a: tv.einsum("ii", a), [((3, 3), _real)], note="trace"),
    S("Einsum/3", lambda u, a, w: tv.einsum("i,ij,j->", u, a, w),
      [((3,), _real), ((3, 4), _real), ((4,), _real)], note="bilinear form"),
    S("ConcatV2", lambda a, b: tv.concat([a, b], axis=1), [((2, 3), _real), ((2, 2), _real)],
      covers=("ConcatV2/3",)),
    S("ConcatV2/3", lambda a, b, c: tv.concat([a, b, c], axis=0),
      [((1, 3), _real), ((2, 3), _real), ((1, 3), _real)], note="three inputs"),
    S("SplitV", lambda x: tv.split(x, [1, 3], axis=1), [((2, 4), _real)]),
    S("Tile", lambda x: tv.tile(x, [2, 3]), [((2, 2), _real)]),
    S("StridedSlice", lambda x: x[1:, ::2], [((3, 4), _real)]),
    S("ScatterGrad", lambda g, x: _direct("ScatterGrad", key=(slice(1, None), slice(None, None, 2)),
                                           k=0)(g, x),
      [((2, 2), _real), ((3, 4), _real)], none_inputs=(1,)),
    S("GatherV2", lambda p, i: tv.gather(p, i, axis=1), [((2, 4), _real), ((3,), _indices(4))]),
    S("GatherV2", lambda p, i: tv.gather(p, i, axis=2, batch_dims=1),
      [((2, 3, 4), _real), ((2, 5), _indices(4))], note="batch_dims, axis after a middle axis"),
    S("GatherNd", tv.gather_nd, [((3, 4), _real), ((5, 2), _indices(3))]),
    S("ScatterNd", lambda i, u: tv.scatter_nd(i, u, [4, 3]),
      [((5, 1), _indices(4)), ((5, 3), _real)], note="rows, duplicates add"),
    S("ScatterNd", lambda i, u: tv.scatter_nd(i, u, [3, 2]),
      [((4, 2), _indices(2)), ((4,), _real)], note="elements"),
    # reductions
    S("Sum", lambda x: tv.reduce_sum(x, axis=1, keepdims=True), [((2, 3, 2), _real)]),
    S("Mean", lambda x: tv.reduce_mean(x, axis=[0, 2]), [((2, 3, 2), _real)]),
    S("Max", lambda x: tv.reduce_max(x, axis=1), [((2, 4), _distinct)]),
    S("Min", lambda x: tv.reduce_min(x), [((2, 4), _distinct)]),
    S("Prod", lambda x: tv.reduce_prod(x, axis=0), [((3, 2), _nonzero)],
      covers=("ProdOthers",)),
    S("LogSumExp", lambda x: tv.reduce_logsumexp(x, axis=-1), [((2, 4), _real)]),
    S("SpectralNorm", lambda x: tv.norm(x, ord=2, axis=[1, 2]), [((2, 3, 4), _real)]),
    S("SpectralNorm", lambda x: tv.norm(x, ord=2, axis=[1, 0], keepdims=True),
      [((4, 3), _real)], note="axes reversed, keepdims"),
    # its VJP is a constant: exact to first order (second order of the spectral norm)
    S("TopSingularOuter", _direct("TopSingularOuter", axes=(2, 0)), [((3, 2, 4), _real)],
      second_order=False),
    S("Cumsum", lambda x: tv.cumsum(x, axis=1, reverse=True), [((2, 4), _real)]),
    S("Cumprod", lambda x: tv.math.cumprod(x, axis=1, exclusive=True, reverse=True),
      [((2, 4), _nonzero)]),
    S("Cumprod", lambda x: tv.math.cumprod(x, axis=0), [((3, 2), _nonzero)]),
    # linear algebra
    S("MatMul", tv.matmul, [((2, 3), _real), ((3, 4), _real)]),
    S("MatMul", lambda a, b: tv.matmul(a, b, transpose_a=True, transpose_b=True),
      [((3, 2), _real), ((4, 3), _real)], note="transposed"),
    S("MatMul", tv.matmul, [((2, 2, 3), _real), ((3, 2), _real)], note="batched"),
    S("MatrixInverse", tv.linalg.inv, [((3, 3), _well_conditioned)]),
    S("MatrixSolve", tv.linalg.solve, [((3, 3), _well_conditioned), ((3, 2), _real)]),
    S("MatrixSolve", lambda a, b: tv.linalg.solve(a, b, adjoint=True),
      [((2, 3, 3), _well_conditioned), ((2, 3, 1), _real)], note="adjoint, batched"),
    S("MatrixDeterminant", tv.linalg.det, [((2, 3, 3), _well_conditioned)]),
    # segment reductions (ids fixed; -1 drops a row from the unsorted forms)
    S("SegmentSum", lambda x: tv.math.segment_sum(x, [0, 0, 2, 3]), [((4, 3), _real)]),
    S("UnsortedSegmentSum", lambda x: tv.math.unsorted_segment_sum(
        x, [[2, 0], [-1, 2]], 4), [((2, 2, 3), _real)], note="rank-2 ids, a dropped row"),
    S("SegmentMax", lambda x: tv.math.segment_max(x, [0, 0, 1, 3, 3]), [((5, 2), _distinct)]),
    S("SegmentMin", lambda x: tv.math.segment_min(x, [0, 0, 1, 3, 3]), [((5, 2), _distinct)]),
    S("UnsortedSegmentMax", lambda x: tv.math.unsorted_segment_max(x, [1, 0, 1, -1, 0], 2),
      [((5, 2), _distinct)]),
    S("UnsortedSegmentMin", lambda x: tv.math.unsorted_segment_min(x, [1, 0, 1, -1, 0], 2),
      [((5, 2), _distinct)]),
    # decompositions: vectors enter only squared (their signs are arbitrary, see decompositions)
    S("Svd", lambda a: _sign_free_svd(a), [((3, 5), _real)], note="wide"),
    S("Svd", lambda a: _sign_free_svd(a), [((4, 2), _real)], note="tall"),
    S("Svd", lambda a: _sign_free_svd(a), [((2, 3, 3), _real)], note="square, batched"),
    S("Svd", lambda a: _sign_free_svd(a, full_matrices=True), [((3, 2), _real)],
      note="full_matrices, one more row"),
    S("Svd", lambda a: tv.linalg.svd(a, compute_uv=False), [((3, 4), _real)],
      note="values only"),
    S("SelfAdjointEigV2", lambda a: _sign_free_eigh(a), [((2, 3, 3), _real)],
      note="values and squared vectors"),
    S("SelfAdjointEigV2", tv.linalg.eigvalsh, [((4, 4), _real)], note="values only"),
    S("MatrixDiagPart", tv.linalg.diag_part, [((3, 3), _real)]),
    S("MatrixDiagPart", tv.linalg.diag_part, [((2, 3, 4), _real)], note="batched, non-square"),
    S("MatrixSetDiagGrad", lambda d: _direct("MatrixSetDiagGrad", shape=(3, 4))(d),
      [((2, 3), _real)]),
    S("Identity", tv.identity, [((2, 3), _real)]),
    # nn
    S("Relu", nn.relu, [((3, 4), _nonzero)]),
    S("ReluGrad", _direct("ReluGrad"), [((3, 4), _real), ((3, 4), _nonzero)]),
    S("Relu6", nn.relu6, [((3, 4), lambda r, s: r.uniform(0.2, 1.8, s) * r.choice([-1, 3.5], s))]),
    S("Relu6Grad", _direct("Relu6Grad"),
      [((3, 4), _real), ((3, 4), lambda r, s: r.uniform(0.2, 1.8, s) * r.choice([-1, 3.5], s))]),
    S("LeakyRelu", lambda x: nn.leaky_relu(x, alpha=0.1), [((3, 4), _nonzero)]),
    S("LeakyReluGrad", _direct("LeakyReluGrad", alpha=0.1), [((3, 4), _real), ((3, 4), _nonzero)]),
    S("Elu", nn.elu, [((3, 4), _nonzero)]),
    S("EluGrad", _direct("EluGrad"), [((3, 4), _real), ((3, 4), lambda r, s: np.expm1(
        _nonzero(r, s)))], note="second input: elu's output"),
    S("Erf", tv.nn._erf, [((3, 4), _real)]),
    S("Gelu", nn.gelu, [((3, 4), _real)]),
    S("Gelu", lambda x: nn.gelu(x, approximate=True), [((3, 4), _real)], note="approximate"),
    S("Softplus", nn.softplus, [((3, 4), _real)]),
    S("SoftplusGrad", _direct("SoftplusGrad"), [((3, 4), _real), ((3, 4), _real)]),
    S("LogSigmoid", tv.math.log_sigmoid, [((3, 4), _real)]),
    S("Softsign", nn.softsign, [((3, 4), _nonzero)]),
    S("Softmax", nn.softmax, [((3, 4), _real)]),
    S("Softmax", lambda x: nn.softmax(x, axis=0), [((3, 4), _real)], note="axis 0"),
    S("SoftmaxGrad", _direct("SoftmaxGrad", axis=-1), [((3, 4), _real), ((3, 4), _simplex)]),
    S("LogSoftmax", nn.log_softmax, [((3, 4), _real)]),
    S("LogSoftmax", lambda x: nn.log_softmax(x, axis=1), [((2, 3, 4), _real)], note="axis 1"),
    S("LogSoftmaxGrad", _direct("LogSoftmaxGrad", axis=-1), [((3, 4), _real), ((3, 4), _real)]),
    S("L2Loss", nn.l2_loss, [((3, 4), _real)]),
    S("SigmoidCrossEntropyWithLogits",
      lambda z, x: nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
      [((3, 4), lambda r, s: r.uniform(0, 1, s)), ((3, 4), _real)]),
    S("SoftmaxCrossEntropyWithLogits",
      lambda z, x: nn.softmax_cross_entropy_with_logits(labels=z, logits=x),
      [((3, 4), _simplex), ((3, 4), _real)], hvp_inputs=(1,),
      note="labels on the simplex, as TF assumes"),
    S("SoftmaxCrossEntropyWithLogits",
      lambda z, x: nn.softmax_cross_entropy_with_logits(labels=tv.transpose(z), logits=x,
                                                        axis=0),
      [((4, 3), _simplex), ((3, 4), _real)], hvp_inputs=(1,), note="axis 0"),
    S("SoftmaxCrossEntropyGrad",
      lambda g, x, z: _direct("SoftmaxCrossEntropyGrad", axis=-1)(g, x, z),
      [((3,), _real), ((3, 4), _real), ((3, 4), _simplex)]),
    S("SparseSoftmaxCrossEntropyWithLogits",
      lambda x, z: nn.sparse_softmax_cross_entropy_with_logits(labels=z, logits=x),
      [((3, 4), _real), ((3,), _int_labels(4))]),
    S("SparseSoftmaxCrossEntropyGrad", _direct("SparseSoftmaxCrossEntropyGrad"),
      [((3,), _real), ((3, 4), _real), ((3,), _int_labels(4))]),
    # convolutions and pooling (NHWC)
    S("Conv2D", lambda x, w: nn.conv2d(x, w, [1, 2], "SAME"),
      [((2, 4, 5, 2), _real), ((2, 3, 2, 3), _real)]),
    S("Conv2D", lambda x, w: nn.conv2d(x, w, 1, [[0, 0], [1, 0], [0, 2], [0, 0]], dilations=2),
      [((1, 5, 4, 2), _real), ((2, 2, 2, 2), _real)], note="dilated, explicit padding"),
    S("Conv2DBackpropInput",
      lambda g, w: nn.conv2d_transpose(g, w, [2, 5, 4, 2], 2, "SAME"),
      [((2, 3, 2, 3), _real), ((3, 2, 2, 3), _real)]),
    S("Conv2DBackpropFilter",
      _direct("Conv2DBackpropFilter", ksize=(2, 2), strides=(1, 2), pads=(1, 0, 0, 1),
              dilations=(1, 1)),
      [((1, 4, 4, 2), _real), ((1, 4, 2, 3), _real)]),
    S("DepthwiseConv2dNative", lambda x, w: nn.depthwise_conv2d(x, w, [1, 2, 2, 1], "SAME"),
      [((2, 5, 4, 2), _real), ((3, 2, 2, 3), _real)]),
    S("DepthwiseConv2dNative",
      lambda x, w: nn.depthwise_conv2d(x, w, [1, 1, 1, 1], [[0, 0], [1, 0], [0, 2], [0, 0]],
                                       dilations=[2, 1]),
      [((1, 5, 4, 2), _real), ((2, 2, 2, 2), _real)], note="dilated, explicit padding"),
    S("DepthwiseConv2dNative",
      lambda x, w, p: nn.separable_conv2d(x, w, p, [1, 2, 1, 1], "VALID"),
      [((1, 5, 4, 2), _real), ((2, 2, 2, 2), _real), ((1, 1, 4, 3), _real)],
      note="separable", covers=("Conv2D",)),
    S("DepthwiseConv2dNativeBackpropInput",
      _direct("DepthwiseConv2dNativeBackpropInput", input_hw=(5, 4), strides=(2, 1),
              pads=(1, 0, 0, 1), dilations=(1, 1)),
      [((2, 3, 4, 6), _real), ((2, 2, 2, 3), _real)]),
    S("DepthwiseConv2dNativeBackpropFilter",
      _direct("DepthwiseConv2dNativeBackpropFilter", ksize=(2, 2), strides=(1, 2),
              pads=(1, 0, 0, 1), dilations=(1, 1)),
      [((1, 4, 4, 2), _real), ((1, 4, 2, 6), _real)]),
    S("MaxPool", lambda x: nn.max_pool2d(x, 3, 2, "SAME"), [((2, 5, 4, 2), _distinct)]),
    S("MaxPool", lambda x: nn.max_pool2d(x, 2, 1, "VALID"), [((1, 3, 4, 2), _distinct)],
      note="overlapping windows"),
    S("MaxPoolGrad",
      lambda x, g: _direct("MaxPoolGrad", ksize=(2, 2), strides=(1, 1), pads=(0, 1, 0, 1))(
          x, nn.max_pool2d(x, 2, 1, "SAME"), g),
      [((1, 3, 3, 2), _distinct), ((1, 3, 3, 2), _real)],
      note="y = max_pool2d(x): x moves only the chosen elements"),
    S("MaxPoolGradGrad",
      lambda x, gg: _direct("MaxPoolGradGrad", ksize=(2, 2), strides=(2, 2), pads=(0, 0, 0, 0))(
          x, nn.max_pool2d(x, 2, 2, "VALID"), gg),
      [((1, 4, 4, 2), _distinct), ((1, 4, 4, 2), _real)]),
    S("AvgPool", lambda x: nn.avg_pool2d(x, [3, 2], 2, "SAME"), [((2, 5, 4, 2), _real)]),
    S("AvgPoolGrad",
      _direct("AvgPoolGrad", input_hw=(5, 4), ksize=(3, 2), strides=(2, 2), pads=(1, 1, 0, 0)),
      [((1, 3, 2, 2), _real)]),
    S("ImageProjectiveTransformV3",
      lambda x: image_transform.transform(x, [1, 0, -2, 0, 1, 1, 0, 0], fill_mode="constant",
                                          interpolation="nearest"),
      [((2, 4, 5, 3), _real)],
      note="a whole-pixel shift: TensorFlow's gradient, the inverse shift, is then exact"),
]

# Registered ops with VJPs that need no spec of their own, and why.
EXEMPT = {
    "ResizeArea": "TensorFlow registers no gradient for it: its VJP raises TensorFlow's "
                  "LookupError (tests/golden/programs/image_resize.py checks the error)",
    "DenseBincount": "TensorFlow registers no gradient for it: its VJP of the weights raises "
                     "LookupError (tests/golden/programs/math_counts_and_sums.py checks it)",
}


def _is_int_domain(domain) -> bool:
    return getattr(domain, "integer", False)


def _make_inputs(spec, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    out = []
    for shape, domain in spec.inputs:
        value = np.asarray(domain(rng, shape))
        if _is_int_domain(domain):
            out.append(value.astype(np.int32))
        else:
            out.append(value.astype(dtype))
    return out


def _objective(spec, projections):
    """Scalar L(x) = Σ fn(x) · R with a fixed random R per output (a random projection)."""
    def f(*tensors):
        y = spec.fn(*tensors)
        ys = y if isinstance(y, (list, tuple)) else [y]
        total = None
        for out, r in zip(ys, projections):
            term = tv.reduce_sum(out * tv.constant(r.astype(out._value.dtype)))
            total = term if total is None else total + term
        return total
    return f


def _projections(spec, arrays, seed=1):
    ys = spec.fn(*[tv.constant(a) for a in arrays])
    ys = ys if isinstance(ys, (list, tuple)) else [ys]
    rng = np.random.default_rng(seed)
    return [rng.normal(size=y.shape) for y in ys]


def _value(f, arrays):
    return float(np.asarray(f(*[tv.constant(a) for a in arrays])._value))


def _tape_grads(f, arrays):
    ts = [tv.constant(a) for a in arrays]
    with tv.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        out = f(*ts)
    return tape.gradient(out, ts)


def _fd_grad(f, arrays, i, eps=1e-6):
    x = arrays[i]
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus = [a.copy() for a in arrays]
        minus = [a.copy() for a in arrays]
        plus[i][idx] += eps
        minus[i][idx] -= eps
        g[idx] = (_value(f, plus) - _value(f, minus)) / (2 * eps)
    return g


def _close(a, b, rtol):
    scale = max(1.0, float(np.max(np.abs(b))) if np.size(b) else 1.0)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * scale)


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_first_derivatives_match_finite_differences(spec):
    arrays = _make_inputs(spec)
    f = _objective(spec, _projections(spec, arrays))
    grads = _tape_grads(f, arrays)
    for i, (a, g) in enumerate(zip(arrays, grads)):
        if a.dtype.kind != "f" or i in spec.none_inputs:
            assert g is None, f"{spec.op}: input {i} must get a None gradient"
            continue
        assert g is not None, f"{spec.op}: input {i} got no gradient"
        assert g.dtype == tv.float64 and tuple(g.shape) == a.shape
        _close(g.numpy(), _fd_grad(f, arrays, i, spec.eps), spec.rtol)


@pytest.mark.parametrize("spec", [s for s in SPECS if s.second_order],
                         ids=[s.id for s in SPECS if s.second_order])
def test_hessian_vector_products_match_finite_differences(spec):
    """Nested tapes: d/dx <∇L(x), v> against (∇L(x + h·v) - ∇L(x - h·v)) / 2h."""
    arrays = _make_inputs(spec, seed=2)
    f = _objective(spec, _projections(spec, arrays, seed=3))
    rng = np.random.default_rng(4)
    # off the simplex TF's softmax cross-entropy "gradient" (softmax - labels) is not a true
    # gradient, so its Jacobian is not symmetric: such specs move only some inputs
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f" and i not in
              spec.none_inputs and (spec.hvp_inputs is None or i in spec.hvp_inputs)]
    vs = {i: rng.normal(size=arrays[i].shape) for i in floats}
    ts = [tv.constant(a) for a in arrays]
    with tv.GradientTape(persistent=True) as outer:
        for i in floats:
            outer.watch(ts[i])
        with tv.GradientTape() as inner:
            for i in floats:
                inner.watch(ts[i])
            out = f(*ts)
        grads = inner.gradient(out, [ts[i] for i in floats])
        dot = None
        for i, g in zip(floats, grads):
            if g is None:
                continue
            term = tv.reduce_sum(g * tv.constant(vs[i]))
            dot = term if dot is None else dot + term
    assert dot is not None, f"{spec.op}: no input got a first derivative"
    hvp = outer.gradient(dot, [ts[i] for i in floats], unconnected_gradients="zero")
    h = 1e-5

    def shifted(sign):
        moved = [a.copy() for a in arrays]
        for i in floats:
            moved[i] = moved[i] + sign * h * vs[i]
        gs = _tape_grads(f, moved)
        return [np.zeros(arrays[i].shape) if gs[i] is None else gs[i].numpy() for i in floats]

    plus, minus = shifted(1), shifted(-1)
    for k, i in enumerate(floats):
        expected = (plus[k] - minus[k]) / (2 * h)
        _close(hvp[k].numpy(), expected, max(spec.rtol, 1e-4))


# Rank-extending broadcasts (x (2,) * y (3, 2)) under `jacobian` exercise backprop's batched
# unbroadcast, which must sum the axes broadcasting added, not the Jacobian batch axis.
def _batched_params(specs):
    return [pytest.param(s, id=s.id) for s in specs]


@pytest.mark.parametrize("spec", _batched_params(SPECS))
def test_batched_vjps_jacobian_equals_rows_of_gradients(spec):
    """`jacobian` pushes a batch of upstream gradients (extra leading axes) through every
    VJP at once: it must equal the row-by-row gradients."""
    arrays = _make_inputs(spec, seed=5)
    ts = [tv.constant(a) for a in arrays]
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f" and i not in
              spec.none_inputs]
    with tv.GradientTape(persistent=True) as tape:
        for i in floats:
            tape.watch(ts[i])
        y = spec.fn(*ts)
        ys = y if isinstance(y, (list, tuple)) else [y]
        flat = tv.concat([tv.reshape(o, [-1]) for o in ys], axis=0)
        rows = [flat[k] for k in range(int(flat.shape[0]))]
    jac = tape.jacobian(flat, [ts[i] for i in floats], unconnected_gradients="zero")
    for j, i in enumerate(floats):
        expected = np.stack([
            np.zeros(arrays[i].shape) if g is None else g.numpy()
            for g in (tape.gradient(r, ts[i]) for r in rows)])
        np.testing.assert_allclose(jac[j].numpy().reshape(expected.shape), expected,
                                   rtol=1e-10, atol=1e-12, err_msg=spec.id)


@pytest.mark.parametrize("spec", _batched_params([s for s in SPECS if s.second_order]))
def test_hessian_by_jacobian_of_gradient_matches_finite_differences(spec):
    """Second derivatives through batched VJPs: `jacobian` of the gradient (one block per
    input) against finite differences of the gradient."""
    arrays = _make_inputs(spec, seed=6)
    f = _objective(spec, _projections(spec, arrays, seed=7))
    floats = [i for i, a in enumerate(arrays) if a.dtype.kind == "f" and i not in
              spec.none_inputs and (spec.hvp_inputs is None or i in spec.hvp_inputs)]
    h = 1e-5
    for i in floats:
        ts = [tv.constant(a) for a in arrays]
        with tv.GradientTape() as outer:
            outer.watch(ts[i])
            with tv.GradientTape() as inner:
                inner.watch(ts[i])
                out = f(*ts)
            g = inner.gradient(out, ts[i])
        assert g is not None, f"{spec.op}: input {i} got no first derivative"
        hess = outer.jacobian(g, ts[i], unconnected_gradients="zero").numpy()
        n = arrays[i].size
        hess = hess.reshape(n, n)
        fd = np.zeros((n, n))
        for k, idx in enumerate(np.ndindex(arrays[i].shape)):
            plus = [a.copy() for a in arrays]
            minus = [a.copy() for a in arrays]
            plus[i][idx] += h
            minus[i][idx] -= h
            gp, gm = _tape_grads(f, plus)[i], _tape_grads(f, minus)[i]
            fd[:, k] = ((gp.numpy() if gp is not None else 0) -
                        (gm.numpy() if gm is not None else 0)).reshape(-1) / (2 * h)
        _close(hess, fd, max(spec.rtol, 1e-4))


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_float32_gradients_stay_float32(spec):
    arrays = _make_inputs(spec, dtype=np.float32)
    projections = [p.astype(np.float32) for p in _projections(spec, arrays)]
    f = _objective(spec, projections)
    grads = _tape_grads(f, arrays)
    for i, (a, g) in enumerate(zip(arrays, grads)):
        if a.dtype.kind == "f" and i not in spec.none_inputs:
            assert g is not None and g.dtype == tv.float32, spec.id


def _vjp_dtypes_off(monkeypatch, f, arrays):
    """The (VJP result dtype, input dtype) pairs that differ, seen where the backward pass fits
    each VJP's result to its input (`backprop._fit` casts it back: a final dtype check alone
    cannot see an upcast, which costs a float64 pass and twice the memory)."""
    from tapeviz.engine import backprop
    seen = []
    fit = backprop._fit

    def spy(gx, x, batch, g):
        if gx._value.dtype != x._value.dtype:
            seen.append((gx._value.dtype.name, x._value.dtype.name))
        return fit(gx, x, batch, g)
    monkeypatch.setattr(backprop, "_fit", spy)
    _tape_grads(f, arrays)
    return seen


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_every_vjp_keeps_float32(spec, monkeypatch):
    arrays = _make_inputs(spec, dtype=np.float32)
    projections = [p.astype(np.float32) for p in _projections(spec, arrays)]
    assert _vjp_dtypes_off(monkeypatch, _objective(spec, projections), arrays) == [], spec.id


def test_an_upcasting_vjp_is_seen(monkeypatch):
    from tapeviz.engine.op import Op
    # an Op made directly, not registered: the registry's completeness test stays as it was
    op = Op("TestUpcastingSquare", lambda x: x * x,
            [lambda g, y, x: tv.constant(2.0 * x.numpy().astype(np.float64) * g.numpy())],
            "y = x²", ["∂x = 2g · x"], 1, True, None)
    x = np.array([1.5, -2.0], np.float32)
    seen = _vjp_dtypes_off(monkeypatch, lambda t: tv.reduce_sum(apply(op, (t,))), [x])
    assert seen == [("float64", "float32")]


def test_every_differentiable_op_has_a_spec():
    covered = {s.op for s in SPECS} | {c for s in SPECS for c in s.covers}
    differentiable = {name for name, op in REGISTRY.items() if op.vjps is not None}
    # ConcatV2/<n> ops are made per arity on first use: the 2- and 3-input specs stand for all
    # (so are Einsum/<n> ops: the 1-, 2- and 3-operand specs stand for all)
    differentiable = {n for n in differentiable if not (n.startswith(("ConcatV2/", "Einsum/"))
                                                        and n not in covered)}
    missing = sorted(differentiable - covered - set(EXEMPT))
    assert not missing, f"ops with VJPs but no gradient spec in SPECS: {missing}"


# --- random broadcasting shapes ---------------------------------------------------------------
def _broadcast_pair(rng):
    """Two random shapes that broadcast together (ranks 0-4, size-1 and missing axes)."""
    out = tuple(int(d) for d in rng.integers(1, 4, size=rng.integers(1, 5)))
    def shrink(shape):
        keep = rng.integers(0, len(shape) + 1)
        tail = shape[len(shape) - keep:]
        return tuple(1 if rng.random() < 0.3 else d for d in tail)
    a, b = shrink(out), shrink(out)
    return (out, b) if rng.random() < 0.5 else (a, out)


def _grid(offset):
    """Points of a 0.37 grid shifted by `offset`, jittered: two grids with offsets 0 and 0.185
    never come closer than 0.085 (no ties between the operands of maximum/minimum)."""
    def make(rng, shape):
        return rng.integers(-6, 7, size=shape) * 0.37 + offset + rng.uniform(-0.05, 0.05, shape)
    return make


BINARY = {"AddV2": (tv.add, _real, _real), "Sub": (tv.subtract, _real, _real),
          "Mul": (tv.multiply, _real, _real), "RealDiv": (tv.divide, _real, _nonzero),
          "Pow": (tv.pow, _positive, _real), "Maximum": (tv.maximum, _grid(0), _grid(0.185)),
          "Minimum": (tv.minimum, _grid(0.185), _grid(0)),
          "SquaredDifference": (tv.math.squared_difference, _real, _real),
          "DivNoNan": (tv.math.divide_no_nan, _real, _nonzero)}
RANDOM_BROADCAST = [Spec(name, fn, list(zip(_broadcast_pair(np.random.default_rng(seed)),
                                            (da, db))), note=f"random shapes {seed}")
                    for k, (name, (fn, da, db)) in enumerate(BINARY.items())
                    for seed in (3 * k + 100, 3 * k + 101, 3 * k + 102)]


@pytest.mark.parametrize("spec", RANDOM_BROADCAST, ids=[s.id for s in RANDOM_BROADCAST])
def test_binary_ops_with_random_broadcast_shapes(spec):
    test_first_derivatives_match_finite_differences(spec)
    test_batched_vjps_jacobian_equals_rows_of_gradients(spec)


# --- integer inputs, higher order ---------------------------------------------------------------
def test_integer_inputs_give_none_gradients():
    i = tv.constant([1, 2, 3])
    x = tv.constant([1.0, 2.0, 3.0])
    with tv.GradientTape(persistent=True) as tape:
        tape.watch(i)
        tape.watch(x)
        yi = tv.reduce_sum(i * 2 + i)
        y_through_int = tv.reduce_sum(tv.cast(tv.cast(x, tv.int32), tv.float32))
        y_labels = tv.reduce_sum(nn.sparse_softmax_cross_entropy_with_logits(
            labels=i - 1, logits=tv.stack([x, x, x])))
    assert tape.gradient(yi, i) is None
    assert tape.gradient(y_through_int, x) is None
    assert tape.gradient(y_labels, i) is None
    assert tape.gradient(y_labels, x) is not None


SMOOTH_SAMPLE = [
    ("softmax·log", lambda x: tv.reduce_sum(nn.softmax(x) * tv.math.log(tv.range(1.0, 5.0,
                                                                                  dtype=tv.float64)))),
    ("log_softmax²", lambda x: tv.reduce_sum(tv.square(nn.log_softmax(x)))),
    ("softplus·sin", lambda x: tv.reduce_sum(nn.softplus(x) * tv.sin(x))),
    ("sparse xent", lambda x: tv.reduce_sum(nn.sparse_softmax_cross_entropy_with_logits(
        labels=tv.constant([1]), logits=tv.reshape(x, (1, 4))))),
    ("gelu·tanh", lambda x: tv.reduce_sum(nn.gelu(x) * tv.tanh(x))),
    ("matmul chain", lambda x: tv.reduce_sum(tv.tanh(tv.matmul(tv.reshape(x, (2, 2)),
                                                               tv.reshape(x, (2, 2)))))),
]


@pytest.mark.parametrize("name,f", SMOOTH_SAMPLE, ids=[n for n, _ in SMOOTH_SAMPLE])
def test_hessian_nested_tapes_equal_jacobian_of_gradient_and_is_symmetric(name, f):
    x = tv.constant(np.array([0.3, -0.7, 1.1, 0.2]))
    # nested tapes, one row at a time
    rows = []
    for k in range(4):
        with tv.GradientTape() as outer:
            outer.watch(x)
            with tv.GradientTape() as inner:
                inner.watch(x)
                y = f(x)
            g = inner.gradient(y, x)
            gk = g[k]
        rows.append(outer.gradient(gk, x).numpy())
    nested = np.stack(rows)
    # jacobian of gradient (one vectorized backward pass)
    with tv.GradientTape() as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        g = inner.gradient(y, x)
    jac = outer.jacobian(g, x).numpy()
    np.testing.assert_allclose(nested, jac, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(jac, jac.T, rtol=1e-8, atol=1e-10)
    # and against finite differences of the gradient
    h = 1e-5
    fd = np.stack([(_grad_np(f, x.numpy() + h * e) - _grad_np(f, x.numpy() - h * e)) / (2 * h)
                   for e in np.eye(4)])
    np.testing.assert_allclose(jac, fd, rtol=1e-5, atol=1e-6)


def _grad_np(f, value):
    t = tv.constant(value)
    with tv.GradientTape() as tape:
        tape.watch(t)
        y = f(t)
    return tape.gradient(y, t).numpy()


def test_third_derivative_of_softplus_through_its_gradient_kernels():
    x = tv.constant(np.array([0.4, -1.3]))
    with tv.GradientTape() as t3:
        t3.watch(x)
        with tv.GradientTape() as t2:
            t2.watch(x)
            with tv.GradientTape() as t1:
                t1.watch(x)
                y = tv.reduce_sum(nn.softplus(x))
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    g3 = t3.gradient(g2, x).numpy()
    s = 1 / (1 + np.exp(-x.numpy()))
    np.testing.assert_allclose(g3, s * (1 - s) * (1 - 2 * s), rtol=1e-10)


def test_reduce_prod_second_derivative_beside_an_infinite_factor_is_exact():
    """d/dx_j Σ_k u_k ∂prod/∂x_k = Σ_{k≠j} u_k Π_{i∉{j,k}} x_i: finite at the infinite
    factor itself (TensorFlow's inf/inf gives NaN there), infinite at the others."""
    x_np = np.array([np.inf, -0.16, -0.6])
    u = np.array([0.7, 0.2, 0.1])
    x = tv.constant(x_np)
    with tv.GradientTape() as outer:
        outer.watch(x)
        with tv.GradientTape() as inner:
            inner.watch(x)
            p = tv.reduce_prod(x)
        d = tv.reduce_sum(inner.gradient(p, x) * u)
    got = outer.gradient(d, x).numpy()
    with np.errstate(invalid="ignore"):
        expected = [sum(u[k] * np.prod(np.delete(x_np, [j, k])) for k in range(3) if k != j)
                    for j in range(3)]
    np.testing.assert_allclose(got, expected, rtol=1e-12)
