"""`GradientTape`: what it watches, what it records, and the calls that differentiate it.

TensorFlow's recording rule: an op joins a tape only when one of its inputs is watched by
that tape or was computed from a watched tensor. Trainable variables are watched when read
inside the tape unless `watch_accessed_variables=False`. Several tapes record at once, and a
gradient computed while an outer tape records is itself recorded (higher-order derivatives).
"""
from __future__ import annotations

import itertools

import warnings
import weakref

from .. import config as _config
from .. import events as _events
from . import nest
from . import op as _op
from .backprop import SLICES, backward, reads_apart, sparse_results
from .gradient_args import (UnconnectedGradients, _as_target, _as_upstream,
                            _ones, _packed, _sources, _targets_that_are_sources, _unconnected)
from .call_site import as_dict, user_names, user_prefix, user_site, where
from .stop_recording import StopRecording
from .tape_events import (closed_payload, finished_payload, gradient_health, note_nonfinite,
                          opened_payload, started_payload, verdict_rows, watched_payload)
from .tensor import Tensor, Variable
# (the per-thread name scopes live with the rest of a thread's state; imported from here too)
from .threadstate import current_backward, current_scope, here, name_scope, tapes  # noqa: F401

_tape_ids = itertools.count(1)
_call_ids = itertools.count(1)

_CALLS_KEPT = 8         # a persistent tape remembers its last few calls for show()


_not_floating_warnings = itertools.count()


def _warn_not_floating(dtype) -> None:
    """TensorFlow's warning for watching an integer tensor, logged the first 5 times only
    (as TF's `log_first_n`): a training loop watching one every step is not flooded."""
    if next(_not_floating_warnings) < 5:
        import logging   # on the first warning: `import tapeviz` does not load logging
        logging.getLogger("tapeviz").warning(
            "The dtype of the watched tensor must be floating (e.g. tv.float32), got %s",
            dtype.name)


class GradientTape:
    """Record operations for automatic differentiation.

    >>> import tapeviz as tv
    >>> x = tv.constant(3.0)
    >>> with tv.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> float(tape.gradient(y, x))
    6.0
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._id = next(_tape_ids)
        self._only = (self._id,)    # the `tapes` of a node this tape alone recorded (shared)
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._init_records()
        self._site = user_site(2)
        self._open_at = self._closed_at = None
        self._used = False

    def _init_records(self):
        self._ids: set = set()
        self._entries: list = []         # (node, inputs, outputs): what backprop needs
        self._released_nodes: list | None = None   # lineage kept after a one-shot gradient
        self._watched: dict = {}         # id -> (tensor or variable, how, site)
        self._refused: list = []         # (tensor, site): watch() of a non-float tensor
        self._escapes: list = []         # (tensor id, via, site)
        self._assigns: list = []         # (variable id, value id, method, node)
        self._pauses: list = []          # [start node id, end node id or None, site]
        self._kept_entries: list | None = None   # a one-shot tape's entries after its answer
        self._last_results: dict | None = None   # source id -> last gradient, for explain()
        self._calls: list = []           # (method, args, site) of recent calls, for show()
        self._user_vjps = False          # a custom gradient recorded: its backward runs code
                                         # of the user's (custom.py sets it)

    # --- the with block -------------------------------------------------------------------
    def __enter__(self):
        self._push()
        self._open_at = _op.peek_node_id()
        self._closed_at = None
        if _events.ACTIVE:      # (the site `_push` took: the `with` line)
            _events.emit(_events.deferred(
                _events.TapeOpened, opened_payload, self._id, self._persistent,
                self._watch_accessed, [t._id for t in tapes(here().open) if t is not self],
                self._site))
        return self

    def __exit__(self, *exc):
        self._pop()
        if _events.ACTIVE:
            _events.emit(_events.deferred(_events.TapeClosed, closed_payload, self._id,
                                          user_site(2)))
        return False

    def _push(self):
        state = here()
        ref = weakref.ref(self)   # (one object per tape: refs without a callback are shared)
        if ref in state.open:
            raise ValueError("This GradientTape is already recording; tapes cannot be "
                             "entered twice at once")
        state.entered.add(weakref.ref(self, state.entered.discard))
        self._site = user_site(3)
        # weak: a tape the program drops inside its block stops recording (see __del__)
        state.open.append(ref)
        state.recording.append(ref)

    def _pop(self):
        state = here()
        ref = weakref.ref(self)
        if ref in state.open:
            state.open.remove(ref)
        if ref in state.recording:
            state.recording.remove(ref)
        self._closed_at = _op.peek_node_id()

    def __del__(self):
        # entered, never exited: it recorded this thread's ops until now (its weak references
        # in the thread's lists are dropped by that thread, see threadstate)
        if getattr(self, "_open_at", None) is not None and self._closed_at is None:
            try:
                warnings.warn(f"tapeviz: GradientTape {self._id} was entered at "
                              f"{_where(self._site)} and never exited; it stopped recording "
                              "when it was garbage-collected. Fix: use `with "
                              "tv.GradientTape() as tape:`", ResourceWarning)
                # (no `source=self`: the warning would keep the tape alive, recording)
            except Exception:   # (-W error: an exception in __del__ is only printed)
                pass

    @property
    def _recording(self) -> bool:
        return weakref.ref(self) in here().recording

    # --- watching ---------------------------------------------------------------------------
    def watch(self, tensor):
        """Watch a tensor, a variable, or a nested list/tuple/dict of them."""
        site = user_site(2)
        for t in nest.flatten(tensor):
            if isinstance(t, Variable):
                self._watch_variable(t, "watch", site)
            elif isinstance(t, Tensor):
                if t._value.dtype.kind != "f":
                    _warn_not_floating(t.dtype)
                    self._refused.append((t, site))
                    continue
                if t._id not in self._watched:
                    self._watched[t._id] = (t, "watch", site)
                self._ids.add(t._id)
                self._emit_watch(t, "watch", site)
            else:
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tv.Tensor or tv.Variable. Fix: tape.watch(tv.constant(...)) "
                                 "or watch a tv.Variable")

    def _watch_variable(self, var, how, site=None):
        if var._value.dtype.kind != "f":
            # as TF: listed by watched_variables(), but nothing differentiable is recorded
            _warn_not_floating(var.dtype)
            self._refused.append((var, site or user_site(2)))
            self._watched.setdefault(var._id, (var, how, site or user_site(2)))
            return
        site = site or user_site(2)
        if var._id not in self._watched:
            self._watched[var._id] = (var, how, site)
        self._ids.add(var._id)
        self._emit_watch(var, how, site)

    def _emit_watch(self, t, how, site):
        if _events.ACTIVE:   # (a builder of its own: no Lazy fields for `make` to find)
            _events.emit_deferred(_events.Watched, watched_payload, self._id, t, t._value,
                                  t._node, how, site, _events.config["value_limit"])

    def watched_variables(self):
        """The variables this tape watches, in the order they were created."""
        found = [v for v, _, _ in self._watched.values() if isinstance(v, Variable)]
        return tuple(sorted(found, key=lambda v: v._serial))

    # --- pausing and resetting ----------------------------------------------------------------
    def stop_recording(self):
        """`with tape.stop_recording():` runs ops the tape does not record."""
        return StopRecording(self)

    def reset(self):
        """Forget everything recorded and watched so far (the tape keeps recording)."""
        if not self._recording:
            raise ValueError("Tape is not recording. Fix: call reset() inside the tape's "
                             "`with` block")
        self._init_records()
        self._used = False

    # --- differentiation ------------------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(sources), shaped like `sources`; `None` where no path connects them."""
        unconnected = _unconnected(unconnected_gradients)
        self._check_usable("gradient")
        flat_sources = _sources(sources)
        flat_targets = ([target] if type(target) is Tensor else   # (the usual loss: no walk)
                        [_as_target(t) for t in nest.flatten(target)])
        if output_gradients is not None:
            flat_up = [_as_upstream(g, t)
                       for g, t in zip(nest.flatten(output_gradients), flat_targets)]
            if len(nest.flatten(output_gradients)) != len(flat_targets):
                raise ValueError(f"GradientTape.gradient: output_gradients has "
                                 f"{len(nest.flatten(output_gradients))} items but there are "
                                 f"{len(flat_targets)} targets. Fix: one output gradient per "
                                 "target, in the targets' order (tv.ones_like(target) for "
                                 "a target weighted by 1)")
        else:
            flat_up = [_ones(t) for t in flat_targets]
        call = self._start("gradient", flat_targets, flat_sources, unconnected)
        apart = reads_apart(self, flat_sources)
        try:
            grads = backward(self, flat_targets, flat_up, {s._id for s in flat_sources},
                             call=call, apart=apart)
        finally:
            self._end_call(call)
        raw = ([grads.get(s._id) for s in flat_sources] if apart is None else
               [grads.get(apart.get(id(s), s._id)) for s in flat_sources])
        if any(g is None for g in raw):      # (identity: `None in raw` calls Tensor.__eq__)
            _targets_that_are_sources(raw, flat_sources, flat_targets, flat_up, apart)
        results = raw if unconnected == "none" else [
            self._result(g, s, unconnected) for g, s in zip(raw, flat_sources)]
        self._finish(call, flat_targets, flat_sources, results, output_gradients, unconnected,
                     raw=raw)
        self._log_call("gradient", (target, sources, output_gradients, unconnected_gradients))
        if SLICES in grads:   # gathers from a source: TensorFlow answers IndexedSlices
            results = sparse_results(grads, flat_sources, results)
        return _packed(sources, results)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """The full Jacobian, shaped `target.shape + source.shape`, for each source.

        Computed in one vectorized backward pass (a batch of one-hot upstream gradients)."""
        from .jacobians import jacobian
        result = jacobian(self, target, sources, unconnected_gradients, experimental_use_pfor)
        self._log_call("jacobian", (target, sources, unconnected_gradients))
        return result

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobian: shape `(batch,) + target.shape[1:] + source.shape[1:]`."""
        from .jacobians import batch_jacobian
        result = batch_jacobian(self, target, source, unconnected_gradients,
                                experimental_use_pfor)
        self._log_call("batch_jacobian", (target, source, unconnected_gradients))
        return result

    def explain(self, target, sources, output_gradients=None,
                unconnected_gradients=UnconnectedGradients.NONE):
        """Why each source's gradient is what it is: one `Explanation` per (flattened) source."""
        from ..explain import explain
        return explain(self, target, sources, output_gradients, unconnected_gradients)

    def show(self, **kwargs):
        """The dashboard view of this tape, for a notebook (needs Panel)."""
        from .. import show   # the package's lazy bridge: the engine itself never loads the UI
        return show(self, **kwargs)

    # --- helpers -----------------------------------------------------------------------------
    def _log_call(self, method, args):
        """Remember a finished call so a view opened later can replay it (`replay.py`)."""
        if len(self._calls) >= _CALLS_KEPT:
            del self._calls[0]
        self._calls.append((method, args, user_site(3)))

    def _check_usable(self, what):
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians). Fix: create the tape with "
                               f"{user_prefix()}.GradientTape(persistent=True) to call "
                               f"{what}() several times")
        if self._recording and not self._persistent:
            self._pop()   # as TensorFlow: a one-shot tape stops recording when differentiated
            if _events.ACTIVE:
                _events.emit(_events.make(_events.RecordingPaused, tape=self._id,
                                          site=as_dict(user_site(3))))

    def _check_loop_allowed(self, what, use_pfor):
        """TensorFlow computes a Jacobian without pfor as one gradient call per row, which a
        one-shot tape cannot give: it refuses before differentiating (the tape stays usable).
        tapeviz computes every Jacobian in one pass, but answers as TensorFlow does."""
        if use_pfor or self._persistent or self._used:
            return     # (a used tape gets the one-shot error from _check_usable)
        raise RuntimeError(f"GradientTape must be created with persistent=True to compute the "
                           f"{what} with eager execution enabled and with experimental_use_pfor "
                           f"set to False. Fix: {user_prefix()}.GradientTape(persistent=True), "
                           "or leave experimental_use_pfor=True (the default)")

    def _start(self, method, targets, sources, unconnected):
        call = next(_call_ids)
        here().backward.append(call)
        if _events.ACTIVE and not _events.muted():   # (delivered as made: a call begins here)
            _events.emit(_events.deferred(
                _events.GradientStarted, started_payload, call, self._id, method,
                [(t, t._value, t._node) for t in targets],
                [(s, s._value, s._node) for s in sources], unconnected, user_site(3),
                _events.config["value_limit"]))
        return call

    def _end_call(self, call):
        running = here().backward
        if running and running[-1] == call:
            running.pop()

    def _result(self, g, source, unconnected):
        if g is None and unconnected == "zero":
            from .ops import zeros_like
            return zeros_like(source)
        return g

    def _finish(self, call, targets, sources, results, output_gradients, unconnected,
                value_limit=None, raw=None):
        explanations = later = None
        listening = _events.wanted(_events.GradientFinished)
        # (listening: each gradient's verdict and norm from the health check's own pass, for
        # subscribers that want only those: they are read without building the payload)
        verdicts = [] if listening else None
        health = gradient_health(results, verdicts) if listening or not self._persistent \
            else None
        if health == "nonfinite":    # (for `nan_input`: an update may write it into a variable)
            note_nonfinite(call, sources, results)
        if self._escapes and _events.ACTIVE:   # (rare: a value of this tape went to NumPy)
            from ..explain.notes import escaped_loss_term
            names = user_names(targets)
            escaped_loss_term(self, targets, results, names.get(id(targets[0]), "the target")
                              if len(targets) == 1 else "the targets", user_prefix())
        if _config.explain_none or (listening and health == "nonfinite"):
            # (a NaN's origin is found by running the backward pass again: that runs ops, so
            # it happens now, in the user's thread, not in whichever thread reads the event)
            from ..explain import explain_flat, warn_if_broken
            explanations = explain_flat(self, targets, sources, results, unconnected)
            if _config.explain_none:
                warn_if_broken(explanations)
        elif listening:
            # The explanation reads the lineage, this tape's entries (immutable tensors) and,
            # for a None or zero gradient, the tape's side notes: it is worked out when a
            # subscriber reads the event, from a copy of what it reads, so a subscriber that
            # never reads it pays nothing and a later read says what it would say now
            entries = list(self._entries or self._kept_entries or ())
            if health == "healthy":
                state = self    # ("ok" or "saturated": only the entries are read)
            else:
                from ..explain import TapeState
                state = TapeState(self, entries)
            later = (state, targets, entries, user_names(sources), unconnected, user_prefix())
        if listening:   # summaries built when a subscriber reads the event
            limit = _events.config["value_limit"]
            verdicts = verdict_rows(sources, verdicts)
            event = _events.deferred(
                _events.GradientFinished, finished_payload, call, self._id,
                [(s, s._value, s._node) for s in sources], results, explanations, limit,
                limit if value_limit is None else value_limit, later, verdicts)
            _events.preset(event, call=call, tape=self._id, verdicts=verdicts)
            _events.emit(event)
        # before any ZERO filling: a later explain() applies its own unconnected_gradients
        self._last_results = {s._id: r for s, r in
                              zip(sources, raw if raw is not None else results)}
        if not self._persistent:
            self._used = True
            self._released_nodes = [entry[0] for entry in self._entries]
            # the values stay, until the tape object goes, only when explain() or show() may
            # need them: freeing them lets the optimizer update variables in place
            keep = _config.keep_values or health == "broken" or health == "nonfinite"
            self._kept_entries = self._entries if keep else None
            self._entries = []

    def _tapeviz_event_source(self):
        """Past and future events of this tape, for `tv.show(tape)`."""
        from .replay import TapeEventSource
        return TapeEventSource(self)


def _where(site) -> str:
    return where(site[0].co_filename, site[1]) if site is not None else "an unknown line"
