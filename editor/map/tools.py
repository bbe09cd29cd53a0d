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

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from maps import hexgrid
from maps.hexgrid import Hex
from maps.model import NamedFeature
from editor.map import commands as C
from editor.map import edits
from editor.drawing.canvas import ToolEvent, hex_path
from editor.drawing.tool import PREVIEW_FILL, SELECT_FILL, SELECT_PEN, Tool, show_quietly

__all__ = ["SelectTool", "TerrainBrushTool", "TreeBrushTool", "LevelBrushTool", "PathTool", "FeatureTool"]



_strokes = itertools.count(1)

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
    help = ("Feature naming: click or drag over the hexes (Shift adds, Ctrl toggles), type a name "
            "(\"Hill K\") and press Name")

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
        # room for eight names at least, and the rest of the dock's height
        self.list.setMinimumHeight(8 * self.list.fontMetrics().height() + 2 * self.list.frameWidth() + 8)
        lay.addWidget(self.list, 1)
        rm = QPushButton("Remove feature")
        rm.clicked.connect(lambda: self.list.currentItem() and self.remove_feature(self.list.currentItem().text()))
        lay.addWidget(rm)
        self._fill_list()
        return w

    def activate(self) -> None:
        super().activate()
        self._fill_list()

    def _fill_list(self, current: str | None = None) -> None:
        """List the map's features; ``current`` (a name just given) is selected and scrolled
        into view."""
        if self._options is None and not hasattr(self, "list"):
            return
        if self.doc is not None:
            self.list.clear()
            self.list.addItems([f.name for f in self.doc.map.features])
            found = self.list.findItems(current, Qt.MatchFlag.MatchExactly) if current else []
            if found:
                self.list.setCurrentItem(found[0])
                self.list.scrollToItem(found[0])

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
        self._fill_list(name)
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
# Paths
# ------------------------------------------------------------------------------------------
class PathTool(Tool):
    """Roads and gullies by waypoints: click the first hex, then each bend; the hexes between two
    clicks are filled hex to adjacent hex along the straight line (:func:`edits.hex_walk`), as the
    region builder's road kind reads "4001 - 4018 - 3014". A drag adds the hexes it crosses.
    Double-click, Enter, Esc or a right click ends the path; Backspace takes back the last leg.
    One path is one undo step. A road hex on a gully is a bridge (drawn automatically)."""

    name = "path"
    label = "Road/Gully"
    shortcut = "P"
    help = ("Path by waypoints: click the first hex, then each bend (the hexes between are filled); "
            "Enter, Esc, a double-click or a right click ends it, Backspace takes back the last leg")

    def __init__(self, ctx):
        super().__init__(ctx)
        self.kind = "roads"
        self.start: Hex | None = None
        self.index: int | None = None
        self.stroke: int | None = None
        self.last: Hex | None = None
        #: per waypoint of the path being drawn: (the paths, the path's index, the last hex) before it
        self.legs: list[tuple[list, int | None, Hex]] = []

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
        if key == Qt.Key.Key_Backspace and self.legs:
            self.back()
            return True
        return False

    def back(self) -> None:
        """Take back the last leg (back to the previous waypoint), in the same undo step."""
        paths, index, last = self.legs.pop()
        what = "road" if self.kind == "roads" else "gully"
        self.ctx.push(C.PathCommand(self.doc, f"Draw {what}", fields={self.kind: paths}, stroke=self.stroke))
        self.index, self.last = index, last
        self._mark()
        self.set_status(f"{what}: back to {last.id}")

    def step(self, h: Hex) -> bool:
        """Add hex ``h`` to the path being drawn (starting one if none): an adjacent hex, or a
        waypoint further on, the hexes between filled by :func:`edits.hex_walk`."""
        if self.last is not None and self.doc.hexmap.contains(h) and h != self.last and not edits.adjacent(self.last, h):
            walk = edits.hex_walk(self.last, h)
            off = [x.id for x in walk if not self.doc.hexmap.contains(x)]
            if off:
                self.set_status(f"the way from {self.last.id} to {h.id} leaves the map at {off[0]}: click a bend first")
                return False
            self.legs.append((list(getattr(self.doc.map, self.kind)), self.index, self.last))
            pushed = False
            for x in walk[1:]:
                pushed = self._step(x) or pushed
            return pushed
        if self.last is not None and h != self.last and self.doc.hexmap.contains(h):
            self.legs.append((list(getattr(self.doc.map, self.kind)), self.index, self.last))
        return self._step(h)

    def _step(self, h: Hex) -> bool:
        """Add hex ``h`` to the path being drawn (starting one if none)."""
        if not self.doc.hexmap.contains(h):
            return False
        if self.last is None:
            self.last = h
            self.stroke = next(_strokes)
            self.index = None
            self._mark()
            self.set_status(f"{self.kind[:-1] if self.kind == 'roads' else 'gully'} from {h.id}: click the next bend")
            return False
        if h == self.last:
            return False
        if not edits.adjacent(self.last, h):
            self.set_status(f"{h.id} is not adjacent to {self.last.id}: paths go hex to adjacent hex")
            return False
        paths = list(getattr(self.doc.map, self.kind))
        if self.index is not None and not (0 <= self.index < len(paths) and paths[self.index]
                                           and paths[self.index][-1] == self.last.id):
            # the path being drawn changed under the tool (an undo, a resize, another edit): the
            # next leg starts a new path from the last hex instead of extending one that is gone
            self.index = None
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
        if self.last is not None and self.stroke is not None:
            what = "road" if self.kind == "roads" else "gully"
            self.set_status(f"{what} ended at {self.last.id}: click a hex to start another")
        self.last = None
        self.legs = []
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
