"""Shrink a failing program to a minimal one and print it as plain `tf.` code.

`shrink(program, fails)` is delta debugging (ddmin) over the program's steps: it keeps a chunk
of steps alone or removes it, in ever smaller chunks down to single steps, for as long as the
rest is a valid program (every variable defined before use) on which `fails(candidate)` holds. The output is always the last
remaining step; inputs nothing uses are dropped.
`as_tf_code(program, check)` writes the program as a script a TensorFlow user can run.
"""
from __future__ import annotations

import numpy as np

from interpret import LAYERS, upstream
from program import decode_value


def _refs(x):
    if isinstance(x, dict) and "ref" in x:
        yield x["ref"]
    elif isinstance(x, dict):
        for v in x.values():
            yield from _refs(v)
    elif isinstance(x, list):
        for v in x:
            yield from _refs(v)


def with_steps(program, steps):
    """The program made of `steps`, or None when a step uses a removed variable."""
    if not steps:
        return None
    defined = {i["name"] for i in program["inputs"]}
    for step in steps:
        if any(r not in defined for r in _refs([step["args"], step["kwargs"]])):
            return None
        defined.add(step["out"])
    used = set(_refs([[s["args"], s["kwargs"]] for s in steps]))
    inputs = [dict(i) for i in program["inputs"] if i["name"] in used]
    if not inputs:
        return None
    if not any(i["watch"] for i in inputs):
        inputs[0]["watch"] = True
    return {**program, "inputs": inputs, "steps": list(steps)}


def shrink(program, fails):
    """A minimal (1-minimal over steps) program on which `fails` still holds."""
    steps = list(program["steps"])
    n = 2
    while len(steps) >= 2:
        chunk = max(1, len(steps) // n)
        parts = [steps[k:k + chunk] for k in range(0, len(steps), chunk)]
        # ddmin: a part alone, else everything but a part, else finer parts
        candidates = parts + [steps[:k] + steps[k + chunk:]
                              for k in range(0, len(steps), chunk)] if len(parts) > 1 else []
        for rest in candidates:
            candidate = with_steps(program, rest)
            if candidate is not None and _still_fails(fails, candidate):
                n = 2 if len(rest) <= chunk else max(n - 1, 2)
                steps = rest
                break
        else:
            if chunk == 1:
                break
            n = min(len(steps), 2 * n)
    return with_steps(program, steps) or program


def _still_fails(fails, candidate):
    try:
        return bool(fails(candidate))
    except Exception:          # a candidate the interpreter refuses is not a reproduction
        return False


# --- plain tf code ------------------------------------------------------------------------------
def _code(x, key=None):
    if isinstance(x, dict) and "ref" in x:
        return x["ref"]
    if isinstance(x, dict) and "slice" in x:
        return ":".join("" if v is None else str(v) for v in x["slice"]).rstrip(":") or ":"
    if isinstance(x, list):
        return "[" + ", ".join(_code(v) for v in x) + "]"
    if key == "ord" and x == "inf":
        return "np.inf"
    if isinstance(x, str) and x in ("float32", "float64", "int32", "int64", "bool"):
        return f"tf.{x}"
    return repr(x)


def _array_code(value, dtype):
    arr = decode_value(value, dtype)
    text = np.array2string(arr, separator=", ", precision=9, floatmode="maxprec",
                           threshold=10 ** 6).replace("nan", "np.nan").replace("inf", "np.inf")
    return text


def _step_code(step):
    args = [_code(a) for a in step["args"]]
    if step["fn"] == "getitem":
        call = f"{args[0]}[{', '.join(_code(k) for k in step['args'][1])}]"
    elif step["fn"] in LAYERS:
        kwargs = [f"{k}={_code(v, k)}" for k, v in step["kwargs"].items()]
        call = f"tf.{step['fn']}({', '.join(kwargs)})({', '.join(args)}, training=True)"
    else:
        kwargs = [f"{k}={_code(v, k)}" for k, v in step["kwargs"].items()]
        call = f"tf.{step['fn']}({', '.join(args + kwargs)})"
    if "index" in step:
        call += f"[{step['index']}]"
    return f"{step['out']} = {call}"


WEIGHTS = """def weights(t, phase):  # fixed, nonzero upstream weights
    k = np.arange(np.prod(tuple(t.shape), dtype=int)).reshape(tuple(t.shape))
    return tf.constant(0.5 + 0.4 * np.cos(1.3 * k + phase), dtype=t.dtype)
"""


def as_tf_code(program, check="grad"):
    """The program as a TensorFlow script printing what `check` looks at (the weights are
    interpret.upstream's)."""
    lines = ["import numpy as np", "import tensorflow as tf", ""]
    for i in program["inputs"]:
        lines.append(f"{i['name']} = tf.constant({_array_code(i['value'], i['dtype'])}, "
                     f"dtype=tf.{i['dtype']})")
    watched = [i["name"] for i in program["inputs"] if i["watch"]]
    xs = "[" + ", ".join(watched) + "]"
    y = program["steps"][-1]["out"]
    body = [_step_code(s) for s in program["steps"]]
    if check in ("value", "forward"):
        return "\n".join(lines + body + [f"print({y})"])
    if check not in ("jacobian", "batch_jacobian"):
        lines[3:3] = [WEIGHTS]
    lines += ["with tf.GradientTape(persistent=True) as outer:",
              f"    outer.watch({xs})",
              "    with tf.GradientTape() as inner:",
              f"        inner.watch({xs})"]
    lines += ["        " + b for b in body]
    if check in ("jacobian", "batch_jacobian"):
        return "\n".join(lines + [f"print([outer.{check}({y}, x) for x in {xs}])"])
    lines.append(f"    grads = inner.gradient({y}, {xs}, output_gradients=weights({y}, 0.0))")
    if check == "grad":
        return "\n".join(lines + ["print(grads)"])
    lines += ["    dot = sum(tf.reduce_sum(g * weights(g, 1.0 + k))",
              "              for k, g in enumerate(grads) if g is not None)",
              f"print(outer.gradient(dot, {xs}))"]
    return "\n".join(lines)
