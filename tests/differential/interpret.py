"""Run a program (program.py) with `tensorflow` or `tapeviz`: the same code, the module passed
in as `tf`. NumPy and duck typing only, so the recorder and the tests share it.

`run(program, tf)` answers, for the checks the program names: the output's value; the first
derivatives of `sum(y * w)` for every watched input (one tape inside another); the second
derivatives of `sum_i <g_i, v_i>` through the outer tape; `jacobian` and `batch_jacobian` of y
for every watched input. Each answer is an encoded tensor, None, or `{"error": ClassName}`.
The weights w and v are fixed functions of the shapes, so programs need not store them.
"""
from __future__ import annotations

import math

import numpy as np

from program import decode_value

FUNCTIONS = {  # the only names a program may call: tf attribute paths
    "negative", "abs", "sign", "square", "sqrt", "math.rsqrt", "exp", "math.expm1",
    "math.log", "math.log1p", "math.reciprocal", "sin", "cos", "tan", "tanh", "sinh", "cosh",
    "asin", "acos", "atan", "sigmoid", "math.erf", "identity", "nn.relu", "nn.relu6",
    "nn.elu", "nn.softplus", "nn.softsign", "nn.l2_loss", "add", "subtract", "multiply",
    "divide", "maximum", "minimum", "math.squared_difference", "math.divide_no_nan",
    "math.floormod", "pow", "reduce_sum", "reduce_mean", "reduce_max", "reduce_min",
    "reduce_prod", "reduce_logsumexp", "norm", "greater", "where", "clip_by_value", "cast",
    "reshape", "broadcast_to", "transpose", "concat", "split", "tile", "getitem", "gather",
    "gather_nd", "cumsum", "matmul", "linalg.inv", "linalg.det", "linalg.solve", "einsum",
    "scatter_nd", "linalg.diag_part",
    "nn.leaky_relu", "nn.gelu", "nn.softmax", "nn.log_softmax",
    "nn.sigmoid_cross_entropy_with_logits", "nn.softmax_cross_entropy_with_logits",
    "nn.sparse_softmax_cross_entropy_with_logits", "nn.conv2d", "nn.conv2d_transpose",
    "nn.depthwise_conv2d", "nn.max_pool2d", "nn.avg_pool2d", "math.log_sigmoid",
    "math.cumprod", "linalg.svd", "linalg.eigh", "linalg.eigvalsh", "math.segment_sum",
    "math.segment_max", "math.segment_min", "math.unsorted_segment_sum",
    "math.unsorted_segment_max", "math.unsorted_segment_min", "asinh", "acosh", "atanh",
    "atan2", "math.lgamma", "math.digamma", "math.erfc", "math.erfinv", "math.ndtri",
}
# Keras layers a step may make and call: `kwargs` construct the layer, which is then called
# on `args` in training (how programs reach ImageProjectiveTransformV3)
LAYERS = {"keras.layers.RandomRotation", "keras.layers.RandomZoom",
          "keras.layers.RandomTranslation"}
DTYPE_NAMES = {"float32", "float64", "int32", "int64", "bool"}


class ProgramError(ValueError):
    """A malformed program: an unknown function, an undefined variable, a bad literal."""


def upstream(shape, dtype, phase):
    """The fixed weights: nonzero, distinct, the same in every framework."""
    n = int(np.prod(shape)) if len(shape) else 1
    k = np.arange(n, dtype=np.float64)
    w = 0.5 + np.cos(1.3 * k + phase) * 0.4
    return w.reshape(tuple(shape)).astype(dtype)


def _function(tf, path):
    if path not in FUNCTIONS | LAYERS:
        raise ProgramError(f"a program may not call {path!r}; known: "
                           f"{sorted(FUNCTIONS | LAYERS)}")
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _literal(tf, env, x, key=None):
    if isinstance(x, dict) and "ref" in x:
        if x["ref"] not in env:
            raise ProgramError(f"variable {x['ref']!r} used before it is defined")
        return env[x["ref"]]
    if isinstance(x, dict) and "slice" in x:
        return slice(*x["slice"])
    if isinstance(x, list):
        if x and all(isinstance(v, dict) for v in x) and all("ref" in v for v in x):
            return [_literal(tf, env, v) for v in x]
        return [_literal(tf, env, v) for v in x] if any(isinstance(v, dict) for v in x) else x
    if key == "ord" and x == "inf":
        return np.inf
    if isinstance(x, str) and x in DTYPE_NAMES:
        return getattr(tf, x)
    return x


def forward(program, tf, env):
    """Run the steps; returns the last step's value."""
    out = None
    for step in program["steps"]:
        args = [_literal(tf, env, a) for a in step["args"]]
        kwargs = {k: _literal(tf, env, v, k) for k, v in step["kwargs"].items()}
        if step["fn"] == "getitem":
            value = args[0][tuple(args[1])]
        elif step["fn"] in LAYERS:
            value = _function(tf, step["fn"])(**kwargs)(*args, training=True)
        else:
            value = _function(tf, step["fn"])(*args, **kwargs)
        if "index" in step:
            value = value[step["index"]]
        env[step["out"]] = out = value
    if out is None:
        raise ProgramError("a program needs at least one step")
    return out


def encode(t, tf):
    """A tensor as {"dtype", "shape", "v": flat values (9 significant digits)}; None as None.
    IndexedSlices (TensorFlow's gradient of a gather) count as their dense tensor."""
    if t is None:
        return None
    if hasattr(t, "indices"):
        t = tf.convert_to_tensor(t)
    arr = np.asarray(t.numpy())
    values = arr.reshape(-1).tolist()
    if arr.dtype.kind == "f":
        values = [_float(v) for v in values]
    return {"dtype": t.dtype.name, "shape": list(arr.shape), "v": values}


def _float(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return float(f"{v:.9g}")


def _error(e):
    return {"error": type(e).__name__}


def _attempt(fn):
    try:
        return fn()
    except ProgramError:
        raise
    except Exception as e:     # the class name is the answer
        return _error(e)


def run(program, tf):
    checks, answers = program["checks"], {}
    xs = {i["name"]: tf.constant(decode_value(i["value"], i["dtype"]),
                                 dtype=getattr(tf, i["dtype"])) for i in program["inputs"]}
    watched = [xs[i["name"]] for i in program["inputs"] if i["watch"]]
    env = dict(xs)
    with tf.GradientTape(persistent=True) as outer:
        for x in watched:
            outer.watch(x)
        with tf.GradientTape() as inner:
            for x in watched:
                inner.watch(x)
            try:
                y = forward(program, tf, env)
            except ProgramError:
                raise
            except Exception as e:
                return {"forward": _error(e)}
        answers["value"] = encode(y, tf)
        w = tf.constant(upstream(y.shape, y.dtype.name, 0.0))
        grads = _attempt(lambda: inner.gradient(y, watched, output_gradients=w))
        if isinstance(grads, dict):
            answers["grad"] = grads
            return answers
        answers["grad"] = [encode(g, tf) for g in grads]
        dot = None
        for k, g in enumerate(grads):
            if g is not None:
                v = tf.constant(upstream(g.shape, g.dtype.name, 1.0 + k))
                term = tf.reduce_sum(g * v)
                dot = term if dot is None else dot + tf.cast(term, dot.dtype)
    if "grad2" in checks:
        if dot is None:
            answers["grad2"] = "no first derivative"
        else:
            g2 = _attempt(lambda: outer.gradient(dot, watched))
            answers["grad2"] = g2 if isinstance(g2, dict) else [encode(g, tf) for g in g2]
    if "jacobian" in checks:
        answers["jacobian"] = [_attempt(lambda x=x: encode(outer.jacobian(y, x), tf))
                               for x in watched]
    if "batch_jacobian" in checks:
        answers["batch_jacobian"] = [
            _attempt(lambda x=x: encode(outer.batch_jacobian(y, x), tf))
            if list(x.shape)[:1] == list(y.shape)[:1] and len(y.shape) else "not batched"
            for x in watched]
    return answers
