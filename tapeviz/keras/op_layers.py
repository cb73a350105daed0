"""`tf.*` functions called on symbolic KerasTensors become layers, as in TF-Keras.

TF-Keras lets a functional model apply TensorFlow functions straight to `tf.keras.Input`
values (`tf.nn.relu(x)`, `tf.concat([a, b], -1)`, `tf.reduce_mean(x, axis=1)`): each such
call becomes a `TFOpLambda` layer named after the function (`tf.nn.relu`, `tf.concat`).
tapeviz does the same with a `Lambda` layer: the public functions of `tv`, `tv.math`,
`tv.nn` and `tv.linalg` are wrapped once at import; a call runs as before, and only when it
fails because an argument is a KerasTensor (which cannot become an array) is the call
turned into a layer whose inputs are the KerasTensors among its arguments. The wrapper's
cost on ordinary calls is one Python call frame; tapeviz's own code calls the unwrapped
functions.
"""
from __future__ import annotations

import functools

from ..engine import nest
from ..engine.errors import OpError
from .keras_tensor import KerasTensor, SymbolicTensorError, _op_layer_name


def _keras_tensors(flat):
    return [t for t in flat if isinstance(t, KerasTensor)]


def op_layer(fn, api_name, args, kwargs):
    """A Lambda layer applying `fn(*args, **kwargs)` with the KerasTensors among the
    arguments as its inputs (the other arguments are constants of the layer)."""
    from .lambda_layer import Lambda
    structure = [list(args), kwargs]
    flat = nest.flatten(structure)
    symbolic = _keras_tensors(flat)

    def call(inputs):
        values = iter(inputs if len(symbolic) > 1 else [inputs])
        filled = [next(values) if isinstance(leaf, KerasTensor) else leaf for leaf in flat]
        call_args, call_kwargs = nest.pack_sequence_as(structure, filled)
        return fn(*call_args, **call_kwargs)

    layer = Lambda(call, name=_op_layer_name(api_name))
    try:
        return layer(symbolic if len(symbolic) > 1 else symbolic[0])
    except OpError as exc:
        # TF-Keras runs the function in a graph, where an op's error is a ValueError
        raise ValueError(f'Exception encountered when calling layer "{layer.name}" (type '
                         f'TFOpLambda).\n\n{exc}') from exc


def dispatching(fn, api_name):
    """`fn`, also callable on KerasTensors (then it returns a KerasTensor)."""
    @functools.wraps(fn)
    def public(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SymbolicTensorError:
            if not _keras_tensors(nest.flatten([list(args), kwargs])):
                raise
            return op_layer(fn, api_name, args, kwargs)
    public.__wrapped_op__ = fn
    return public


def wrap_functions(module, prefix, names):
    """Replace each named function of `module` by its dispatching form, named
    `tf.<prefix><name>` when it makes a layer."""
    for name in names:
        fn = getattr(module, name, None)
        if callable(fn) and not isinstance(fn, type) and not hasattr(fn, "__wrapped_op__"):
            setattr(module, name, dispatching(fn, prefix + name))


#: TensorFlow's canonical names, which TF-Keras gives its layers: `tf.reduce_mean` makes a
#: layer `tf.math.reduce_mean`, `tf.matmul` one named `tf.linalg.matmul`.
_NOT_MATH = {"cast", "clip_by_value", "where", "broadcast_to"}


def _canonical(name):
    from ..engine.ops import elementwise, reduce
    if name == "matmul":
        return "linalg.matmul"
    if (name in elementwise.__all__ or name in reduce.__all__) and name not in _NOT_MATH:
        return "math." + name
    return name


def wrap_top_level(module, names):
    """`wrap_functions` for `tv.*`, each named by TensorFlow's canonical name."""
    for name in names:
        fn = getattr(module, name, None)
        if callable(fn) and not isinstance(fn, type) and not hasattr(fn, "__wrapped_op__"):
            setattr(module, name, dispatching(fn, _canonical(name)))
