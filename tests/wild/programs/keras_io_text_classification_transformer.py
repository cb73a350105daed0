# After: https://keras.io/examples/nlp/text_classification_with_transformer/ (the tf.keras
# version: TransformerBlock with MultiHeadAttention, a Sequential feed-forward network,
# two LayerNormalization(epsilon=1e-6) and Dropout; TokenAndPositionEmbedding with
# tf.range positions; GlobalAveragePooling1D and a softmax head; compile with adam and
# sparse_categorical_crossentropy; fit with validation_data)
# Adapted: 32 training and 16 validation seeded synthetic reviews instead of IMDB, maxlen
# 40 instead of 200, 2 epochs of batch_size 32 (one batch per epoch); fixed weights; the
# Dropout layers left out and TransformerBlock given rate=0.0 (random masks differ between
# libraries).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers
from adapt import fixed_weights


class TransformerBlock(layers.Layer):
    def __init__(self, embed_dim, num_heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = layers.MultiHeadAttention(num_heads=num_heads, key_dim=embed_dim)
        self.ffn = keras.Sequential(
            [layers.Dense(ff_dim, activation="relu"), layers.Dense(embed_dim),]
        )
        self.layernorm1 = layers.LayerNormalization(epsilon=1e-6)
        self.layernorm2 = layers.LayerNormalization(epsilon=1e-6)
        self.dropout1 = layers.Dropout(rate)
        self.dropout2 = layers.Dropout(rate)

    def call(self, inputs, training):
        attn_output = self.att(inputs, inputs)
        attn_output = self.dropout1(attn_output, training=training)
        out1 = self.layernorm1(inputs + attn_output)
        ffn_output = self.ffn(out1)
        ffn_output = self.dropout2(ffn_output, training=training)
        return self.layernorm2(out1 + ffn_output)


class TokenAndPositionEmbedding(layers.Layer):
    def __init__(self, maxlen, vocab_size, embed_dim):
        super().__init__()
        self.token_emb = layers.Embedding(input_dim=vocab_size, output_dim=embed_dim)
        self.pos_emb = layers.Embedding(input_dim=maxlen, output_dim=embed_dim)

    def call(self, x):
        maxlen = tf.shape(x)[-1]
        positions = tf.range(start=0, limit=maxlen, delta=1)
        positions = self.pos_emb(positions)
        x = self.token_emb(x)
        return x + positions


vocab_size = 20000  # Only consider the top 20k words
maxlen = 40  # Only consider the first 200 words of each movie review


def reviews(seed, n):
    rng = np.random.default_rng(seed)
    return ([list(rng.integers(1, vocab_size, size=rng.integers(5, 60))) for _ in range(n)],
            rng.integers(0, 2, size=n))


def main():
    (x_train, y_train), (x_val, y_val) = reviews(1, 32), reviews(2, 16)
    print(len(x_train), "Training sequences")
    print(len(x_val), "Validation sequences")
    x_train = keras.preprocessing.sequence.pad_sequences(x_train, maxlen=maxlen)
    x_val = keras.preprocessing.sequence.pad_sequences(x_val, maxlen=maxlen)

    embed_dim = 32  # Embedding size for each token
    num_heads = 2  # Number of attention heads
    ff_dim = 32  # Hidden layer size in feed forward network inside transformer

    inputs = layers.Input(shape=(maxlen,))
    embedding_layer = TokenAndPositionEmbedding(maxlen, vocab_size, embed_dim)
    x = embedding_layer(inputs)
    transformer_block = TransformerBlock(embed_dim, num_heads, ff_dim, rate=0.0)
    x = transformer_block(x)
    x = layers.GlobalAveragePooling1D()(x)
    x = layers.Dense(20, activation="relu")(x)
    outputs = layers.Dense(2, activation="softmax")(x)

    model = keras.Model(inputs=inputs, outputs=outputs)
    fixed_weights(model.trainable_variables, seed=3, scale=0.2)

    model.compile(
        optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"]
    )
    history = model.fit(
        x_train, y_train, batch_size=32, epochs=2, validation_data=(x_val, y_val)
    )
    return {"history": history.history, "predictions": model.predict(x_val, verbose=0),
            "variable_names": [v.name for v in model.trainable_variables]}
