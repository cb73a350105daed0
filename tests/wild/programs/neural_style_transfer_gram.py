# After: https://www.tensorflow.org/tutorials/generative/style_transfer (gram_matrix with
# tf.linalg.einsum, StyleContentModel returning style and content dicts, style_content_loss,
# a tf.Variable image optimised with Adam in a @tf.function train_step with clip_0_1,
# total_variation_loss)
# Adapted: a small convolutional feature extractor with fixed weights in place of VGG19,
# seeded synthetic 16x16 content and style images, 3 steps.
import numpy as np
import tensorflow as tf

from adapt import data, fixed_weights


def gram_matrix(input_tensor):
    result = tf.linalg.einsum('bijc,bijd->bcd', input_tensor, input_tensor)
    input_shape = tf.shape(input_tensor)
    num_locations = tf.cast(input_shape[1] * input_shape[2], tf.float32)
    return result / (num_locations)


def clip_0_1(image):
    return tf.clip_by_value(image, clip_value_min=0.0, clip_value_max=1.0)


def high_pass_x_y(image):
    x_var = image[:, :, 1:, :] - image[:, :, :-1, :]
    y_var = image[:, 1:, :, :] - image[:, :-1, :, :]
    return x_var, y_var


def total_variation_loss(image):
    x_deltas, y_deltas = high_pass_x_y(image)
    return tf.reduce_sum(tf.abs(x_deltas)) + tf.reduce_sum(tf.abs(y_deltas))


def main():
    inputs = tf.keras.Input(shape=(None, None, 3))
    block1 = tf.keras.layers.Conv2D(4, 3, padding='same', activation='relu', name='block1_conv1')(inputs)
    block2 = tf.keras.layers.Conv2D(4, 3, padding='same', activation='relu', name='block2_conv1')(block1)
    vgg = tf.keras.Model(inputs, [block1, block2, block2])
    fixed_weights(vgg.trainable_variables)
    vgg.trainable = False
    style_layers, content_layers = ['block1_conv1', 'block2_conv1'], ['block2_conv1']
    num_style_layers, num_content_layers = len(style_layers), len(content_layers)

    class StyleContentModel(tf.keras.models.Model):
        def __init__(self):
            super(StyleContentModel, self).__init__()
            self.vgg = vgg
            self.num_style_layers = len(style_layers)

        def call(self, inputs):
            "Expects float input in [0,1]"
            inputs = inputs * 255.0
            outputs = self.vgg(inputs / 255.0)
            style_outputs, content_outputs = (outputs[:self.num_style_layers],
                                              outputs[self.num_style_layers:])
            style_outputs = [gram_matrix(style_output) for style_output in style_outputs]
            content_dict = {content_name: value for content_name, value
                            in zip(content_layers, content_outputs)}
            style_dict = {style_name: value for style_name, value
                          in zip(style_layers, style_outputs)}
            return {'content': content_dict, 'style': style_dict}

    extractor = StyleContentModel()
    content_image = tf.constant(data(0, 1, 16, 16, 3, low=0, high=1))
    style_image = tf.constant(data(1, 1, 16, 16, 3, low=0, high=1))
    style_targets = extractor(style_image)['style']
    content_targets = extractor(content_image)['content']
    image = tf.Variable(content_image)
    opt = tf.keras.optimizers.Adam(learning_rate=0.02, beta_1=0.99, epsilon=1e-1)
    style_weight, content_weight, total_variation_weight = 1e-2, 1e4, 30

    def style_content_loss(outputs):
        style_outputs = outputs['style']
        content_outputs = outputs['content']
        style_loss = tf.add_n([tf.reduce_mean((style_outputs[name] - style_targets[name])**2)
                               for name in style_outputs.keys()])
        style_loss *= style_weight / num_style_layers
        content_loss = tf.add_n([tf.reduce_mean((content_outputs[name] - content_targets[name])**2)
                                 for name in content_outputs.keys()])
        content_loss *= content_weight / num_content_layers
        return style_loss + content_loss

    @tf.function()
    def train_step(image):
        with tf.GradientTape() as tape:
            outputs = extractor(image)
            loss = style_content_loss(outputs)
            loss += total_variation_weight * tf.image.total_variation(image)
        grad = tape.gradient(loss, image)
        opt.apply_gradients([(grad, image)])
        image.assign(clip_0_1(image))
        return loss

    losses = [train_step(image) for _ in range(3)]
    return {"losses": losses, "image": image,
            "tv": total_variation_loss(image), "gram": style_targets['block1_conv1']}
