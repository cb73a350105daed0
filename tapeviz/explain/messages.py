"""The cause vocabulary of explanations: one plain sentence and one fix per cause."""
from __future__ import annotations

import re

from ..engine.call_site import cell_of, source_line
from .none_messages import _none_texts

#: cause -> when it applies (documented in docs/explanations.md and the README's causes table)
CAUSES = {
    "ok": "a finite, non-zero gradient",
    "not_watched": "a Tensor or constant that the tape does not watch",
    "not_trainable": "a Variable with trainable=False, not watched explicitly",
    "auto_watch_off": "a Variable not watched because the tape has watch_accessed_variables=False",
    "unconnected": "the target does not depend on the source at all",
    "integer_dtype": "the source is an integer/bool/string tensor, or every path goes through one",
    "numpy_escape": "the path was cut where a value left the tape through NumPy or Python",
    "variable_assign": "the path was cut by assign, assign_add or assign_sub",
    "stop_gradient": "every path is blocked by stop_gradient",
    "stop_recording": "the ops that connect them ran inside tape.stop_recording()",
    "outside_tape": "the ops that connect them ran outside this tape's with block",
    "replaced_variable": "the source is a Tensor computed from a Variable (as after x = x + 1)",
    "non_differentiable": "every path goes through an op that has no gradient",
    "copied_value": "the target reads a copy of the source's value made by tf.constant or "
                    "tf.Variable, which starts a new history",
    "zero_unconnected": "a zero that unconnected_gradients=ZERO produced for an unconnected source",
    "dead_relu": "zero because the ReLUs on the path are inactive for all inputs",
    "saturated": "vanishing gradient through a saturated sigmoid/tanh",
    "clipped": "zero because clip_by_value, maximum or minimum held the value at its bound",
    "cancelled": "zero because contributions cancel or a local derivative is exactly zero",
    "nan_origin": "NaN: the first op, forward or backward, that produced a non-finite value",
    "inf_origin": "Inf: the first op, forward or backward, that produced a non-finite value",
    "nan_input": "NaN/Inf that was already in a variable or an input when the tape ran "
                 "(an optimizer update that applied a NaN gradient, or the data)",
}


def _op(node) -> str:
    if node is None:
        return "an op"
    return node.op if isinstance(node.op, str) else node.op.name


def _at(site) -> str:
    if site is None:
        return ""
    code = _without_comment(source_line(site))
    cell = cell_of(site[0].co_filename)      # in a notebook, the line of which cell
    return (f" at line {site[1]}" + (f" of cell [{cell}]" if cell is not None else "")
            + (f" (`{code}`)" if code else ""))


def _without_comment(code: str) -> str:
    """A quoted line of code without its trailing comment (the code is what is named)."""
    if "#" not in code:
        return code
    import io
    import tokenize
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                return code[:tok.start[1]].rstrip()
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass      # a line that does not tokenize alone (inside a bracket): keep it whole
    return code


# the user's own words (their name for the source, their source line) stand in as these while
# the texts are put in the name their code calls tapeviz by: a quoted line keeps its "tv."
_NAME, _AT = "\x00name\x00", "\x00at\x00"
_TV = re.compile(r"\btv\.")


def in_words(text: str, prefix: str) -> str:
    """A text written with ``tv.`` in the name the user's code calls tapeviz by (``tf.`` after
    ``import tapeviz as tf``)."""
    return text if prefix == "tv" else _TV.sub(prefix + ".", text)


def render(cause, name, node=None, prefix="tv", **extra):
    """(message, fix) for one explanation, naming tapeviz's functions as ``prefix``."""
    at = _at(extra.get("site") or (node.site if node is not None else None))
    if prefix == "tv":
        return _texts(cause, name, node, at, extra)
    message, fix = _texts(cause, _NAME, node, _AT, extra)
    return tuple(in_words(text, prefix).replace(_NAME, name).replace(_AT, at)
                 for text in (message, fix))


def _texts(cause, name, node, at, extra):
    if cause in ("nan_origin", "inf_origin"):
        return _nonfinite(cause, name, node, _op(node), at, extra)
    if cause == "nan_input":
        return _nonfinite_input(name, at, extra)
    if cause in _ZERO_CAUSES:
        return _zero_texts(cause, name, _op(node), at, extra)
    return _none_texts(cause, name, node, _op(node), at, extra)


#: the causes of an all-zero gradient, or of a small one (`saturated`)
_ZERO_CAUSES = frozenset({"zero_unconnected", "dead_relu", "saturated", "clipped", "cancelled"})


def _zero_texts(cause, name, op, at, extra):
    """(message, fix) of an all-zero gradient, or of one that vanished."""
    if cause == "dead_relu":
        return _dead_relu(name, at, extra)
    table = {
        "zero_unconnected": (
            f"The target does not depend on {name}; this zero comes from "
            "unconnected_gradients=ZERO and hides the disconnection.",
            "Check the connection: with the default unconnected_gradients=NONE the answer "
            "would be None."),
        "saturated": (
            (f"The gradient vanishes in the backward pass through a chain of "
             f"{extra['chain']} {op} ops: its norm falls from {extra['start']:.2g} to "
             f"{extra['local']:.2g} after {extra['after']} of them, at {op}{_which(extra)}{at}."
             if extra.get("after") is not None else
             f"The gradient vanishes through a chain of {extra['chain']} {op} ops, from "
             f"{op}{_which(extra)}{at} on: their largest local derivatives multiply to "
             f"{extra.get('local', 0.0):.2g}." if extra.get("chain") else
             f"The gradient vanishes through the saturated {op}{_which(extra)}{at} (local "
             f"derivative {extra.get('local', 0.0):.2g})."),
            "Scale the inputs, prefer ReLU or a better initialisation, or compute the loss from "
            "logits (e.g. tv.nn.sigmoid_cross_entropy_with_logits)."),
        "clipped": (
            f"{op}{_which(extra)}{at} held the value at its bound, where the gradient is zero.",
            "Expected when clipping; widen the bounds or use a soft clamp if gradients should "
            "flow."),
        "cancelled": (
            f"The contributions to the gradient of {name} cancel, or a local derivative on the "
            "path is exactly zero.",
            (f"A ReLU{' in ' + extra['dead_scope'] if extra.get('dead_scope') else ''}"
             f"{_at(extra['dead_elsewhere'])} gives all zeros (a dead layer): after it "
             "every example carries the same values, so their contributions can cancel. "
             "Revive that layer first (its bias or initialisation), then look again."
             if extra.get("dead_elsewhere") is not None else
             "Nothing is broken if that is the maths; otherwise check the ops on the path.")),
    }
    return table[cause]


def _nonfinite_input(name, at, extra):
    kind = "NaN" if extra.get("kind") == "nan" else "Inf"
    leaf, call = extra.get("leaf"), extra.get("call")
    who = name if extra.get("is_source") else f"The input {leaf}"
    if call is not None:
        msg = (f"{who} already held {kind} when this tape ran: the update{at} wrote it there "
               f"from the non-finite gradient of gradient call {call}.")
        fix = (f"Look at gradient call {call} to find where it began; skip an update "
               "whose gradients are not finite (check tv.math.is_finite on each gradient), or "
               "clip the gradients (tv.clip_by_global_norm).")
    elif extra.get("assigned"):
        msg = f"{who} already held {kind} when this tape ran; it was last set{at}."
        fix = f"Find where that value became {kind}: check the values assigned there."
    else:
        msg = (f"{who} already held {kind} when this tape ran (it was made{at}), so every "
               "gradient that flows through it is non-finite too.")
        fix = ("Check the data where it is loaded (np.isfinite(x).all()), and drop or repair "
               f"the rows that hold {kind}.")
    return msg, fix


def _which(extra) -> str:
    """" (Relu_12, the 3rd of 10 at this line)": the op instance an explanation names."""
    label = extra.get("op_label")
    if not label:
        return ""
    n = extra.get("occurrences")
    if n:
        return f" ({label}, the {_ordinal(extra['occurrence'])} of {n} at this line)"
    return f" ({label})"


def _one_of(extra) -> str:
    """" (MatMul_12, the 1st of 2 at this line, the one reading w3:0)": which op, only when
    its line holds several of its kind (``h1 @ w3 + h2 @ wd``)."""
    if not extra.get("occurrences"):
        return ""
    reads = extra.get("reads")
    return _which(extra)[:-1] + (f", the one reading {' and '.join(reads)})" if reads else ")")


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def _held(span) -> str:
    low, high = span
    return f"{low:.3g}" if low == high else f"{low:.3g} to {high:.3g}"


def _made_and_set(extra, key) -> str:
    """", made at line 9 (`b = ...`), last updated at line 30 (`opt.apply...`)"."""
    where = _at(extra.get(f"{key}_site")).replace(" at line", ", made at line", 1)
    if extra.get(f"{key}_updated") is not None:
        where += _at(extra[f"{key}_updated"]).replace(" at line", ", last updated at line", 1)
    return where


def _dead_relu(name, at, extra):
    msg = f"The ReLU{_which(extra)}{at} has a non-positive input for every element, so it "
    msg += "passes no gradient."
    if extra.get("through"):
        msg = (f"The gradient of {name} is zero because the other factor of its "
               f"{extra['through']} is all zero: it is the output of a dead layer. " + msg)
    fix = ("Check the initialisation and learning rate; consider tv.nn.leaky_relu or a small "
           "positive bias.")
    culprit, weights = extra.get("culprit"), extra.get("weights")
    if culprit:
        where = _made_and_set(extra, "culprit")
        msg += (f" {culprit} ({_held(extra['culprit_range'])}{where}) pushes every element "
                f"below zero: without it, {extra.get('share_without', 0.0):.0%} of them would "
                "be positive.")
        fix = (f"Initialise {culprit} at zero or a small positive value (where it is set), "
               "or lower the learning rate if an update drove it there.")
    elif weights:
        where = _made_and_set(extra, "weights")
        if extra.get("bias"):
            msg += (f" Not because of {extra['bias']} ({_held(extra['bias_range'])}): "
                    f"without it, {extra.get('share_without', 0.0):.1%} of them would be "
                    f"positive. The product with {weights}{where}{',' if where else ''} is "
                    "below zero by itself.")
        else:
            msg += f" Its input, the product with {weights}{where}, is below zero by itself."
        updated = _at(extra.get("weights_updated"))
        fix = (f"An update{updated} drove {weights} there: lower the learning rate of that "
               "optimizer (or clip the gradients); consider tv.nn.leaky_relu."
               if extra.get("weights_updated") is not None else
               f"Check how {weights} is initialised{_at(extra.get('weights_site'))} and the "
               "input's scale; consider tv.nn.leaky_relu or a small positive bias.")
    return msg, fix


# how an op is written in user code, for the where-trap fix ("f(x_safe)" for the others)
_SAFE_CALL = {"Log": "tv.math.log({})", "Log1p": "tv.math.log1p({})", "Sqrt": "tv.sqrt({})",
              "Rsqrt": "tv.math.rsqrt({})", "Pow": "{} ** p", "RealDiv": "1.0 / {}",
              "Reciprocal": "tv.math.reciprocal({})", "Exp": "tv.exp({})",
              "Acos": "tv.math.acos({})", "Asin": "tv.math.asin({})"}


# where an op's real-valued domain starts: below it the op makes NaN in the forward pass
_DOMAIN = {"Sqrt": 0.0, "Rsqrt": 0.0, "Log": 0.0, "Log1p": -1.0, "Acos": -1.0, "Asin": -1.0}


def _nonfinite(cause, name, node, op, at, extra):
    kind = "NaN" if cause == "nan_origin" else "Inf"
    phase = extra.get("phase", "unknown")
    if node is None:
        return (f"The gradient of {name} contains {kind}, but its origin could not be found "
                "(the tape was already released).",
                "Use a persistent tape or call tape.explain before tape.gradient.")
    msg = (f"The first non-finite value on the path appeared at {op}{_one_of(extra)}{at} in "
           f"the {phase} pass.")
    downstream = extra.get("downstream", [])
    overflow = extra.get("overflow")
    if overflow and not extra.get("where_trap"):
        dtype, limit = overflow["dtype"], overflow["limit"]
        read = overflow.get("inputs")
        if phase == "forward" and read:
            msg += (f" {op} overflowed {dtype}: its inputs "
                    + " and ".join(f"{label} ({made + ', ' if made else ''}largest {big:.3g})"
                               for label, made, big in read)
                    + f" are finite, but the result passes {dtype}'s largest value "
                    f"({limit:.3g}).")
        else:
            msg += (f" {op} overflowed {dtype}: the values its backward step read are finite "
                    f"but as large as {overflow['largest']:.3g}, so the result passes "
                    f"{dtype}'s largest value ({limit:.3g}).")
        if overflow.get("leaf"):
            msg += (f" Of the values the tape read that {op} was computed from, the largest is "
                    f"in {overflow['leaf']} ({overflow['leaf_largest']:.3g}).")
        fix = ("values this large usually mean training diverged: each update overshoots, and "
               "the weights and the loss grow step after step until they overflow (look at the "
               "loss over the earlier steps). Lower the learning rate, clip the gradients "
               "(tv.clip_by_global_norm), or scale the inputs and targets to about 1.")
        return msg, fix
    if extra.get("where_trap"):
        if phase == "forward":
            msg += (" A tv.where after it discarded those elements, so the value is finite, "
                    f"but the gradient still flows back through {op} there.")
        call = _SAFE_CALL.get(op, "f({})")
        fix = (f"this is the where trap: tv.where still sends a zero gradient into the branch "
               f"it discarded, and 0 × inf = NaN there. Give {op} a safe input, so that the "
               f"discarded branch is finite too: x_safe = tv.where(cond, x, 1.0); "
               f"y = tv.where(cond, {call.format('x_safe')}, 0.0), e.g. "
               f"tv.where(v > 0, {call.format('tv.where(v > 0, v, 1.0)')}, 0.0).")
    elif op == "Exp" and any(d in ("Log", "Log1p") for d in downstream):
        fix = ("log(1 + exp(x)) overflows for large x: use tv.nn.softplus(x), or a "
               "@tv.custom_gradient whose gradient is 1 - 1 / (1 + exp(x)).")
    elif op == "Exp":
        fix = "exp overflows: subtract the maximum first (log-sum-exp trick) or clip the input."
    elif op in _DOMAIN and extra.get("phase") == "forward" and \
            extra.get("input_min") is not None and extra["input_min"] < _DOMAIN[op]:
        msg += (f" Its input was below {_DOMAIN[op]:g} (smallest {extra['input_min']:.4g}), "
                f"where {op} is not defined.")
        fix = (f"make the input of {op} stay at or above {_DOMAIN[op]:g} (for example "
               f"tv.maximum(x, {_DOMAIN[op]:g}) + 1e-12), or fix the expression that made it "
               "smaller: the loss or value fed to it should not go below that.")
    elif op in ("Log", "Log1p"):
        fix = ("log of zero or a negative number: add an epsilon (x + 1e-7) or clip the "
               "input; the log of a softmax or sigmoid is better computed from its logits "
               "(tv.nn.log_softmax, or the loss given from_logits=True).")
    elif op in ("Sqrt", "Pow", "Rsqrt"):
        fix = ("the derivative of a root is infinite at 0: add a small epsilon (x + 1e-12) or "
               "make the input safe with tv.where before the op.")
    elif op in ("RealDiv", "Reciprocal"):
        fix = "division by zero: use tv.math.divide_no_nan or add an epsilon to the denominator."
    else:
        fix = f"make the input of {op} finite (check its range), or add an epsilon."
    floor = extra.get("relu") if extra.get("phase") == "forward" else None
    if floor is not None:
        fix = (f"its input comes straight from {floor['op']}{_at(floor['site'])}, whose zeros "
               "are exact: for a quantity that must stay positive (a variance, a scale, a "
               f"rate) use tv.nn.softplus(x) + 1e-6 there instead of {floor['written']}. "
               "Else: " + fix)
    return msg, fix
