"""How far the browser page is behind the server: :class:`PageAck`.

A live view that sends a redraw a second to a page that needs more than a second to apply it
(a slow or busy machine, two tabs in one browser) fills the page's message queue, and the
answer to a click waits behind every redraw queued before it (tens of seconds, growing). So
a live view numbers its redraws and sends the next one only once the page says it painted
the last, and spaces them by several times what that took: the page's own pace sets the
rate, it is idle most of the time (free to take a click), and a click's answer goes out next.

The page says so by selecting row ``n`` of a small data source two frames after redraw ``n``
arrived (a selection syncs back to the server, as a click on a node does).
"""
from __future__ import annotations

import time

from bokeh.models import ColumnDataSource, CustomJS

ACK_JS = """
const n = src.data.n[0];
requestAnimationFrame(() => requestAnimationFrame(() => { src.selected.indices = [n]; }));
"""

#: seconds after which a redraw the page has not confirmed counts as applied (a page that
#: cannot answer must still get its updates)
GIVE_UP = 10.0


class PageAck:
    """Numbers the redraws sent to the page of ``figure`` and learns which it painted."""

    def __init__(self, figure):
        self.source = ColumnDataSource({"n": [0]}, name="page_ack")
        self.source.js_on_change("data", CustomJS(args=dict(src=self.source), code=ACK_JS))
        # (an argument of a callback on the figure: so the source is part of the document)
        figure.js_on_change("tags", CustomJS(args=dict(ack=self.source), code=""))
        self.source.selected.on_change("indices", self._on_ack)
        self.sent = self.applied = 0
        self._sent_at = 0.0
        #: seconds the page took to paint the last redraw it confirmed
        self.took = 0.0

    def _on_ack(self, attr, old, new):
        if new and int(new[0]) > self.applied:
            self.applied = int(new[0])
            if self.applied == self.sent:
                self.took = time.monotonic() - self._sent_at

    def mark_sent(self) -> None:
        """The redraw just made is number ``sent``: the page confirms it when painted."""
        self.sent += 1
        self._sent_at = time.monotonic()
        self.source.data = {"n": [self.sent]}

    def caught_up(self) -> bool:
        """True once the page painted the last redraw sent (or it has had GIVE_UP seconds)."""
        return self.applied >= self.sent or time.monotonic() - self._sent_at >= GIVE_UP
