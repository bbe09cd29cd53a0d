"""Editing tools: one class per tool, fed by :class:`ToolManager` (Tiled's AbstractTool/ToolManager).

Each tool has ``activate`` / ``deactivate``, mouse handlers (``press``, ``move``, ``release``,
``double_click``), ``key``, a status text (``status_changed``) and an options widget for the
"Tool options" dock. Tools turn mouse events into commands (:mod:`editor.map.commands`) on the
document's undo stack; they never edit the map themselves. They need only a
:class:`ToolContext` (the document, the scene for overlays, the selection), not a window, so tests
drive them with :class:`editor.drawing.canvas.ToolEvent` values or with real clicks on the view.
"""

from __future__ import annotations

import itertools
from typing import Callable

from PySide6.QtCore import QObject, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)
from shapely.geometry import Polygon

from maps import building_shapes, hexgrid
from maps.hexgrid import Hex
from maps.model import NamedFeature
from editor.map import commands as C
from editor.map import edits
from editor.drawing.canvas import ToolEvent, hex_path, overlay_item
from editor.drawing.map_painter import SCENE_PER_X, SCENE_PER_Y

__all__ = [
    "ToolContext",
    "Tool",
    "ToolManager",
    "SelectTool",
    "TerrainBrushTool",
    "TreeBrushTool",
    "LevelBrushTool",
    "DrawingTool",
    "BuildingTool",
    "PathTool",
    "FeatureTool",
]

_strokes = itertools.count(1)

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
        self.clipboard: edits.Region | None = None
        self.chart = None
        self.prompt: Callable[[str, str, str], str | None] = self._ask

    def set_document(self, document) -> None:
        self.document = document
        self.set_selection(set())
        self.document_changed.emit(document)

    def set_selection(self, hexes) -> None:
        self.selection = set(hexes)
        self.selection_changed.emit(self.selection)

    def push(self, cmd: C.MapEditCommand) -> bool:
        """Push ``cmd`` unless it changes nothing; returns whether it was pushed."""
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


# ------------------------------------------------------------------------------------------
# Select (copy / paste / rotate)
# ------------------------------------------------------------------------------------------
class SelectTool(Tool):
    """Click or drag to select hexes (Shift adds, Ctrl toggles). Ctrl+C copies the region,
    Ctrl+V starts pasting it under the cursor (R rotates 60 degrees, click places, Esc cancels)."""

    name = "select"
    label = "Select"
    shortcut = "S"
    help = "Select: click/drag hexes (Shift adds, Ctrl toggles); Ctrl+C copy, Ctrl+V paste, R rotates the paste"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.pasting: edits.Region | None = None
        self._drag = False
        self._sel_item = None
        self._paste_item = None
        ctx.selection_changed.connect(self._draw_selection)

    def activate(self) -> None:
        super().activate()
        self._draw_selection(self.ctx.selection)

    def deactivate(self) -> None:
        self.pasting = None
        super().deactivate()
        self._sel_item = self._paste_item = None

    def _draw_selection(self, sel) -> None:
        if self._sel_item is not None and self._sel_item.scene() is not None:
            self._sel_item.scene().removeItem(self._sel_item)
            self._items.remove(self._sel_item)
        self._sel_item = None
        if sel and self.ctx.scene is not None and self is getattr(self.ctx, "active_tool", lambda: None)():
            self._sel_item = self.add_overlay(hex_path(sel), SELECT_FILL, QPen(SELECT_PEN, 5), 11)

    def press(self, ev: ToolEvent) -> None:
        if self.pasting is not None:
            if ev.button == Qt.MouseButton.RightButton:
                self.cancel_paste()
            else:
                self.paste_at(ev.hex)
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        self._drag = True
        if ev.ctrl:
            sel = set(self.ctx.selection) ^ {ev.hex}
        elif ev.shift:
            sel = set(self.ctx.selection) | {ev.hex}
        else:
            sel = {ev.hex}
        self.ctx.set_selection({h for h in sel if self.doc.hexmap.contains(h)})
        self._report()

    def move(self, ev: ToolEvent) -> None:
        if self.pasting is not None:
            self._draw_paste(ev.hex)
            return
        if self._drag and ev.left_down and self.doc.hexmap.contains(ev.hex) and ev.hex not in self.ctx.selection:
            self.ctx.set_selection(self.ctx.selection | {ev.hex})
            self._report()

    def release(self, ev: ToolEvent) -> None:
        self._drag = False

    def key(self, key, modifiers) -> bool:
        if key == Qt.Key.Key_R and self.pasting is not None:
            self.rotate_paste()
            return True
        if key == Qt.Key.Key_Escape:
            if self.pasting is not None:
                self.cancel_paste()
            else:
                self.ctx.set_selection(set())
            return True
        return False

    def _report(self) -> None:
        sel = sorted(self.ctx.selection)
        if not sel:
            self.set_status(self.help)
        elif len(sel) == 1:
            self.set_status(f"selected {sel[0].id}")
        else:
            self.set_status(f"selected {len(sel)} hexes ({sel[0].id} ... {sel[-1].id})")

    # clipboard
    def copy(self) -> edits.Region | None:
        if not self.ctx.selection:
            self.set_status("nothing selected to copy")
            return None
        anchor = min(self.ctx.selection)
        self.ctx.clipboard = edits.copy_region(self.doc.hexmap, self.ctx.selection, anchor)
        self.set_status(f"copied {len(self.ctx.clipboard)} hexes")
        return self.ctx.clipboard

    def start_paste(self) -> None:
        if self.ctx.clipboard is None:
            self.set_status("the clipboard is empty: select hexes and copy first")
            return
        self.pasting = self.ctx.clipboard
        self.set_status("paste: click to place, R rotates 60 degrees, Esc cancels")

    def rotate_paste(self, steps: int = 1) -> None:
        if self.pasting is not None:
            self.pasting = self.pasting.rotated(steps)
            self.set_status("paste rotated 60 degrees; click to place")

    def cancel_paste(self) -> None:
        self.pasting = None
        if self._paste_item is not None and self._paste_item.scene() is not None:
            self._paste_item.scene().removeItem(self._paste_item)
        self._paste_item = None
        self.set_status("paste cancelled")

    def _draw_paste(self, anchor: Hex) -> None:
        if self._paste_item is not None and self._paste_item.scene() is not None:
            self._paste_item.scene().removeItem(self._paste_item)
        hs = [edits._at(anchor, off) for off, _ in self.pasting.cells]
        self._paste_item = self.add_overlay(hex_path(hs), PREVIEW_FILL, QPen(QColor(160, 110, 0), 4), 12)

    def paste_at(self, anchor: Hex) -> bool:
        region = self.pasting or self.ctx.clipboard
        if region is None:
            return False
        hexes, fields = edits.paste_region(self.doc.map, self.doc.hexmap, region, anchor)
        pushed = self.ctx.push(C.PasteRegionCommand(self.doc, f"Paste {len(region)} hexes at {anchor.id}", hexes, fields))
        self.cancel_paste()
        self.set_status(f"pasted at {anchor.id}")
        return pushed


class FeatureTool(SelectTool):
    """Feature naming: select the hexes of a feature, type its name ("Hill K") and press Name."""

    name = "feature"
    label = "Feature"
    shortcut = "F"
    help = "Feature naming: select hexes, then type a name (\"Hill K\") and press Name"

    def make_options(self) -> QWidget:
        w, lay = self.help_panel()
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("Hill K")
        lay.addWidget(self.name_edit)
        b = QPushButton("Name the selected hexes")
        b.clicked.connect(lambda: self.name_selection(self.name_edit.text()))
        lay.addWidget(b)
        self.list = QListWidget()
        self.list.itemClicked.connect(lambda it: self.select_feature(it.text()))
        lay.addWidget(QLabel("Features (click to select):"))
        lay.addWidget(self.list)
        rm = QPushButton("Remove feature")
        rm.clicked.connect(lambda: self.list.currentItem() and self.remove_feature(self.list.currentItem().text()))
        lay.addWidget(rm)
        self._fill_list()
        return w

    def activate(self) -> None:
        super().activate()
        self._fill_list()

    def _fill_list(self) -> None:
        if self._options is None and not hasattr(self, "list"):
            return
        if self.doc is not None:
            self.list.clear()
            self.list.addItems([f.name for f in self.doc.map.features])

    def select_feature(self, name: str) -> None:
        self.ctx.set_selection(self.doc.hexmap.feature_hexes(name))
        self._report()

    def name_selection(self, name: str) -> bool:
        name = name.strip()
        if not name or not self.ctx.selection:
            self.set_status("select hexes and type a name first")
            return False
        hexes = [h.id for h in sorted(self.ctx.selection)]
        feats = [f for f in self.doc.map.features if f.name.casefold() != name.casefold()]
        old = next((f for f in self.doc.map.features if f.name.casefold() == name.casefold()), None)
        kind = old.kind if old else ("hill" if name.lower().startswith("hill") else "area")
        feats.append(NamedFeature(name=name, kind=kind, hexes=hexes, provenance=edits.DESIGNER))
        pushed = self.ctx.push(C.NameFeatureCommand(self.doc, f"Name {name}", fields={"features": feats}))
        self._fill_list()
        self.set_status(f"{name} = {len(hexes)} hexes")
        return pushed

    def remove_feature(self, name: str) -> None:
        feats = [f for f in self.doc.map.features if f.name != name]
        self.ctx.push(C.NameFeatureCommand(self.doc, f"Remove {name}", fields={"features": feats}))
        self._fill_list()


# ------------------------------------------------------------------------------------------
# Brushes
# ------------------------------------------------------------------------------------------
class _Brush(Tool):
    """Common stroke handling: press starts a stroke, dragging paints, release ends it; each hex
    is painted once per stroke; the stroke's commands merge into one undo step."""

    COMMAND = C.MapEditCommand
    sizes = (1, 7, 19)

    def __init__(self, ctx):
        super().__init__(ctx)
        self.size_combo: QComboBox | None = None
        self._size = 1
        self.stroke: int | None = None
        self._done: set[Hex] = set()
        self._cursor_item = None

    @property
    def size(self) -> int:
        """Brush size in hexes (1, 7 or 19); setting it also updates the options panel."""
        return self._size

    @size.setter
    def size(self, value: int) -> None:
        if value not in self.sizes:
            raise ValueError(f"brush size must be one of {self.sizes}, not {value}")
        self._size = value
        show_quietly(self.size_combo, self.sizes, value)

    def press(self, ev: ToolEvent) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        self.stroke = next(_strokes)
        self._done = set()
        self.paint_at(ev.hex)

    def move(self, ev: ToolEvent) -> None:
        self._draw_cursor(ev.hex)
        if self.stroke is not None and ev.left_down:
            self.paint_at(ev.hex)

    def release(self, ev: ToolEvent) -> None:
        self.stroke = None

    def double_click(self, ev: ToolEvent) -> None:
        pass

    def _draw_cursor(self, h: Hex) -> None:
        if self.ctx.scene is None or self.doc is None:
            return
        if self._cursor_item is not None and self._cursor_item.scene() is not None:
            self._cursor_item.setPath(hex_path(edits.brush_hexes(self.doc.hexmap, h, self.size)))
            return
        self._cursor_item = self.add_overlay(hex_path(edits.brush_hexes(self.doc.hexmap, h, self.size)),
                                             None, QPen(QColor(30, 30, 30, 200), 4, Qt.PenStyle.DashLine), 13)

    def deactivate(self) -> None:
        super().deactivate()
        self._cursor_item = None

    def paint_at(self, centre: Hex) -> bool:
        """Paint the brush at ``centre`` as part of the current stroke (a new one if none)."""
        if self.stroke is None:
            self.stroke = next(_strokes)
        hexes = [h for h in edits.brush_hexes(self.doc.building_map, centre, self.size) if h not in self._done]
        if not hexes:
            return False
        self._done.update(hexes)
        hex_recs, fields = self.changes(hexes)
        pushed = self.ctx.push(self.COMMAND(self.doc, self.describe(), hex_recs, fields, stroke=self.stroke))
        self.set_status(f"{self.describe()} at {centre.id}")
        return pushed

    def stroke_hexes(self, hexes: list[Hex | str]) -> None:
        """Paint a whole stroke over ``hexes`` (as a drag would): one undo step."""
        self.stroke = next(_strokes)
        self._done = set()
        for h in hexes:
            self.paint_at(hexgrid.parse_hex_id(h) if isinstance(h, str) else h)
        self.stroke = None

    def changes(self, hexes: list[Hex]) -> tuple[dict, dict]:
        raise NotImplementedError

    def describe(self) -> str:
        return self.label

    def _size_combo(self, form: QFormLayout) -> None:
        cb = QComboBox()
        for s in self.sizes:
            cb.addItem(f"{s} hex" + ("es" if s > 1 else ""), s)
        cb.setCurrentIndex(self.sizes.index(self.size))
        cb.currentIndexChanged.connect(lambda i: setattr(self, "size", self.sizes[i]))
        cb.destroyed.connect(lambda *_: setattr(self, "size_combo", None))
        form.addRow("Brush size", cb)
        self.size_combo = cb


class TerrainBrushTool(_Brush):
    """Terrain brush (clear / marsh) in sizes 1, 7, 19 hexes, and flood fill.

    Painting a hex takes the building symbol out of it (a building hex is a terrain of its own on
    the chart); undo restores the building exactly.
    """

    name = "terrain"
    label = "Terrain"
    shortcut = "T"
    help = "Terrain brush: drag to paint clear or marsh; Fill mode fills a 6-connected same-terrain area"
    COMMAND = C.PaintTerrainCommand

    def __init__(self, ctx):
        super().__init__(ctx)
        self.terrain = "marsh"
        self.fill_mode = False
        self.erase_buildings = True

    def press(self, ev: ToolEvent) -> None:
        if self.fill_mode and ev.button == Qt.MouseButton.LeftButton:
            self.flood_fill(ev.hex)
            return
        super().press(ev)

    def describe(self) -> str:
        return f"Paint {self.terrain}"

    def changes(self, hexes):
        recs = edits.set_hex_attrs(self.doc.records, hexes, lambda r: {"terrain": self.terrain})
        fields = {}
        if self.erase_buildings:
            blds = edits.buildings_without_hexes(self.doc.map, self.doc.building_map, hexes)
            if blds is not None:
                fields["buildings"] = blds
        return recs, fields

    def flood_fill(self, start: Hex) -> bool:
        """Fill the 6-connected region of ``start``'s terrain with the brush terrain: one undo step."""
        hm = self.doc.hexmap
        region = edits.flood_region(hm, start, hm.terrain)
        recs, fields = self.changes(region)
        pushed = self.ctx.push(C.FloodFillCommand(self.doc, f"Fill {len(region)} hexes with {self.terrain}", recs, fields))
        self.set_status(f"filled {len(region)} hexes from {start.id} with {self.terrain}")
        return pushed

    def make_options(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        cb = QComboBox()
        cb.addItems(list(edits.TERRAIN_KINDS))
        cb.setCurrentText(self.terrain)
        cb.currentTextChanged.connect(lambda t: setattr(self, "terrain", t))
        form.addRow("Terrain", cb)
        self._size_combo(form)
        mode = QComboBox()
        mode.addItems(["Brush", "Flood fill"])
        mode.setCurrentIndex(1 if self.fill_mode else 0)
        mode.currentIndexChanged.connect(lambda i: setattr(self, "fill_mode", i == 1))
        form.addRow("Mode", mode)
        return w


class TreeBrushTool(_Brush):
    """Tree-symbol brush: set a count, or add / remove one symbol per hex per stroke."""

    name = "trees"
    label = "Trees"
    shortcut = "E"
    help = "Tree brush: drag to set the number of tree symbols, or add/remove one (2+ = Woods, 8.54)"
    COMMAND = C.PaintTreesCommand
    MODES = ("set", "add", "remove")

    def __init__(self, ctx):
        super().__init__(ctx)
        self.mode = "set"
        self.count = 2

    def describe(self) -> str:
        return {"set": f"Set {self.count} trees", "add": "Add a tree", "remove": "Remove a tree"}[self.mode]

    def changes(self, hexes):
        def f(r):
            if self.mode == "set":
                return {"trees": self.count}
            if self.mode == "add":
                return {"trees": min(9, r.trees + 1)}
            return {"trees": max(0, r.trees - 1)}
        return edits.set_hex_attrs(self.doc.records, hexes, f), {}

    def make_options(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        mode = QComboBox()
        mode.addItems(list(self.MODES))
        mode.setCurrentText(self.mode)
        mode.currentTextChanged.connect(lambda t: setattr(self, "mode", t))
        form.addRow("Mode", mode)
        sp = QSpinBox()
        sp.setRange(0, 9)
        sp.setValue(self.count)
        sp.valueChanged.connect(lambda v: setattr(self, "count", v))
        form.addRow("Tree symbols", sp)
        self._size_combo(form)
        return w


class LevelBrushTool(_Brush):
    """Level brush: paint the hill level (10.34: the level that counts) of hexes."""

    name = "level"
    label = "Level"
    shortcut = "L"
    help = "Level brush: drag to set the hill level of hexes"
    COMMAND = C.PaintLevelCommand

    def __init__(self, ctx):
        super().__init__(ctx)
        self.level = 1

    def describe(self) -> str:
        return f"Paint level {self.level}"

    def changes(self, hexes):
        return edits.set_hex_attrs(self.doc.records, hexes, lambda r: {"level": self.level}), {}

    def max_level(self) -> int:
        """The highest hill level the map's terrain chart has a row for (8.53, 10.34: a hex of a
        level without its Hill Level row could not be entered in a game)."""
        chart = self.doc.chart if self.doc is not None else None
        keys = {r.key for r in chart.rows} if chart is not None else {"hill_1", "hill_2"}
        n = 0
        while f"hill_{n + 1}" in keys:
            n += 1
        return n

    def paint_at(self, centre: Hex) -> bool:
        top = self.max_level()
        if self.level > top:   # refused: a game on this map would have no row for that level
            self.set_status(f"refused: the terrain chart has no Hill Level {self.level} row (levels 0 to {top}); "
                            "a hex of that level could not be played")
            return False
        return super().paint_at(centre)

    def make_options(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        sp = QSpinBox()
        sp.setRange(0, self.max_level())   # only the levels the map's chart has a row for
        sp.setToolTip("0: no hill; the hill levels are those of the map's terrain chart (Hill Level rows)")
        sp.setValue(self.level)
        sp.valueChanged.connect(lambda v: setattr(self, "level", v))
        form.addRow("Level", sp)
        self._size_combo(form)
        return w


# ------------------------------------------------------------------------------------------
# Drawing point by point (buildings here; obstacles in editor.map.obstacle_tool)
# ------------------------------------------------------------------------------------------
class DrawingTool(Tool):
    """Common handling of the tools that draw a line or an outline point by point, in modes, and
    select what the map holds (:class:`BuildingTool`, :class:`editor.map.obstacle_tool.ObstacleTool`).

    - ``points`` drawn so far and ``hover``, the mouse's point (lattice map units; the rubber band
      :func:`polyline_path`): :meth:`add_point` adds one (never the same twice in a row; the
      status from :meth:`_point_status`); :meth:`draft_key`: Backspace drops the last point, Esc
      cancels (:meth:`cancel`: :meth:`_clear_draft`, a redraw, "cancelled");
    - :meth:`set_mode` (one of ``MODES``; the options panel's ``mode_combo``, items whose data are
      the modes, follows; the status is the mode's ``MODE_HELP``, else the tool's help) and
      :meth:`deactivate` drop all in progress (:meth:`_reset`);
    - the overlay follows the document (:meth:`_follow_document`, called at the end of a
      subclass's ``__init__``): after any edit (undo included) a selection the edit removed is
      forgotten (:meth:`_drop_stale`) and the current tool redraws (:meth:`_redraw`).
    """

    MODES: tuple[str, ...] = ("draw",)
    #: the status text of each mode whose text is not the tool's ``help``
    MODE_HELP: dict[str, str] = {}

    def __init__(self, ctx):
        super().__init__(ctx)
        self.mode = self.MODES[0]
        self.points: list[tuple[float, float]] = []
        self.hover: tuple[float, float] | None = None

    # the document
    def _follow_document(self) -> None:
        self.ctx.document_changed.connect(self._watch)
        if self.ctx.document is not None:
            self._watch(self.ctx.document)

    def _watch(self, doc) -> None:
        """Redraw the selection (and what goes with it) after any edit of ``doc``, undo included."""
        if doc is not None:
            doc.changed.connect(self._doc_changed)

    def _doc_changed(self, _hexes) -> None:
        if self.doc is None or self.ctx.document is not self.sender():
            return
        self._drop_stale()
        if self is getattr(self.ctx, "active_tool", lambda: None)():
            self._redraw()

    def _drop_stale(self) -> None:
        """Forget a selection that the document no longer has (an undo, a delete)."""

    def _redraw(self) -> None:
        raise NotImplementedError

    # modes and lifecycle
    def set_mode(self, mode: str) -> None:
        if mode not in self.MODES:
            raise ValueError(f"{self.name} tool modes are {self.MODES}, not {mode!r}")
        self.mode = mode
        show_quietly(getattr(self, "mode_combo", None), self.MODES, mode)
        self._reset()
        self._redraw()
        self.set_status(self.MODE_HELP.get(mode, self.help))

    def deactivate(self) -> None:
        self._reset()
        super().deactivate()

    def _clear_draft(self) -> None:
        """Drop the line being drawn (what Esc drops)."""
        self.points, self.hover = [], None

    def _reset(self) -> None:
        """Drop all in progress (on a change of mode and when the tool is put down)."""
        self._clear_draft()

    # drawing
    def add_point(self, pt) -> None:
        """Add ``pt`` (lattice map units) to the line being drawn."""
        if self.points and pt == self.points[-1]:
            return
        self.points.append(pt)
        self.set_status(self._point_status(pt))
        self._redraw()

    def _point_status(self, pt) -> str:
        return f"point {len(self.points)}"

    def cancel(self) -> None:
        self._clear_draft()
        self._redraw()
        self.set_status("cancelled")

    def draft_key(self, key) -> bool:
        """Backspace drops the last point drawn, Esc cancels; whether ``key`` was one of those."""
        if key == Qt.Key.Key_Backspace and self.points:
            self.points.pop()
            self._redraw()
            return True
        if key == Qt.Key.Key_Escape:
            self.cancel()
            return True
        return False


# ------------------------------------------------------------------------------------------
# Buildings
# ------------------------------------------------------------------------------------------
class BuildingTool(DrawingTool):
    """Building symbols.

    Modes: ``draw`` (click corners snapped to hex centres and vertices of the lattice; click the
    first corner again, double-click or Enter closes the polygon; Backspace drops the last corner;
    Esc cancels), ``footprint`` (drag over hexes: a symbol covering them), ``edit`` (click a
    building to select it; set its number and name, delete it; drag one of its corners - snapped
    to the lattice, one undo step per drag; double-click an edge to insert a corner there; click a
    corner and press Delete to remove it) and ``join`` (click two buildings in adjacent hexes to
    join them into one multi-hex building). The building's hexes follow its polygon.
    """

    #: How near (scene units; a hex is 100 across) a click must be to a corner or an edge.
    GRAB = 16.0

    name = "building"
    label = "Building"
    shortcut = "B"
    help = "Building: click corners on the hex lattice, click the first corner (or double-click) to close"
    MODES = ("draw", "footprint", "edit", "join")
    MODE_HELP = {"footprint": "Building: drag over hexes to make a symbol covering them",
                 "edit": "Building: click a building to select it (number, name); drag a corner, "
                         "double-click an edge to add one, Delete removes the clicked corner",
                 "join": "Building: click two buildings in adjacent hexes to join them"}

    def __init__(self, ctx):
        super().__init__(ctx)   # mode "draw"; points and hover: lattice points (int) here
        self.footprint: list[Hex] = []
        self.selected: str | None = None
        self._join_first: str | None = None
        self.vertex: int | None = None          # selected corner of the selected building
        self._drag_from: tuple[float, float] | None = None
        self._drag_to: tuple[float, float] | None = None
        self._follow_document()   # the selection and corner handles redrawn after any edit

    def _drop_stale(self) -> None:
        if self.selected and self.selected not in self.doc.hexmap.buildings:
            self.selected = None
        if self.vertex is not None and self.vertex >= len(self._polygon()):
            self.vertex = None

    def _clear_draft(self) -> None:
        self.points, self.footprint, self._join_first = [], [], None

    def _reset(self) -> None:
        self._clear_draft()
        self._drag_from = self._drag_to = None

    # events
    def press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.RightButton:
            self.cancel()
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self.mode == "draw":
            self.add_point(edits.snap_to_lattice(ev.x, ev.y))
        elif self.mode == "footprint":
            self.footprint = [ev.hex]
            self._redraw()
        elif self.mode == "edit":
            i = self._vertex_at(ev)
            if i is not None:
                self.vertex = i
                self._drag_from = self._drag_to = tuple(self._polygon()[i])
                self._redraw()
                self.set_status(f"corner {i + 1} of {self.selected}: drag to move it, Delete removes it")
                return
            self.vertex = None
            self.select_building(self._building_at(ev))
        elif self.mode == "join":
            bid = self._building_at(ev)
            if bid is None:
                return
            if self._join_first is None or self._join_first == bid:
                self._join_first = bid
                self.set_status(f"join {bid} with ... (click the other building)")
            else:
                self.join(self._join_first, bid)
                self._join_first = None

    def move(self, ev: ToolEvent) -> None:
        if self.mode == "draw":
            self.hover = edits.snap_to_lattice(ev.x, ev.y)
            self._redraw()
        elif self.mode == "footprint" and self.footprint and ev.left_down and ev.hex not in self.footprint:
            self.footprint.append(ev.hex)
            self._redraw()
        elif self.mode == "edit" and self._drag_from is not None and ev.left_down:
            pt = edits.snap_to_lattice(ev.x, ev.y)
            if pt != self._drag_to:
                self._drag_to = pt
                self._redraw()

    def release(self, ev: ToolEvent) -> None:
        if self.mode == "edit" and self._drag_from is not None:
            to, start = self._drag_to, self._drag_from
            self._drag_from = self._drag_to = None
            if to is not None and tuple(to) != tuple(start) and self.vertex is not None:
                self.move_vertex(self.selected, self.vertex, to)
            self._redraw()
            return
        if self.mode == "footprint" and self.footprint:
            self.add_footprint(self.footprint)
            self.footprint = []
            self._redraw()

    def double_click(self, ev: ToolEvent) -> None:
        if self.mode == "draw":
            self.close_polygon()
        elif self.mode == "edit" and self.selected:
            i = self._edge_at(ev)
            if i is not None and self._vertex_at(ev) is None:
                self.insert_vertex(self.selected, i + 1, edits.snap_to_lattice(ev.x, ev.y))

    def key(self, key, modifiers) -> bool:
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.mode == "draw":
            self.close_polygon()
            return True
        if self.draft_key(key):
            return True
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.selected and self.vertex is not None:
            self.delete_vertex(self.selected, self.vertex)
            return True
        if key == Qt.Key.Key_Delete and self.selected:
            self.delete(self.selected)
            return True
        return False

    # corners of the selected building
    def _polygon(self) -> list[tuple[float, float]]:
        if not self.selected or self.doc is None or self.selected not in self.doc.hexmap.buildings:
            return []
        return [tuple(p) for p in self.doc.hexmap.buildings[self.selected].polygon]

    def _vertex_at(self, ev: ToolEvent) -> int | None:
        """The corner of the selected building within :attr:`GRAB` of the event, if any."""
        best, best_d = None, self.GRAB
        sx, sy = ev.scene_pos.x(), ev.scene_pos.y()
        for i, (x, y) in enumerate(self._polygon()):
            d = ((x * SCENE_PER_X - sx) ** 2 + (y * SCENE_PER_Y - sy) ** 2) ** 0.5
            if d <= best_d:
                best, best_d = i, d
        return best

    def _edge_at(self, ev: ToolEvent) -> int | None:
        """Index ``i`` of the edge (corner i to corner i+1) of the selected building nearest the
        event, within :attr:`GRAB`."""
        from shapely.geometry import LineString, Point

        pts = [(x * SCENE_PER_X, y * SCENE_PER_Y) for x, y in self._polygon()]
        p = Point(ev.scene_pos.x(), ev.scene_pos.y())
        best, best_d = None, self.GRAB
        for i in range(len(pts)):
            d = LineString([pts[i], pts[(i + 1) % len(pts)]]).distance(p)
            if d <= best_d:
                best, best_d = i, d
        return best

    def _set_polygon(self, bid: str, pts: list[tuple[float, float]], text: str) -> bool:
        """Replace building ``bid``'s polygon (validated: simple, with area, on the map)."""
        poly = Polygon(pts)
        if len(pts) < 3 or not poly.is_valid or poly.area <= 0:
            self.set_status("not changed: the polygon would cross itself or have no area")
            return False
        hs = edits._hexes_of_polygon(poly)
        if not hs or not all(self.doc.hexmap.contains(h) for h in hs):
            self.set_status("not changed: the building must lie on the map")
            return False
        coords = [(float(x), float(y)) for x, y in pts]
        blds = [b.model_copy(update={"polygon": coords, "provenance": edits.DESIGNER, **edits.RESHAPED})
                if b.id == bid else b
                for b in self.doc.map.buildings]
        pushed = self.ctx.push(C.EditBuildingCommand(self.doc, f"{text} of {bid}", fields={"buildings": blds}))
        if pushed:
            hexes = sorted(self.doc.hexmap.building_hexes[bid])
            self.set_status(f"{text} of {bid}: {', '.join(h.id for h in hexes)}")
        self._redraw()
        return pushed

    def move_vertex(self, bid: str, index: int, to: tuple[float, float]) -> bool:
        """Move corner ``index`` of building ``bid`` to lattice point ``to`` (one undo step)."""
        pts = [tuple(p) for p in self.doc.hexmap.buildings[bid].polygon]
        pts[index] = tuple(to)
        return self._set_polygon(bid, pts, f"Move corner {index + 1}")

    def insert_vertex(self, bid: str, index: int, at: tuple[float, float]) -> bool:
        """Insert a corner at lattice point ``at`` before corner ``index`` of building ``bid``."""
        pts = [tuple(p) for p in self.doc.hexmap.buildings[bid].polygon]
        if tuple(at) in pts:
            self.set_status("there is a corner there already")
            return False
        pts.insert(index, tuple(at))
        ok = self._set_polygon(bid, pts, "Add a corner")
        if ok:
            self.vertex = index
            self._redraw()
        return ok

    def delete_vertex(self, bid: str, index: int) -> bool:
        """Remove corner ``index`` of building ``bid`` (a building keeps at least three)."""
        pts = [tuple(p) for p in self.doc.hexmap.buildings[bid].polygon]
        if len(pts) <= 3:
            self.set_status("a building needs at least three corners")
            return False
        del pts[index]
        ok = self._set_polygon(bid, pts, f"Remove corner {index + 1}")
        if ok:
            self.vertex = None
            self._redraw()
        return ok

    def _building_at(self, ev: ToolEvent) -> str | None:
        from shapely.geometry import Point

        hm = self.doc.hexmap
        p = Point(ev.x, ev.y)
        for bid, poly in hm.building_polygons.items():
            if poly.contains(p):
                return bid
        ids = hm.buildings_at(ev.hex)
        return ids[0] if ids else None

    # drawing
    def add_point(self, pt: tuple[int, int]) -> None:
        """Add a corner (lattice map units); the first corner again closes the polygon."""
        if self.points and pt == self.points[0] and len(self.points) >= 3:
            self.close_polygon()
            return
        super().add_point(pt)

    def _point_status(self, pt) -> str:
        return f"corner {len(self.points)} at lattice {pt}; click the first corner to close"

    def close_polygon(self) -> str | None:
        pts = self.points
        if len(pts) < 3:
            self.set_status("a building needs at least three corners")
            return None
        poly = Polygon(pts)
        if not poly.is_valid or poly.area <= 0:
            self.set_status("that polygon crosses itself or has no area; keep drawing or press Esc")
            return None
        hs = sorted(edits._hexes_of_polygon(poly))
        if not hs or not all(self.doc.hexmap.contains(h) for h in hs):
            self.set_status("the building must lie on the map")
            return None
        bid = edits.next_building_id((b.id for b in self.doc.map.buildings), "B" + hs[0].id)
        from maps.model import Building

        b = Building(id=bid, polygon=[(float(x), float(y)) for x, y in pts], provenance=edits.DESIGNER)
        self.ctx.push(C.AddBuildingCommand(self.doc, f"Add building {bid}", fields={
            "buildings": list(self.doc.map.buildings) + [b]}))
        self.points = []
        self.selected = bid
        self._redraw()
        self.set_status(f"building {bid} added ({', '.join(h.id for h in hs)})")
        return bid

    def add_footprint(self, hexes: list[Hex]) -> str | None:
        try:
            b = edits.building_for_hexes(self.doc.map, [h for h in hexes if self.doc.hexmap.contains(h)])
        except ValueError as e:
            self.set_status(str(e))
            return None
        self.ctx.push(C.AddBuildingCommand(self.doc, f"Add building {b.id}", fields={
            "buildings": list(self.doc.map.buildings) + [b]}))
        self.selected = b.id
        self.set_status(f"building {b.id} added")
        return b.id

    # editing
    def select_building(self, bid: str | None) -> None:
        if bid != self.selected:
            self.vertex = None
        self.selected = bid
        self._redraw()
        if bid is None:
            self.set_status("no building there")
            return
        b = self.doc.hexmap.buildings[bid]
        hs = sorted(self.doc.hexmap.building_hexes[bid])
        self.set_status(f"{b.display_name()} ({bid}): {', '.join(h.id for h in hs)}")
        if hasattr(self, "number_spin"):
            self.number_spin.setValue(b.number or 0)
            self.name_edit.setText(b.name or "")

    def set_number_name(self, bid: str, number: int | None, name: str | None) -> bool:
        blds = [b.model_copy(update={"number": number or None, "name": name or None}) if b.id == bid else b
                for b in self.doc.map.buildings]
        return self.ctx.push(C.EditBuildingCommand(self.doc, f"Name building {bid}", fields={"buildings": blds}))

    def delete(self, bid: str) -> bool:
        blds = [b for b in self.doc.map.buildings if b.id != bid]
        self.selected = None
        self._redraw()
        return self.ctx.push(C.DeleteBuildingCommand(self.doc, f"Delete building {bid}", fields={"buildings": blds}))

    def join(self, a: str, b: str) -> bool:
        hm = self.doc.hexmap
        try:
            poly = building_shapes.join(hm.building_polygons[a], hm.building_polygons[b])
        except ValueError as e:
            self.set_status(str(e))
            return False
        first = hm.buildings[a]
        merged = first.model_copy(update={"polygon": [tuple(c) for c in building_shapes.polygon_coords(poly)],
                                          "provenance": edits.DESIGNER, **edits.RESHAPED})
        blds = [merged if x.id == a else x for x in self.doc.map.buildings if x.id != b]
        pushed = self.ctx.push(C.JoinBuildingsCommand(self.doc, f"Join {a} and {b}", fields={"buildings": blds}))
        self.selected = a
        self._redraw()
        self.set_status(f"joined {b} into {a}")
        return pushed

    def _redraw(self) -> None:
        self.clear_overlay()
        pen = QPen(QColor(0, 90, 200), 5)
        if self.mode == "draw" and (self.points or self.hover):
            path = polyline_path(self.points, self.hover)
            dots = dots_path(self.points + ([self.hover] if self.hover else []), 9)
            self.add_overlay(path, None, pen, 14)
            self.add_overlay(dots, QColor(0, 90, 200, 160), QPen(QColor(255, 255, 255), 2), 15)
        if self.footprint:
            self.add_overlay(hex_path(self.footprint), PREVIEW_FILL, QPen(QColor(160, 110, 0), 4), 12)
        if self.selected and self.doc is not None and self.selected in self.doc.hexmap.building_polygons:
            from editor.drawing.map_painter import _shapely_path
            from PySide6.QtGui import QTransform

            path = QTransform.fromScale(SCENE_PER_X, SCENE_PER_Y).map(_shapely_path(self.doc.hexmap.building_polygons[self.selected]))
            self.add_overlay(path, None, QPen(QColor(255, 200, 0), 7), 14)
            if self.mode == "edit":   # corner handles; the dragged corner's new place in outline
                pts = self._polygon()
                if self._drag_to is not None and self.vertex is not None and self.vertex < len(pts):
                    moved = list(pts)
                    moved[self.vertex] = self._drag_to
                    outline = QPainterPath()
                    outline.addPolygon(QPolygonF([_lat(*p) for p in moved] + [_lat(*moved[0])]))
                    self.add_overlay(outline, QColor(0, 90, 200, 60), QPen(QColor(0, 90, 200), 4, Qt.PenStyle.DashLine), 15)
                    pts = moved
                handles = QPainterPath()
                for p in pts:
                    handles.addRect(_lat(*p).x() - 8, _lat(*p).y() - 8, 16, 16)
                self.add_overlay(handles, QColor(255, 255, 255, 230), QPen(QColor(0, 0, 0), 2.5), 16)
                if self.vertex is not None and self.vertex < len(pts):
                    sel = QPainterPath()
                    sel.addRect(_lat(*pts[self.vertex]).x() - 10, _lat(*pts[self.vertex]).y() - 10, 20, 20)
                    self.add_overlay(sel, QColor(0, 90, 200), QPen(QColor(255, 255, 255), 2.5), 17)

    def make_options(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        mode = QComboBox()
        for m in self.MODES:
            mode.addItem(m, m)   # the data: what DrawingTool.set_mode shows
        mode.setCurrentText(self.mode)
        mode.currentTextChanged.connect(self.set_mode)
        form.addRow("Mode", mode)
        self.mode_combo = mode
        self.number_spin = QSpinBox()
        self.number_spin.setRange(0, 999)
        self.number_spin.setSpecialValueText("none")
        form.addRow("Number", self.number_spin)
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText("(Building <number>)")
        form.addRow("Name", self.name_edit)
        row = QHBoxLayout()
        ap = QPushButton("Apply")
        ap.clicked.connect(lambda: self.selected and self.set_number_name(
            self.selected, self.number_spin.value() or None, self.name_edit.text().strip() or None))
        de = QPushButton("Delete")
        de.clicked.connect(lambda: self.selected and self.delete(self.selected))
        row.addWidget(ap)
        row.addWidget(de)
        form.addRow(row)
        return w


# ------------------------------------------------------------------------------------------
# Paths
# ------------------------------------------------------------------------------------------
class PathTool(Tool):
    """Roads and gullies, hex to adjacent hex: click (or drag) from hex to hex; double-click,
    Enter, Esc or a right click ends the path. One path is one undo step. A road hex on a gully
    is a bridge (drawn automatically)."""

    name = "path"
    label = "Road/Gully"
    shortcut = "P"
    help = "Path: click hex to adjacent hex to draw a road or gully; double-click or Esc ends it"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.kind = "roads"
        self.start: Hex | None = None
        self.index: int | None = None
        self.stroke: int | None = None
        self.last: Hex | None = None

    def deactivate(self) -> None:
        self.finish()
        super().deactivate()

    def press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.RightButton:
            self.finish()
            return
        if ev.button == Qt.MouseButton.LeftButton:
            self.step(ev.hex)

    def move(self, ev: ToolEvent) -> None:
        if ev.left_down and self.last is not None and ev.hex != self.last and edits.adjacent(self.last, ev.hex):
            self.step(ev.hex)

    def double_click(self, ev: ToolEvent) -> None:
        self.finish()

    def key(self, key, modifiers) -> bool:
        if key in (Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.finish()
            return True
        return False

    def step(self, h: Hex) -> bool:
        """Add hex ``h`` to the path being drawn (starting one if none)."""
        if not self.doc.hexmap.contains(h):
            return False
        if self.last is None:
            self.last = h
            self.stroke = next(_strokes)
            self.index = None
            self._mark()
            self.set_status(f"{self.kind[:-1] if self.kind == 'roads' else 'gully'} from {h.id}: click the next hex")
            return False
        if h == self.last:
            return False
        if not edits.adjacent(self.last, h):
            self.set_status(f"{h.id} is not adjacent to {self.last.id}: paths go hex to adjacent hex")
            return False
        paths = list(getattr(self.doc.map, self.kind))
        if self.index is None:
            paths, self.index = edits.extend_path(paths, None, self.last)
        paths, self.index = edits.extend_path(paths, self.index, h)
        what = "road" if self.kind == "roads" else "gully"
        pushed = self.ctx.push(C.PathCommand(self.doc, f"Draw {what}", fields={self.kind: paths}, stroke=self.stroke))
        self.last = h
        self._mark()
        bridge = " (bridge)" if self.doc.hexmap.is_bridge(h) else ""
        self.set_status(f"{what} to {h.id}{bridge}")
        return pushed

    def draw_path(self, hexes: list[str | Hex]) -> None:
        """Draw a whole path (as clicks would) and end it."""
        for h in hexes:
            self.step(hexgrid.parse_hex_id(h) if isinstance(h, str) else h)
        self.finish()

    def finish(self) -> None:
        self.last = None
        self.index = None
        self.stroke = None
        self.clear_overlay()

    def _mark(self) -> None:
        self.clear_overlay()
        if self.last is not None:
            self.add_overlay(hex_path([self.last]), QColor(0, 160, 255, 60), QPen(QColor(0, 110, 220), 5), 12)

    def make_options(self) -> QWidget:
        w = QWidget()
        lay = QVBoxLayout(w)
        group = QButtonGroup(w)
        for text, kind in (("Road", "roads"), ("Gully", "gullies")):
            rb = QRadioButton(text)
            rb.setChecked(kind == self.kind)
            rb.toggled.connect(lambda on, k=kind: on and self._set_kind(k))
            group.addButton(rb)
            lay.addWidget(rb)
        lab = QLabel(self.help + ". A road hex on a gully is a bridge.")
        lab.setWordWrap(True)
        lay.addWidget(lab)
        lay.addStretch(1)
        return w

    def _set_kind(self, kind: str) -> None:
        self.finish()
        self.kind = kind
