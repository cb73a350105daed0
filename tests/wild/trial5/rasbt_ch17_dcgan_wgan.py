# After: https://github.com/rasbt/python-machine-learning-book-3rd-edition (ch17/ch17_part2.py:
# make_dcgan_generator (Input, Dense without bias, BatchNormalization, LeakyReLU, Reshape,
# Conv2DTranspose blocks, tanh) and make_dcgan_discriminator (Conv2D blocks with
# BatchNormalization, LeakyReLU and Dropout, a 7x7 valid Conv2D, Reshape((1,))), summaries,
# preprocess of MNIST items into a noise vector and an image in [-1, 1], the WGAN-GP
# training loop: a discriminator and a generator GradientTape open together, critic losses,
# a nested gp_tape watching the interpolated images for the gradient penalty, two Adam(0.0002)
# optimizers, and create_samples from a fixed noise batch after each epoch)
# Adapted: 128 seeded synthetic 28x28x1 uint8 images instead of tfds's MNIST (one batch of
# 128, so the shuffle reorders rows within the batch only), each with its noise vector drawn
# by seeded NumPy and carried in the dataset as 'z' (preprocess's tf.random.uniform, whose
# stream differs between libraries, reads ex['z'] instead); fixed_z and the gradient
# penalty's alpha drawn by seeded NumPy; 2 epochs instead of 100; fixed weights after each
# build (the BatchNormalization moving statistics included, set to zero means and unit
# variances); the discriminator's Dropout left out (its random mask makes the answers
# irreproducible); the plots left out.
import tensorflow as tf
import numpy as np
import time
import itertools
from adapt import data, fixed_weights

ALPHA = np.random.default_rng(6)


def set_weights(model, seed):
    fixed_weights(model.trainable_weights, seed=seed, scale=0.05)
    for v in model.non_trainable_weights:
        v.assign(np.zeros(v.shape, np.float32) if 'moving_mean' in v.name
                 else np.ones(v.shape, np.float32))


def make_dcgan_generator(
        z_size=20, 
        output_size=(28, 28, 1),
        n_filters=128, 
        n_blocks=2):
    size_factor = 2**n_blocks
    hidden_size = (
        output_size[0]//size_factor, 
        output_size[1]//size_factor
    )
    
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=(z_size,)),
        
        tf.keras.layers.Dense(
            units=n_filters*np.prod(hidden_size), 
            use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU(),
        tf.keras.layers.Reshape(
            (hidden_size[0], hidden_size[1], n_filters)),
    
        tf.keras.layers.Conv2DTranspose(
            filters=n_filters, kernel_size=(5, 5), strides=(1, 1),
            padding='same', use_bias=False),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU()
    ])
        
    nf = n_filters
    for i in range(n_blocks):
        nf = nf // 2
        model.add(
            tf.keras.layers.Conv2DTranspose(
                filters=nf, kernel_size=(5, 5), strides=(2, 2),
                padding='same', use_bias=False))
        model.add(tf.keras.layers.BatchNormalization())
        model.add(tf.keras.layers.LeakyReLU())
                
    model.add(
        tf.keras.layers.Conv2DTranspose(
            filters=output_size[2], kernel_size=(5, 5), 
            strides=(1, 1), padding='same', use_bias=False, 
            activation='tanh'))
        
    return model


def make_dcgan_discriminator(
        input_size=(28, 28, 1),
        n_filters=64, 
        n_blocks=2):
    model = tf.keras.Sequential([
        tf.keras.layers.Input(shape=input_size),
        tf.keras.layers.Conv2D(
            filters=n_filters, kernel_size=5, 
            strides=(1, 1), padding='same'),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.LeakyReLU()
    ])
    
    nf = n_filters
    for i in range(n_blocks):
        nf = nf*2
        model.add(
            tf.keras.layers.Conv2D(
                filters=nf, kernel_size=(5, 5), 
                strides=(2, 2),padding='same'))
        model.add(tf.keras.layers.BatchNormalization())
        model.add(tf.keras.layers.LeakyReLU())
        
    model.add(tf.keras.layers.Conv2D(
            filters=1, kernel_size=(7, 7), padding='valid'))
    
    model.add(tf.keras.layers.Reshape((1,)))
    
    return model


def preprocess(ex, mode='uniform'):
    image = ex['image']
    image = tf.image.convert_image_dtype(image, tf.float32)

    image = image*2 - 1.0
    if mode == 'uniform':
        input_z = ex['z']
    elif mode == 'normal':
        input_z = ex['z']
    return input_z, image


num_epochs = 2
batch_size = 128
image_size = (28, 28)
z_size = 20
mode_z = 'uniform'
lambda_gp = 10.0


def main():
    out = {}
    print(tf.__version__)

    print("GPU Available:", tf.test.is_gpu_available())

    if tf.test.is_gpu_available():
        device_name = tf.test.gpu_device_name()

    else:
        device_name = 'CPU:0'
        
    print(device_name)

    gen_model = make_dcgan_generator()
    gen_model.summary()

    disc_model = make_dcgan_discriminator()
    disc_model.summary()

    images = data(1, 128, 28, 28, 1, low=0, high=255).round().astype(np.uint8)
    zs = data(2, 128, z_size, low=-1.0, high=1.0)
    mnist = {'train': tf.data.Dataset.from_tensor_slices({'image': images, 'z': zs})}

    tf.random.set_seed(1)
    np.random.seed(1)

    ## Set-up the dataset
    mnist_trainset = mnist['train']
    mnist_trainset = mnist_trainset.map(preprocess)

    mnist_trainset = mnist_trainset.shuffle(10000)
    mnist_trainset = mnist_trainset.batch(
        batch_size, drop_remainder=True)

    ## Set-up the model
    with tf.device(device_name):
        gen_model = make_dcgan_generator()
        gen_model.build(input_shape=(None, z_size))
        set_weights(gen_model, 1)
        gen_model.summary()

        disc_model = make_dcgan_discriminator()
        disc_model.build(input_shape=(None, np.prod(image_size)))
        set_weights(disc_model, 2)
        disc_model.summary()

    ## optimizers:
    g_optimizer = tf.keras.optimizers.Adam(0.0002)
    d_optimizer = tf.keras.optimizers.Adam(0.0002)

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

    all_losses = []
    epoch_samples = []

    start_time = time.time()

    for epoch in range(1, num_epochs+1):
        
        epoch_losses = []

        for i,(input_z,input_real) in enumerate(mnist_trainset):
            
            ## Compute discriminator's loss and gradients:
            with tf.GradientTape() as d_tape, tf.GradientTape() as g_tape:
                g_output = gen_model(input_z, training=True)
                
                d_critics_real = disc_model(input_real, training=True)
                d_critics_fake = disc_model(g_output, training=True)

                ## Compute generator's loss:
                g_loss = -tf.math.reduce_mean(d_critics_fake)

                ## Compute discriminator's losses
                d_loss_real = -tf.math.reduce_mean(d_critics_real)
                d_loss_fake =  tf.math.reduce_mean(d_critics_fake)
                d_loss = d_loss_real + d_loss_fake

                ## Gradient penalty:
                with tf.GradientTape() as gp_tape:
                    alpha = tf.constant(ALPHA.uniform(
                        0.0, 1.0, size=[d_critics_real.shape[0], 1, 1, 1]).astype(np.float32))
                    interpolated = (
                        alpha*input_real + (1-alpha)*g_output)
                    gp_tape.watch(interpolated)
                    d_critics_intp = disc_model(interpolated)
                
                grads_intp = gp_tape.gradient(
                    d_critics_intp, [interpolated,])[0]
                grads_intp_l2 = tf.sqrt(
                    tf.reduce_sum(tf.square(grads_intp), axis=[1, 2, 3]))
                grad_penalty = tf.reduce_mean(tf.square(grads_intp_l2 - 1.0))
            
                d_loss = d_loss + lambda_gp*grad_penalty
            
            ## Optimization: Compute the gradients apply them
            d_grads = d_tape.gradient(d_loss, disc_model.trainable_variables)
            d_optimizer.apply_gradients(
                grads_and_vars=zip(d_grads, disc_model.trainable_variables))
            
            g_grads = g_tape.gradient(g_loss, gen_model.trainable_variables)
            g_optimizer.apply_gradients(
                grads_and_vars=zip(g_grads, gen_model.trainable_variables))

            epoch_losses.append(
                (g_loss.numpy(), d_loss.numpy(), 
                 d_loss_real.numpy(), d_loss_fake.numpy()))
                        
        all_losses.append(epoch_losses)
        
        print('Epoch {:-3d} | ET {:.2f} min | Avg Losses >>'
              ' G/D {:6.2f}/{:6.2f} [D-Real: {:6.2f} D-Fake: {:6.2f}]'
              .format(epoch, (time.time() - start_time)/60, 
                      *list(np.mean(all_losses[-1], axis=0)))
        )
        
        epoch_samples.append(
            create_samples(gen_model, fixed_z).numpy()
        )

    g_losses = [item[0] for item in itertools.chain(*all_losses)]
    d_losses = [item[1] for item in itertools.chain(*all_losses)]
    out["all_losses"] = all_losses
    out["g_losses"], out["d_losses"] = g_losses, d_losses
    out["samples"] = [s[:2, 10:14, 10:14] for s in epoch_samples]
    out["moving_mean"] = gen_model.layers[1].moving_mean[:5]
    return out
