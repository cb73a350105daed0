"""What a flight recording keeps (``tv.record(path, flight=...)``): the first calls, every
N-th, anomalous ones and the lead-up before them (see ``flight.py``), and how ``tv.record``'s
``flight=`` and ``full=`` arguments choose it."""
from __future__ import annotations


class FlightPolicy:
    """What a recording keeps (see the module's doc); ``tv.record(path,
    flight=dict(every=50))`` takes these as a dict."""

    __slots__ = ("first", "every", "before", "jump", "ring_bytes")

    def __init__(self, first: int = 3, every: int = 100, before: int = 5, jump: float = 10.0,
                 ring_bytes: int = 64 << 20):
        for name, value in (("first", first), ("every", every), ("before", before),
                            ("ring_bytes", ring_bytes)):
            if type(value) is not int or value < 0:
                raise ValueError(f"tv.record(flight=...): {name} must be an int >= 0, got "
                                 f"{value!r} (every=0 keeps no periodic calls)")
        if isinstance(jump, bool) or not isinstance(jump, (int, float)) or not jump > 1:
            raise ValueError(f"tv.record(flight=...): jump must be a number > 1 (the factor "
                             f"over the running median that counts as a jump), got {jump!r}")
        self.first, self.every, self.before = first, every, before
        self.jump, self.ring_bytes = float(jump), ring_bytes

    def as_dict(self) -> dict:
        return {name: getattr(self, name) for name in self.__slots__}


def policy_from(option, full: bool = False) -> FlightPolicy | None:
    """``flight=`` and ``full=`` of ``tv.record``: None for a full recording (every event),
    else the policy: the defaults for ``flight=None`` (or True), a dict of
    :class:`FlightPolicy` arguments, or a policy."""
    if type(full) is not bool:
        raise TypeError(f"tv.record(full=...) takes True or False, got {full!r}")
    if full:
        if option is not None and option is not True:
            raise ValueError("tv.record(full=True) records every event: it takes no flight "
                             f"policy (got flight={option!r}); pass one or the other")
        return None
    if option is None or option is True:
        return FlightPolicy()
    if isinstance(option, FlightPolicy):
        return option
    if isinstance(option, dict):
        try:
            return FlightPolicy(**option)
        except TypeError as exc:
            raise TypeError(f"tv.record(flight=...): {exc}; it takes first, every, before, "
                            "jump and ring_bytes") from None
    if option is False:
        raise TypeError("tv.record(flight=False): every event is recorded with "
                        "tv.record(path, full=True)")
    raise TypeError(f"tv.record(flight=...) takes a dict of options or a FlightPolicy "
                    f"(or full=True for every event), got {type(option).__name__}")
