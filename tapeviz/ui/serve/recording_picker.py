"""A folder of recordings behind one dashboard: ``tapeviz serve DIR``.

The page's header has a picker of the folder's ``*.tvz`` files (newest first, refreshable).
Choosing one replaces what the dashboard shows in place (:meth:`Dashboard.load`): the same
widgets and Bokeh models receive the new run's data, so the browser redraws without building
a new page. Ingested recordings (:func:`.source.store_for`) and layouts (:mod:`.layout`) are
cached per process, so going back to a recording costs neither a parse nor a ``dot`` run.

Only plain ``.tvz`` files directly inside the served folder can be opened: a chosen name must
be a bare file name and resolve (symlinks followed) to a regular file inside the folder
(:meth:`RecordingFolder.path`).
"""
from __future__ import annotations

import os

import panel as pn

from ..dashboard.dashboard import Dashboard
from ..render.html import esc
from ..store.source import store_for

SUFFIX = ".tvz"
PICKER_CSS = "select.bk-input { color: #212529; background-color: #fff; }"  # the header's text is white


class RecordingFolder:
    """The recordings of one folder; :meth:`path` is the only way from a name to a file."""

    def __init__(self, folder):
        self.root = os.path.realpath(folder)

    def names(self) -> list:
        """File names of the folder's recordings, newest first (then by name)."""
        found = []
        try:
            entries = list(os.scandir(self.root))
        except OSError:
            return []
        for entry in entries:
            if not entry.name.endswith(SUFFIX) or entry.name.startswith("."):
                continue
            try:
                if self.path(entry.name):
                    found.append((-entry.stat().st_mtime_ns, entry.name))
            except OSError:
                continue
        return [name for _, name in sorted(found)]

    def path(self, name) -> str | None:
        """The file a listed name stands for, or None: no separators, no dot-dot, no symlink
        out of the folder, a regular file."""
        if (not isinstance(name, str) or not name.endswith(SUFFIX) or name != os.path.basename(name)
                or "/" in name or "\\" in name or name in (".", "..") or "\0" in name):
            return None
        real = os.path.realpath(os.path.join(self.root, name))
        if os.path.dirname(real) != self.root or not os.path.isfile(real):
            return None
        return real


class FolderDashboard:
    """A :class:`Dashboard` with a recording picker over a folder (one per session)."""

    def __init__(self, folder, initial: str | None = None, keep_tapes: int | None = None,
                 **dashboard_kw):
        self.folder = RecordingFolder(folder)
        self.keep_tapes = keep_tapes            # tapes each store keeps (None: the default)
        names = self.folder.names()
        self.picker = pn.widgets.Select(label="Recording", options=names, width=280,
                                        css_classes=["tv-picker"], stylesheets=[PICKER_CSS])
        self.reload = pn.widgets.Button(label="↻", width=40, align="end",
                                        description="list the folder's recordings again")
        self.message = pn.pane.Alert("", alert_type="danger", visible=False,
                                     sizing_mode="stretch_width", css_classes=["tv-open-error"])
        self.shown: str | None = None
        first = initial if initial in names else (names[0] if names else None)
        store, error = self._read(first) if first else (None, None)
        self.dashboard = Dashboard(None, title=first or "no recording", store=store,
                                   **dashboard_kw)
        if first:
            self.picker.value = first
            if error is None:
                self.shown = first
            else:
                self._say(error)
        else:
            self._say(f"No recordings ({SUFFIX} files) in {os.path.basename(self.folder.root)}/ "
                      "yet: record one, then press ↻.", kind="info")
        self.picker.param.watch(self._on_pick, "value")
        self.reload.on_click(lambda e: self.relist())
        self.header = pn.Row(self.picker, self.reload, css_classes=["tv-picker-row"])
        self.main = pn.Column(self.message, self.dashboard, sizing_mode="stretch_width")

    def _read(self, name):
        """(a store holding the recording, None), or (None, a message) when the file cannot
        be opened."""
        path = self.folder.path(name)
        if path is None:
            return None, f"Cannot open {name}: not a recording in this folder."
        try:
            return store_for(path, self.keep_tapes), None
        except Exception as exc:    # a broken or vanished file: say so, keep the page working
            text = str(exc).replace(self.folder.root + os.sep, "")
            return None, f"Cannot open {name}: {type(exc).__name__}: {text}"

    def _say(self, text, kind="danger"):
        self.message.object = esc(text)
        self.message.alert_type = kind
        self.message.visible = True

    def _on_pick(self, event):
        if event.new == self.shown:      # back from a file that failed: still on the page
            self.message.visible = False
        elif event.new:
            self.open(event.new)

    def open(self, name: str) -> bool:
        """Show recording ``name`` of the folder; on failure the page says why and keeps
        showing the run it had."""
        store, error = self._read(name)
        if error is None:
            try:
                self.dashboard.load(None, title=name, store=store)
            except Exception as exc:     # the dashboard's own guards should make this rare
                error = f"Cannot show {name}: {type(exc).__name__}: {exc}"
        if error is not None:
            if self.shown:
                error += f" (still showing {self.shown})"
            self._say(error)
            return False
        self.shown = name
        self.message.visible = False
        if self.picker.value != name:
            self.picker.value = name
        return True

    def relist(self) -> None:
        """Read the folder again (new recordings appear, deleted ones go)."""
        names = self.folder.names()
        keep = self.picker.value
        if keep not in names and self.shown in names:
            keep = self.shown
        opts = names if keep in names or keep is None else names + [keep]
        if opts != self.picker.options:
            self.picker.options = opts
        if keep is not None and self.picker.value != keep:
            self.picker.value = keep
