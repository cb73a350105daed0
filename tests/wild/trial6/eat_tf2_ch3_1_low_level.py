# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter3-1.md)
# Adapted: the page's code cells placed one after another in main(), their repeated imports
# once at the top; the data (uniform X, Gaussian noise, ring radii and angles) and the
# starting weights drawn from seeded NumPy instead of tf.random.uniform, tf.random.normal and
# tf.random.truncated_normal (the truncated normal as a standard normal redrawn outside two
# standard deviations); np.random seeded (data_iter shuffles with it); 200 + 200 ring
# samples instead of 2000 + 2000; 20 epochs printed every 5 instead of 200 every 50 and 600
# every 100; the plotting cells (matplotlib) and the unused pandas import left out; main()
# returns what the cells print (losses, w, b, metrics), collected where they print it.
import numpy as np
import tensorflow as tf


def main():
    np.random.seed(0)
    rng = np.random.default_rng(0)

    def truncated_normal(shape):
        x = rng.standard_normal(shape)
        while (np.abs(x) > 2).any():
            x = np.where(np.abs(x) > 2, rng.standard_normal(shape), x)
        return x.astype(np.float32)

    out, printed = {}, []

    # Time Stamp
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



    # Number of samples
    n = 400

    # Generating the datasets
    X = tf.constant(rng.uniform(-10,10,size=[n,2]).astype(np.float32))
    w0 = tf.constant([[2.0],[-3.0]])
    b0 = tf.constant([[3.0]])
    Y = X@w0 + b0 + tf.constant(rng.normal(0.0,2.0,size=[n,1]).astype(np.float32))  # @ is matrix multiplication; adding Gaussian noise

    # Creating generator of data pipeline
    def data_iter(features, labels, batch_size=8):
        num_examples = len(features)
        indices = list(range(num_examples))
        np.random.shuffle(indices)  # Randomized reading order of the samples
        for i in range(0, num_examples, batch_size):
            indexs = indices[i: min(i + batch_size, num_examples)]
            yield tf.gather(features,indexs), tf.gather(labels,indexs)

    # Testing the data pipeline
    batch_size = 8
    (features,labels) = next(data_iter(X,Y,batch_size))
    print(features)
    print(labels)

    w = tf.Variable(rng.standard_normal(w0.shape).astype(np.float32))
    b = tf.Variable(tf.zeros_like(b0,dtype = tf.float32))

    # Defining Model
    class LinearRegression:     
        # Forward propagation
        def __call__(self,x): 
            return x@w + b

        # Loss function
        def loss_func(self,y_true,y_pred):  
            return tf.reduce_mean((y_true - y_pred)**2/2)

    model = LinearRegression()

    # Debug in dynamic graph
    def train_step(model, features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features)
            loss = model.loss_func(labels, predictions)
        # Back propagation to calculate the gradients
        dloss_dw,dloss_db = tape.gradient(loss,[w,b])
        # Updating parameters using gradient descending method
        w.assign(w - 0.001*dloss_dw)
        b.assign(b - 0.001*dloss_db)

        return loss

    # Test the results of train_step
    batch_size = 10
    (features,labels) = next(data_iter(X,Y,batch_size))
    out["first_step"] = train_step(model,features,labels)

    def train_model(model,epochs):
        for epoch in tf.range(1,epochs+1):
            for features, labels in data_iter(X,Y,10):
                loss = train_step(model,features,labels)

            if epoch%5==0:
                printbar()
                tf.print("epoch =",epoch,"loss = ",loss)
                tf.print("w =",w)
                tf.print("b =",b)
                printed.append([loss, w.numpy(), b.numpy()])

    train_model(model,epochs = 20)

    ## Accelerate using Autograph to transform the dynamic graph into static

    @tf.function
    def train_step(model, features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features)
            loss = model.loss_func(labels, predictions)
        # Back propagation to calculate the gradients
        dloss_dw,dloss_db = tape.gradient(loss,[w,b])
        # Updating parameters using gradient descending method
        w.assign(w - 0.001*dloss_dw)
        b.assign(b - 0.001*dloss_db)

        return loss

    def train_model(model,epochs):
        for epoch in tf.range(1,epochs+1):
            for features, labels in data_iter(X,Y,10):
                loss = train_step(model,features,labels)
            if epoch%5==0:
                printbar()
                tf.print("epoch =",epoch,"loss = ",loss)
                tf.print("w =",w)
                tf.print("b =",b)
                printed.append([loss, w.numpy(), b.numpy()])

    train_model(model,epochs = 20)


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


    # Visualizing the data

    # Create the generator of the data pipeline
    def data_iter(features, labels, batch_size=8):
        num_examples = len(features)
        indices = list(range(num_examples))
        np.random.shuffle(indices)  # Randomizing the reading order of the samples
        for i in range(0, num_examples, batch_size):
            indexs = indices[i: min(i + batch_size, num_examples)]
            yield tf.gather(features,indexs), tf.gather(labels,indexs)

    # Testing data pipeline
    batch_size = 10
    (features,labels) = next(data_iter(X,Y,batch_size))
    print(features)
    print(labels)

    class DNNModel(tf.Module):
        def __init__(self,name = None):
            super(DNNModel, self).__init__(name=name)
            self.w1 = tf.Variable(truncated_normal([2,4]),dtype = tf.float32)
            self.b1 = tf.Variable(tf.zeros([1,4]),dtype = tf.float32)
            self.w2 = tf.Variable(truncated_normal([4,8]),dtype = tf.float32)
            self.b2 = tf.Variable(tf.zeros([1,8]),dtype = tf.float32)
            self.w3 = tf.Variable(truncated_normal([8,1]),dtype = tf.float32)
            self.b3 = tf.Variable(tf.zeros([1,1]),dtype = tf.float32)


        # Forward propagation
        @tf.function(input_signature=[tf.TensorSpec(shape = [None,2], dtype = tf.float32)])  
        def __call__(self,x):
            x = tf.nn.relu(x@self.w1 + self.b1)
            x = tf.nn.relu(x@self.w2 + self.b2)
            y = tf.nn.sigmoid(x@self.w3 + self.b3)
            return y

        # Loss function (binary cross entropy)
        @tf.function(input_signature=[tf.TensorSpec(shape = [None,1], dtype = tf.float32),
                                  tf.TensorSpec(shape = [None,1], dtype = tf.float32)])  
        def loss_func(self,y_true,y_pred):  
            # Limiting the prediction between 1e-7 and 1 - 1e-7 to avoid the error at log(0)
            eps = 1e-7
            y_pred = tf.clip_by_value(y_pred,eps,1.0-eps)
            bce = - y_true*tf.math.log(y_pred) - (1-y_true)*tf.math.log(1-y_pred)
            return  tf.reduce_mean(bce)

        # Metric (Accuracy)
        @tf.function(input_signature=[tf.TensorSpec(shape = [None,1], dtype = tf.float32),
                                  tf.TensorSpec(shape = [None,1], dtype = tf.float32)]) 
        def metric_func(self,y_true,y_pred):
            y_pred = tf.where(y_pred>0.5,tf.ones_like(y_pred,dtype = tf.float32),
                              tf.zeros_like(y_pred,dtype = tf.float32))
            acc = tf.reduce_mean(1-tf.abs(y_true-y_pred))
            return acc

    model = DNNModel()

    # Testing the structure of model
    batch_size = 10
    (features,labels) = next(data_iter(X,Y,batch_size))

    predictions = model(features)

    loss = model.loss_func(labels,predictions)
    metric = model.metric_func(labels,predictions)

    tf.print("init loss:",loss)
    tf.print("init metric",metric)
    out["init"] = [loss, metric]

    print(len(model.trainable_variables))

    ## Transform to static graph for acceleration using Autograph

    @tf.function
    def train_step(model, features, labels):

        # Forward propagation to calculate the loss
        with tf.GradientTape() as tape:
            predictions = model(features)
            loss = model.loss_func(labels, predictions) 

        # Backward propagation to calculate the gradients
        grads = tape.gradient(loss, model.trainable_variables)

        # Applying gradient descending
        for p, dloss_dp in zip(model.trainable_variables,grads):
            p.assign(p - 0.001*dloss_dp)

        # Calculate metric
        metric = model.metric_func(labels,predictions)

        return loss, metric


    def train_model(model,epochs):
        for epoch in tf.range(1,epochs+1):
            for features, labels in data_iter(X,Y,100):
                loss,metric = train_step(model,features,labels)
            if epoch%5==0:
                printbar()
                tf.print("epoch =",epoch,"loss = ",loss, "accuracy = ", metric)
                printed.append([loss, metric])


    train_model(model,epochs = 20)
    out["printed"] = printed
    out["w"], out["b"] = w, b
    out["dnn_w3"] = model.w3
    return out
