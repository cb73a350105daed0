"""A memory sink for tests and notebooks: ``with tv.events.capture() as seen:`` fills
``seen`` with every event delivered meanwhile, in order."""
from __future__ import annotations


class Captured(list):
    """The list :func:`capture` fills: events in order, plus small helpers."""

    def kinds(self) -> list:
        return [e.kind for e in self]

    def of(self, kind: str) -> list:
        return [e for e in self if e.kind == kind]


class capture:
    """A memory sink for tests and notebooks: ``with capture() as seen:`` fills ``seen``.

    >>> from tapeviz.events import log_scalar
    >>> with capture() as seen:
    ...     log_scalar("loss", 1.0, step=0)
    >>> seen.kinds()
    ['scalar']
    """

    def __init__(self, replay_definitions: bool = False):
        self.events = Captured()
        self._replay = replay_definitions
        self._sub = None

    def __enter__(self) -> Captured:
        from . import subscribe
        self._sub = subscribe(self.events.append, replay_definitions=self._replay)
        return self.events

    def __exit__(self, *exc):
        self._sub.close()
