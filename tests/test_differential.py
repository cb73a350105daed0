"""Differential testing against TensorFlow: random programs over the op registry, replayed
under tapeviz and compared with TensorFlow's recorded answers (values, first and second
derivatives, `jacobian`, `batch_jacobian`, dtypes, None-ness, exception classes).

The programs and answers are in tests/differential/answers/ (recorded by
tests/differential/record.py in a virtual environment with tensorflow-cpu). The "ci" set
always runs; set TAPEVIZ_DIFFERENTIAL=long to replay the long set as well.
See docs/testing.md.
"""
from __future__ import annotations

import functools
import os
import sys
import types

import numpy as np
import pytest

import tapeviz as tv
from tapeviz.engine.op import REGISTRY

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "differential")
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import compare  # noqa: E402
import divergences  # noqa: E402
import fdcheck  # noqa: E402
import generate  # noqa: E402
import ops  # noqa: E402
import record  # noqa: E402
import replay  # noqa: E402
from interpret import ProgramError, run  # noqa: E402
from shrink import as_tf_code, shrink  # noqa: E402

SETS = ["ci"] + (["long"] if os.environ.get("TAPEVIZ_DIFFERENTIAL") == "long" else [])


@functools.lru_cache(maxsize=None)
def _replayed(name):
    return replay.replay(replay.load(name)["cases"], tv)


def _ops_without_entry():
    differentiable = {name for name, op in REGISTRY.items() if op.vjps is not None}
    # ConcatV2/<n> ops are made per arity on first use: the ConcatV2 entry makes 2 and 3
    differentiable = {n.split("/")[0] for n in differentiable}
    return sorted(differentiable - set(ops.ENTRIES) - set(ops.REACHED_THROUGH)
                  - set(ops.NO_GRADIENT))


def test_every_differentiable_op_has_a_generator_entry():
    missing = _ops_without_entry()
    assert not missing, (f"differentiable ops with no entry in tests/differential/ops.py "
                         f"ENTRIES (or REACHED_THROUGH for a gradient kernel): {missing}")
    assert set(ops.REACHED_THROUGH.values()) <= set(ops.ENTRIES)


def test_a_new_differentiable_op_without_an_entry_is_named(monkeypatch):
    from tapeviz.engine.op import Op
    op = Op("TestCube", lambda x: x ** 3, [lambda g, y, x: g * 3.0 * x * x], "y = x³",
            ["∂x = 3g · x²"], 1, True, None)
    monkeypatch.setitem(REGISTRY, "TestCube", op)
    assert _ops_without_entry() == ["TestCube"]


@pytest.mark.parametrize("name", SETS)
def test_recorded_programs_are_the_generators(name):
    """A changed generator needs new answers: record.py, in an environment with TensorFlow."""
    doc = replay.load(name)
    seed, count = record.SETS[name]
    assert (doc["seed"], doc["count"]) == (seed, count)
    programs = [c["program"] for c in doc["cases"]]
    assert len(programs) >= (1000 if name == "ci" else 1500)
    assert programs == generate.generate(count, seed), (
        "the generator changed since the answers were recorded; run "
        "tests/differential/record.py where tensorflow is installed")


@pytest.mark.parametrize("name", SETS)
def test_replayed_programs_agree_with_tensorflow(name):
    out = _replayed(name)
    if out.failures:
        reports = [replay.bug_report(case, diffs, tv) for case, diffs in out.failures[:3]]
        pytest.fail(f"{len(out.failures)} of {len(replay.load(name)['cases'])} programs "
                    f"disagree with TensorFlow; the first:\n\n" + "\n\n".join(reports),
                    pytrace=False)


def test_every_documented_divergence_is_still_seen():
    """An entry TensorFlow and tapeviz no longer disagree on is stale: remove it and its docs.
    (Both sets: some divergences need the long set's rarer inputs.)"""
    seen = set(_replayed("ci").divergences) | set(_replayed("long").divergences)
    stale = [d.name for d in divergences.DIVERGENCES if d.name not in seen]
    assert not stale, f"documented divergences no program shows any more: {stale}"


def _wrong_in_tensorflow():
    return [(d, case, diffs) for d in divergences.DIVERGENCES if d.tensorflow_wrong
            for case, diffs in _replayed("ci").divergences.get(d.name, [])]


def test_where_tensorflow_is_wrong_finite_differences_side_with_tapeviz():
    """Each case of a `tensorflow_wrong` divergence: tapeviz's second derivative (computed in
    float64) equals float64 central differences of its first derivative, and TensorFlow's
    recorded answer does not (or TensorFlow raised). Programs with a non-finite input or
    result are left out: central differences are NaN there. Where the disagreement names inputs, only
    those are differenced (others may sit on a tie, where differences average)."""
    checked = 0
    for divergence, case, diffs in _wrong_in_tensorflow():
        program = fdcheck.in_float64(case["program"])
        if any(not np.isfinite(np.array(i["value"], dtype=object).astype(float)).all()
               for i in program["inputs"] if i["watch"]):
            continue
        result = run(program, tv)
        if not np.isfinite(np.array(result["value"]["v"], dtype=object).astype(float)).all():
            continue          # a NaN or Inf result: differences have nothing to stand on
        ours = result["grad2"]
        theirs = case["answers"]["grad2"]
        truth = fdcheck.second_derivatives(program, tv)
        differs_from_tf = isinstance(theirs, dict)       # TensorFlow raised
        named = compare.differing_items(diffs["grad2"])
        for k, fd in enumerate(truth):
            if named and k not in named:
                continue
            got = np.zeros(fd.shape) if ours[k] is None else np.array(ours[k]["v"], float)
            np.testing.assert_allclose(got.reshape(fd.shape), fd, rtol=1e-5, atol=1e-6,
                                       err_msg=f"{divergence.name}: {program['id']} input {k}")
            if not differs_from_tf and theirs[k] is not None:
                tf_value = np.array(theirs[k]["v"], float).reshape(fd.shape)
                differs_from_tf = not np.allclose(tf_value, fd, rtol=1e-3, atol=1e-3)
        assert differs_from_tf, f"{divergence.name}: TensorFlow agrees on {program['id']}"
        checked += 1
    assert checked >= 10


def test_the_tags_cover_special_values_and_errors():
    programs = replay.load("ci")["cases"]
    tags = {c["program"]["tag"] for c in programs}
    assert tags == {"smooth", "kink", "tie", "zero", "nonfinite", "error"}
    errors = {c["answers"]["forward"]["error"] for c in programs if "forward" in c["answers"]}
    assert "InvalidArgumentError" in errors
    first_ops = {c["program"]["ops"][0] for c in programs}
    assert first_ops == set(generate.ALL_ENTRIES)


# --- the shrinker and the bug report, on planted bugs -------------------------------------------
def _planted(**replaced):
    """tapeviz with some functions replaced (a planted bug), as a module the interpreter uses."""
    nn = types.SimpleNamespace(**{**vars(tv.nn), **replaced.pop("nn", {})})
    return types.SimpleNamespace(**{**{k: getattr(tv, k) for k in dir(tv)}, "nn": nn,
                                    **replaced})


def _program(steps, inputs=None):
    inputs = inputs or [
        {"name": "x0", "dtype": "float64", "shape": [3], "value": [0.5, -1.0, 2.0],
         "watch": True},
        {"name": "x1", "dtype": "float64", "shape": [3], "value": [1.5, 0.25, -0.75],
         "watch": True}]
    return {"id": "planted", "tag": "smooth", "dtype": "float64", "ops": [],
            "inputs": inputs, "steps": steps, "checks": ["value", "grad", "grad2", "jacobian"]}


def _s(out, fn, *args, **kwargs):
    return {"out": out, "fn": fn, "args": [{"ref": a} if isinstance(a, str) else a
                                           for a in args], "kwargs": kwargs}


PLANTED = [_s("v0", "sin", "x0"), _s("v1", "square", "x1"), _s("v2", "tanh", "v0"),
           _s("v3", "exp", "x1"), _s("v4", "multiply", "v2", "v1"),
           _s("v5", "add", "v4", "v3"), _s("v6", "reduce_sum", "v5")]


def test_shrinking_a_planted_value_bug_leaves_the_op_and_what_it_needs():
    buggy = _planted(tanh=lambda x: tv.tanh(x) * 1.01)
    program = replay.minimal(_program(PLANTED), "value", buggy, tv)
    assert [s["fn"] for s in program["steps"]] == ["sin", "tanh"]
    assert [i["name"] for i in program["inputs"]] == ["x0"]
    code = as_tf_code(program, "value")
    assert "v0 = tf.sin(x0)\nv2 = tf.tanh(v0)\nprint(v2)" in code


def test_shrinking_a_planted_gradient_bug():
    @tv.custom_gradient
    def bad_exp(x):
        y = tv.exp(x)
        return y, lambda dy: dy * y * 1.5
    buggy = _planted(exp=bad_exp)
    program = replay.minimal(_program(PLANTED), "grad", buggy, tv)
    assert [s["fn"] for s in program["steps"]] == ["exp"]
    # the full program fails too, and the report names the check and prints tf code
    diffs = replay.differences(run(_program(PLANTED), tv), run(_program(PLANTED), buggy))
    assert set(diffs) == {"grad", "grad2", "jacobian"}


@pytest.mark.parametrize("check", ["value", "grad", "grad2", "jacobian"])
def test_the_printed_tf_code_computes_what_the_interpreter_compares(check):
    program = _program(PLANTED)
    code = as_tf_code(program, check).replace("import tensorflow as tf",
                                              "import tapeviz as tf")
    printed = []
    namespace = {"print": printed.append}
    exec(compile(code, "<bug report>", "exec"), namespace)
    answers = run(program, tv)
    expected = {"value": answers["value"], "grad": answers["grad"],
                "grad2": answers["grad2"], "jacobian": answers["jacobian"]}[check]
    got = printed[0]
    got = [got] if check == "value" else got
    expected = [expected] if check == "value" else expected
    assert len(got) == len(expected) > 0, (got, expected)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.numpy().reshape(-1), np.array(e["v"], float),
                                   rtol=1e-8)


def test_a_malformed_program_is_refused_with_what_is_wrong():
    with pytest.raises(ProgramError, match="may not call 'eval'"):
        run(_program([_s("v0", "eval", "x0")]), tv)
    with pytest.raises(ProgramError, match="'v9' used before it is defined"):
        run(_program([_s("v0", "sin", "v9")]), tv)
