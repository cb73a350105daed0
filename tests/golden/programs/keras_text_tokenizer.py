# tf.keras.preprocessing.text.Tokenizer and text_to_word_sequence (Hands-On Machine Learning's
# chapter 16 encodes Shakespeare character by character with it)
text_module = tf.keras.preprocessing.text
report("text_to_word_sequence", text_module.text_to_word_sequence("This is a sample, sentence."))
report("text_to_word_sequence_split", text_module.text_to_word_sequence(
    "A-b c;D", filters=";", lower=False, split="-"))

chars = text_module.Tokenizer(char_level=True)
chars.fit_on_texts("First Citizen: before we proceed")
report("char_word_index", chars.word_index)
report("char_document_count", chars.document_count)
report("char_texts_to_sequences", chars.texts_to_sequences(["First", "xyz!"]))
report("char_sequences_to_texts", chars.sequences_to_texts([[1, 2, 3], [40]]))

docs = ["the cat sat on the mat", "the dog ate the cat's food", "A dog, a cat!"]
words = text_module.Tokenizer()
words.fit_on_texts(docs)
report("word_index", words.word_index)
report("index_word", {str(k): v for k, v in words.index_word.items()})
report("word_counts", dict(words.word_counts))
report("word_docs", dict(words.word_docs))
report("texts_to_sequences", words.texts_to_sequences(["the cat ate a bird"]))
report("sequences_to_texts", words.sequences_to_texts([[1, 2, 5]]))
for mode in ("binary", "count", "freq", "tfidf"):
    report("texts_to_matrix_" + mode, words.texts_to_matrix(["the cat ate the cat"], mode=mode))

capped = text_module.Tokenizer(num_words=4, oov_token="<OOV>")
capped.fit_on_texts(docs)
report("oov_word_index_first", [capped.word_index["<OOV>"], capped.word_index["the"]])
report("oov_texts_to_sequences", capped.texts_to_sequences(["the cat ate a bird"]))
report("oov_sequences_to_texts", capped.sequences_to_texts([[1, 2, 3, 7, 99]]))
report("capped_matrix", capped.texts_to_matrix(["the dog ate"], mode="count"))
lists = text_module.Tokenizer()
lists.fit_on_texts([["Hello", "world"], ["hello"]])
report("token_lists", lists.word_index)
expect_error("unknown_argument", lambda: text_module.Tokenizer(bad=1))
expect_error("matrix_before_fit", lambda: text_module.Tokenizer().sequences_to_matrix([[1]]))
expect_error("matrix_bad_mode", lambda: words.texts_to_matrix(["the"], mode="nope"))
