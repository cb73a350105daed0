# After: https://keras.io/examples/vision/grad_cam/
# Adapted: a small functional convnet with fixed weights instead of Xception with
# ImageNet weights, a seeded synthetic image instead of the elephant photo.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights

last_conv_layer_name = "last_conv"

def make_model():
    inputs = keras.Input(shape=(16, 16, 3))
    x = keras.layers.Conv2D(4, 3, activation="relu")(inputs)
    x = keras.layers.Conv2D(6, 3, activation="relu", name=last_conv_layer_name)(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(5)(x)
    return keras.Model(inputs, outputs)

def make_gradcam_heatmap(img_array, model, last_conv_layer_name, pred_index=None):
    # First, we create a model that maps the input image to the activations
    # of the last conv layer as well as the output predictions
    grad_model = keras.models.Model(
        model.inputs, [model.get_layer(last_conv_layer_name).output, model.output]
    )

    # Then, we compute the gradient of the top predicted class for our input image
    # with respect to the activations of the last conv layer
    with tf.GradientTape() as tape:
        last_conv_layer_output, preds = grad_model(img_array)
        if pred_index is None:
            pred_index = tf.argmax(preds[0])
        class_channel = preds[:, pred_index]

    # This is the gradient of the output neuron (top predicted or chosen)
    # with regard to the output feature map of the last conv layer
    grads = tape.gradient(class_channel, last_conv_layer_output)

    # This is a vector where each entry is the mean intensity of the gradient
    # over a specific feature map channel
    pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))

    # We multiply each channel in the feature map array
    # by "how important this channel is" with regard to the top predicted class
    # then sum all the channels to obtain the heatmap class activation
    last_conv_layer_output = last_conv_layer_output[0]
    heatmap = last_conv_layer_output @ pooled_grads[..., tf.newaxis]
    heatmap = tf.squeeze(heatmap)

    # For visualization purpose, we will also normalize the heatmap between 0 & 1
    heatmap = tf.maximum(heatmap, 0) / tf.math.reduce_max(heatmap)
    return heatmap.numpy()

def main():
    model = make_model()
    fixed_weights(model.trainable_variables, seed=4)
    img_array = data(5, 1, 16, 16, 3)
    model.layers[-1].activation = None
    preds = model.predict(img_array)
    heatmap = make_gradcam_heatmap(img_array, model, last_conv_layer_name)
    heatmap2 = make_gradcam_heatmap(img_array, model, last_conv_layer_name, pred_index=2)
    return {"preds": preds, "top": int(np.argmax(preds[0])), "heatmap": heatmap, "heatmap2": heatmap2}
