# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter3-3.md)
# Adapted: the page's code cells placed one after another in main(), their repeated imports
# once at the top; the data (uniform X, Gaussian noise, ring radii and angles, the sample
# shuffle) drawn from seeded NumPy instead of tf.random.uniform, tf.random.normal,
# tf.random.truncated_normal (as a standard normal redrawn outside two standard deviations)
# and tf.random.shuffle (as a gather by a NumPy permutation); a shuffle buffer of 1 instead
# of 1000 and shuffle=False in fit (the order of batches decides each step); the models'
# weights fixed from seeded NumPy (adapt.fixed_weights) instead of the random initializers;
# 200 + 200 ring samples instead of 2000 + 2000; fit for 10 epochs instead of 200, the
# custom loop for 20 epochs printed every 5 instead of 1000 every 100; the plotting cells
# (matplotlib) and the unused pandas import left out; main() returns the fit history, w
# and b, the custom loop's printed metrics (collected where they print) and the trained
# DNN's weights.
import numpy as np
import tensorflow as tf
from tensorflow.keras import models,layers,losses,metrics,optimizers
from adapt import fixed_weights


def main():
    rng = np.random.default_rng(0)

    def truncated_normal(shape):
        x = rng.standard_normal(shape)
        while (np.abs(x) > 2).any():
            x = np.where(np.abs(x) > 2, rng.standard_normal(shape), x)
        return x.astype(np.float32)

    out, printed = {}, []

    # Time stamp
    @tf.function
    def printbar():
        today_ts = tf.timestamp()%(24*60*60)

        hour = tf.cast(today_ts//3600+8,tf.int32)%tf.constant(24)
        minite = tf.cast((today_ts%3600)//60,tf.int32)
        second = tf.cast(tf.floor(today_ts%60),tf.int32)

        def timeformat(m):
            if tf.strings.length(tf.strings.format("{}",m))==1:
                return(tf.strings.format("0{}",m))
            else:
                return(tf.strings.format("{}",m))

        timestring = tf.strings.join([timeformat(hour),timeformat(minite),
                    timeformat(second)],separator = ":")
        tf.print("=========="*8+timestring)


    # Number of sample
    n = 400

    # Generating the datasets
    X = tf.constant(rng.uniform(-10,10,size=[n,2]).astype(np.float32))
    w0 = tf.constant([[2.0],[-3.0]])
    b0 = tf.constant([[3.0]])
    Y = X@w0 + b0 + tf.constant(rng.normal(0.0,2.0,size=[n,1]).astype(np.float32))  # @ is matrix multiplication; adding Gaussian noise

    tf.keras.backend.clear_session()

    model = models.Sequential()
    model.add(layers.Dense(1,input_shape =(2,)))
    fixed_weights(model.weights, seed=1, scale=0.5)
    model.summary()

    ### Training using method fit

    model.compile(optimizer="adam",loss="mse",metrics=["mae"])
    history = model.fit(X,Y,batch_size = 10,epochs = 10,shuffle = False)
    out["fit"] = history.history

    tf.print("w = ",model.layers[0].kernel)
    tf.print("b = ",model.layers[0].bias)
    out["w"], out["b"] = model.layers[0].kernel, model.layers[0].bias


    # Number of the positive/negative samples
    n_positive,n_negative = 200,200

    # Generating the positive samples with a distribution on a smaller ring
    r_p = 5.0 + truncated_normal([n_positive,1])
    theta_p = tf.constant(rng.uniform(0.0,2*np.pi,size=[n_positive,1]).astype(np.float32)) 
    Xp = tf.concat([r_p*tf.cos(theta_p),r_p*tf.sin(theta_p)],axis = 1)
    Yp = tf.ones_like(r_p)

    # Generating the negative samples with a distribution on a larger ring
    r_n = 8.0 + truncated_normal([n_negative,1])
    theta_n = tf.constant(rng.uniform(0.0,2*np.pi,size=[n_negative,1]).astype(np.float32)) 
    Xn = tf.concat([r_n*tf.cos(theta_n),r_n*tf.sin(theta_n)],axis = 1)
    Yn = tf.zeros_like(r_n)

    # Assembling all samples
    X = tf.concat([Xp,Xn],axis = 0)
    Y = tf.concat([Yp,Yn],axis = 0)

    # Shuffling the samples
    data = tf.concat([X,Y],axis = 1)
    data = tf.gather(data, rng.permutation(n_positive + n_negative))
    X = data[:,:2]
    Y = data[:,2:]


    # Visualizing the data

    ds_train = tf.data.Dataset.from_tensor_slices((X[0:n*3//4,:],Y[0:n*3//4,:])) \
         .shuffle(buffer_size = 1).batch(20) \
         .prefetch(tf.data.experimental.AUTOTUNE) \
         .cache()

    ds_valid = tf.data.Dataset.from_tensor_slices((X[n*3//4:,:],Y[n*3//4:,:])) \
         .batch(20) \
         .prefetch(tf.data.experimental.AUTOTUNE) \
         .cache()

    tf.keras.backend.clear_session()
    class DNNModel(models.Model):
        def __init__(self):
            super(DNNModel, self).__init__()

        def build(self,input_shape):
            self.dense1 = layers.Dense(4,activation = "relu",name = "dense1") 
            self.dense2 = layers.Dense(8,activation = "relu",name = "dense2")
            self.dense3 = layers.Dense(1,activation = "sigmoid",name = "dense3")
            super(DNNModel,self).build(input_shape)

        # Forward propagation
        @tf.function(input_signature=[tf.TensorSpec(shape = [None,2], dtype = tf.float32)])  
        def call(self,x):
            x = self.dense1(x)
            x = self.dense2(x)
            y = self.dense3(x)
            return y

    model = DNNModel()
    model.build(input_shape =(None,2))
    fixed_weights(model.weights, seed=2, scale=0.5)

    model.summary()

    ### Customizing the training loop

    optimizer = optimizers.Adam(learning_rate=0.01)
    loss_func = tf.keras.losses.BinaryCrossentropy()

    train_loss = tf.keras.metrics.Mean(name='train_loss')
    train_metric = tf.keras.metrics.BinaryAccuracy(name='train_accuracy')

    valid_loss = tf.keras.metrics.Mean(name='valid_loss')
    valid_metric = tf.keras.metrics.BinaryAccuracy(name='valid_accuracy')


    @tf.function
    def train_step(model, features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features)
            loss = loss_func(labels, predictions)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

        train_loss.update_state(loss)
        train_metric.update_state(labels, predictions)

    @tf.function
    def valid_step(model, features, labels):
        predictions = model(features)
        batch_loss = loss_func(labels, predictions)
        valid_loss.update_state(batch_loss)
        valid_metric.update_state(labels, predictions)


    def train_model(model,ds_train,ds_valid,epochs):
        for epoch in tf.range(1,epochs+1):
            for features, labels in ds_train:
                train_step(model,features,labels)

            for features, labels in ds_valid:
                valid_step(model,features,labels)

            logs = 'Epoch={},Loss:{},Accuracy:{},Valid Loss:{},Valid Accuracy:{}'

            if  epoch%5 ==0:
                printbar()
                tf.print(tf.strings.format(logs,
                (epoch,train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result())))
                printed.append([train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result()])

            train_loss.reset_states()
            valid_loss.reset_states()
            train_metric.reset_states()
            valid_metric.reset_states()

    train_model(model,ds_train,ds_valid,20)
    out["printed"] = printed
    out["dnn_weights"] = model.trainable_variables
    return out
