"""Each mode's dock layout, kept in the one dock layout of the editor window.

Every dock of every mode has its place in the window's one ``QMainWindow`` layout (its area, its
tab group, floating or not); the docks of the modes not shown are hidden there and keep their
place. A mode switch (:meth:`ModeLayouts.capture` of the mode left, :meth:`ModeLayouts.apply` of
the mode entered) hides and shows docks, brings to the front the dock that was in front of each
tab group, and gives the dock areas the sizes they had in that mode. So each mode keeps its own
layout: a dock moved, closed or re-tabbed in one mode leaves the other modes' docks as they were.

A switch never calls ``QMainWindow.restoreState``: each call leaves the window's previous tab bars
behind as new (empty, hidden) children of the window, about four a switch, and a long session
slowed down with them. ``restoreState`` runs once, at the start, with the layout saved at the last
close (``windowLayout`` in the settings, with each mode's docks shown, in front and their sizes as
JSON under ``windowModes/<mode>``). Layouts saved by earlier versions, one ``saveState`` per mode
(``windowState/<mode>``, version 2), are restored once each, on the first entry of their mode.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar

__all__ = ["ModeLayouts", "LAYOUT_VERSION", "LEGACY_STATE_VERSION"]

#: ``saveState`` version of the one layout of every dock (``windowLayout``)
LAYOUT_VERSION = 3
#: ``saveState`` version of the per-mode layouts of earlier versions (``windowState/<mode>``)
LEGACY_STATE_VERSION = 2

_SIDE_AREAS = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea)


class ModeLayouts:
    """The dock layout of each mode of ``win``, a ``QMainWindow`` with ``mode_docks`` (mode ->
    its ``QDockWidget`` list, each with a unique ``objectName`` and title).

    A mode's view is a JSON-able dict: ``shown`` (dock name -> shown), ``front`` (the names of
    the docks in front of their tab group) and ``sizes`` (dock name -> [area, width, height] in
    pixels, for the docks in front and docked)."""

    def __init__(self, win: QMainWindow):
        self.win = win
        self.views: dict[str, dict] = {}
        #: the per-mode ``saveState`` of an earlier version not yet restored (mode -> bytes)
        self.legacy: dict[str, object] = {}

    # ------------------------------------------------------------------ a switch
    def capture(self, mode: str) -> None:
        """Remember how ``mode``'s docks are now (called when the window leaves the mode)."""
        win = self.win
        docks = win.mode_docks.get(mode, [])
        old = self.views.get(mode, {})
        names = {d.objectName() for d in docks}
        shown = dict(old.get("shown", {}))
        shown.update({d.objectName(): not d.isHidden() for d in docks})
        front = [d.objectName() for d in docks if not d.isHidden() and self.in_front(d)]
        front += [n for n in old.get("front", []) if n not in names]   # docks the mode shows at other times
        sizes = {d.objectName(): [int(win.dockWidgetArea(d).value), d.width(), d.height()]
                 for d in docks if not d.isHidden() and not d.isFloating() and self.in_front(d)}
        self.views[mode] = {"shown": shown, "front": front, "sizes": sizes}

    def apply(self, mode: str) -> bool:
        """Show ``mode``'s docks as they were when it was left (the other modes' docks are already
        hidden); False when the mode has no layout yet (the caller makes its default one)."""
        view = self.views.get(mode)
        if view is None:
            return self._restore_legacy(mode)
        win = self.win
        docks = win.mode_docks.get(mode, [])
        by_name = {d.objectName(): d for d in docks}
        for d in docks:   # a dock the mode has never shown (a newly wired panel) is shown
            want = view["shown"].get(d.objectName(), True)
            if want == d.isHidden():
                d.setVisible(want)
        for name in view["front"]:
            d = by_name.get(name)
            if d is not None and not d.isHidden():
                d.raise_()
        self._resize(view["sizes"], by_name)
        return True

    def in_front(self, dock: QDockWidget) -> bool:
        """Whether ``dock``'s tab is the current one of its tab group (True for a dock alone). It
        reads the tab bars holding its title, the shown ones first: right after a switch or a
        ``raise_`` the tab bar of a group may not be shown yet."""
        title = dock.windowTitle()
        # the window's own tab bars (its direct children) hold its dock groups' tabs
        bars = [tb for tb in self.win.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
                if any(tb.tabText(i) == title for i in range(tb.count()))]
        bars = [tb for tb in bars if tb.isVisible()] or bars
        return not bars or any(tb.tabText(tb.currentIndex()) == title for tb in bars)

    def _resize(self, sizes: dict, by_name: dict[str, QDockWidget]) -> None:
        """Each dock area back to the width (left, right) or height (top, bottom) it had in the
        mode, and the docks stacked in it to their lengths; a dock moved since to another area
        is left as it is."""
        win = self.win
        areas: dict[int, list[tuple[QDockWidget, int, int]]] = {}
        for name, (area, width, height) in sizes.items():
            d = by_name.get(name)
            if d is not None and not d.isHidden() and not d.isFloating() \
                    and int(win.dockWidgetArea(d).value) == area:
                areas.setdefault(area, []).append((d, width, height))
        h, v = Qt.Orientation.Horizontal, Qt.Orientation.Vertical
        for area, rows in areas.items():
            across, along = (h, v) if Qt.DockWidgetArea(area) in _SIDE_AREAS else (v, h)
            d, width, height = rows[0]
            win.resizeDocks([d], [width if across == h else height], across)
            if len(rows) > 1:
                win.resizeDocks([r[0] for r in rows], [r[2] if along == v else r[1] for r in rows], along)

    def _restore_legacy(self, mode: str) -> bool:
        state = self.legacy.pop(mode, None)
        if state is None:
            return False
        return bool(self.win.restoreState(state, LEGACY_STATE_VERSION))

    # ------------------------------------------------------------------ settings
    def load(self, settings: QSettings) -> None:
        """At the start: the layout of every dock saved at the last close (``restoreState``, once)
        and each mode's view; or, from an earlier version, the per-mode states to restore on the
        first entry of each mode. A layout or view that does not read is ignored (the defaults)."""
        layout = settings.value("windowLayout")
        if layout is not None and self.win.restoreState(layout, LAYOUT_VERSION):
            for mode in self.win.mode_docks:
                raw = settings.value(f"windowModes/{mode}")
                view = _read_view(raw)
                if view is not None:
                    self.views[mode] = view
            return
        for mode in self.win.mode_docks:
            state = settings.value(f"windowState/{mode}")
            if state is not None:
                self.legacy[mode] = state

    def save(self, settings: QSettings, mode: str | None) -> None:
        """At close: the current mode captured, then the one layout and each mode's view."""
        if mode is not None:
            self.capture(mode)
        settings.setValue("windowLayout", self.win.saveState(LAYOUT_VERSION))
        for m, view in self.views.items():
            settings.setValue(f"windowModes/{m}", json.dumps(view, sort_keys=True))
        settings.remove("windowState")   # the per-mode states of an earlier version, now superseded


def _read_view(raw) -> dict | None:
    """A view read back from the settings, or None when it is not one (hand-edited, truncated)."""
    try:
        view = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        return None
    if not isinstance(view, dict):
        return None
    shown, front, sizes = view.get("shown"), view.get("front"), view.get("sizes")
    if not (isinstance(shown, dict) and all(isinstance(v, bool) for v in shown.values())
            and isinstance(front, list) and all(isinstance(n, str) for n in front)
            and isinstance(sizes, dict)
            and all(isinstance(s, list) and len(s) == 3 and all(type(x) is int for x in s) for s in sizes.values())):
        return None
    return {"shown": shown, "front": front, "sizes": sizes}
