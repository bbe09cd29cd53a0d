"""Seeded random input for the editor window, to find any traceback a user could meet: mouse and key events on the map
viewport, clicks and values in the docks, tools, modes and menu actions, none of which may let an
exception reach Qt's event loop. ``tests/editor/test_legible.py`` runs a few hundred events;
``benchmarks/editor_fuzz.py`` runs 10,000 and prints the events per second.

:class:`Fuzzer` drives a :class:`editor.main_window.MainWindow` offscreen. Anything that would
block (a modal dialog, a file dialog, an input prompt) is answered at once (:func:`patch_dialogs`),
and what would leave the sandbox or take long is never chosen: the File menu (open, save,
export, quit), a playtest batch, an AI game played in the background and the
full-map LOS shading (:data:`SKIP_TEXTS`). Exceptions that reach the event loop are collected by
an ``sys.excepthook`` (:class:`ExceptionTrap`), those an event returns to its sender in
:attr:`Fuzzer.errors`; a run passes when both are empty.
"""

from __future__ import annotations

import random
import sys
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence, QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDockWidget,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QSlider,
    QSpinBox,
    QTabBar,
    QTreeWidget,
)

__all__ = ["Fuzzer", "ExceptionTrap", "patch_dialogs", "SKIP_TEXTS", "FuzzStats"]

#: buttons and actions never pressed: they write files, quit, or start long work in the background
SKIP_TEXTS = ("Run batch", "Play this game", "Visible from the firer's hex", "Open replay...", "Run playtest batch",
              "&Quit", "Quit",
              # the AIs would play a whole game for the side no human plays
              "German human", "Russian human")
#: menus whose actions are never triggered (files: open, save, export, quit, recent files)
SKIP_MENUS = ("&File",)

_BUTTONS = (Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton, Qt.MouseButton.LeftButton,
            Qt.MouseButton.RightButton, Qt.MouseButton.MiddleButton)
_MODS = (Qt.KeyboardModifier.NoModifier,) * 4 + (Qt.KeyboardModifier.ShiftModifier,
                                                 Qt.KeyboardModifier.ControlModifier)
_KEYS = (Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Delete, Qt.Key.Key_Backspace,
         Qt.Key.Key_Space, Qt.Key.Key_D, Qt.Key.Key_R, Qt.Key.Key_1, Qt.Key.Key_3, Qt.Key.Key_Plus,
         Qt.Key.Key_Minus, Qt.Key.Key_Left, Qt.Key.Key_Up, Qt.Key.Key_Tab, Qt.Key.Key_A, Qt.Key.Key_X)
_WORDS = ("Hill K", "Squad C (10)", "Squad Q (8)", "PL PR10", "IP1 x 2", "4307", "{", '{"kind": "hexes", '
          '"hexes": ["4307"]}', '{"kind": "area"}', "", "Grenades (6)", "MMG #1 (12)", "x" * 40, "less R PR9")


class ExceptionTrap:
    """While installed, exceptions that reach the event loop (Python slots and virtual methods
    called from Qt) are recorded in :attr:`errors` instead of only printed."""

    def __init__(self):
        self.errors: list[str] = []
        self._old = None

    def __enter__(self) -> "ExceptionTrap":
        self._old = sys.excepthook

        def hook(kind, value, tb):
            self.errors.append("".join(traceback.format_exception(kind, value, tb)))

        sys.excepthook = hook
        return self

    def __exit__(self, *exc) -> None:
        sys.excepthook = self._old


def patch_dialogs(monkeypatch, rng: random.Random) -> None:
    """Answer every modal dialog at once (``monkeypatch``: pytest's, or any object with
    ``setattr(target, name, value)``): message boxes with their default (Discard for "save
    changes?"), file dialogs cancelled, input prompts with a random word or cancelled, other
    dialogs rejected."""
    from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QMessageBox

    from editor.drawing.tool import ToolContext

    sb = QMessageBox.StandardButton
    monkeypatch.setattr(QMessageBox, "critical", staticmethod(lambda *a, **k: sb.Ok))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda *a, **k: sb.Ok))
    monkeypatch.setattr(QMessageBox, "information", staticmethod(lambda *a, **k: sb.Ok))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: sb.Discard))
    monkeypatch.setattr(QMessageBox, "exec", lambda self: int(sb.Cancel))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: ("", "")))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(
        lambda *a, **k: (rng.choice(_WORDS), rng.random() < 0.7)))
    monkeypatch.setattr(QInputDialog, "getItem", staticmethod(lambda *a, **k: ("", False)))
    monkeypatch.setattr(QInputDialog, "getInt", staticmethod(lambda *a, **k: (rng.randint(-3, 12), rng.random() < 0.7)))
    monkeypatch.setattr(QDialog, "exec", lambda self: int(QDialog.DialogCode.Rejected))
    monkeypatch.setattr(ToolContext, "_ask", staticmethod(
        lambda *a, **k: rng.choice(_WORDS) if rng.random() < 0.7 else None))


@dataclass
class FuzzStats:
    events: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)


class Fuzzer:
    """Random events for ``win`` from ``seed``; :meth:`run` sends ``n`` of them."""

    def __init__(self, win, seed: int):
        self.win = win
        self.rng = random.Random(seed)
        self.stats = FuzzStats()
        #: exceptions an event raised back into the driver (an event sent from Python returns a
        #: virtual method's exception to its sender instead of the event loop's excepthook)
        self.errors: list[str] = []
        self._held: Qt.MouseButton | None = None

    # -- helpers
    def _send_mouse(self, kind, pos: QPointF, button=Qt.MouseButton.NoButton, buttons=Qt.MouseButton.NoButton,
                    mods=Qt.KeyboardModifier.NoModifier) -> None:
        # QTest.mouseMove does not reach the scene on the offscreen platform: real events
        vp = self.win.view.viewport()
        ev = QMouseEvent(kind, pos, vp.mapToGlobal(pos), button, buttons, mods)
        QApplication.sendEvent(vp, ev)

    def _viewport_point(self) -> QPointF:
        r = self.win.view.viewport().rect()
        return QPointF(self.rng.uniform(0, max(1, r.width() - 1)), self.rng.uniform(0, max(1, r.height() - 1)))

    def _dock_widgets(self):
        """The interactive widgets of the docks on top (their tab current)."""
        out = []
        for d in self.win.findChildren(QDockWidget):
            if d.isHidden() or not self.win.dock_on_top(d):
                continue
            for cls in (QAbstractButton, QComboBox, QAbstractSpinBox, QLineEdit, QTreeWidget, QListWidget,
                        QPlainTextEdit, QSlider, QTabBar):
                for wdg in d.findChildren(cls):
                    if wdg.isVisible() and wdg.isEnabled():
                        if isinstance(wdg, QAbstractButton) and wdg.text() in SKIP_TEXTS:
                            continue
                        out.append(wdg)
        return out

    def _actions(self) -> list[QAction]:
        out = []
        for m in self.win.menuBar().actions():
            if m.text() in SKIP_MENUS or m.menu() is None:
                continue
            stack = [m.menu()]
            while stack:
                menu = stack.pop()
                for a in menu.actions():
                    if a.menu() is not None:
                        stack.append(a.menu())
                    elif not a.isSeparator() and a.isEnabled() and a.text() not in SKIP_TEXTS:
                        out.append(a)
        return out

    # -- events
    def mouse(self) -> str:
        rng = self.rng
        pos = self._viewport_point()
        r = rng.random()
        if self._held is not None:   # finish a gesture: move then release
            self._send_mouse(QEvent.Type.MouseMove, pos, Qt.MouseButton.NoButton, self._held)
            if r < 0.6:
                self._send_mouse(QEvent.Type.MouseButtonRelease, pos, self._held, Qt.MouseButton.NoButton)
                self._held = None
            return "drag"
        if r < 0.45:
            self._send_mouse(QEvent.Type.MouseMove, pos)
            return "move"
        b = rng.choice(_BUTTONS)
        mods = rng.choice(_MODS)
        if r < 0.85:
            self._send_mouse(QEvent.Type.MouseButtonPress, pos, b, b, mods)
            if rng.random() < 0.5:
                self._held = b
            else:
                self._send_mouse(QEvent.Type.MouseButtonRelease, pos, b, Qt.MouseButton.NoButton, mods)
            return "click"
        self._send_mouse(QEvent.Type.MouseButtonPress, pos, b, b, mods)
        self._send_mouse(QEvent.Type.MouseButtonRelease, pos, b, Qt.MouseButton.NoButton, mods)
        self._send_mouse(QEvent.Type.MouseButtonDblClick, pos, b, b, mods)
        self._send_mouse(QEvent.Type.MouseButtonRelease, pos, b, Qt.MouseButton.NoButton, mods)
        return "double-click"

    def key(self) -> str:
        rng = self.rng
        vp = self.win.view.viewport()
        if rng.random() < 0.15:   # undo / redo
            seq = rng.choice((QKeySequence.StandardKey.Undo, "Ctrl+Shift+Z"))
            a = self.win.undo_action if seq == QKeySequence.StandardKey.Undo else self.win.redo_action
            a.trigger()
            return "undo/redo"
        QTest.keyClick(vp, rng.choice(_KEYS), Qt.KeyboardModifier.ShiftModifier if rng.random() < 0.1
                       else Qt.KeyboardModifier.NoModifier)
        return "key"

    def tool(self) -> str:
        acts = [a for a in self.win.tool_actions.values() if a.isEnabled()]
        self.rng.choice(acts).trigger()
        return "tool"

    def mode(self) -> str:
        """Another mode, or another dock of this mode to the front."""
        w = self.win
        if self.rng.random() < 0.4:
            self.rng.choice(list(w.mode_actions.values())).trigger()
            return "mode"
        docks = w.mode_docks.get(w.mode or "map", [])
        if docks:
            d = self.rng.choice(docks)
            d.show()
            d.raise_()
        return "mode dock"

    def dock(self) -> str:
        rng = self.rng
        ws = self._dock_widgets()
        if not ws:
            return "dock (none)"
        wdg = rng.choice(ws)
        if isinstance(wdg, QComboBox):
            if wdg.count():
                wdg.setCurrentIndex(rng.randrange(wdg.count()))
        elif isinstance(wdg, QSpinBox):
            wdg.setValue(rng.randint(wdg.minimum(), min(wdg.maximum(), wdg.minimum() + 12)))
            wdg.editingFinished.emit()
        elif isinstance(wdg, QAbstractSpinBox):
            wdg.stepBy(rng.choice((-1, 1)))
        elif isinstance(wdg, QLineEdit):
            wdg.setText(rng.choice(_WORDS))
            QTest.keyClick(wdg, Qt.Key.Key_Return)
            wdg.editingFinished.emit()
        elif isinstance(wdg, QPlainTextEdit):
            if not wdg.isReadOnly():
                wdg.setPlainText(rng.choice(_WORDS))
        elif isinstance(wdg, (QTreeWidget, QListWidget)):
            self._item(wdg)
        elif isinstance(wdg, QSlider):
            wdg.setValue(rng.randint(wdg.minimum(), wdg.maximum()))
        elif isinstance(wdg, QTabBar):
            if wdg.count():
                wdg.setCurrentIndex(rng.randrange(wdg.count()))
        elif isinstance(wdg, QCheckBox):
            wdg.click()
        elif isinstance(wdg, QAbstractButton):
            wdg.click()
        return f"dock {type(wdg).__name__}"

    def _item(self, wdg) -> None:
        rng = self.rng
        if isinstance(wdg, QListWidget):
            if not wdg.count():
                return
            it = wdg.item(rng.randrange(wdg.count()))
            wdg.setCurrentItem(it)
            r = rng.random()
            if r < 0.4:
                wdg.itemClicked.emit(it)
            elif r < 0.6:
                wdg.itemDoubleClicked.emit(it)
            elif r < 0.7:
                wdg.itemActivated.emit(it)
            return
        items = []
        stack = [wdg.topLevelItem(i) for i in range(wdg.topLevelItemCount())]
        while stack and len(items) < 3000:
            it = stack.pop()
            items.append(it)
            stack.extend(it.child(i) for i in range(it.childCount()))
        if not items:
            return
        it = rng.choice(items)
        wdg.setCurrentItem(it)
        r = rng.random()
        if r < 0.3:
            wdg.itemClicked.emit(it, 0)
        elif r < 0.55:
            wdg.itemDoubleClicked.emit(it, rng.choice((0, 1)))
        elif r < 0.65:
            it.setExpanded(not it.isExpanded())

    def action(self) -> str:
        acts = self._actions()
        if not acts:
            return "action (none)"
        a = self.rng.choice(acts)
        a.trigger()
        return f"action {a.text()}"

    def step(self) -> str:
        r = self.rng.random()
        if r < 0.50:
            kind = self.mouse()
        elif r < 0.62:
            kind = self.key()
        elif r < 0.70:
            kind = self.tool()
        elif r < 0.74:
            kind = self.mode()
        elif r < 0.94:
            kind = self.dock()
        else:
            kind = self.action()
        self.stats.events += 1
        k = kind.split(" ")[0]
        self.stats.by_kind[k] = self.stats.by_kind.get(k, 0) + 1
        return kind

    def run(self, n: int, *, process_every: int = 5, log: list | None = None) -> FuzzStats:
        """Send ``n`` events (the event loop runs every ``process_every`` events, and the
        deferred work, e.g. a redraw after a map edit, with it); ``log`` receives each event's
        description (to reproduce a failure)."""
        app = QApplication.instance()
        for i in range(n):
            try:
                kind = self.step()
            except Exception:  # noqa: BLE001 - recorded: the caller fails on any (never swallowed)
                kind = "raised"
                self.errors.append(traceback.format_exc())
            if log is not None:
                log.append(kind)
            if i % process_every == 0:
                self._event_loop(app)
        if self._held is not None:
            self._send_mouse(QEvent.Type.MouseButtonRelease, QPointF(QPoint(5, 5)), self._held)
            self._held = None
        self._event_loop(app)
        return self.stats

    @staticmethod
    def _event_loop(app) -> None:
        """What a turn of the editor's event loop does: the pending events, then the deferred
        deletions (``deleteLater``). ``processEvents`` called outside a running loop leaves the
        deletions pending, so without them a long run kept every replaced panel, dialog and tab
        bar alive, and slowed down as no user's session does."""
        app.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
