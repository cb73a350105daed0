"""The sentence and the fix of a None gradient, one per cause (`none.py` finds the cause;
`messages.render` words every explanation)."""
from __future__ import annotations


#: the tapeviz op of a NumPy function found where a value left the tape (a fix names it)
_NUMPY_TWINS = {f"np.{np_name}": f"tv.{tv_name}" for np_name, tv_name in (
    ("log", "math.log"), ("log1p", "math.log1p"), ("exp", "exp"), ("sqrt", "sqrt"),
    ("square", "square"), ("abs", "abs"), ("tanh", "tanh"), ("sin", "sin"), ("cos", "cos"),
    ("mean", "reduce_mean"), ("sum", "reduce_sum"), ("max", "reduce_max"),
    ("min", "reduce_min"), ("maximum", "maximum"), ("minimum", "minimum"),
    ("clip", "clip_by_value"), ("where", "where"), ("power", "pow"), ("matmul", "matmul"),
    ("dot", "tensordot"), ("concatenate", "concat"), ("stack", "stack"),
    ("reshape", "reshape"), ("transpose", "transpose"))}


def _none_texts(cause, name, node, op, at, extra):
    """(message, fix) of a finite non-zero gradient, or of a None one."""
    table = {
        "ok": ("The gradient is finite and non-zero.", ""),
        "not_watched": (
            (f"{name} was watched only after {op}{at} used it, so the tape did not record "
             "that op." if extra.get("late") else
             f"{name} is a Tensor the tape does not watch, so the tape recorded nothing that "
             "leads back to it."),
            "Call tape.watch(...) on it inside the `with tv.GradientTape()` block before using "
            "it, or make it a tv.Variable."),
        "not_trainable": (
            f"{name} is a Variable created with trainable=False; tapes do not watch such "
            "variables automatically.",
            "Create it with trainable=True, or call tape.watch(...) on it inside the tape."),
        "auto_watch_off": (
            f"The tape{at} was opened with watch_accessed_variables=False and {name} was never "
            "passed to tape.watch.",
            "Call tape.watch(...) on it inside the tape, or drop "
            "watch_accessed_variables=False."),
        "unconnected": (
            f"The target does not depend on {name} at all.",
            "Check that the target is computed from this source. If a zero is what you want, "
            "pass unconnected_gradients=tv.UnconnectedGradients.ZERO."),
        "integer_dtype": (
            (f"{name} has dtype {extra.get('dtype')}; integer, bool and string tensors have no "
             "gradient." if node is None else
             f"Every path goes through {op}{at}, which makes "
             f"{'an' if str(extra.get('dtype')).startswith('int') else 'a'} "
             f"{extra.get('dtype')} tensor; "
             "integers carry no gradient."),
            ("Create it as a float, e.g. tv.constant(2.0) or dtype=tv.float32."
             if node is None else "Keep the computation in floating point on this path.")),
        "numpy_escape": (
            f"The value left the tape through {extra.get('via', 'NumPy')}{at}: a NumPy array or "
            f"a Python number cannot carry a gradient back to {name}.",
            (f"Use {_NUMPY_TWINS[extra.get('via')]} instead of {extra.get('via')} and keep "
             "tensors as tensors inside the tape." if extra.get("via") in _NUMPY_TWINS else
             "Use the tapeviz op instead (tv.reduce_mean for np.mean, tv.sin for np.sin, ...) "
             "and keep tensors as tensors inside the tape.")),
        "variable_assign": (
            f"{extra.get('method', 'assign')}{at} copied a value into a Variable; state hides "
            f"history, so no recorded op leads back to {name}.",
            "Compute with tensors (y = x1 + x0) inside the tape; assign only to update state "
            "after taking the gradient."),
        "stop_gradient": (
            f"Every path from {name} to the target passes through tv.stop_gradient{at}"
            + (f", one side of a difference ({extra['difference']})." if extra.get("difference")
               else "."),
            ("If it was meant to hold the other side fixed (the target of a consistency, "
             "distillation or TD loss), move it there: tv.stop_gradient(target) - prediction. "
             "Else remove it if this gradient is wanted." if extra.get("difference") else
             "Remove the stop_gradient if this gradient is wanted.")),
        "stop_recording": (
            f"The op {op}{at} that connects {name} to the target ran inside "
            "tape.stop_recording(), so the tape did not record it.",
            "Move that computation out of the stop_recording() block."),
        "outside_tape": (
            f"The op {op}{at} that connects {name} to the target ran outside the tape's `with` "
            "block, so it was not recorded." if node is not None else
            f"{name} was never read while the tape was recording.",
            "Compute the target inside `with tv.GradientTape() as tape:`."),
        "replaced_variable": (
            f"{name} is a Tensor computed from a Variable{at} (as `x = x + 1` makes), not the "
            "Variable itself, and no tape watches it.",
            "Update the Variable in place, e.g. x.assign_add(1.0) instead of x = x + 1."),
        "copied_value": (
            f"{_copy_call(extra)}{at} copied "
            f"{'the value of' if extra.get('direct') else 'a value computed from'} {name} "
            f"into a new {'Variable' if extra.get('kind') == 'Variable' else 'constant'}, "
            f"which starts a new history: the target reads the copy, not {name}.",
            "Use the tensor itself inside the tape (tv.identity(x) if you need a new name). "
            "Create a Variable once, before the tape, and train it directly; "
            "to change its value, use assign after taking the gradient."),
        "non_differentiable": (
            f"Every path goes through {op}{at}, which has no gradient.",
            "Use a differentiable alternative (softmax instead of argmax, a smooth surrogate for "
            "round/sign/comparisons)."),
    }
    return table[cause]


def _copy_call(extra) -> str:
    """The call that copied a value (`copied_value`): a Variable's constructor or constant."""
    return "tv.Variable" if extra.get("kind") == "Variable" else "tv.constant"
