# tf.timestamp(): seconds since the epoch as a float64 scalar, which logging code formats
# with tf.strings (the "printbar" of a public course)
import time

before = time.time()
stamp = tf.timestamp()
after = time.time()
report("dtype", stamp.dtype.name)
report("shape", stamp.shape.as_list())
report("between_python_clocks", bool(before - 1e-3 <= float(stamp) <= after + 1e-3))
report("later_is_not_smaller", bool(tf.timestamp() >= stamp))
today = tf.timestamp() % (24 * 60 * 60)
report("seconds_of_day_dtype", today.dtype.name)
report("formatted_length", int(tf.strings.length(tf.strings.format("{}", tf.cast(today // 3600,
                                                                                tf.int32)))) <= 2)
