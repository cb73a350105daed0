"""The C walk (tapeviz/engine/_site.c, CPython 3.11) against the Python one
(`site.python_user_site`), from the same frames: the same site objects, the same refusals,
and whether the C one was built. (tests/test_site.py runs the engine's site rules with each.)"""
import os
import subprocess
import sys
import textwrap
import threading

import pytest

from tapeviz.engine import op as op_mod
from tapeviz.engine import site as site_mod
from tapeviz.engine import tape as tape_mod
from test_site import C_BUILT, _c_walk


def _both(depth=2):
    """The C and the Python walk from the same frame and depth (a frame outside tapeviz)."""
    return _c_walk()(depth), site_mod.python_user_site(depth)


def _probe():
    return _both(3)      # from the caller of `_probe`'s caller: the caller's own call site


def test_the_c_and_python_walks_give_the_same_site_object():
    if not C_BUILT:
        pytest.skip("no C walk on this Python")
    def caller():
        return _probe()
    c, py = caller()
    assert c is py and c[0] is caller.__code__ and c[1] == caller.__code__.co_firstlineno + 1
    # nested and odd frames: a lambda, a generator, a comprehension, a class body
    c, py = (lambda: _probe())()
    assert c is py and c[0].co_name == "<lambda>"
    c, py = next(_probe() for _ in range(1))
    assert c is py and c[0].co_name == "<genexpr>"
    c, py = [_probe() for _ in range(1)][0]
    assert c is py and c[0].co_name == "<listcomp>"

    class Body:
        found = _probe()
    assert Body.found[0] is Body.found[1] and Body.found[0][0].co_name == "Body"


def test_both_walks_skip_tapeviz_frames_and_agree_on_the_line_of_a_long_call():
    if not C_BUILT:
        pytest.skip("no C walk on this Python")
    # a function whose file lies inside the package counts as tapeviz's own
    inside = {}
    exec(compile("def inside(probe):\n    return probe()\n",
                 os.path.join(site_mod._PKG_DIR, "engine", "not_a_file.py"), "exec"), inside)
    def probe():
        return _both(3)   # starts at the package's frame, which calls `probe`
    c, py = inside["inside"](probe)     # the user's line: this one, past the package's frame
    assert c is py and c[0] is sys._getframe().f_code
    assert c[1] == sys._getframe().f_lineno - 2
    got = (
        inside["inside"](
            probe)
    )
    assert got[0] is got[1]


def test_both_walks_agree_in_another_thread_and_refuse_a_depth_past_the_stack():
    if not C_BUILT:
        pytest.skip("no C walk on this Python")
    out = []
    thread = threading.Thread(target=lambda: out.append(_probe()))
    thread.start()
    thread.join()
    (c, py), = out
    assert c is py and c[0].co_name == "<lambda>"
    for fn in (_c_walk(), site_mod.python_user_site):
        with pytest.raises(ValueError, match="call stack is not deep enough"):
            fn(10_000)


def test_ops_get_the_same_sites_from_either_walk_in_a_real_program(monkeypatch):
    if not C_BUILT:
        pytest.skip("no C walk on this Python")
    src = textwrap.dedent("""\
        import tapeviz as tv
        def model(x, w):
            h = tv.tanh(tv.matmul(x, w))
            return tv.reduce_sum(
                h * h)
        w = tv.Variable([[1.0], [2.0]])
        with tv.GradientTape() as tape:
            y = model(tv.constant([[0.5, 0.25]]), w)
        g = tape.gradient(y, w)
        """)
    sites = {}
    for name, fn in (("c", _c_walk()), ("python", site_mod.python_user_site)):
        for module in (site_mod, op_mod, tape_mod):
            monkeypatch.setattr(module, "user_site", fn)
        namespace = {}
        exec(compile(src, "<program>", "exec"), namespace)
        node, lines = namespace["y"]._node, []
        while node is not None and node.parents:
            lines.append(node.site[1])
            node = node.parents[0]
        sites[name] = lines
    assert sites["c"] == sites["python"] == [4, 5, 3, 3]


def test_the_c_walk_is_built():
    if os.environ.get("TAPEVIZ_PURE_PYTHON", "") not in ("", "0"):   # switched off on purpose
        assert not site_mod.C_WALK
        return
    if not C_BUILT:
        assert not site_mod.C_WALK   # the module builds empty: the Python walk runs
        return
    assert site_mod.C_WALK, (
        "tapeviz/engine/_site.c was not built (no C compiler when `pip install -e .` ran?): "
        "source lines still work, in Python, at about 4,000 more instructions an op. Install "
        "gcc and run ./run.sh setup again")


def test_tapeviz_pure_python_switches_to_the_python_walk():
    code = "import tapeviz.engine.site as s; print(s.C_WALK, s.user_site.__module__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "TAPEVIZ_PURE_PYTHON": "1"}, check=True).stdout
    assert out.split() == ["False", "tapeviz.engine.site"]
