# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter5-7.md)
# Adapted: the page's code cells placed one after another in main(); fit for 3 epochs of
# 100 steps instead of 10; main() returns x, the step counts, the losses and the fit
# history the cells print.
import tensorflow as tf
import numpy as np


def main():
    out = {}

    # Time stamp
    @tf.function
    def printbar():
        ts = tf.timestamp()
        today_ts = ts%(24*60*60)

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
        tf.print("=========="*8,end = "")
        tf.print(timestring)

    # The minimal value of f(x) = a*x**2 + b*x + c

    # Here we use optimizer.apply_gradients

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    @tf.function
    def minimizef():
        a = tf.constant(1.0)
        b = tf.constant(-2.0)
        c = tf.constant(1.0)

        while tf.constant(True): 
            with tf.GradientTape() as tape:
                y = a*tf.pow(x,2) + b*x + c
            dy_dx = tape.gradient(y,x)
            optimizer.apply_gradients(grads_and_vars=[(dy_dx,x)])

            # Condition of terminating the iteration
            if tf.abs(dy_dx)<tf.constant(0.00001):
                break

            if tf.math.mod(optimizer.iterations,100)==0:
                printbar()
                tf.print("step = ",optimizer.iterations)
                tf.print("x = ", x)
                tf.print("")

        y = a*tf.pow(x,2) + b*x + c
        return y

    tf.print("y =",minimizef())
    tf.print("x =",x)
    out["apply_gradients"] = [x.numpy(), optimizer.iterations.numpy()]

    # Minimal value of f(x) = a*x**2 + b*x + c

    # Here we use optimizer.minimize

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)   

    def f():   
        a = tf.constant(1.0)
        b = tf.constant(-2.0)
        c = tf.constant(1.0)
        y = a*tf.pow(x,2)+b*x+c
        return(y)

    @tf.function
    def train(epoch = 1000):  
        for _ in tf.range(epoch):  
            optimizer.minimize(f,[x])
        tf.print("epoch = ",optimizer.iterations)
        return(f())

    train(1000)
    tf.print("y = ",f())
    tf.print("x = ",x)
    out["minimize"] = [f(), x.numpy()]

    # Minimal value of f(x) = a*x**2 + b*x + c
    # Here we use model.fit

    tf.keras.backend.clear_session()

    class FakeModel(tf.keras.models.Model):
        def __init__(self,a,b,c):
            super(FakeModel,self).__init__()
            self.a = a
            self.b = b
            self.c = c

        def build(self):
            self.x = tf.Variable(0.0,name = "x")
            self.built = True

        def call(self,features):
            loss  = self.a*(self.x)**2+self.b*(self.x)+self.c
            return(tf.ones_like(features)*loss)

    def myloss(y_true,y_pred):
        return tf.reduce_mean(y_pred)

    model = FakeModel(tf.constant(1.0),tf.constant(-2.0),tf.constant(1.0))

    model.build()
    model.summary()

    model.compile(optimizer = 
                  tf.keras.optimizers.SGD(learning_rate=0.01),loss = myloss)
    history = model.fit(tf.zeros((100,2)),
                        tf.ones(100),batch_size = 1,epochs = 3)  # Iterate for 1000 times

    tf.print("x=",model.x)
    tf.print("loss=",model(tf.constant(0.0)))
    out["fit"] = [history.history, model.x, model(tf.constant(0.0))]
    return out
