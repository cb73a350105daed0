# After: https://github.com/rasbt/python-machine-learning-book-3rd-edition (ch17/ch17_part1.py:
# make_generator_network (Dense without bias, LeakyReLU, Dense tanh) and
# make_discriminator_network (Dense, LeakyReLU, Dropout, Dense logits) built and summarized;
# preprocess mapping MNIST items to a noise vector and an image in [-1, 1] with
# convert_image_dtype; the first batch's shapes and the BinaryCrossentropy(from_logits=True)
# generator and discriminator losses; then the training loop under tf.device with a
# generator GradientTape and a discriminator GradientTape per batch, two Adam optimizers,
# the losses and mean discriminator probabilities per step, and create_samples from a
# fixed noise batch after each epoch)
# Adapted: 64 seeded synthetic 28x28x1 uint8 images instead of tfds's MNIST (one batch of
# 64, so the shuffle reorders rows within the batch only), each with its noise vector drawn
# by seeded NumPy and carried in the dataset as 'z' (preprocess's tf.random.uniform, whose
# stream differs between libraries, reads ex['z'] instead), and fixed_z drawn by seeded
# NumPy; 3 epochs instead of 100; fixed weights after each build; the discriminator's
# Dropout left out (its random mask makes the answers irreproducible); the plots left out;
# disc_model.build(input_shape=(None, int(np.prod(image_size)))) instead of np.prod(...)
# alone, whose NumPy 2 integer tf-keras 2.21 cannot read as a shape ("as_list() is not
# defined on an unknown TensorShape").
import tensorflow as tf
import numpy as np
import time
import itertools
from adapt import data, fixed_weights


def make_generator_network(
        num_hidden_layers=1,
        num_hidden_units=100,
        num_output_units=784):
    model = tf.keras.Sequential()
    for i in range(num_hidden_layers):
        model.add(
            tf.keras.layers.Dense(
                units=num_hidden_units, 
                use_bias=False)
            )
        model.add(tf.keras.layers.LeakyReLU())
        
    model.add(tf.keras.layers.Dense(
        units=num_output_units, activation='tanh'))
    return model


def make_discriminator_network(
        num_hidden_layers=1,
        num_hidden_units=100,
        num_output_units=1):
    model = tf.keras.Sequential()
    for i in range(num_hidden_layers):
        model.add(tf.keras.layers.Dense(units=num_hidden_units))
        model.add(tf.keras.layers.LeakyReLU())
        
    model.add(
        tf.keras.layers.Dense(
            units=num_output_units, 
            activation=None)
        )
    return model


image_size = (28, 28)
z_size = 20
mode_z = 'uniform'  # 'uniform' vs. 'normal'


def preprocess(ex, mode='uniform'):
    image = ex['image']
    image = tf.image.convert_image_dtype(image, tf.float32)
    image = tf.reshape(image, [-1])
    image = image*2 - 1.0
    if mode == 'uniform':
        input_z = ex['z']
    elif mode == 'normal':
        input_z = ex['z']
    return input_z, image


def main():
    out = {}
    print(tf.__version__)

    print("GPU Available:", tf.test.is_gpu_available())

    if tf.test.is_gpu_available():
        device_name = tf.test.gpu_device_name()

    else:
        device_name = 'cpu:0'
        
    print(device_name)

    gen_hidden_layers = 1
    gen_hidden_size = 100
    disc_hidden_layers = 1
    disc_hidden_size = 100

    tf.random.set_seed(1)

    gen_model = make_generator_network(
        num_hidden_layers=gen_hidden_layers, 
        num_hidden_units=gen_hidden_size,
        num_output_units=np.prod(image_size))

    gen_model.build(input_shape=(None, z_size))
    fixed_weights(gen_model.weights, seed=1, scale=0.1)
    gen_model.summary()

    disc_model = make_discriminator_network(
        num_hidden_layers=disc_hidden_layers,
        num_hidden_units=disc_hidden_size)

    disc_model.build(input_shape=(None, int(np.prod(image_size))))
    fixed_weights(disc_model.weights, seed=2, scale=0.1)
    disc_model.summary()

    images = data(1, 64, 28, 28, 1, low=0, high=255).round().astype(np.uint8)
    zs = data(2, 64, z_size, low=-1.0, high=1.0)
    mnist = {'train': tf.data.Dataset.from_tensor_slices({'image': images, 'z': zs})}

    mnist_trainset = mnist['train']

    print('Before preprocessing:  ')
    example = next(iter(mnist_trainset))['image']
    print('dtype: ', example.dtype, ' Min: {} Max: {}'.format(np.min(example), np.max(example)))

    mnist_trainset = mnist_trainset.map(preprocess)

    print('After preprocessing:  ')
    example = next(iter(mnist_trainset))[0]
    print('dtype: ', example.dtype, ' Min: {} Max: {}'.format(np.min(example), np.max(example)))

    mnist_trainset = mnist_trainset.batch(32, drop_remainder=True)
    input_z, input_real = next(iter(mnist_trainset))
    print('input-z -- shape:', input_z.shape)
    print('input-real -- shape:', input_real.shape)

    g_output = gen_model(input_z)
    print('Output of G -- shape:', g_output.shape)

    d_logits_real = disc_model(input_real)
    d_logits_fake = disc_model(g_output)
    print('Disc. (real) -- shape:', d_logits_real.shape)
    print('Disc. (fake) -- shape:', d_logits_fake.shape)

    loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    ## Loss for the Generator
    g_labels_real = tf.ones_like(d_logits_fake)
    g_loss = loss_fn(y_true=g_labels_real, y_pred=d_logits_fake)
    print('Generator Loss: {:.4f}'.format(g_loss))

    ## Loss for the Discriminator
    d_labels_real = tf.ones_like(d_logits_real)
    d_labels_fake = tf.zeros_like(d_logits_fake)

    d_loss_real = loss_fn(y_true=d_labels_real, y_pred=d_logits_real)
    d_loss_fake = loss_fn(y_true=d_labels_fake, y_pred=d_logits_fake)
    print('Discriminator Losses: Real {:.4f} Fake {:.4f}'
          .format(d_loss_real.numpy(), d_loss_fake.numpy()))
    out["first_losses"] = [g_loss, d_loss_real, d_loss_fake]

    num_epochs = 3
    batch_size = 64
    
    tf.random.set_seed(1)
    np.random.seed(1)

    if mode_z == 'uniform':
        fixed_z = tf.constant(np.random.default_rng(3).uniform(
            -1, 1, size=(batch_size, z_size)).astype(np.float32))
    elif mode_z == 'normal':
        fixed_z = tf.constant(np.random.default_rng(3).normal(
            size=(batch_size, z_size)).astype(np.float32))

    def create_samples(g_model, input_z):
        g_output = g_model(input_z, training=False)
        images = tf.reshape(g_output, (batch_size, *image_size))    
        return (images+1)/2.0

    ## Set-up the dataset
    mnist_trainset = mnist['train']
    mnist_trainset = mnist_trainset.map(
        lambda ex: preprocess(ex, mode=mode_z))

    mnist_trainset = mnist_trainset.shuffle(10000)
    mnist_trainset = mnist_trainset.batch(
        batch_size, drop_remainder=True)

    ## Set-up the model
    with tf.device(device_name):
        gen_model = make_generator_network(
            num_hidden_layers=gen_hidden_layers, 
            num_hidden_units=gen_hidden_size,
            num_output_units=np.prod(image_size))
        gen_model.build(input_shape=(None, z_size))
        fixed_weights(gen_model.weights, seed=3, scale=0.1)

        disc_model = make_discriminator_network(
            num_hidden_layers=disc_hidden_layers,
            num_hidden_units=disc_hidden_size)
        disc_model.build(input_shape=(None, int(np.prod(image_size))))
        fixed_weights(disc_model.weights, seed=4, scale=0.1)

    ## Loss function and optimizers:
    loss_fn = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_optimizer = tf.keras.optimizers.Adam()
    d_optimizer = tf.keras.optimizers.Adam()

    all_losses = []
    all_d_vals = []
    epoch_samples = []

    start_time = time.time()
    for epoch in range(1, num_epochs+1):
        epoch_losses, epoch_d_vals = [], []
        for i,(input_z,input_real) in enumerate(mnist_trainset):
            
            ## Compute generator's loss
            with tf.GradientTape() as g_tape:
                g_output = gen_model(input_z)
                d_logits_fake = disc_model(g_output, training=True)
                labels_real = tf.ones_like(d_logits_fake)
                g_loss = loss_fn(y_true=labels_real, y_pred=d_logits_fake)
                
            g_grads = g_tape.gradient(g_loss, gen_model.trainable_variables)
            g_optimizer.apply_gradients(
                grads_and_vars=zip(g_grads, gen_model.trainable_variables))

            ## Compute discriminator's loss
            with tf.GradientTape() as d_tape:
                d_logits_real = disc_model(input_real, training=True)

                d_labels_real = tf.ones_like(d_logits_real)
                
                d_loss_real = loss_fn(
                    y_true=d_labels_real, y_pred=d_logits_real)

                d_logits_fake = disc_model(g_output, training=True)
                d_labels_fake = tf.zeros_like(d_logits_fake)

                d_loss_fake = loss_fn(
                    y_true=d_labels_fake, y_pred=d_logits_fake)

                d_loss = d_loss_real + d_loss_fake

            ## Compute the gradients of d_loss
            d_grads = d_tape.gradient(d_loss, disc_model.trainable_variables)
            
            ## Optimization: Apply the gradients
            d_optimizer.apply_gradients(
                grads_and_vars=zip(d_grads, disc_model.trainable_variables))
                               
            epoch_losses.append(
                (g_loss.numpy(), d_loss.numpy(), 
                 d_loss_real.numpy(), d_loss_fake.numpy()))
            
            d_probs_real = tf.reduce_mean(tf.sigmoid(d_logits_real))
            d_probs_fake = tf.reduce_mean(tf.sigmoid(d_logits_fake))
            epoch_d_vals.append((d_probs_real.numpy(), d_probs_fake.numpy()))        
        all_losses.append(epoch_losses)
        all_d_vals.append(epoch_d_vals)
        print(
            'Epoch {:03d} | ET {:.2f} min | Avg Losses >>'
            ' G/D {:.4f}/{:.4f} [D-Real: {:.4f} D-Fake: {:.4f}]'
            .format(
                epoch, (time.time() - start_time)/60, 
                *list(np.mean(all_losses[-1], axis=0))))
        epoch_samples.append(
            create_samples(gen_model, fixed_z).numpy())

    g_losses = [item[0] for item in itertools.chain(*all_losses)]
    d_losses = [item[1]/2.0 for item in itertools.chain(*all_losses)]
    d_vals_real = [item[0] for item in itertools.chain(*all_d_vals)]
    d_vals_fake = [item[1] for item in itertools.chain(*all_d_vals)]
    out["g_losses"], out["d_losses"] = g_losses, d_losses
    out["d_vals"] = [d_vals_real, d_vals_fake]
    out["samples"] = [s[:2, 10:14, 10:14] for s in epoch_samples]
    return out
