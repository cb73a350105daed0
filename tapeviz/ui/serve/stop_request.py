"""Stopping ``tapeviz serve`` on Ctrl-C at any moment of its start-up: :class:`StopRequest`."""
from __future__ import annotations

import contextlib
import signal


class StopRequest:
    """The server's SIGINT handler (Ctrl-C; ``tapeviz run`` sends SIGTERM and SIGHUP to it
    too), installed before "serving" is printed: it asks the server's loop to stop, and
    remembers the request for the time before the loop exists. Why: Panel installs its own
    handler only once the server is built, up to a second after "serving"; in a process
    started with SIGINT ignored (a background job of a script, which Python keeps ignored) a
    Ctrl-C in that second was lost and the server ran on (seen under load, in a stress run
    and in 2 of 40 runs of the test suite's own Ctrl-C test)."""

    def __init__(self):
        self.requested = False
        self.loop = None
        self._interrupt = False

    @contextlib.contextmanager
    def interrupting(self):
        """Within: a Ctrl-C raises KeyboardInterrupt (long work that checks for nothing)."""
        self._interrupt = True
        try:
            yield
        finally:
            self._interrupt = False

    def install(self):
        """Handle SIGINT from now on; the handler it replaces (None: not the main thread,
        which alone receives signals)."""
        try:
            return signal.signal(signal.SIGINT, self)
        except ValueError:
            return None

    def __call__(self, signum, frame):
        self.requested = True
        if self._interrupt:
            raise KeyboardInterrupt
        if self.loop is not None:
            self.loop.asyncio_loop.call_soon_threadsafe(self.loop.stop)
