"""A small Keras-like kit: layers, `Sequential`, optimizers, losses, activations.

Enough for the tutorials' training loops with `tf.GradientTape`:

>>> import tapeviz as tv
>>> tv.random.set_seed(0)
>>> model = tv.keras.Sequential([tv.keras.layers.Dense(4, activation="relu"),
...                              tv.keras.layers.Dense(1)])
>>> loss_fn = tv.keras.losses.MeanSquaredError()
>>> opt = tv.keras.optimizers.SGD(learning_rate=0.1)
>>> x, y = tv.ones((8, 3)), tv.zeros((8, 1))
>>> with tv.GradientTape() as tape:
...     loss = loss_fn(y, model(x))
>>> grads = tape.gradient(loss, model.trainable_variables)
>>> _ = opt.apply_gradients(zip(grads, model.trainable_variables))
>>> [v.name for v in model.trainable_variables]
['dense/kernel:0', 'dense/bias:0', 'dense_1/kernel:0', 'dense_1/bias:0']
"""
from . import activations, initializers, layers, losses, metrics, optimizers  # noqa: F401
from . import callbacks, functional, lambda_layer, merging, op_layers, regularizers, utils  # noqa: F401,E501
from . import constraints  # noqa: F401
from . import mixed_precision  # noqa: F401
from . import activation_layers  # noqa: F401
from . import metrics_auc, metrics_confusion  # noqa: F401
from .functional import Input, InputLayer  # noqa: F401
from .layers import Layer  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from . import models  # noqa: F401
from . import preprocessing  # noqa: F401

utils.pad_sequences = preprocessing.sequence.pad_sequences   # both of Keras's paths
from . import datasets, data_download  # noqa: F401,E402
utils.get_file = data_download.get_file
from . import saving  # noqa: F401,E402
utils.register_keras_serializable = saving.register_keras_serializable
from . import saving_config as _saving_config  # noqa: E402

utils.CustomObjectScope = utils.custom_object_scope = _saving_config.CustomObjectScope
utils.get_custom_objects = _saving_config.get_custom_objects
from .progbar import Progbar as _Progbar  # noqa: E402
from .dataset_split import split_dataset as _split_dataset  # noqa: E402

utils.Progbar = _Progbar
utils.split_dataset = _split_dataset
utils.timeseries_dataset_from_array = preprocessing.timeseries_dataset_from_array
utils.image_dataset_from_directory = preprocessing.image_dataset_from_directory
utils.text_dataset_from_directory = preprocessing.text_dataset_from_directory
for _name in ("load_img", "img_to_array", "array_to_img", "save_img"):
    setattr(utils, _name, getattr(preprocessing.image, _name))
# the loss functions Keras also lists as metrics (`keras.metrics.mean_squared_error(y, p)`)
for _name in ("mean_squared_error", "mse", "MSE", "mean_absolute_error", "mae", "MAE",
              "categorical_crossentropy", "sparse_categorical_crossentropy",
              "binary_crossentropy", "kl_divergence", "kld", "KLD", "kullback_leibler_divergence",
              "hinge"):
    if not hasattr(metrics, _name):
        setattr(metrics, _name, getattr(losses, _name))

# tv.keras.layers.Input, .Lambda, .Add, ...: defined in their own modules, Keras's names here
for _name in ("Input", "InputLayer"):
    setattr(layers, _name, getattr(functional, _name))
layers.Lambda = lambda_layer.Lambda
for _name in ("TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives",
              "Precision", "Recall"):
    setattr(metrics, _name, getattr(metrics_confusion, _name))
metrics.AUC = metrics_auc.AUC
from .metrics_iou import MeanIoU as _MeanIoU  # noqa: E402

metrics.MeanIoU = _MeanIoU
from . import metrics_accuracy as _metrics_accuracy  # noqa: E402

for _name in ("categorical_accuracy", "sparse_categorical_accuracy",
              "top_k_categorical_accuracy", "sparse_top_k_categorical_accuracy",
              "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "RootMeanSquaredError",
              "get"):
    setattr(metrics, _name, getattr(_metrics_accuracy, _name))
for _name in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate",
              "Dot", "dot", "add", "concatenate", "multiply", "subtract", "average", "maximum",
              "minimum"):
    setattr(layers, _name, getattr(merging, _name))


from . import backend  # noqa: F401,E402
from . import schedules as _schedules  # noqa: E402

optimizers.schedules = _schedules      # tf.keras.optimizers.schedules.ExponentialDecay(...)

from .callbacks_tensorboard import TensorBoard as _TensorBoard  # noqa: E402

callbacks.TensorBoard = _TensorBoard   # tf.keras.callbacks.TensorBoard(log_dir="logs")

import sys as _sys  # noqa: E402
import types as _types  # noqa: E402

from .layers_kernelized import RandomFourierFeatures as _RandomFourierFeatures  # noqa: E402

# tf.keras.layers.experimental, importable as a module as TensorFlow's is
# (`from tensorflow.keras.layers.experimental import RandomFourierFeatures`)
layers.experimental = _types.ModuleType(layers.__name__ + ".experimental",
                                        "Keras's experimental layers: RandomFourierFeatures.")
layers.experimental.RandomFourierFeatures = _RandomFourierFeatures
_sys.modules[layers.experimental.__name__] = layers.experimental
from . import experimental_names as _experimental_names  # noqa: E402

_experimental_names.install(_sys.modules[__name__])

from . import optimizers_legacy as _optimizers_legacy  # noqa: E402

# tf.keras.optimizers.legacy, importable as a module as TensorFlow's is
# (`from tensorflow.keras.optimizers.legacy import Adam`)
optimizers.legacy = _optimizers_legacy
_sys.modules[optimizers.__name__ + ".legacy"] = _optimizers_legacy

from .callbacks_checkpoint import ModelCheckpoint as _ModelCheckpoint  # noqa: E402

callbacks.ModelCheckpoint = _ModelCheckpoint   # tf.keras.callbacks.ModelCheckpoint(path, ...)

from .callbacks_csv import CSVLogger as _CSVLogger  # noqa: E402

callbacks.CSVLogger = _CSVLogger   # tf.keras.callbacks.CSVLogger("training.log")

from .callbacks_backup import BackupAndRestore as _BackupAndRestore  # noqa: E402

callbacks.BackupAndRestore = _BackupAndRestore   # tf.keras.callbacks.BackupAndRestore(dir)

from .sidecar_evaluator import SidecarEvaluator as _SidecarEvaluator  # noqa: E402

utils.SidecarEvaluator = _SidecarEvaluator   # tf.keras.utils.SidecarEvaluator(model, data, dir)

from .migration_utils import DeterministicRandomTestTool as _DeterministicRandomTestTool  # noqa

# (TensorFlow has it at tf.compat.v1.keras.utils, which is tapeviz's keras.utils)
utils.DeterministicRandomTestTool = _DeterministicRandomTestTool
