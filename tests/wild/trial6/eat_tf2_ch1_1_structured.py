# After: https://github.com/lyhue1991/eat_tensorflow2_in_30_days (english/Chapter1-1.md)
# Adapted: the page's code cells placed one after another in main(); instead of reading the
# Titanic CSV files with pandas and one-hot encoding them (pandas is not installed where the
# answers were recorded), 200 training and 100 test rows of the 15 columns the page's
# preprocessing makes (Pclass_1-3, female, male, Age, Age_null, SibSp, Parch, Fare,
# Cabin_null, Embarked_C/Q/S/nan) from seeded NumPy as float32 arrays, and Survived as 0/1;
# the Dense layers' weights fixed from seeded NumPy (adapt.fixed_weights) instead of the
# random initializers; 10 epochs instead of 30 and shuffle=False in fit (the order of
# batches decides each step); the plotting cells (matplotlib) left out; files written to a
# temporary folder instead of '../data/'; `(model.predict(x) > 0.5).astype("int32")`
# instead of model.predict_classes, which tf-keras 2.21 no longer has; main() returns the
# history, evaluations and predictions the cells show.
import os
import tempfile
import numpy as np
import tensorflow as tf
from tensorflow.keras import models,layers
from adapt import fixed_weights


def titanic_like(n, rng):
    pclass = np.eye(3)[rng.integers(0, 3, n)]
    sex = np.eye(2)[rng.integers(0, 2, n)]
    age_null = (rng.random(n) < 0.2).astype(np.float64)
    age = np.where(age_null == 1, 0.0, rng.integers(1, 80, n))
    sibsp, parch = rng.integers(0, 5, n), rng.integers(0, 4, n)
    fare = np.round(rng.uniform(5, 100, n), 2)
    cabin_null = (rng.random(n) < 0.7).astype(np.float64)
    embarked = np.eye(4)[rng.integers(0, 4, n)]
    x = np.column_stack([pclass, sex, age, age_null, sibsp, parch, fare, cabin_null, embarked])
    return x.astype(np.float32), rng.integers(0, 2, n)


def main():
    out = {}
    rng = np.random.default_rng(0)
    data_dir = tempfile.mkdtemp()
    x_train, y_train = titanic_like(200, rng)
    x_test, y_test = titanic_like(100, rng)

    print("x_train.shape =", x_train.shape )
    print("x_test.shape =", x_test.shape )

    tf.keras.backend.clear_session()

    model = models.Sequential()
    model.add(layers.Dense(20,activation = 'relu',input_shape=(15,)))
    model.add(layers.Dense(10,activation = 'relu' ))
    model.add(layers.Dense(1,activation = 'sigmoid' ))
    fixed_weights(model.weights, seed=1, scale=0.3)

    model.summary()

    # Use binary cross entropy loss function for binary classification
    model.compile(optimizer='adam',
                loss='binary_crossentropy',
                metrics=['AUC'])

    history = model.fit(x_train,y_train,
                        batch_size= 64,
                        epochs= 10,
                        validation_split=0.2, #Split part of the training data for validation
                        shuffle=False
                       )
    out["history"] = history.history

    out["evaluate"] = model.evaluate(x = x_test,y = y_test)

    #Predict the possiblities
    out["predict"] = model.predict(x_test[0:10])
    #model(tf.constant(x_test[0:10].values,dtype = tf.float32)) #Identical way

    #Predict the classes
    out["predict_classes"] = (model.predict(x_test[0:10]) > 0.5).astype("int32")

    # Saving model structure and parameters
    model.save(os.path.join(data_dir, 'keras_model.h5'))
    del model  #Deleting current model

    # Identical to the previous one
    model = models.load_model(os.path.join(data_dir, 'keras_model.h5'))
    out["evaluate_loaded"] = model.evaluate(x_test,y_test)

    # Saving the model structure
    json_str = model.to_json()

    # Retrieving the model structure
    model_json = models.model_from_json(json_str)

    # Saving the weights of the model
    model.save_weights(os.path.join(data_dir, 'keras_model_weight.h5'))

    # Retrieving the model structure
    model_json = models.model_from_json(json_str)
    model_json.compile(
            optimizer='adam',
            loss='binary_crossentropy',
            metrics=['AUC']
        )

    # Load the weights
    model_json.load_weights(os.path.join(data_dir, 'keras_model_weight.h5'))
    out["evaluate_json"] = model_json.evaluate(x_test,y_test)

    # Saving the weights, this way only save the tensors of the weights
    model.save_weights(os.path.join(data_dir, 'tf_model_weights.ckpt'),save_format = "tf")

    # Saving model structure and parameters to a file, so the model allows cross-platform deployment
    model.save(os.path.join(data_dir, 'tf_model_savedmodel'), save_format="tf")
    print('export saved model.')
    model_loaded = tf.keras.models.load_model(os.path.join(data_dir, 'tf_model_savedmodel'))
    out["evaluate_savedmodel"] = model_loaded.evaluate(x_test,y_test)
    return out
