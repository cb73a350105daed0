# After: https://github.com/titu1994/tf_SIREN (train_inpainting_siren.py, tf_siren/siren.py, tf_siren/siren_mlp.py)
# Adapted: the package's two modules (siren.py, and siren_mlp.py's SIRENModel) placed
# before the script (their docstrings, and the Scaled variants the script does not use,
# left out; `siren.X` written `X`), the script's body wrapped in main() (its second
# `BATCH_SIZE = min(...)` named BATCH_SIZE_, as an assignment inside a function would
# make BATCH_SIZE local); a 16x16x3 image of seeded NumPy
# values in [0, 1) instead of reading and decoding data/celtic_spiral_knot.jpg
# (tf.io.read_file, tf.io.decode_image); the sampled pixel coordinates drawn by seeded
# NumPy instead of tf.random.uniform(seed=0/1) (so the 25 samples are one batch and the
# shuffle decides no step), and tf.random.set_seed(0) added (the shuffle still orders the
# batch's rows, and so the loss's sums: two unseeded TensorFlow runs differed by it); 5 epochs instead of 5000; the model's weights fixed from
# seeded NumPy (adapt.fixed_weights, each layer with the limits of its own SIREN
# initializer: 1/fan_in for the first, sqrt(6/fan_in)/w0 for the others, and the bias
# limits of he_uniform) instead of its random initializers; the checkpoint and the
# TensorBoard logs written under a temporary folder (removed at the end) instead of the
# working directory; main() returns fit's history and the model's predictions at the
# sampled pixels.
import os
import shutil
import tempfile
from datetime import datetime

import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.python.ops.init_ops_v2 import _compute_fans
from adapt import fixed_weights


# tf_siren/siren.py
class SIRENFirstLayerInitializer(tf.keras.initializers.Initializer):

    def __init__(self, scale=1.0, seed=None):
        super().__init__()
        self.scale = scale
        self.seed = seed

    def __call__(self, shape, dtype=tf.float32):
        fan_in, fan_out = _compute_fans(shape)
        limit = self.scale / max(1.0, float(fan_in))
        return tf.random.uniform(shape, -limit, limit, seed=self.seed)

    def get_config(self):
        base_config = super().get_config()
        config = {
            'scale': self.scale,
            'seed': self.seed
        }
        return dict(list(base_config.items()) + list(config.items()))


class SIRENInitializer(tf.keras.initializers.VarianceScaling):

    def __init__(self, w0: float = 1.0, c: float = 6.0, seed: int = None):
        # Uniform variance scaler multiplies by 3.0 for limits, so scale down here to compensate
        self.w0 = w0
        self.c = c
        scale = c / (3.0 * w0 * w0)
        super(SIRENInitializer, self).__init__(scale=scale, mode='fan_in', distribution='uniform', seed=seed)

    def get_config(self):
        base_config = super().get_config()
        config = {
            'w0': self.w0,
            'c': self.c
        }
        return dict(list(base_config.items()) + list(config.items()))


class Sine(tf.keras.layers.Layer):
    def __init__(self, w0: float = 1.0, **kwargs):
        """
        Sine activation function with w0 scaling support.

        Args:
            w0: w0 in the activation step `act(x; w0) = sin(w0 * x)`
        """
        super(Sine, self).__init__(**kwargs)
        self.w0 = w0

    def call(self, inputs):
        return tf.sin(self.w0 * inputs)
    
    def get_config(self):
        config = {'w0': self.w0}
        base_config = super(Sine, self).get_config()
        return dict(list(base_config.items()) + list(config.items()))


class SinusodialRepresentationDense(tf.keras.layers.Dense):

    def __init__(self,
                 units,
                 w0: float = 1.0,
                 c: float = 6.0,
                 activation='sine',
                 use_bias=True,
                 kernel_initializer='siren_uniform',
                 bias_initializer='he_uniform',
                 kernel_regularizer=None,
                 bias_regularizer=None,
                 activity_regularizer=None,
                 kernel_constraint=None,
                 bias_constraint=None,
                 **kwargs):
        self.w0 = float(w0)
        self.c = float(c)

        if activation == 'sine':
            activation = Sine(w0=w0)

        if kernel_initializer == 'siren_uniform':
            kernel_initializer = SIRENInitializer(w0=w0, c=c)

        if bias_initializer == 'siren_uniform':
            bias_initializer = SIRENInitializer(w0=w0, c=c)

        super().__init__(
            units=units,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=kernel_initializer,
            bias_initializer=bias_initializer,
            kernel_regularizer=kernel_regularizer,
            bias_regularizer=bias_regularizer,
            activity_regularizer=activity_regularizer,
            kernel_constraint=kernel_constraint,
            bias_constraint=bias_constraint,
            **kwargs)

    def get_config(self):
        base_config = super(SinusodialRepresentationDense, self).get_config()
        config = {
            'w0': self.w0,
            'c': self.c
        }
        return dict(list(base_config.items()) + list(config.items()))


tf.keras.utils.get_custom_objects().update({
    'sine': Sine,
    'siren_uniform': SIRENInitializer,
    'siren_first_uniform': SIRENFirstLayerInitializer,
    'SinusodialRepresentationDense': SinusodialRepresentationDense,
})


# tf_siren/siren_mlp.py
class SIRENModel(tf.keras.Model):

    def __init__(self, units: int, final_units: int,
                 final_activation: str = "linear",
                 num_layers: int = 1,
                 w0: float = 30.0,
                 w0_initial: float = 30.0,
                 initial_layer_init: str = 'siren_first_uniform',
                 use_bias: bool = True, **kwargs):
        super(SIRENModel, self).__init__(**kwargs)

        siren_layers = [SinusodialRepresentationDense(units, w0=w0_initial, use_bias=use_bias,
                                                      kernel_initializer=initial_layer_init,
                                                      **kwargs)]

        for _ in range(num_layers - 1):
            siren_layers.append(SinusodialRepresentationDense(units, w0=w0, use_bias=use_bias, **kwargs))

        self.siren_layers = tf.keras.Sequential(siren_layers)
        self.final_dense = SinusodialRepresentationDense(final_units, activation=final_activation,
                                                         use_bias=use_bias, **kwargs)

    def call(self, inputs, training=None, mask=None):
        features = self.siren_layers(inputs)
        output = self.final_dense(features)
        return output


# train_inpainting_siren.py
SAMPLING_RATIO = 0.1
BATCH_SIZE = 8192
EPOCHS = 5


def main():
    tf.random.set_seed(0)
    workdir = tempfile.mkdtemp()
    # Image Reference - http://earthsongtiles.com/celtic_tiles.html
    img_ground_truth = tf.constant(np.random.default_rng(0).uniform(size=(16, 16, 3)).astype("float32"))

    rows, cols, channels = img_ground_truth.shape
    pixel_count = rows * cols
    sampled_pixel_count = int(pixel_count * SAMPLING_RATIO)

    def build_train_tensors():
        img_mask_x = tf.constant(np.random.default_rng(1).integers(0, rows, size=[sampled_pixel_count]).astype("int32"))
        img_mask_y = tf.constant(np.random.default_rng(2).integers(0, cols, size=[sampled_pixel_count]).astype("int32"))

        img_mask_x = tf.expand_dims(img_mask_x, axis=-1)
        img_mask_y = tf.expand_dims(img_mask_y, axis=-1)

        img_mask_idx = tf.concat([img_mask_x, img_mask_y], axis=-1)
        img_train = tf.gather_nd(img_ground_truth, img_mask_idx, batch_dims=0)

        img_mask_x = tf.cast(img_mask_x, tf.float32) / rows
        img_mask_y = tf.cast(img_mask_y, tf.float32) / cols

        img_mask = tf.concat([img_mask_x, img_mask_y], axis=-1)

        return img_mask, img_train

    img_mask, img_train = build_train_tensors()

    train_dataset = tf.data.Dataset.from_tensor_slices((img_mask, img_train))
    train_dataset = train_dataset.shuffle(10000).batch(BATCH_SIZE).cache()
    train_dataset = train_dataset.prefetch(tf.data.experimental.AUTOTUNE)

    # Build model
    model = SIRENModel(units=256, final_units=3, final_activation='sigmoid', num_layers=5,
                       w0=1.0, w0_initial=30.0)

    # instantiate model
    _ = model(tf.zeros([1, 2]))
    for i, layer in enumerate(model.siren_layers.layers + [model.final_dense]):
        fan_in = int(layer.kernel.shape[0])
        fixed_weights([layer.kernel], seed=10 + i, scale=(1.0 / fan_in) if i == 0 else np.sqrt(6.0 / fan_in))
        fixed_weights([layer.bias], seed=20 + i, scale=np.sqrt(6.0 / fan_in))

    model.summary()

    BATCH_SIZE_ = min(BATCH_SIZE, len(img_mask))
    num_steps = int(len(img_mask) * EPOCHS / BATCH_SIZE_)
    print("Total training steps : ", num_steps)
    learning_rate = tf.keras.optimizers.schedules.PolynomialDecay(0.0005, decay_steps=num_steps, end_learning_rate=5e-5,
                                                                  power=2.0)

    optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)
    loss = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)  # Sum of squared error
    model.compile(optimizer, loss=loss)

    checkpoint_dir = os.path.join(workdir, 'checkpoints/siren/inpainting/')
    if not os.path.exists(checkpoint_dir):
        os.makedirs(checkpoint_dir)

    timestamp = datetime.now().strftime('%Y-%m-%d %H-%M-%S')
    logdir = os.path.join(workdir, 'logs/siren/inpainting/', timestamp)

    if not os.path.exists(logdir):
        os.makedirs(logdir)

    callbacks = [
        tf.keras.callbacks.ModelCheckpoint(checkpoint_dir + 'model', monitor='loss', verbose=0,
                                           save_best_only=True, save_weights_only=True, mode='min'),
        tf.keras.callbacks.TensorBoard(logdir, update_freq='batch', profile_batch=20)
    ]

    history = model.fit(train_dataset, epochs=EPOCHS, callbacks=callbacks, verbose=2)
    predictions = model(img_mask)
    shutil.rmtree(workdir, ignore_errors=True)
    return {"num_steps": num_steps, "history": history.history, "predictions": predictions}
