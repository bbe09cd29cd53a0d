"""The Building tool: draw a building symbol's polygon corner by corner or as a footprint over
hexes, edit a building (number, name, corners, delete) and join two into one multi-hex building;
each edit is one undo step (:mod:`editor.map.commands`)."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QComboBox, QFormLayout, QHBoxLayout, QLineEdit, QPushButton, QSpinBox, QWidget
from shapely.geometry import Polygon

from maps import building_shapes
from maps.hexgrid import Hex
from editor.map import commands as C
from editor.map import edits
from editor.drawing.canvas import ToolEvent, hex_path
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
from editor.drawing.tool import PREVIEW_FILL, _lat, dots_path, polyline_path
from editor.map.drawing_tool import DrawingTool

__all__ = ["BuildingTool"]


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
            from editor.drawing.map_symbols import _shapely_path
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
