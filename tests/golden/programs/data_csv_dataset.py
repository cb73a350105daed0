# tf.data.experimental.CsvDataset: headers, quoted fields, defaults and required columns,
# na_value, select_cols, delimiters, dtypes from default values, and its errors
import os
import tempfile

os.chdir(tempfile.mkdtemp())
with open("a.csv", "w", newline="") as f:
    f.write('x,y,name\n1,2.5,"ab, c"\n3,,"q""x"\n,4e2,z\r\nNA,1,w\n')
with open("b.csv", "w") as f:
    f.write("1;2\n3;4\n")
csv_ds = tf.data.experimental.CsvDataset


def rows(ds):
    return [tuple(t.numpy() for t in e) for e in ds]


report("defaults_na", rows(csv_ds("a.csv", [tf.constant(0), tf.constant(-1.0), tf.string],
                                  header=True, na_value="NA")))
report("python_defaults", rows(csv_ds("a.csv", [0, 0.0], header=True, select_cols=[0, 1],
                                      na_value="NA")))
report("dtypes", [t.dtype.name for t in next(iter(csv_ds(
    "a.csv", [tf.constant(0, tf.int64), tf.constant(0.0, tf.float64), "d"], header=True,
    na_value="NA")))])
report("delimiter", rows(csv_ds("b.csv", [tf.int32, tf.int32], field_delim=";")))
report("two_files", len(rows(csv_ds(["b.csv", "b.csv"], [tf.int32, tf.int32],
                                    field_delim=";"))))
report("in_pipeline", [list(b) for b in csv_ds("b.csv", [tf.int32, tf.int32], field_delim=";")
                       .map(lambda a, b: a + b).batch(2)])
expect_error("required_missing", lambda: rows(csv_ds("a.csv", [tf.int32, tf.float32, tf.string],
                                                     header=True)))
expect_error("not_an_int", lambda: rows(csv_ds("a.csv", [tf.int64, tf.float64, "d"])))
expect_error("too_many_fields", lambda: rows(csv_ds("b.csv", [tf.int32], field_delim=";")))
expect_error("wrong_delimiter", lambda: rows(csv_ds("b.csv", [tf.int32, tf.int32])))
