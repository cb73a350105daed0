"""`Dataset.interleave`'s default cycle length is TensorFlow's AUTOTUNE: the number of CPU
cores the process may use (TensorFlow's golden answers, recorded on one machine, pass it
explicitly)."""
import tapeviz as tv
from tapeviz import data_transforms


def _values(ds):
    return [int(e) for e in ds]


def test_default_cycle_length_is_the_number_of_usable_cores(monkeypatch):
    inner = lambda x: tv.data.Dataset.range(x)   # noqa: E731
    outer = tv.data.Dataset.range(1, 6)
    for cores in (1, 2, 3):
        monkeypatch.setattr(data_transforms, "_cores", lambda: cores)
        assert _values(outer.interleave(inner)) == _values(outer.interleave(inner,
                                                                            cycle_length=cores))
    # and the cycle length matters here, so the comparison above can fail
    assert _values(outer.interleave(inner, cycle_length=1)) != _values(
        outer.interleave(inner, cycle_length=3))
