# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter3-2.md)
# Adapted: the page's code cells placed one after another in main(), their repeated imports
# once at the top; the data (uniform X, Gaussian noise, ring radii and angles) drawn from
# seeded NumPy instead of tf.random.uniform, tf.random.normal and tf.random.truncated_normal
# (the truncated normal as a standard normal redrawn outside two standard deviations);
# shuffle buffers of 1 instead of 100 and 4000 (the order of batches decides each step);
# the Dense layers' weights fixed from seeded NumPy (adapt.fixed_weights; the DNN's three
# layers built first for it) instead of the random initializers; 200 + 200 ring samples
# instead of 2000 + 2000; 20 epochs printed every 5 instead of 200 every 50, and 10 instead
# of 60; the plotting cells (matplotlib) and the unused pandas import left out; main()
# returns what the cells print (losses, w, b), collected where they print it outside
# tf.function, and the trained DNN's weights and predictions.
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers,losses,metrics,optimizers
from adapt import fixed_weights


def main():
    rng = np.random.default_rng(0)

    def truncated_normal(shape):
        x = rng.standard_normal(shape)
        while (np.abs(x) > 2).any():
            x = np.where(np.abs(x) > 2, rng.standard_normal(shape), x)
        return x.astype(np.float32)

    out, printed = {"first_steps": []}, []

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

    # Creating generator of data pipeline
    ds = tf.data.Dataset.from_tensor_slices((X,Y)) \
         .shuffle(buffer_size = 1).batch(10) \
         .prefetch(tf.data.experimental.AUTOTUNE)

    model = layers.Dense(units = 1) 
    model.build(input_shape = (2,)) #Creating variables using the build method
    fixed_weights(model.weights, seed=1, scale=0.5)
    model.loss_func = losses.mean_squared_error
    model.optimizer = optimizers.SGD(learning_rate=0.001)

    # Accelerate using Autograph to transform the dynamic graph into static

    @tf.function
    def train_step(model, features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features)
            loss = model.loss_func(tf.reshape(labels,[-1]), tf.reshape(predictions,[-1]))
        grads = tape.gradient(loss,model.variables)
        model.optimizer.apply_gradients(zip(grads,model.variables))
        return loss

    # Testing the results of train_step
    features,labels = next(ds.as_numpy_iterator())
    out["first_steps"].append(train_step(model,features,labels))

    def train_model(model,epochs):
        for epoch in tf.range(1,epochs+1):
            loss = tf.constant(0.0)
            for features, labels in ds:
                loss = train_step(model,features,labels)
            if epoch%5==0:
                printbar()
                tf.print("epoch =",epoch,"loss = ",loss)
                tf.print("w =",model.variables[0])
                tf.print("b =",model.variables[1])
            printed.append([loss, model.variables[0].numpy(), model.variables[1].numpy()])
    train_model(model,epochs = 20)


    ## Number of the positive/negative samples
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


    # Visualizing the data

    # Create pipeline for the input data
    ds = tf.data.Dataset.from_tensor_slices((X,Y)) \
         .shuffle(buffer_size = 1).batch(100) \
         .prefetch(tf.data.experimental.AUTOTUNE)

    class DNNModel(tf.Module):
        def __init__(self,name = None):
            super(DNNModel, self).__init__(name=name)
            self.dense1 = layers.Dense(4,activation = "relu") 
            self.dense2 = layers.Dense(8,activation = "relu")
            self.dense3 = layers.Dense(1,activation = "sigmoid")


        # Forward propagation
        @tf.function(input_signature=[tf.TensorSpec(shape = [None,2], dtype = tf.float32)])  
        def __call__(self,x):
            x = self.dense1(x)
            x = self.dense2(x)
            y = self.dense3(x)
            return y

    model = DNNModel()
    model.loss_func = losses.binary_crossentropy
    model.metric_func = metrics.binary_accuracy
    model.optimizer = optimizers.Adam(learning_rate=0.001)
    model.dense1.build((None, 2)); model.dense2.build((None, 4)); model.dense3.build((None, 8))
    fixed_weights(model.trainable_variables, seed=2, scale=0.5)

    # Testing the structure of model
    (features,labels) = next(ds.as_numpy_iterator())

    predictions = model(features)

    loss = model.loss_func(tf.reshape(labels,[-1]),tf.reshape(predictions,[-1]))
    metric = model.metric_func(tf.reshape(labels,[-1]),tf.reshape(predictions,[-1]))

    tf.print("init loss:",loss)
    tf.print("init metric",metric)
    out["init"] = [loss, metric]

    # Transform to static graph for acceleration using Autograph

    @tf.function
    def train_step(model, features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features)
            loss = model.loss_func(tf.reshape(labels,[-1]), tf.reshape(predictions,[-1]))
        grads = tape.gradient(loss,model.trainable_variables)
        model.optimizer.apply_gradients(zip(grads,model.trainable_variables))

        metric = model.metric_func(tf.reshape(labels,[-1]), tf.reshape(predictions,[-1]))

        return loss,metric

    # Testing the result of train_step
    features,labels = next(ds.as_numpy_iterator())
    out["first_steps"].append(train_step(model,features,labels))

    @tf.function
    def train_model(model,epochs):
        for epoch in tf.range(1,epochs+1):
            loss, metric = tf.constant(0.0),tf.constant(0.0)
            for features, labels in ds:
                loss,metric = train_step(model,features,labels)
            if epoch%10==0:
                printbar()
                tf.print("epoch =",epoch,"loss = ",loss, "accuracy = ",metric)
    train_model(model,epochs = 10)
    out["printed"] = printed
    out["dnn_weights"] = model.trainable_variables
    out["dnn_predictions"] = model(X[::40])
    return out
