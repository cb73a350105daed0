"""Source sites: the user's line of every op, taken without hashing code objects or scanning
line tables (see tapeviz/engine/call_site.py), and still right wherever the op runs."""
import runpy
import sys
import textwrap

import pytest

import tapeviz as tv
from tapeviz.engine import call_site as site_mod


def _line():
    return sys._getframe(1).f_lineno


def test_two_ops_on_one_line_and_on_different_lines_get_their_own_lines():
    x = tv.constant(2.0)
    a, b = x * 3.0, tv.sin(x); line_ab = _line()          # noqa: E702
    c = x + 1.0; line_c = _line()                          # noqa: E702
    for t, line in ((a, line_ab), (b, line_ab), (c, line_c)):
        code, lineno = t._node.site
        assert code.co_filename == __file__ and lineno == line
    assert a._node.site is not b._node.site   # two instructions: two sites, one line


def test_the_same_instruction_gives_the_same_site_each_time():
    x = tv.constant(1.0)
    nodes = []
    for _ in range(3):
        nodes.append((x * 2.0)._node); line = _line()      # noqa: E702
    assert nodes[0].site is nodes[1].site is nodes[2].site
    assert nodes[0].site[1] == line


def test_a_long_module_level_script_gets_each_ops_own_line(tmp_path):
    # module code of 1,500 statements: its line table is long, its code object big to hash
    body = "".join(f"v{i} = {i}\n" for i in range(1500))
    script = tmp_path / "long_script.py"
    script.write_text("import tapeviz as tv\nx = tv.constant(1.0)\n" + body +
                      "y = x * 2.0\nz = tv.exp(y)\n")
    namespace = {}
    exec(compile(script.read_text(), str(script), "exec"), namespace)
    (code_y, line_y), (code_z, line_z) = namespace["y"]._node.site, namespace["z"]._node.site
    assert code_y.co_filename == str(script) and (line_y, line_z) == (1503, 1504)
    assert site_mod.as_dict(namespace["z"]._node.site)["code"] == "z = tv.exp(y)"


def test_generators_and_functions_defined_at_runtime_get_their_lines():
    src = textwrap.dedent("""\
        def gen(tv, x):
            for k in range(3):
                yield x * float(k)
        """)
    namespace = {}
    exec(compile(src, "<generated>", "exec"), namespace)
    out = list(namespace["gen"](tv, tv.constant(1.0)))
    assert [t._node.site[1] for t in out] == [3, 3, 3]
    assert out[0]._node.site[0].co_filename == "<generated>"


def test_the_site_cache_stays_bounded_and_correct_when_it_starts_afresh(monkeypatch):
    monkeypatch.setattr(site_mod, "_MAX_CODES", 8)
    lines = []
    for i in range(30):   # 30 fresh code objects, as re-run notebook cells make
        namespace = {"tv": tv}
        exec(compile("\n" * i + "y = tv.constant(1.0) * 2.0\n", f"<cell{i}>", "exec"),
             namespace)
        assert len(site_mod._sites) <= 8
        lines.append(namespace["y"]._node.site[1])
    assert lines == [i + 1 for i in range(30)]


def test_as_dict_is_a_fresh_dict_each_time_and_reads_the_line():
    x = tv.constant(1.0)
    y = x * 2.0; line = _line()                            # noqa: E702
    first, second = site_mod.as_dict(y._node.site), site_mod.as_dict(y._node.site)
    assert first == second and first is not second
    assert first == {"file": __file__, "line": line,
                     "func": "test_as_dict_is_a_fresh_dict_each_time_and_reads_the_line",
                     "code": "y = x * 2.0; line = _line()" + " " * 28 + "# noqa: E702"}
    first["line"] = -1   # a caller's change does not reach the cache
    assert site_mod.as_dict(y._node.site)["line"] == line


def test_assignments_and_optimizer_updates_take_a_line_only_when_it_can_be_read():
    v = tv.Variable([1.0, 2.0], name="v")
    opt = tv.keras.optimizers.SGD(learning_rate=0.1)
    grads = [tv.constant([1.0, 1.0])]
    opt.apply_gradients(zip(grads, [v])); line = _line()    # noqa: E702
    # nothing may read them: no line, and no leaf for the update's value (quiet path)
    assert v._node.site is None and v._node.parents[1] is None
    with tv.GradientTape():
        opt.apply_gradients(zip(grads, [v])); line = _line()    # noqa: E702
    update, const = v._node, v._node.parents[1]
    assert update.site[1] == line and const.site[1] == line   # a tape may explain the cut
    with tv.events.capture():
        v.assign_add([1.0, 1.0]); line = _line()           # noqa: E702
    assert v._node.site[1] == line


def test_a_variable_watched_on_read_gets_the_line_that_read_it_however_it_is_read():
    v = tv.Variable([[1.0, 2.0], [3.0, 4.0]], name="v")
    dense = tv.keras.layers.Dense(2)
    dense.build((None, 2))
    reads = [
        (v, lambda: tv.matmul(v, v)),            # a wrapped public op: pair reads it
        (v, lambda: v * 2.0),                    # an operator
        (v, lambda: tv.nn.relu(v)),              # an op that converts one argument
        (v, lambda: v.read_value()),             # the variable's own read methods
        (v, lambda: v.value()),
        (v, lambda: tv.convert_to_tensor(v)),
        (dense.kernel, lambda: dense(tv.ones([1, 2]))),   # a Keras layer's call
    ]
    for var, read in reads:
        with tv.GradientTape() as tape:
            read()
        watched, how, site = tape._watched[var._id]
        assert (watched, how) == (var, "auto")
        # the site is the lambda that read it: its own code, at its line
        assert site == (read.__code__, read.__code__.co_firstlineno), (read, site)


def test_a_module_loop_variable_does_not_name_a_source_a_function_explains(tmp_path):
    # by hand: `v` is left holding head/bias after the script's warm-start loop; a step
    # function explains the layer's weights, and no weight may be called "v"
    script = tmp_path / "warm_start.py"
    script.write_text(
        "import tapeviz as tf\n"
        "layer = tf.keras.layers.Dense(1, name='head')\n"
        "layer(tf.zeros([1, 2]))\n"
        "for v in layer.trainable_variables:\n"
        "    v.assign(v * 1.0)\n"
        "def step():\n"
        "    with tf.GradientTape() as tape:\n"
        "        y = tf.reduce_sum(layer.kernel * 2.0)\n"
        "    return tape.explain(y, layer.trainable_variables)\n"
        "NAMES = [why.source_name for why in step()]\n")
    names = runpy.run_path(str(script))["NAMES"]
    assert names == ["head/kernel:0", "head/bias:0"], names
