"""The tool framework every mode's tools build on (Tiled's AbstractTool/ToolManager): the
:class:`Tool` base (``activate`` / ``deactivate``, mouse handlers ``press``, ``move``, ``release``,
``double_click``, ``key``, a status text and an options widget for the "Tool options" dock), the
:class:`ToolContext` a tool needs (the document, the scene for overlays, the selection) instead of
a window, the :class:`ToolManager` that routes the canvas's events to the current tool, and the
small drawing helpers of the tools' rubber bands."""
from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, QPointF, Signal
from PySide6.QtGui import QColor, QPainterPath, QUndoCommand
from PySide6.QtWidgets import QComboBox, QInputDialog, QLabel, QLineEdit, QVBoxLayout, QWidget

from maps.hexgrid import Hex
from editor.drawing.canvas import ToolEvent, overlay_item
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y

__all__ = ["ToolContext", "Tool", "ToolManager"]


SELECT_FILL = QColor(40, 110, 230, 70)
SELECT_PEN = QColor(20, 70, 200)
PREVIEW_FILL = QColor(250, 200, 0, 90)


def _lat(x: float, y: float) -> QPointF:
    return QPointF(x * SCENE_PER_X, y * SCENE_PER_Y)


def show_quietly(combo: QComboBox | None, values, value) -> None:
    """Show ``value`` (one of ``values``, in the order of the combo's items, each item's data) in
    the options panel's ``combo`` without emitting its change signals: the panel follows a change
    made in code. Nothing when the panel was not made (``combo`` None) or shows it already."""
    if combo is not None and combo.currentData() != value:
        combo.blockSignals(True)
        combo.setCurrentIndex(list(values).index(value))
        combo.blockSignals(False)


def polyline_path(points, hover=None) -> QPainterPath:
    """The rubber band of a line being drawn: through ``points`` (lattice map units) and on to the
    ``hover`` point (the mouse), in scene units; empty without points."""
    path = QPainterPath()
    pts = [_lat(*p) for p in points]
    if pts:
        path.moveTo(pts[0])
        for p in pts[1:]:
            path.lineTo(p)
        if hover is not None:
            path.lineTo(_lat(*hover))
    return path


def dots_path(points, radius: float) -> QPainterPath:
    """A dot of ``radius`` (scene units) at each of ``points`` (lattice map units)."""
    dots = QPainterPath()
    for p in points:
        dots.addEllipse(_lat(*p), radius, radius)
    return dots


class ToolContext(QObject):
    """What tools work on: the current document, the scene (overlays), the selection, the clipboard.

    ``prompt(title, label, default) -> str | None`` asks the user for text (replaceable in tests).
    """

    document_changed = Signal(object)
    selection_changed = Signal(object)

    def __init__(self, document=None, scene=None, parent=None):
        super().__init__(parent)
        self.document = document
        self.scene = scene
        self.selection: set[Hex] = set()
        #: the copied region (an ``editor.map.edits.Region``) or None
        self.clipboard = None
        self.chart = None
        self.prompt: Callable[[str, str, str], str | None] = self._ask

    def set_document(self, document) -> None:
        self.document = document
        self.set_selection(set())
        self.document_changed.emit(document)

    def set_selection(self, hexes) -> None:
        self.selection = set(hexes)
        self.selection_changed.emit(self.selection)

    def push(self, cmd: QUndoCommand) -> bool:
        """Push ``cmd`` (an undo command with an ``empty`` flag, e.g. a map edit command) unless it
        changes nothing; returns whether it was pushed."""
        if cmd.empty:
            return False
        self.document.undo_stack.push(cmd)
        return True

    @staticmethod
    def _ask(title: str, label: str, default: str = "") -> str | None:
        text, ok = QInputDialog.getText(None, title, label, QLineEdit.EchoMode.Normal, default)
        return text if ok else None


class Tool(QObject):
    """Base class of the tools."""

    name = "tool"
    label = "Tool"
    shortcut = ""
    help = ""
    status_changed = Signal(str)
    #: why the tool may not act on the map now (a sentence), or None when it may; set by the
    #: document the tool edits (a scenario tool while the map shown is not the scenario's own)
    refusal: Callable[[], str | None] | None = None

    def __init__(self, ctx: ToolContext):
        super().__init__(ctx)
        self.ctx = ctx
        self.status = ""
        self._options: QWidget | None = None
        self._items: list = []

    # lifecycle
    def activate(self) -> None:
        self.set_status(self.help)

    def deactivate(self) -> None:
        self.clear_overlay()

    # events (override)
    def press(self, ev: ToolEvent) -> None: ...
    def move(self, ev: ToolEvent) -> None: ...
    def release(self, ev: ToolEvent) -> None: ...
    def double_click(self, ev: ToolEvent) -> None:
        self.press(ev)

    def key(self, key: int, modifiers) -> bool:
        return False

    # helpers
    @property
    def doc(self):
        return self.ctx.document

    def set_status(self, text: str) -> None:
        self.status = text
        self.status_changed.emit(text)

    def options_widget(self) -> QWidget:
        if self._options is None:
            self._options = self.make_options()
        return self._options

    def make_options(self) -> QWidget:
        w, lay = self.help_panel()
        lay.addStretch(1)
        return w

    def help_panel(self) -> tuple[QWidget, QVBoxLayout]:
        """An options panel that starts with the tool's help text (wrapped), and its layout."""
        w = QWidget()
        lay = QVBoxLayout(w)
        lab = QLabel(self.help)
        lab.setWordWrap(True)
        lay.addWidget(lab)
        return w, lay

    def clear_overlay(self) -> None:
        for it in self._items:
            if it.scene() is not None:
                it.scene().removeItem(it)
        self._items = []

    def add_overlay(self, path: QPainterPath, fill=None, pen=None, z: float = 10):
        if self.ctx.scene is None:
            return None
        it = overlay_item(self.ctx.scene, path, fill, pen, z)
        self._items.append(it)
        return it


class ToolManager(QObject):
    """Holds the tools, the current one, and forwards the scene's events to it."""

    tool_changed = Signal(object)

    def __init__(self, ctx: ToolContext, tools: list[Tool] | None = None):
        super().__init__(ctx)
        self.ctx = ctx
        self.tools: dict[str, Tool] = {}
        self.current: Tool | None = None
        for t in tools or []:
            self.add(t)

    def add(self, tool: Tool) -> Tool:
        self.tools[tool.name] = tool
        return tool

    def set_tool(self, name: str) -> Tool:
        tool = self.tools[name]
        if tool is self.current:
            return tool
        if self.current is not None:
            self.current.deactivate()
        self.current = tool
        tool.activate()
        self.tool_changed.emit(tool)
        return tool
