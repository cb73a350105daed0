# After: https://keras.io/examples/structured_data/collaborative_filtering_movielens/ (the
# tf.keras version: users and movies encoded to indices, ratings min-max normalized,
# RecommenderNet with he_normal Embeddings regularized by l2(1e-6) and bias Embeddings,
# tf.tensordot(user_vector, movie_vector, 2) and a sigmoid; compile with
# BinaryCrossentropy and Adam(0.001); fit with validation_data; the top-10 recommendations
# for a user from predict)
# Adapted: 200 seeded synthetic ratings of 20 users and 30 movies (a NumPy structured
# stand-in for the pandas DataFrame, the example's shuffle seeded), 3 epochs of batch_size
# 200 (one batch per epoch); the model built by calling it on a batch, then fixed weights.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights

EMBEDDING_SIZE = 50


class RecommenderNet(keras.Model):
    def __init__(self, num_users, num_movies, embedding_size, **kwargs):
        super().__init__(**kwargs)
        self.num_users = num_users
        self.num_movies = num_movies
        self.embedding_size = embedding_size
        self.user_embedding = layers.Embedding(
            num_users,
            embedding_size,
            embeddings_initializer="he_normal",
            embeddings_regularizer=keras.regularizers.l2(1e-6),
        )
        self.user_bias = layers.Embedding(num_users, 1)
        self.movie_embedding = layers.Embedding(
            num_movies,
            embedding_size,
            embeddings_initializer="he_normal",
            embeddings_regularizer=keras.regularizers.l2(1e-6),
        )
        self.movie_bias = layers.Embedding(num_movies, 1)

    def call(self, inputs):
        user_vector = self.user_embedding(inputs[:, 0])
        user_bias = self.user_bias(inputs[:, 0])
        movie_vector = self.movie_embedding(inputs[:, 1])
        movie_bias = self.movie_bias(inputs[:, 1])
        dot_user_movie = tf.tensordot(user_vector, movie_vector, 2)
        # Add all the components (including bias)
        x = dot_user_movie + user_bias + movie_bias
        # The sigmoid activation forces the rating to between 0 and 1
        return tf.nn.sigmoid(x)


def main():
    rng = np.random.default_rng(0)
    user_ids = rng.integers(100, 120, size=200)
    movie_ids_col = rng.integers(1000, 1030, size=200)
    ratings = rng.integers(1, 11, size=200) / 2.0

    user_ids_unique = sorted(set(user_ids.tolist()))
    user2user_encoded = {x: i for i, x in enumerate(user_ids_unique)}
    userencoded2user = {i: x for i, x in enumerate(user_ids_unique)}
    movie_ids = sorted(set(movie_ids_col.tolist()))
    movie2movie_encoded = {x: i for i, x in enumerate(movie_ids)}
    movie_encoded2movie = {i: x for i, x in enumerate(movie_ids)}
    user = np.array([user2user_encoded[u] for u in user_ids])
    movie = np.array([movie2movie_encoded[m] for m in movie_ids_col])

    num_users = len(user2user_encoded)
    num_movies = len(movie_encoded2movie)
    # min and max ratings will be used to normalize the ratings later
    min_rating = min(ratings)
    max_rating = max(ratings)

    order = np.random.default_rng(42).permutation(len(ratings))  # df.sample(frac=1, random_state=42)
    x = np.stack([user, movie], axis=1)[order]
    # Normalize the targets between 0 and 1. Makes it easy to train.
    y = np.array([(r - min_rating) / (max_rating - min_rating) for r in ratings[order]])
    # Assuming training on 90% of the data and validating on 10%.
    train_indices = int(0.9 * len(order))
    x_train, x_val, y_train, y_val = (
        x[:train_indices],
        x[train_indices:],
        y[:train_indices],
        y[train_indices:],
    )

    model = RecommenderNet(num_users, num_movies, EMBEDDING_SIZE)
    model(x_train[:1])
    fixed_weights(model.trainable_variables, seed=1, scale=0.3)
    model.compile(
        loss=tf.keras.losses.BinaryCrossentropy(),
        optimizer=keras.optimizers.Adam(learning_rate=0.001),
    )

    history = model.fit(
        x=x_train,
        y=y_train,
        batch_size=200,
        epochs=3,
        verbose=1,
        validation_data=(x_val, y_val),
    )

    # Let us get a user and see the top recommendations.
    user_id = user_ids[0]
    movies_watched_by_user = set(movie_ids_col[user_ids == user_id].tolist())
    movies_not_watched = [m for m in movie_ids if m not in movies_watched_by_user]
    movies_not_watched = [[movie2movie_encoded.get(x)] for x in movies_not_watched]
    user_encoder = user2user_encoded.get(user_id)
    user_movie_array = np.hstack(
        ([[user_encoder]] * len(movies_not_watched), movies_not_watched)
    )
    ratings_pred = model.predict(user_movie_array).flatten()
    top_ratings_indices = ratings_pred.argsort()[-10:][::-1]
    recommended_movie_ids = [
        movie_encoded2movie.get(movies_not_watched[x][0]) for x in top_ratings_indices
    ]
    return {"history": history.history, "ratings_pred": ratings_pred,
            "recommended": [int(m) for m in recommended_movie_ids],
            "losses": [float(l) for l in model.losses]}
