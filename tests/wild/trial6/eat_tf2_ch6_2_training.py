# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter6-2.md)
# Adapted: the page's code cells placed one after another in main(); 64 training and 32
# test newswires of Reuters' form (seeded NumPy lists of word indices below 100, of
# lengths 20 to 400, and topics 0-45) instead of datasets.reuters.load_data(); shuffle
# buffers of 1 instead of 1000 (the order of batches decides each step); each model
# built for (None, MAX_LEN) and its weights fixed from seeded NumPy (adapt.fixed_weights)
# instead of the random initializers; fit for 3 epochs instead of 10, the train_on_batch
# loop for 6 instead of 10 (so that the learning rate is still halved at epoch 5), the
# custom loop for 3 instead of 10; main() returns the fit history and the results the
# two loops print (collected where they print).
import numpy as np
import tensorflow as tf
from tensorflow.keras import *
from adapt import fixed_weights


def reuters_like(n, seed=[0]):
    seed[0] += 1
    rng = np.random.default_rng(seed[0])
    x = [list(rng.integers(1, 100, size=rng.integers(20, 400))) for _ in range(n)]
    y = rng.integers(0, 46, size=n).astype(np.int64)
    y[0] = 45
    return x, y


def main():
    out, printed = {}, []

    # Time stamps
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

    MAX_LEN = 300
    BATCH_SIZE = 32
    (x_train,y_train),(x_test,y_test) = reuters_like(64), reuters_like(32)
    x_train = preprocessing.sequence.pad_sequences(x_train,maxlen=MAX_LEN)
    x_test = preprocessing.sequence.pad_sequences(x_test,maxlen=MAX_LEN)

    MAX_WORDS = x_train.max()+1
    CAT_NUM = y_train.max()+1

    ds_train = tf.data.Dataset.from_tensor_slices((x_train,y_train)) \
              .shuffle(buffer_size = 1).batch(BATCH_SIZE) \
              .prefetch(tf.data.experimental.AUTOTUNE).cache()

    ds_test = tf.data.Dataset.from_tensor_slices((x_test,y_test)) \
              .shuffle(buffer_size = 1).batch(BATCH_SIZE) \
              .prefetch(tf.data.experimental.AUTOTUNE).cache()

    tf.keras.backend.clear_session()
    def create_model():

        model = models.Sequential()
        model.add(layers.Embedding(MAX_WORDS,7,input_length=MAX_LEN))
        model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
        model.add(layers.MaxPool1D(2))
        model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
        model.add(layers.MaxPool1D(2))
        model.add(layers.Flatten())
        model.add(layers.Dense(CAT_NUM,activation = "softmax"))
        return(model)

    def compile_model(model):
        model.compile(optimizer=optimizers.Nadam(),
                    loss=losses.SparseCategoricalCrossentropy(),
                    metrics=[metrics.SparseCategoricalAccuracy(),metrics.SparseTopKCategoricalAccuracy(5)]) 
        return(model)

    model = create_model()
    model.build((None, MAX_LEN))
    fixed_weights(model.weights, seed=1, scale=0.2)
    model.summary()
    model = compile_model(model)

    history = model.fit(ds_train,validation_data = ds_test,epochs = 3)
    out["fit"] = history.history

    tf.keras.backend.clear_session()

    def create_model():
        model = models.Sequential()

        model.add(layers.Embedding(MAX_WORDS,7,input_length=MAX_LEN))
        model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
        model.add(layers.MaxPool1D(2))
        model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
        model.add(layers.MaxPool1D(2))
        model.add(layers.Flatten())
        model.add(layers.Dense(CAT_NUM,activation = "softmax"))
        return(model)

    def compile_model(model):
        model.compile(optimizer=optimizers.Nadam(),
                    loss=losses.SparseCategoricalCrossentropy(),
                    metrics=[metrics.SparseCategoricalAccuracy(),metrics.SparseTopKCategoricalAccuracy(5)]) 
        return(model)

    model = create_model()
    model.build((None, MAX_LEN))
    fixed_weights(model.weights, seed=1, scale=0.2)
    model.summary()
    model = compile_model(model)

    def train_model(model,ds_train,ds_valid,epoches):

        for epoch in tf.range(1,epoches+1):
            model.reset_metrics()

            # Reduce learning rate at the late stage of training.
            if epoch == 5:
                model.optimizer.lr.assign(model.optimizer.lr/2.0)
                tf.print("Lowering optimizer Learning Rate...\n\n")

            for x, y in ds_train:
                train_result = model.train_on_batch(x, y)

            for x, y in ds_valid:
                valid_result = model.test_on_batch(x, y,reset_metrics=False)

            if epoch%1 ==0:
                printbar()
                tf.print("epoch = ",epoch)
                print("train:",dict(zip(model.metrics_names,train_result)))
                print("valid:",dict(zip(model.metrics_names,valid_result)))
                printed.append([train_result, valid_result])
                print("")

    train_model(model,ds_train,ds_test,6)

    tf.keras.backend.clear_session()

    def create_model():

        model = models.Sequential()

        model.add(layers.Embedding(MAX_WORDS,7,input_length=MAX_LEN))
        model.add(layers.Conv1D(filters = 64,kernel_size = 5,activation = "relu"))
        model.add(layers.MaxPool1D(2))
        model.add(layers.Conv1D(filters = 32,kernel_size = 3,activation = "relu"))
        model.add(layers.MaxPool1D(2))
        model.add(layers.Flatten())
        model.add(layers.Dense(CAT_NUM,activation = "softmax"))
        return(model)

    model = create_model()
    model.build((None, MAX_LEN))
    fixed_weights(model.weights, seed=1, scale=0.2)
    model.summary()

    optimizer = optimizers.Nadam()
    loss_func = losses.SparseCategoricalCrossentropy()

    train_loss = metrics.Mean(name='train_loss')
    train_metric = metrics.SparseCategoricalAccuracy(name='train_accuracy')

    valid_loss = metrics.Mean(name='valid_loss')
    valid_metric = metrics.SparseCategoricalAccuracy(name='valid_accuracy')

    @tf.function
    def train_step(model, features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features,training = True)
            loss = loss_func(labels, predictions)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))

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

            if epoch%1 ==0:
                printbar()
                tf.print(tf.strings.format(logs,
                (epoch,train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result())))
                printed.append([train_loss.result(),train_metric.result(),valid_loss.result(),valid_metric.result()])
                tf.print("")

            train_loss.reset_states()
            valid_loss.reset_states()
            train_metric.reset_states()
            valid_metric.reset_states()

    train_model(model,ds_train,ds_test,3)
    out["printed"] = printed
    return out
