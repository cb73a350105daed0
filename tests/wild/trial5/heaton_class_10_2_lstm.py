# After: https://github.com/jeffheaton/t81_558_deep_learning (t81_558_class_10_2_lstm.ipynb:
# the sigmoid and tanh demo; the toy sequences of 0-3 with one-hot labels fit by a
# Sequential of LSTM(128) and Dense(4, sigmoid) compiled with binary_crossentropy and adam,
# predict and runit; then the sunspots: to_sequences windows of 10, an LSTM(64) with
# Dense(32) and Dense(1) compiled with mean_squared_error and adam, fit with validation data
# and EarlyStopping(monitor='val_loss', min_delta=1e-3, patience=5,
# restore_best_weights=True), and the RMSE of its predictions)
# Adapted: the first LSTM's dropout=0.2, recurrent_dropout=0.2 set to 0.0 (their random masks
# make the answers irreproducible); 200 epochs cut to 10; 32 training and 20 test sunspot
# values drawn by seeded NumPy instead of the CSV download read by pandas (pandas is not
# installed where the answers were recorded): 22 training windows, one batch; epochs=1000
# cut to 8 (EarlyStopping may stop sooner); sklearn's metrics.mean_squared_error computed with
# NumPy (scikit-learn is not installed there either); fixed weights; the notebook's cells
# inside main() (the repeated `import numpy as np` kept at the top only); the plots left out.
import math
import numpy as np
import tensorflow as tf
from adapt import fixed_weights


def sigmoid(x):
    a = []
    for item in x:
        a.append(1/(1+math.exp(-item)))
    return a

def f2(x):
    a = []
    for item in x:
        a.append(math.tanh(item))
    return a


def main():
    out = {}
    x = np.arange(-10., 10., 0.2)
    y1 = sigmoid(x)
    y2 = f2(x)
    out["curves"] = [y1[::10], y2[::10]]

    from tensorflow.keras.preprocessing import sequence
    from tensorflow.keras.models import Sequential
    from tensorflow.keras.layers import Dense, Embedding
    from tensorflow.keras.layers import LSTM

    max_features = 4 # 0,1,2,3 (total of 4)
    x = [
        [[0],[1],[1],[0],[0],[0]],
        [[0],[0],[0],[2],[2],[0]],
        [[0],[0],[0],[0],[3],[3]],
        [[0],[2],[2],[0],[0],[0]],
        [[0],[0],[3],[3],[0],[0]],
        [[0],[0],[0],[0],[1],[1]]
    ]
    x = np.array(x,dtype=np.float32)
    y = np.array([1,2,3,2,3,1],dtype=np.int32)

    # Convert y2 to dummy variables
    y2 = np.zeros((y.shape[0], max_features),dtype=np.float32)
    y2[np.arange(y.shape[0]), y] = 1.0
    print(y2)

    print('Build model...')
    model = Sequential()
    model.add(LSTM(128, dropout=0.0, recurrent_dropout=0.0, \
                   input_shape=(None, 1)))
    model.add(Dense(4, activation='sigmoid'))
    fixed_weights(model.weights, seed=1, scale=0.1)

    # try using different optimizers and different optimizer configs
    model.compile(loss='binary_crossentropy',
                  optimizer='adam',
                  metrics=['accuracy'])

    print('Train...')
    out["toy"] = model.fit(x,y2,epochs=10).history
    pred = model.predict(x)
    predict_classes = np.argmax(pred,axis=1)
    print("Predicted classes: {}",predict_classes)
    print("Expected classes: {}",y)
    out["toy_pred"] = pred

    def runit(model, inp):
        inp = np.array(inp,dtype=np.float32)
        pred = model.predict(inp)
        return np.argmax(pred[0])

    out["runit"] = runit( model, [[[0],[0],[0],[0],[0],[1]]] )

    rng = np.random.default_rng(5)
    spots = np.abs(80 + 60 * np.sin(np.arange(52) / 5.0) + rng.normal(0, 10, 52)).round(1)
    spots_train = spots[:32].tolist()
    spots_test = spots[32:].tolist()

    print("Training set has {} observations.".format(len(spots_train)))
    print("Test set has {} observations.".format(len(spots_test)))

    def to_sequences(seq_size, obs):
        x = []
        y = []

        for i in range(len(obs)-SEQUENCE_SIZE):
            #print(i)
            window = obs[i:(i+SEQUENCE_SIZE)]
            after_window = obs[i+SEQUENCE_SIZE]
            window = [[x] for x in window]
            #print("{} - {}".format(window,after_window))
            x.append(window)
            y.append(after_window)
            
        return np.array(x),np.array(y)
        
    SEQUENCE_SIZE = 10
    x_train,y_train = to_sequences(SEQUENCE_SIZE,spots_train)
    x_test,y_test = to_sequences(SEQUENCE_SIZE,spots_test)

    print("Shape of training set: {}".format(x_train.shape))
    print("Shape of test set: {}".format(x_test.shape))

    from tensorflow.keras.callbacks import EarlyStopping

    print('Build model...')
    model = Sequential()
    model.add(LSTM(64, dropout=0.0, recurrent_dropout=0.0,\
                       input_shape=(None, 1)))
    model.add(Dense(32))
    model.add(Dense(1))
    fixed_weights(model.weights, seed=2, scale=0.1)
    model.compile(loss='mean_squared_error', optimizer='adam')
    monitor = EarlyStopping(monitor='val_loss', min_delta=1e-3, patience=5, 
                            verbose=1, mode='auto', restore_best_weights=True)
    print('Train...')

    out["spots"] = model.fit(x_train,y_train,validation_data=(x_test,y_test),
              callbacks=[monitor],verbose=2,epochs=8).history

    pred = model.predict(x_test)
    score = np.sqrt(np.mean((pred[:, 0] - y_test) ** 2))
    print("Score (RMSE): {}".format(score))
    out["score"] = score
    return out
