# After: https://keras.io/examples/vision/visualizing_what_convnets_learn/
# Adapted: a small functional convnet with fixed weights instead of ResNet50V2 with
# ImageNet weights, a seeded initial image instead of tf.random.uniform, 5 iterations.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from adapt import data, fixed_weights

img_width = 20
img_height = 20
layer_name = "conv3_block4_out"

inputs = keras.Input(shape=(img_width, img_height, 3))
h = keras.layers.Conv2D(4, 3, activation="relu")(inputs)
h = keras.layers.Conv2D(6, 3, activation="relu", name=layer_name)(h)
model = keras.Model(inputs, keras.layers.Dense(2)(keras.layers.Flatten()(h)))

# Set up a model that returns the activation values for our target layer
layer = model.get_layer(name=layer_name)
feature_extractor = keras.Model(inputs=model.inputs, outputs=layer.output)

def compute_loss(input_image, filter_index):
    activation = feature_extractor(input_image)
    # We avoid border artifacts by only involving non-border pixels in the loss.
    filter_activation = activation[:, 2:-2, 2:-2, filter_index]
    return tf.reduce_mean(filter_activation)

@tf.function
def gradient_ascent_step(img, filter_index, learning_rate):
    with tf.GradientTape() as tape:
        tape.watch(img)
        loss = compute_loss(img, filter_index)
    # Compute gradients.
    grads = tape.gradient(loss, img)
    # Normalize gradients.
    grads = tf.math.l2_normalize(grads)
    img += learning_rate * grads
    return loss, img

def initialize_image():
    # We start from a gray image with some random noise
    img = tf.constant(data(6, 1, img_width, img_height, 3, low=0, high=1))
    # ResNet50V2 expects inputs in the range [-1, +1].
    # Here we scale our random inputs to [-0.125, +0.125]
    return (img - 0.5) * 0.25

def visualize_filter(filter_index):
    # We run gradient ascent for 5 steps
    iterations = 5
    learning_rate = 10.0
    img = initialize_image()
    losses = []
    for iteration in range(iterations):
        loss, img = gradient_ascent_step(img, filter_index, learning_rate)
        losses.append(loss)
    # Decode the resulting input image
    img = deprocess_image(img[0].numpy())
    return losses, img

def deprocess_image(img):
    # Normalize array: center on 0., ensure variance is 0.15
    img -= img.mean()
    img /= img.std() + 1e-5
    img *= 0.15
    # Center crop
    img = img[2:-2, 2:-2, :]
    # Clip to [0, 1]
    img += 0.5
    img = np.clip(img, 0, 1)
    # Convert to RGB array
    img *= 255
    img = np.clip(img, 0, 255).astype("uint8")
    return img

def main():
    fixed_weights(model.trainable_variables, seed=8)
    losses, img = visualize_filter(0)
    losses1, img1 = visualize_filter(3)
    return {"losses": losses, "img": img.astype("float32"), "losses1": losses1}
