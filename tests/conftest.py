"""Every test leaves tapeviz's event bus as it found it: a subscription left open would turn
events on for the tests after it (`events.ACTIVE`), which then pass or fail by their order."""
import gc

import pytest

from tapeviz import events


def pytest_configure(config):
    # pandas 3 makes bokeh emit Pandas4Warning (reset_index(inplace=True)) for DataFrame
    # sources. Only where the class exists: pandas 2 (the newest on Python 3.10) has none, and
    # a filter naming a missing class is an error for pytest.
    try:
        from pandas.errors import Pandas4Warning  # noqa: F401
    except ImportError:
        return
    config.addinivalue_line("filterwarnings", "ignore::pandas.errors.Pandas4Warning")


@pytest.fixture(autouse=True)
def _no_subscription_left_open():
    before = set(map(id, events.subscribers()))
    yield
    left = [s for s in events.subscribers() if id(s) not in before]
    if left:
        # a view the test dropped closes its subscription when collected (a full collection
        # only then: after a few thousand tests one takes a quarter of a second)
        gc.collect()
        left = [s for s in events.subscribers() if id(s) not in before]
    for s in left:
        s.close()
    assert not left, f"the test left {len(left)} event subscription(s) open: {left}"
