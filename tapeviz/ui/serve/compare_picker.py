"""The folder view's *Compare with* picker (``tapeviz serve DIR``): the recording picked under
*Recording* shown against another of the folder in a
:class:`~tapeviz.ui.dashboard.compare_view.CompareView`."""
from __future__ import annotations

import os

import panel as pn

from ..dashboard.compare_view import CompareView
from ..render.html import esc
from ..store.compare_store import comparison_for
from .recording_picker import PICKER_CSS


class ComparePicker:
    """The *Compare with* picker of a
    :class:`~tapeviz.ui.serve.recording_picker.FolderDashboard`: choosing a recording shows
    the one picked under *Recording* (run a) against it (run b) in a :class:`CompareView`;
    choosing nothing goes back to the run alone. Names go through the folder's own check
    (:meth:`~tapeviz.ui.serve.recording_picker.RecordingFolder.path`)."""

    def __init__(self, folder_view):
        self.view = folder_view
        self.select = pn.widgets.Select(label="Compare with", options=self._options(),
                                        width=240, css_classes=["tv-compare-picker"],
                                        stylesheets=[PICKER_CSS])
        self.compare: CompareView | None = None
        self.body = folder_view.dashboard       # what the folder's page shows under its header
        self.select.param.watch(lambda e: self.update(), "value")
        folder_view.picker.param.watch(lambda e: self.update(), "value")
        folder_view.reload.on_click(lambda e: self._relist())
        folder_view.header.append(self.select)

    def _options(self) -> list:
        return [""] + self.view.folder.names()

    def _relist(self):
        options = self._options()
        if self.select.value not in options:
            options.append(self.select.value)
        if options != self.select.options:
            self.select.options = options

    def update(self) -> None:
        """Show run a alone, or against the recording picked here."""
        view, other, shown = self.view, self.select.value, self.view.shown
        if not other or not shown:
            self._show(view.dashboard)
            return
        paths = [view.folder.path(name) for name in (shown, other)]
        if None in paths:
            self._say(f"Cannot compare with {other}: not a recording in this folder.")
            return
        try:
            store = comparison_for(*paths)
            self.compare = CompareView(store, title=f"tapeviz · {shown} vs {other}")
        except Exception as exc:     # a broken file: say so, keep the page working
            text = str(exc).replace(view.folder.root + os.sep, "")
            self._say(f"Cannot compare {shown} with {other}: {type(exc).__name__}: {text}")
            return
        view.message.visible = False
        self._show(self.compare)

    def _show(self, body):
        # (every pick of a recording comes here: the page's layout is replaced only when the
        # body changes, since a new list of children makes Bokeh walk the whole document)
        if self.body is not body:
            self.body = body
            self.view.main.objects = [self.view.message, body]

    def _say(self, text):
        self.view.message.object = esc(text)
        self.view.message.alert_type = "danger"
        self.view.message.visible = True
