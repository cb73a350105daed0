# After: https://pyimagesearch.com/2020/03/23/using-tensorflow-and-gradienttape-to-train-a-keras-model/
# (gradient_tape_example.py: build_model, a Sequential CNN of Conv2D, Activation,
# BatchNormalization and MaxPooling2D blocks, Dense(256), Dropout(0.5) and a softmax; the
# step function with categorical_crossentropy in a GradientTape and apply_gradients;
# Adam(lr=INIT_LR, decay=INIT_LR / EPOCHS); numUpdates batches per epoch; then compile
# with the same optimizer and evaluate on the test set)
# Adapted: 128 training and 32 test seeded synthetic uint8 28x28 images instead of MNIST,
# 2 epochs instead of 25; fixed weights; the timing prints left out. Adam is imported
# from tensorflow.keras.optimizers.legacy, as TensorFlow 2.21's error for `decay` tells
# (the post was written for TensorFlow 2.1, whose Adam took lr and decay).
import numpy as np
import tensorflow as tf
from tensorflow.keras.models import Sequential
from tensorflow.keras.layers import BatchNormalization
from tensorflow.keras.layers import Conv2D
from tensorflow.keras.layers import MaxPooling2D
from tensorflow.keras.layers import Activation
from tensorflow.keras.layers import Flatten
from tensorflow.keras.layers import Dropout
from tensorflow.keras.layers import Dense
from tensorflow.keras.optimizers.legacy import Adam
from tensorflow.keras.losses import categorical_crossentropy
from tensorflow.keras.utils import to_categorical
from adapt import data, fixed_weights, labels


def build_model(width, height, depth, classes):
	# initialize the input shape and channels dimension to be
	# "channels last" ordering
	inputShape = (height, width, depth)
	chanDim = -1

	# build the model using Keras' Sequential API
	model = Sequential([
		# CONV => RELU => BN => POOL layer set
		Conv2D(16, (3, 3), padding="same", input_shape=inputShape),
		Activation("relu"),
		BatchNormalization(axis=chanDim),
		MaxPooling2D(pool_size=(2, 2)),

		# (CONV => RELU => BN) * 2 => POOL layer set
		Conv2D(32, (3, 3), padding="same"),
		Activation("relu"),
		BatchNormalization(axis=chanDim),
		Conv2D(32, (3, 3), padding="same"),
		Activation("relu"),
		BatchNormalization(axis=chanDim),
		MaxPooling2D(pool_size=(2, 2)),

		# (CONV => RELU => BN) * 3 => POOL layer set
		Conv2D(64, (3, 3), padding="same"),
		Activation("relu"),
		BatchNormalization(axis=chanDim),
		Conv2D(64, (3, 3), padding="same"),
		Activation("relu"),
		BatchNormalization(axis=chanDim),
		Conv2D(64, (3, 3), padding="same"),
		Activation("relu"),
		BatchNormalization(axis=chanDim),
		MaxPooling2D(pool_size=(2, 2)),

		# first (and only) set of FC => RELU layers
		Flatten(),
		Dense(256),
		Activation("relu"),
		BatchNormalization(),
		Dropout(0.5),

		# softmax classifier
		Dense(classes),
		Activation("softmax")
	])

	# return the built model to the calling function
	return model


def step(X, y):
	# keep track of our gradients
	with tf.GradientTape() as tape:
		# make a prediction using the model and then calculate the
		# loss
		pred = model(X)
		loss = categorical_crossentropy(y, pred)

	# calculate the gradients using our tape and then update the
	# model weights
	grads = tape.gradient(loss, model.trainable_variables)
	opt.apply_gradients(zip(grads, model.trainable_variables))
	return loss


def main():
	global model, opt
	# initialize the number of epochs to train for, batch size, and
	# initial learning rate
	EPOCHS = 2
	BS = 64
	INIT_LR = 1e-3

	# load the MNIST dataset
	print("[INFO] loading MNIST dataset...")
	trainX, trainY = np.round(data(1, 128, 28, 28, low=0, high=255)).astype(np.uint8), labels(2, 128, 10)
	testX, testY = np.round(data(3, 32, 28, 28, low=0, high=255)).astype(np.uint8), labels(4, 32, 10)

	# add a channel dimension to every image in the dataset, then scale
	# the pixel intensities to the range [0, 1]
	trainX = np.expand_dims(trainX, axis=-1)
	testX = np.expand_dims(testX, axis=-1)
	trainX = trainX.astype("float32") / 255.0
	testX = testX.astype("float32") / 255.0

	# one-hot encode the labels
	trainY = to_categorical(trainY, 10)
	testY = to_categorical(testY, 10)

	# build our model and initialize our optimizer
	print("[INFO] creating model...")
	model = build_model(28, 28, 1, 10)
	fixed_weights([v for v in model.trainable_variables if len(v.shape) > 1], seed=5, scale=0.1)
	opt = Adam(lr=INIT_LR, decay=INIT_LR / EPOCHS)

	# compute the number of batch updates per epoch
	numUpdates = int(trainX.shape[0] / BS)

	losses = []
	# loop over the number of epochs
	for epoch in range(0, EPOCHS):
		# show the current epoch number
		print("[INFO] starting epoch {}/{}...".format(
			epoch + 1, EPOCHS), end="")

		# loop over the data in batch size increments
		for i in range(0, numUpdates):
			# determine starting and ending slice indexes for the current
			# batch
			start = i * BS
			end = start + BS

			# take a step
			losses.append(step(trainX[start:end], trainY[start:end]))

	# in order to calculate accuracy using Keras' functions we first need
	# to compile the model
	model.compile(optimizer=opt, loss=categorical_crossentropy,
		metrics=["acc"])

	# now that the model is compiled we can compute the accuracy
	(loss, acc) = model.evaluate(testX, testY)
	print("[INFO] test accuracy: {:.4f}".format(acc))
	return {"losses": [l[:4] for l in losses], "test": [loss, acc],
	        "probs": model(testX[:2])}
