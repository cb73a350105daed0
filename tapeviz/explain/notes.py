"""Notes: what in a run is most likely a bug although every gradient is a finite value, so no
verdict and no Why card can show it (a loss told ``from_logits=True`` of a softmax's output, a
BatchNormalization layer left in inference mode while a tape trains it, a frozen layer's
weight updated because it was passed by hand). The code that sees
one calls :func:`note`; a ``note`` event carries it to the dashboard's *Why* tab and to a
recording, with the user's line. Each is told once per code and subject to the same
subscribers (a training loop would repeat it every step); a new subscriber (a recording
started later, a second run in one process) hears it again.
"""
from __future__ import annotations

from .. import events as _events
from ..engine.call_site import as_dict, user_site
from ..engine.threadstate import here

#: (code, subject) pairs told already to the subscribers of ``_told_to`` (the events module's
#: ``subscriptions_generation()`` then); emptied when full
_TOLD: set = set()
_told_to = -1
MAX_TOLD = 1000


def note(code: str, subject: str, message: str, fix: str, site=None) -> None:
    """Tell subscribers (the dashboard, a recording) about ``subject`` (a loss, a layer), at
    the user's line that called into tapeviz (or ``site``), once per ``code`` and ``subject``
    while the same subscribers listen. Nothing is made, or remembered, while no one
    listens."""
    global _told_to
    if not _events.ACTIVE:
        return
    generation = _events.subscriptions_generation()
    if generation != _told_to or len(_TOLD) >= MAX_TOLD:
        _TOLD.clear()
        _told_to = generation
    elif (code, subject) in _TOLD:
        return
    _TOLD.add((code, subject))
    _events.emit(_events.make(_events.Note, code=code, subject=subject, message=message,
                              fix=fix, site=as_dict(site or user_site(2))))


def softmax_as_logits(loss: str, activation: str) -> None:
    """A crossentropy given ``from_logits=True`` and a Keras softmax's (or sigmoid's) output:
    Keras then uses the logits behind it (and warns), so the gradient is right, but the code
    says the opposite of what it does, and the same loss of ``tf.nn.softmax(...)`` would be
    computed on probabilities as if they were logits."""
    note("softmax_as_logits", loss,
         f"{loss} was told from_logits=True but received the output of a {activation} "
         f"activation, which is probabilities, not logits (Keras uses the logits behind it "
         f"and warns; the same loss of any other {activation} would treat probabilities as "
         f"logits).",
         f"Pass from_logits=False, or drop the {activation} activation from the last layer "
         f"and keep from_logits=True (then every other reader of that output, a metric or a "
         f"second loss, gets logits instead of probabilities).")


def batchnorm_inference(layer: str) -> None:
    """A BatchNormalization layer called with ``training`` left unset: told when a tape of
    this thread records, where it normalises with its moving statistics, which then never
    move, and its batch statistics are not used. Right for fine-tuning with it frozen; a bug
    while training it."""
    if not _events.ACTIVE or not here().recording:
        return
    note("batchnorm_inference", layer,
         f"BatchNormalization layer {layer!r} ran in inference mode while a GradientTape "
         f"recorded (training was left unset): it normalises with its moving mean and "
         f"variance, which this run never updates, not with the batch's statistics.",
         "Call the model with training=True inside the tape (model(x, training=True)), or "
         "training=False on purpose when fine-tuning with the layer frozen.")


def frozen_layer_updated(layer: str, variable: str, optimizer: str) -> None:
    """An optimizer updated a weight of a layer made with (or set to) ``trainable=False``:
    the weight was passed as a source by hand, so it trains although the layer says it is
    frozen (TensorFlow does the same; Keras's ``trainable_variables`` leaves it out)."""
    note("frozen_layer_updated", variable,
         f"{optimizer} updated {variable}, a weight of layer {layer!r}, which is frozen "
         f"(trainable=False): it was passed as a source by hand, so the layer trains anyway.",
         f"Take the sources from model.trainable_variables (or layer.trainable_weights), or "
         f"set {layer}.trainable = True if it should train.")


def escaped_loss_term(tape, targets, results, name: str, prefix: str) -> None:
    """Part of a target was computed by NumPy from a value this tape recorded, on a line where
    the target takes NumPy's result back in as a constant (``-tf.reduce_mean(np.log(p))``):
    that part has no gradient. The sources that only it reaches get None and their Why
    card says so; the ones the rest also reaches (an L2 penalty beside it) get a finite
    gradient without that term, and read "ok", so this note says it. (A NumPy result kept
    in a variable and read by the target on a later line is not linked to it: not told.)
    ``name``: the target's name in the user's code; ``prefix``: the name the code calls
    tapeviz by."""
    target_ids = {t._id for t in targets}
    if not _events.ACTIVE or all(r is None for r in results) or all(
            tid in target_ids for tid, _, _ in tape._escapes):    # (`print(loss.numpy())`)
        return
    from .context import _lineage
    from .none_messages import _NUMPY_TWINS
    lineage = _lineage(targets)
    on_target = {i for node in lineage for i in node.out_ids}
    # where the target's lineage took in an array made anew (NumPy's result, converted)
    fresh = {node.site for node in lineage if node.op == "Const"}
    recorded = {i for entry in tape._entries or tape._kept_entries or () for i in
                entry[0].out_ids}
    for tid, via, site in tape._escapes:
        if tid in recorded and tid not in on_target and site in fresh:
            line = site[1]
            twin = _NUMPY_TWINS.get(via)
            use = (f"Use {twin.replace('tv.', prefix + '.')} instead of {via}" if twin else
                   f"Compute that term with {prefix} ops, not {via},")
            note("escaped_loss_term", via,
                 f"Part of {name} was computed by {via} on line {line} from a tensor the tape "
                 f"recorded: NumPy's result is a constant to the tape, so that part of {name} "
                 f"has no gradient. Sources reached only through it get None; the others get "
                 f"a gradient that leaves it out (it can read ok and still be wrong).",
                 f"{use} on line {line}, so the whole of {name} is on the tape.", site=site)
            return
