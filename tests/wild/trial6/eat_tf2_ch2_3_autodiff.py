# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter2-3.md)
# Adapted: the page's code cells placed one after another in main(), which returns what
# the cells print.
import tensorflow as tf
import numpy as np


def main():
    out = {}
    # Calculate the derivative of f(x) = a*x**2 + b*x + c

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)

    with tf.GradientTape() as tape:
        y = a*tf.pow(x,2) + b*x + c

    dy_dx = tape.gradient(y,x)
    print(dy_dx)
    out["dy_dx"] = dy_dx

    # Use watch to calculate derivatives of the constant tensor

    with tf.GradientTape() as tape:
        tape.watch([a,b,c])
        y = a*tf.pow(x,2) + b*x + c

    dy_dx,dy_da,dy_db,dy_dc = tape.gradient(y,[x,a,b,c])
    print(dy_da)
    print(dy_dc)
    out["watched"] = [dy_dx, dy_da, dy_db, dy_dc]

    # Calculate the second order derivative
    with tf.GradientTape() as tape2:
        with tf.GradientTape() as tape1:
            y = a*tf.pow(x,2) + b*x + c
        dy_dx = tape1.gradient(y,x)
    dy2_dx2 = tape2.gradient(dy_dx,x)

    print(dy2_dx2)
    out["dy2_dx2"] = dy2_dx2

    # Use it in the autograph

    @tf.function
    def f(x):
        a = tf.constant(1.0)
        b = tf.constant(-2.0)
        c = tf.constant(1.0)

        # Convert the type of the variable to tf.float32
        x = tf.cast(x,tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = a*tf.pow(x,2)+b*x+c
        dy_dx = tape.gradient(y,x)

        return((dy_dx,y))

    tf.print(f(tf.constant(0.0)))
    tf.print(f(tf.constant(1.0)))
    out["autograph"] = [f(tf.constant(0.0)), f(tf.constant(1.0))]

    # Calculate the minimal value of f(x) = a*x**2 + b*x + c
    # Use optimizer.apply_gradients

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)
    a = tf.constant(1.0)
    b = tf.constant(-2.0)
    c = tf.constant(1.0)

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    for _ in range(1000):
        with tf.GradientTape() as tape:
            y = a*tf.pow(x,2) + b*x + c
        dy_dx = tape.gradient(y,x)
        optimizer.apply_gradients(grads_and_vars=[(dy_dx,x)])

    tf.print("y =",y,"; x =",x)
    out["apply_gradients"] = [y, x]

    # Calculate the minimal value off(x) = a*x**2 + b*x + c
    # Use optimizer.minimize
    # This optimizer.minimize is identical to calculating gradient using tape, then call apply_gradient

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)

    #Note that f() has no argument
    def f():
        a = tf.constant(1.0)
        b = tf.constant(-2.0)
        c = tf.constant(1.0)
        y = a*tf.pow(x,2)+b*x+c
        return(y)

    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    for _ in range(1000):
        optimizer.minimize(f,[x])

    tf.print("y =",f(),"; x =",x)
    out["minimize"] = [f(), x]

    # Calculate minimal value in Autograph
    # Use optimizer.apply_gradients

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    @tf.function
    def minimizef():
        a = tf.constant(1.0)
        b = tf.constant(-2.0)
        c = tf.constant(1.0)

        for _ in tf.range(1000): #Note that we should use tf.range(1000) instead of range(1000) when using Autograph
            with tf.GradientTape() as tape:
                y = a*tf.pow(x,2) + b*x + c
            dy_dx = tape.gradient(y,x)
            optimizer.apply_gradients(grads_and_vars=[(dy_dx,x)])

        y = a*tf.pow(x,2) + b*x + c
        return y

    tf.print(minimizef())
    tf.print(x)
    out["autograph_apply_gradients"] = x.numpy()

    # Calculate minimal value in Autograph
    # Use optimizer.minimize

    x = tf.Variable(0.0,name = "x",dtype = tf.float32)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    @tf.function
    def f():
        a = tf.constant(1.0)
        b = tf.constant(-2.0)
        c = tf.constant(1.0)
        y = a*tf.pow(x,2)+b*x+c
        return(y)

    @tf.function
    def train(epoch):
        for _ in tf.range(epoch):
            optimizer.minimize(f,[x])
        return(f())


    tf.print(train(1000))
    tf.print(x)
    out["autograph_minimize"] = x.numpy()
    return out
