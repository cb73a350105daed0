# tf.keras.utils.Progbar: the text it writes (times masked: they are the machine's, and so
# are the lengths of the backspace runs and padding that depend on them), the averaging of
# values over steps, stateful metrics, unknown targets, add(), verbose=2
import contextlib
import io
import re


def printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    text = re.sub(r"\d+(us|ms|s)/", "T/", out.getvalue())
    text = re.sub(r"ETA: [0-9:]+s?", "ETA: T", text)
    text = re.sub(r" - \d+s", " - Ts", text)
    text = re.sub(r"\x08+", "<back>", text)
    return re.sub(r" +(?=<back>|\n|$)", "", text)


def known_target():
    bar = tf.keras.utils.Progbar(5, interval=0)
    for step in range(1, 6):
        bar.update(step, values=[("loss", 1.0 / step), ("acc", tf.constant(0.1 * step))])


def stateful_and_weights():
    bar = tf.keras.utils.Progbar(10, width=10, interval=0, stateful_metrics=["lr"])
    bar.update(2, values=[("loss", 4.0), ("lr", 0.5)])
    bar.update(6, values=[("loss", 1.0), ("lr", 0.25)])
    bar.add(4, values=[("loss", 0.0001)])


def unknown_target():
    bar = tf.keras.utils.Progbar(None, interval=0, unit_name="sample")
    bar.update(3, values=[("x", -2.0)])
    bar.update(7, values=[("x", 0.0)], finalize=True)


def verbose_2():
    bar = tf.keras.utils.Progbar(4, verbose=2)
    for step in range(1, 5):
        bar.update(step, values=[("loss", np.float32(step))])


def verbose_0():
    bar = tf.keras.utils.Progbar(3, verbose=0)
    bar.add(3, values=[("loss", 1.0)])


for name, fn in (("known_target", known_target), ("stateful_and_weights", stateful_and_weights),
                 ("unknown_target", unknown_target), ("verbose_2", verbose_2),
                 ("verbose_0", verbose_0)):
    report("progbar." + name, printed(fn))
