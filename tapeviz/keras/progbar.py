"""`tv.keras.utils.Progbar`: the text progress bar custom training loops print, with the same
text as TF-Keras's (`12/50 [=====>.....] - ETA: 3s - loss: 0.4123`): values averaged over
the steps seen (weighted by the steps of each update) except `stateful_metrics`, a time per
step, and, for `verbose=2`, one line when the target is reached."""
from __future__ import annotations

import os
import sys
import time

import numpy as np


def _format_time(seconds, unit_name):
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit_name}"
    if seconds >= 1e-3:
        return f" {seconds * 1000.0:.0f}ms/{unit_name}"
    return f" {seconds * 1000000.0:.0f}us/{unit_name}"


def _format_eta(eta):
    if eta > 3600:
        return "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
    if eta > 60:
        return "%d:%02d" % (eta // 60, eta % 60)
    return "%ds" % eta


class Progbar:
    """A progress bar to `target` steps (None: unknown), updated with `update(current,
    values=[(name, value), ...])` or `add(n, values)`."""

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step"):
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        # (Keras redraws in place wherever `posix` is imported: on every Linux and macOS)
        self._dynamic_display = (getattr(sys.stdout, "isatty", lambda: False)()
                                 or "ipykernel" in sys.modules or "posix" in sys.modules
                                 or "PYCHARM_HOSTED" in os.environ)
        self._total_width = 0
        self._seen_so_far = 0
        self._values = {}            # name -> [weighted sum, weight]
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end = None
        self._time_after_first_step = None

    def _average(self, name):
        total, weight = self._values[name]
        return np.mean(total / max(1, weight))

    def _values_text(self, positive_only=False):
        text = ""
        for name in self._values_order:
            avg = self._average(name)
            large = avg > 1e-3 if positive_only else abs(avg) > 1e-3
            text += f" - {name}: {avg:.4f}" if large else f" - {name}: {avg:.4e}"
        return text

    def _bar(self, current):
        if self.target is None:
            return "%7d/Unknown" % current
        digits = int(np.log10(self.target)) + 1
        bar = ("%" + str(digits) + "d/%d [") % (current, self.target)
        filled = int(self.width * float(current) / self.target)
        if filled > 0:
            bar += "=" * (filled - 1) + (">" if current < self.target else "=")
        return bar + "." * (self.width - filled) + "]"

    def update(self, current, values=None, finalize=None):
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or []:
            if name not in self._values_order:
                self._values_order.append(name)
            if name in self.stateful_metrics:
                self._values[name] = [value, 1]
            else:
                weight = max(current - self._seen_so_far, 1)
                total, seen = self._values.get(name, [0, 0])
                self._values[name] = [total + value * weight, seen + weight]
        self._seen_so_far = current
        now = time.time()
        info = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            previous_width = self._total_width
            message = "\b" * previous_width + "\r" if self._dynamic_display else "\n"
            bar = self._bar(current)
            self._total_width = len(bar)
            per_unit = self._step_duration(current, now)
            if self.target is None or finalize:
                info += _format_time(per_unit, self.unit_name)
            else:
                info = f" - ETA: {_format_eta(per_unit * (self.target - current))}"
            info += self._values_text()
            self._total_width += len(info)
            if previous_width > self._total_width:
                info += " " * (previous_width - self._total_width)
            sys.stdout.write(message + bar + info + ("\n" if finalize else ""))
            sys.stdout.flush()
        elif self.verbose == 2 and finalize:
            digits = int(np.log10(self.target)) + 1
            info = ("%" + str(digits) + "d/%d") % (current, self.target) + info
            info += self._values_text(positive_only=True)
            if self._time_at_epoch_end:
                per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
                self._time_at_epoch_start, self._time_at_epoch_end = now, None
                info += " -" + _format_time(per_epoch, "epoch")
                info += " -" + _format_time(per_epoch / self.target, self.unit_name) + "\n"
            sys.stdout.write(info)
            sys.stdout.flush()
        self._last_update = now

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    def _step_duration(self, current, now):
        """Seconds per step, not counting the first step once there are more (it often
        includes start-up work)."""
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit
