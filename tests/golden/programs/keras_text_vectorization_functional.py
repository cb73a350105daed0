# tf.keras.layers.TextVectorization in a functional model taking raw strings (the guide on
# preprocessing layers): in "int" mode without output_sequence_length its output's sequence
# axis is unknown, so a recurrent model after it is built and called on any text length.
L = tf.keras.layers
vectorizer = L.TextVectorization(output_mode="int")
vectorizer.adapt(tf.constant(["The Brain is wider than the Sky", "For put them side by side",
                              "The one the other will contain", "With ease and You beside"]))
inputs = tf.keras.Input(shape=(1,), dtype="string")
x = vectorizer(inputs)
report("keras_tensor.shape", list(x.shape))
report("keras_tensor.dtype", x.dtype.name)
embedded = L.Embedding(vectorizer.vocabulary_size(), 3, embeddings_initializer="ones")(x)
report("embedded.shape", list(embedded.shape))
outputs = L.GRU(2, kernel_initializer="ones", recurrent_initializer="zeros")(embedded)
model = tf.keras.Model(inputs, outputs)
report("output", model(tf.constant([["The one the other will absorb"], ["Sky"]])))
fixed = L.TextVectorization(output_mode="int", output_sequence_length=4,
                            vocabulary=["the", "brain"])
report("fixed_length.shape", list(fixed(tf.keras.Input(shape=(1,), dtype="string")).shape))
