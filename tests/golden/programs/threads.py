# Threads: a tape records only the ops of the thread that entered it, and name scopes are per
# thread. Thread B's ops run while thread A's tape is open (and watches their input, or reads
# its variable).
import threading


def in_thread(fn):
    out = {}

    def run():
        out["value"] = fn()
    t = threading.Thread(target=run)
    t.start()
    t.join()
    return out["value"]


x = tf.constant(2.0)
v = tf.Variable(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    y = x * x
    z_other = in_thread(lambda: x * 10.0)           # on the watched tensor, in thread B
    w_other = in_thread(lambda: v * 5.0)            # a trainable variable read in thread B
    w_here = v * 5.0
report("dy_dx", tape.gradient(y, x))
report("dz_other_dx", tape.gradient(z_other, x))
report("dw_other_dv", tape.gradient(w_other, v))
report("dw_here_dv", tape.gradient(w_here, v))
report("watched", [var.name for var in tape.watched_variables()])
del tape

# thread B's own tape on thread A's tensors, while A's tape is open
a = tf.constant(1.5)
with tf.GradientTape() as outer:
    outer.watch(a)

    def own_tape():
        with tf.GradientTape() as inner:
            inner.watch(a)
            b = tf.sin(a)
        return inner.gradient(b, a), b
    g_inner, b_other = in_thread(own_tape)
    c = a * a
report("inner_grad_in_thread", g_inner)
report("outer_grad_of_thread_result", outer.gradient(b_other, a))

# name scopes: thread B does not see the scope thread A is inside
with tf.name_scope("thread_a"):
    with tf.name_scope("inner"):
        scope_in_b = in_thread(tf.get_current_name_scope)
        scope_in_a = tf.get_current_name_scope()
report("scope_in_thread_a", scope_in_a)
report("scope_in_thread_b", scope_in_b)
report("scope_after", tf.get_current_name_scope())
