# After: https://github.com/rasbt/python-machine-learning-book-3rd-edition (ch14/ch14_part1.py:
# the TensorFlow 2 parts: compute_z eagerly and as @tf.function with and without an
# input_signature of TensorSpecs, tf.Variables (float, int, bool, string) with assign and
# assign_add, GlorotNormal initializers, a tf.Module's variables, GradientTape gradients
# with respect to a variable, a watched tensor and a persistent tape, an SGD
# apply_gradients; Sequential models built and compiled with Accuracy, Precision, Recall;
# the XOR data fit by a logistic Sequential, a deeper Sequential, a functional Model and a
# subclassed MyModel; the NoisyLinear custom layer with get_config/from_config, and a
# Sequential with NoisyLinear fit on XOR)
# Adapted: fixed weights after each model is built instead of its random initializers;
# 3 epochs instead of 200; fit's shuffle off (the data are already uniform draws of seeded
# NumPy; with batch_size=2 the shuffle's order decides every step); NoisyLinear's noise drawn
# by seeded NumPy instead of tf.random.normal, with the last model compiled with
# run_eagerly=True so that a fresh draw is made for each step as eager code does; the
# TensorFlow 1 graph-and-session cells (tf.Graph, tf.compat.v1.Session, placeholders), the
# plots and plot_decision_regions (mlxtend) left out; the random initializers' values
# printed, not answered, and the tf.random.uniform matrix multiplied by compute_z assigned
# fixed values (np.arange(9) / 10) before use.
import tensorflow as tf
import numpy as np
from adapt import fixed_weights

NOISE = np.random.default_rng(5)


class NoisyLinear(tf.keras.layers.Layer):
    def __init__(self, output_dim, noise_stddev=0.1, **kwargs):
        self.output_dim = output_dim
        self.noise_stddev = noise_stddev
        super(NoisyLinear, self).__init__(**kwargs)

    def build(self, input_shape):
        self.w = self.add_weight(name='weights',
                                 shape=(input_shape[1], self.output_dim),
                                 initializer='random_normal',
                                 trainable=True)
        
        self.b = self.add_weight(shape=(self.output_dim,),
                                 initializer='zeros',
                                 trainable=True)

    def call(self, inputs, training=False):
        if training:
            batch = tf.shape(inputs)[0]
            dim = tf.shape(inputs)[1]
            noise = tf.constant(NOISE.normal(0.0, self.noise_stddev,
                                             size=(int(batch), int(dim))).astype(np.float32))
            noisy_inputs = tf.add(inputs, noise)
        else:
            noisy_inputs = inputs
        z = tf.matmul(noisy_inputs, self.w) + self.b
        return tf.keras.activations.relu(z)
    
    def get_config(self):
        config = super(NoisyLinear, self).get_config()
        config.update({'output_dim': self.output_dim,
                       'noise_stddev': self.noise_stddev})
        return config


def main():
    out = {}
    a = tf.constant(1, name='a')
    b = tf.constant(2, name='b')
    c = tf.constant(3, name='c')
    z = 2*(a - b) + c
    tf.print('Result: z =', z)
    out["z"] = z

    def compute_z(a, b, c):
        r1 = tf.subtract(a, b)
        r2 = tf.multiply(2, r1)
        z = tf.add(r2, c)
        return z

    tf.print('Scalar Inputs:', compute_z(1, 2, 3))
    tf.print('Rank 1 Inputs:', compute_z([1], [2], [3]))
    tf.print('Rank 2 Inputs:', compute_z([[1]], [[2]], [[3]]))
    out["eager"] = [compute_z(1, 2, 3), compute_z([1], [2], [3]), compute_z([[1]], [[2]], [[3]])]

    @tf.function
    def compute_z(a, b, c):
        r1 = tf.subtract(a, b)
        r2 = tf.multiply(2, r1)
        z = tf.add(r2, c)
        return z

    tf.print('Scalar Inputs:', compute_z(1, 2, 3))
    tf.print('Rank 1 Inputs:', compute_z([1], [2], [3]))
    tf.print('Rank 2 Inputs:', compute_z([[1]], [[2]], [[3]]))
    out["function"] = [compute_z(1, 2, 3), compute_z([1], [2], [3]),
                       compute_z([[1]], [[2]], [[3]])]

    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),
                                  tf.TensorSpec(shape=[None], dtype=tf.int32),
                                  tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def compute_z(a, b, c):
        r1 = tf.subtract(a, b)
        r2 = tf.multiply(2, r1)
        z = tf.add(r2, c)
        return z

    tf.print('Rank 1 Inputs:', compute_z([1], [2], [3]))
    tf.print('Rank 1 Inputs:', compute_z([1, 2], [2, 4], [3, 6]))
    out["signature"] = [compute_z([1], [2], [3]), compute_z([1, 2], [2, 4], [3, 6])]

    tf.TensorSpec(shape=[None], dtype=tf.int32)

    a = tf.Variable(initial_value=3.14, name='var_a')
    b = tf.Variable(initial_value=[1, 2, 3], name='var_b')
    c = tf.Variable(initial_value=[True, False], dtype=tf.bool)
    d = tf.Variable(initial_value=['abc'], dtype=tf.string)
    print(a)
    print(b)
    print(c)
    print(d)
    out["variables"] = [a, b, c, a.trainable]

    w = tf.Variable([1, 2, 3], trainable=False)
    print(w.trainable)
    print(w.assign([3, 1, 4], read_value=True))
    w.assign_add([2, -1, 2], read_value=False)
    print(w.value())
    out["assigned"] = [w.trainable, w.value()]

    tf.random.set_seed(1)
    init = tf.keras.initializers.GlorotNormal()
    tf.print(init(shape=(3,)))
    v = tf.Variable(init(shape=(2, 3)))
    tf.print(v)

    class MyModule(tf.Module):
        def __init__(self):
            init = tf.keras.initializers.GlorotNormal()
            self.w1 = tf.Variable(init(shape=(2, 3)), trainable=True)
            self.w2 = tf.Variable(init(shape=(1, 2)), trainable=False)
                
    m = MyModule()
    print('All module variables: ', [v.shape for v in m.variables])
    print('Trainable variable:   ', [v.shape for v in
                                     m.trainable_variables])
    out["module"] = [[list(v.shape) for v in m.variables],
                     [list(v.shape) for v in m.trainable_variables]]

    tf.random.set_seed(1)
    w = tf.Variable(tf.random.uniform((3, 3)))
    w.assign(np.arange(9, dtype=np.float32).reshape(3, 3) / 10)

    @tf.function
    def compute_z(x):    
        return tf.matmul(w, x)

    x = tf.constant([[1], [2], [3]], dtype=tf.float32)
    tf.print(compute_z(x))
    out["matmul"] = compute_z(x)

    w = tf.Variable(1.0)
    b = tf.Variable(0.5)
    print(w.trainable, b.trainable)

    x = tf.convert_to_tensor([1.4])
    y = tf.convert_to_tensor([2.1])

    with tf.GradientTape() as tape:
        z = tf.add(tf.multiply(w, x), b)
        loss = tf.reduce_sum(tf.square(y - z))

    dloss_dw = tape.gradient(loss, w)

    tf.print('dL/dw : ', dloss_dw)
    tf.print(2*x * ((w*x + b) - y))
    out["dloss_dw"] = [dloss_dw, 2*x * ((w*x + b) - y)]

    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.add(tf.multiply(w, x), b)
        loss = tf.square(y - z)

    dloss_dx = tape.gradient(loss, x)

    tf.print('dL/dx:', dloss_dx)
    tf.print(2*w * ((w*x + b) - y))
    out["dloss_dx"] = [dloss_dx, 2*w * ((w*x + b) - y)]

    with tf.GradientTape(persistent=True) as tape:
        z = tf.add(tf.multiply(w, x), b)
        loss = tf.reduce_sum(tf.square(y - z))

    dloss_dw = tape.gradient(loss, w)
    dloss_db = tape.gradient(loss, b)

    tf.print('dL/dw:', dloss_dw)
    tf.print('dL/db:', dloss_db)

    optimizer = tf.keras.optimizers.SGD()
    optimizer.apply_gradients(zip([dloss_dw, dloss_db], [w, b]))

    tf.print('Updated w:', w)
    tf.print('Updated bias:', b)
    out["sgd"] = [dloss_dw, dloss_db, w, b]

    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Dense(units=16, activation='relu'))
    model.add(tf.keras.layers.Dense(units=32, activation='relu'))
    model.build(input_shape=(None, 4))
    model.summary()
    names = []
    for v in model.variables:
        print('{:20s}'.format(v.name), v.trainable, v.shape)
        names.append([v.name, v.trainable, list(v.shape)])
    out["variable_names"] = names

    model = tf.keras.Sequential()
    model.add(
        tf.keras.layers.Dense(
            units=16, 
            activation=tf.keras.activations.relu,
            kernel_initializer=tf.keras.initializers.GlorotNormal(),
            bias_initializer=tf.keras.initializers.Constant(2.0)
        ))
    model.add(
        tf.keras.layers.Dense(
            units=32, 
            activation=tf.keras.activations.sigmoid,
            kernel_regularizer=tf.keras.regularizers.l1
        ))
    model.build(input_shape=(None, 4))
    model.summary()
    out["bias_init"] = model.weights[1]

    model.compile(
        optimizer=tf.keras.optimizers.SGD(learning_rate=0.001),
        loss=tf.keras.losses.BinaryCrossentropy(),
        metrics=[tf.keras.metrics.Accuracy(), 
                 tf.keras.metrics.Precision(),
                 tf.keras.metrics.Recall(),])

    tf.random.set_seed(1)
    np.random.seed(1)
    x = np.random.uniform(low=-1, high=1, size=(200, 2))
    y = np.ones(len(x))
    y[x[:, 0] * x[:, 1]<0] = 0

    x_train = x[:100, :]
    y_train = y[:100]
    x_valid = x[100:, :]
    y_valid = y[100:]

    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Dense(units=1, 
                                    input_shape=(2,), 
                                    activation='sigmoid'))
    fixed_weights(model.weights, seed=1, scale=0.5)
    model.summary()
    model.compile(optimizer=tf.keras.optimizers.SGD(),
                  loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[tf.keras.metrics.BinaryAccuracy()])
    hist = model.fit(x_train, y_train, 
                     validation_data=(x_valid, y_valid), 
                     epochs=3, batch_size=2, verbose=0, shuffle=False)
    history = hist.history
    out["logistic"] = history

    tf.random.set_seed(1)
    model = tf.keras.Sequential()
    model.add(tf.keras.layers.Dense(units=4, input_shape=(2,), activation='relu'))
    model.add(tf.keras.layers.Dense(units=4, activation='relu'))
    model.add(tf.keras.layers.Dense(units=4, activation='relu'))
    model.add(tf.keras.layers.Dense(units=1, activation='sigmoid'))
    fixed_weights(model.weights, seed=2, scale=0.8)
    model.summary()
    model.compile(optimizer=tf.keras.optimizers.SGD(),
                  loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[tf.keras.metrics.BinaryAccuracy()])
    hist = model.fit(x_train, y_train, 
                     validation_data=(x_valid, y_valid), 
                     epochs=3, batch_size=2, verbose=0, shuffle=False)
    history = hist.history
    out["deep"] = history

    tf.random.set_seed(1)
    inputs = tf.keras.Input(shape=(2,))
    h1 = tf.keras.layers.Dense(units=4, activation='relu')(inputs)
    h2 = tf.keras.layers.Dense(units=4, activation='relu')(h1)
    h3 = tf.keras.layers.Dense(units=4, activation='relu')(h2)
    outputs = tf.keras.layers.Dense(units=1, activation='sigmoid')(h3)
    model = tf.keras.Model(inputs=inputs, outputs=outputs)
    fixed_weights(model.weights, seed=2, scale=0.8)
    model.summary()
    model.compile(optimizer=tf.keras.optimizers.SGD(),
                  loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[tf.keras.metrics.BinaryAccuracy()])
    hist = model.fit(x_train, y_train, 
                     validation_data=(x_valid, y_valid), 
                     epochs=3, batch_size=2, verbose=0, shuffle=False)
    history = hist.history
    out["functional"] = history

    class MyModel(tf.keras.Model):
        def __init__(self):
            super(MyModel, self).__init__()
            self.hidden_1 = tf.keras.layers.Dense(units=4, activation='relu')
            self.hidden_2 = tf.keras.layers.Dense(units=4, activation='relu')
            self.hidden_3 = tf.keras.layers.Dense(units=4, activation='relu')
            self.output_layer = tf.keras.layers.Dense(units=1, activation='sigmoid')
            
        def call(self, inputs):
            h = self.hidden_1(inputs)
            h = self.hidden_2(h)
            h = self.hidden_3(h)
            return self.output_layer(h)
    
    tf.random.set_seed(1)
    model = MyModel()
    model.build(input_shape=(None, 2))
    fixed_weights(model.weights, seed=2, scale=0.8)
    model.summary()
    model.compile(optimizer=tf.keras.optimizers.SGD(),
                  loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[tf.keras.metrics.BinaryAccuracy()])
    hist = model.fit(x_train, y_train, 
                     validation_data=(x_valid, y_valid), 
                     epochs=3, batch_size=2, verbose=0, shuffle=False)
    history = hist.history
    out["subclassed"] = history

    tf.random.set_seed(1)
    noisy_layer = NoisyLinear(4)
    noisy_layer.build(input_shape=(None, 4))
    fixed_weights(noisy_layer.weights, seed=3, scale=0.5)

    x = tf.zeros(shape=(1, 4))
    tf.print(noisy_layer(x, training=True))

    ## re-building from config:
    config = noisy_layer.get_config()
    new_layer = NoisyLinear.from_config(config)
    tf.print(new_layer(x, training=True))
    out["config"] = [config["output_dim"], config["noise_stddev"]]

    tf.random.set_seed(1)
    model = tf.keras.Sequential([
        NoisyLinear(4, noise_stddev=0.1),
        tf.keras.layers.Dense(units=4, activation='relu'),
        tf.keras.layers.Dense(units=4, activation='relu'),
        tf.keras.layers.Dense(units=1, activation='sigmoid')])
    model.build(input_shape=(None, 2))
    fixed_weights(model.weights, seed=4, scale=0.8)
    model.summary()
    model.compile(optimizer=tf.keras.optimizers.SGD(),
                  loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[tf.keras.metrics.BinaryAccuracy()],
                  run_eagerly=True)
    hist = model.fit(x_train, y_train, 
                     validation_data=(x_valid, y_valid), 
                     epochs=3, batch_size=2, 
                     verbose=0, shuffle=False)
    history = hist.history
    out["noisy"] = history
    out["noisy_weights"] = model.get_weights()
    return out
