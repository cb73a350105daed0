# After: https://github.com/rasbt/python-machine-learning-book-3rd-edition (ch16/ch16_part2.py:
# the character-level language model: the text cut between 'THE MYSTERIOUS ISLAND' and 'End
# of the Project Gutenberg', char2int and char_array, a Dataset.from_tensor_slices of the
# encoded text batched into chunks of 41 with drop_remainder, split_input_target mapped,
# shuffled and batched by 64; build_model's Embedding, LSTM(return_sequences=True) and Dense,
# compiled with adam and SparseCategoricalCrossentropy(from_logits=True) and fit; softmax and
# random.categorical demos; sample() with reset_states, scaled logits and a sliding input
# window, at scale factors 1.0, 2.0 and 0.5)
# Adapted: a text of 2,700 characters drawn by seeded NumPy from a few words, with the
# start and end markers, written into a temporary folder as '1268-0.txt' instead of Project
# Gutenberg's download (64 chunks: one batch, so the shuffle reorders rows within the batch
# only); 2 epochs instead of 20; fixed weights after the model is built on a first batch;
# tf.random.categorical's draws taken by seeded NumPy from the softmax of the same logits
# (categorical() below, whose stream differs between libraries otherwise); 20 generated
# characters instead of 500.
import os
import tempfile
import numpy as np
import tensorflow as tf
from adapt import fixed_weights

DRAWS = np.random.default_rng(3)


def categorical(logits, num_samples):
    """tf.random.categorical's draw, made by seeded NumPy from the same probabilities."""
    logits = np.asarray(logits, dtype=np.float64)
    probs = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    return tf.constant([[DRAWS.choice(len(row), p=row) for _ in range(num_samples)]
                        for row in probs], dtype=tf.int64)


def write_text():
    rng = np.random.default_rng(1)
    words = ['the', 'island', 'sea', 'engineer', 'balloon', 'Pencroft', 'and', 'of',
             'was', 'wind', 'The', 'island.', 'said', 'Harbert,']
    body = ' '.join(rng.choice(words, size=520))
    text = ('Project Gutenberg header\n\nTHE MYSTERIOUS ISLAND\n' + body[:2640]
            + '\nEnd of the Project Gutenberg EBook')
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, '1268-0.txt'), 'w') as fp:
        fp.write(text)
    return folder


def main():
    out = {}
    folder = write_text()
    with open(os.path.join(folder, '1268-0.txt'), 'r') as fp:
        text=fp.read()
        
    start_indx = text.find('THE MYSTERIOUS ISLAND')
    end_indx = text.find('End of the Project Gutenberg')
    print(start_indx, end_indx)

    text = text[start_indx:end_indx]
    char_set = set(text)
    print('Total Length:', len(text))
    print('Unique Characters:', len(char_set))
    out["lengths"] = [len(text), len(char_set)]

    chars_sorted = sorted(char_set)
    char2int = {ch:i for i,ch in enumerate(chars_sorted)}
    char_array = np.array(chars_sorted)

    text_encoded = np.array(
        [char2int[ch] for ch in text],
        dtype=np.int32)

    print('Text encoded shape: ', text_encoded.shape)

    print(text[:15], '     == Encoding ==> ', text_encoded[:15])
    print(text_encoded[15:21], ' == Reverse  ==> ', ''.join(char_array[text_encoded[15:21]]))

    ds_text_encoded = tf.data.Dataset.from_tensor_slices(text_encoded)

    for ex in ds_text_encoded.take(5):
        print('{} -> {}'.format(ex.numpy(), char_array[ex.numpy()]))

    seq_length = 40
    chunk_size = seq_length + 1

    ds_chunks = ds_text_encoded.batch(chunk_size, drop_remainder=True)

    ## inspection:
    for seq in ds_chunks.take(1):
        input_seq = seq[:seq_length].numpy()
        target = seq[seq_length].numpy()
        print(input_seq, ' -> ', target)
        print(repr(''.join(char_array[input_seq])), 
              ' -> ', repr(''.join(char_array[target])))
        out["first_chunk"] = [input_seq, target]

    ## define the function for splitting x & y
    def split_input_target(chunk):
        input_seq = chunk[:-1]
        target_seq = chunk[1:]
        return input_seq, target_seq

    ds_sequences = ds_chunks.map(split_input_target)

    ## inspection:
    for example in ds_sequences.take(2):
        print(' Input (x):', repr(''.join(char_array[example[0].numpy()])))
        print('Target (y):', repr(''.join(char_array[example[1].numpy()])))
        print()

    # Batch size
    BATCH_SIZE = 64
    BUFFER_SIZE = 10000

    tf.random.set_seed(1)
    ds = ds_sequences.shuffle(BUFFER_SIZE).batch(BATCH_SIZE)# drop_remainder=True)

    def build_model(vocab_size, embedding_dim, rnn_units):
        model = tf.keras.Sequential([
            tf.keras.layers.Embedding(vocab_size, embedding_dim),
            tf.keras.layers.LSTM(
                rnn_units, return_sequences=True),
            tf.keras.layers.Dense(vocab_size)
        ])
        return model

    charset_size = len(char_array)
    embedding_dim = 256
    rnn_units = 512

    tf.random.set_seed(1)

    model = build_model(
        vocab_size = charset_size,
        embedding_dim=embedding_dim,
        rnn_units=rnn_units)

    model(next(iter(ds))[0])
    fixed_weights(model.weights, seed=4, scale=0.05)
    model.summary()

    model.compile(
        optimizer='adam', 
        loss=tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True
        ))

    out["history"] = model.fit(ds, epochs=2).history

    tf.random.set_seed(1)

    logits = [[1.0, 1.0, 1.0]]
    print('Probabilities:', tf.math.softmax(logits).numpy()[0])
    out["softmax_uniform"] = tf.math.softmax(logits)

    samples = categorical(
        logits=logits, num_samples=10)
    tf.print(samples.numpy())

    tf.random.set_seed(1)

    logits = [[1.0, 1.0, 3.0]]
    print('Probabilities:', tf.math.softmax(logits).numpy()[0])
    out["softmax_skewed"] = tf.math.softmax(logits)

    samples = categorical(
        logits=logits, num_samples=10)
    tf.print(samples.numpy())

    def sample(model, starting_str, 
               len_generated_text=20, 
               max_input_length=40,
               scale_factor=1.0):
        encoded_input = [char2int[s] for s in starting_str]
        encoded_input = tf.reshape(encoded_input, (1, -1))

        generated_str = starting_str

        model.reset_states()
        for i in range(len_generated_text):
            logits = model(encoded_input)
            logits = tf.squeeze(logits, 0)

            scaled_logits = logits * scale_factor
            new_char_indx = categorical(
                scaled_logits, num_samples=1)
            
            new_char_indx = tf.squeeze(new_char_indx)[-1].numpy()    

            generated_str += str(char_array[new_char_indx])
            
            new_char_indx = tf.expand_dims([new_char_indx], 0)
            encoded_input = tf.concat(
                [encoded_input, new_char_indx],
                axis=1)
            encoded_input = encoded_input[:, -max_input_length:]

        return generated_str

    tf.random.set_seed(1)
    generated = [sample(model, starting_str='The island')]
    print(generated[-1])

    logits = np.array([[1.0, 1.0, 3.0]])

    print('Probabilities before scaling:        ', tf.math.softmax(logits).numpy()[0])
    print('Probabilities after scaling with 0.5:', tf.math.softmax(0.5*logits).numpy()[0])
    print('Probabilities after scaling with 0.1:', tf.math.softmax(0.1*logits).numpy()[0])
    out["scaled"] = [tf.math.softmax(logits), tf.math.softmax(0.5*logits),
                     tf.math.softmax(0.1*logits)]

    tf.random.set_seed(1)
    generated.append(sample(model, starting_str='The island', 
                            scale_factor=2.0))
    print(generated[-1])

    tf.random.set_seed(1)
    generated.append(sample(model, starting_str='The island', 
                            scale_factor=0.5))
    print(generated[-1])
    out["generated"] = generated
    out["logits"] = model(tf.reshape([char2int[s] for s in 'The island'], (1, -1)))[0, -1, :8]
    return out
