"""`tv.keras.layers`: every layer under Keras's names, from the modules that define them by
role: layers_base (`Layer`), layers_core (`Dense`, `Flatten`, `Activation`, `ReLU`,
`Dropout`, `Reshape`, `Embedding`), activation_layers (`LeakyReLU`, `Softmax`), layers_conv (`Conv1D`, `Conv2D`,
`Conv2DTranspose`, `Conv1DTranspose`), layers_pooling (`MaxPooling1D`/`2D`,
`AveragePooling1D`/`2D`, the global poolings), layers_normalization (`BatchNormalization`), layers_layer_normalization
(`LayerNormalization`), layers_attention (`MultiHeadAttention`),
layers_preprocessing (`Normalization`), layers_reshaping (`UpSampling2D`, `ZeroPadding2D`,
`Cropping2D`); `experimental.RandomFourierFeatures` (layers_kernelized), `Input`,
`InputLayer`, `Lambda` and the merging layers (`Add`, `Concatenate`, ...) are added by
`tv.keras` from their own modules.

A layer creates its variables lazily, on its first call, when the input's shape is known;
its ops run inside `tv.name_scope(layer.name)` so the dashboard groups them.

>>> import tapeviz as tv
>>> layer = tv.keras.layers.Dense(3, activation="relu", name="hidden")
>>> layer(tv.ones((2, 4))).shape
TensorShape([2, 3])
>>> [v.name for v in layer.trainable_variables]
['hidden/kernel:0', 'hidden/bias:0']
"""
# (the helpers other keras modules import from here, as before the split)
from .layers_base import (Layer, _accepts, _float_input, _leaves, _unique,  # noqa: F401
                          reset_uids, to_snake_case, unique_name)
from .layers_core import (Activation, Dense, Dropout, Embedding, Flatten,  # noqa: F401
                          ReLU, Reshape)
from .activation_layers import ELU, LeakyReLU, PReLU, Softmax, ThresholdedReLU  # noqa: F401
from .layers_conv import Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose  # noqa: F401
from .layers_depthwise import DepthwiseConv2D, SeparableConv2D  # noqa: F401
from .layers_normalization import BatchNormalization  # noqa: F401
from .layers_layer_normalization import LayerNormalization  # noqa: F401
from .layers_attention import MultiHeadAttention  # noqa: F401
from .layers_dense_attention import Attention  # noqa: F401
from .layers_preprocessing import CategoryEncoding, Normalization, Rescaling  # noqa: F401
from .layers_image_preprocessing import CenterCrop, Resizing  # noqa: F401
from .layers_image_augmentation import (RandomBrightness, RandomContrast, RandomCrop,  # noqa: F401
                                        RandomFlip, RandomHeight, RandomRotation,
                                        RandomTranslation, RandomWidth, RandomZoom)
from .layers_text_vectorization import TextVectorization  # noqa: F401
from .layers_reshaping import (Cropping2D, Permute, RepeatVector, UpSampling2D,  # noqa: F401
                               ZeroPadding2D)
from .layers_pooling import (AveragePooling1D, AveragePooling2D,  # noqa: F401
                             GlobalAveragePooling1D, GlobalAveragePooling2D, GlobalMaxPooling1D,
                             GlobalMaxPooling2D, MaxPooling1D, MaxPooling2D)
from .layers_recurrent import GRU, LSTM, RNN, SimpleRNN  # noqa: F401
from .recurrent_cells import GRUCell, LSTMCell, SimpleRNNCell  # noqa: F401
from .layers_wrappers import Bidirectional, TimeDistributed  # noqa: F401
from .masking import Masking  # noqa: F401
from .layers_discretization import Discretization  # noqa: F401
from .layers_hashing import Hashing  # noqa: F401
from .layers_lookup import IntegerLookup, StringLookup  # noqa: F401
from .layers_noise import (ActivityRegularization, AlphaDropout,  # noqa: F401
                           GaussianDropout, GaussianNoise, SpatialDropout1D, SpatialDropout2D,
                           SpatialDropout3D)

# Keras's other spellings
Convolution1D, Convolution2D, Convolution2DTranspose = Conv1D, Conv2D, Conv2DTranspose
Convolution1DTranspose = Conv1DTranspose
MaxPool1D, AvgPool1D, MaxPool2D, AvgPool2D = (MaxPooling1D, AveragePooling1D, MaxPooling2D,
                                              AveragePooling2D)
GlobalAvgPool2D, GlobalMaxPool2D = GlobalAveragePooling2D, GlobalMaxPooling2D
GlobalAvgPool1D, GlobalMaxPool1D = GlobalAveragePooling1D, GlobalMaxPooling1D
SeparableConvolution2D = SeparableConv2D

# Keras's layers that hand an input's mask on unchanged (see masking.py)
for _layer in (Dense, Dropout, Activation, ReLU, LeakyReLU, BatchNormalization):
    _layer.supports_masking = True
