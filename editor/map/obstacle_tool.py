"""The Obstacle tool: draw, select, re-kind and delete linear obstacles and tank traps.

Linear obstacles (walls, low stone walls, hedges, fences) and tank traps are what the measured rule
systems need that Iron Cross maps lack (``maps.model.Obstacle``, ``maps.model.TankTraps``; read as
a table by :mod:`maps.table_map`, ignored by Iron Cross). The tool draws polylines in lattice map
units anywhere on the map (or snapped to hex centres and vertices), each saved with provenance
``designer``; every change is one undo step (:class:`editor.map.commands.ObstacleCommand`).

Modes: ``draw`` - click the points of the line (the kind chosen in the tool's options),
double-click, Enter or a right click ends it (at least two points), Backspace drops the last point,
Esc cancels; ``select`` - click on or near a line to select it (outlined yellow), Delete (or the
*Delete* button) removes it, choosing another kind in the options changes its kind.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainterPathStroker, QPen
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QPushButton, QWidget
from shapely.geometry import LineString, Point, Polygon

from editor.map import commands as C
from editor.map import edits
from editor.drawing.canvas import ToolEvent
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
from editor.map.drawing_tool import DrawingTool
from editor.drawing.tool import dots_path, polyline_path, show_quietly
from maps.model import OBSTACLE_KINDS, Obstacle, TankTraps

__all__ = ["ObstacleTool", "KINDS", "KIND_LABELS", "ID_PREFIX"]

#: What the tool draws: the obstacle kinds and tank traps.
KINDS: tuple[str, ...] = OBSTACLE_KINDS + ("tank_traps",)
KIND_LABELS: dict[str, str] = {"wall": "Wall", "low_stone_wall": "Low stone wall", "hedge": "Hedge",
                               "fence": "Fence", "tank_traps": "Tank traps"}
#: The first letter of the ids the tool gives (W1, L1, H1, F1, T1).
ID_PREFIX: dict[str, str] = {"wall": "W", "low_stone_wall": "L", "hedge": "H", "fence": "F", "tank_traps": "T"}


def _record_geometry(rec) -> LineString | Polygon:
    """A record's line (or a field's polygon) in scene units."""
    pts = rec.polygon if isinstance(rec, TankTraps) and rec.polygon is not None else rec.line
    scaled = [(x * SCENE_PER_X, y * SCENE_PER_Y) for x, y in pts]
    return Polygon(scaled) if isinstance(rec, TankTraps) and rec.polygon is not None else LineString(scaled)


class ObstacleTool(DrawingTool):
    """Linear obstacles and tank traps (see the module docstring). The drawing point by point, the
    modes and the redraw after an edit are :class:`editor.map.tools.DrawingTool`'s."""

    #: How near (scene units; a hex is 100 across) a click must be to a line to select it.
    GRAB = 14.0

    name = "obstacle"
    label = "Obstacle"
    shortcut = "W"
    help = "Obstacle: click the points of a wall, hedge, fence or tank traps; double-click or Enter ends it"
    MODES = ("draw", "select")
    MODE_HELP = {"select": "Obstacle: click a line to select it; Delete removes it, a kind chosen in the options changes it"}

    def __init__(self, ctx):
        super().__init__(ctx)   # mode "draw", no points
        self.kind = "wall"
        self.snap = False
        #: the selected record: ("obstacles" or "tank_traps", id)
        self.selected: tuple[str, str] | None = None
        self._follow_document()

    # ------------------------------------------------------------------ lifecycle
    def _watch(self, doc) -> None:
        self.selected = None
        self.points = []
        super()._watch(doc)

    def _drop_stale(self) -> None:
        if self.selected is not None and self.record(*self.selected) is None:
            self.selected = None   # undone or deleted

    # ------------------------------------------------------------------ options
    def set_kind(self, kind: str) -> None:
        """The kind drawn next; in select mode also the selected line's new kind (one undo step)."""
        if kind not in KINDS:
            raise ValueError(f"obstacle kinds are {', '.join(KINDS)}, not {kind!r}")
        self.kind = kind
        show_quietly(getattr(self, "kind_combo", None), KINDS, kind)
        if self.mode == "select" and self.selected is not None:
            self.change_kind(self.selected, kind)

    def make_options(self) -> QWidget:
        w = QWidget()
        form = QFormLayout(w)
        mode = QComboBox()
        for m in self.MODES:
            mode.addItem(m, m)
        mode.setCurrentIndex(self.MODES.index(self.mode))
        mode.currentIndexChanged.connect(lambda i: self.set_mode(self.MODES[i]))
        form.addRow("Mode", mode)
        self.mode_combo = mode
        kind = QComboBox()
        for k in KINDS:
            kind.addItem(KIND_LABELS[k], k)
        kind.setCurrentIndex(KINDS.index(self.kind))
        kind.currentIndexChanged.connect(lambda i: self.set_kind(KINDS[i]))
        kind.setToolTip("What the next line is (in select mode: what the selected line becomes). Read by the "
                        "measured rule systems (the 20 mm rules); Iron Cross ignores obstacles and tank traps.")
        form.addRow("Kind", kind)
        self.kind_combo = kind
        snap = QCheckBox("Snap to hex centres and corners")
        snap.setChecked(self.snap)
        snap.toggled.connect(lambda on: setattr(self, "snap", bool(on)))
        form.addRow(snap)
        self.snap_box = snap
        de = QPushButton("Delete selected")
        de.clicked.connect(lambda: self.selected is not None and self.delete(self.selected))
        form.addRow(de)
        return w

    # ------------------------------------------------------------------ events
    def _point(self, ev: ToolEvent) -> tuple[float, float]:
        if self.snap:
            x, y = edits.snap_to_lattice(ev.x, ev.y)
            return (float(x), float(y))
        return (round(ev.x, 2), round(ev.y, 2))

    def press(self, ev: ToolEvent) -> None:
        if ev.button == Qt.MouseButton.RightButton:
            if self.mode == "draw":
                self.finish()
            return
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self.mode == "draw":
            self.add_point(self._point(ev))
        else:
            self.select(self.record_at(ev.scene_pos.x(), ev.scene_pos.y()))

    def move(self, ev: ToolEvent) -> None:
        if self.mode == "draw" and self.points:
            self.hover = self._point(ev)
            self._redraw()

    def double_click(self, ev: ToolEvent) -> None:
        if self.mode == "draw":
            self.finish()
        else:
            self.press(ev)

    def key(self, key, modifiers) -> bool:
        if self.mode == "draw":
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.finish()
                return True
            return self.draft_key(key)   # Backspace drops the last point, Esc cancels
        if key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.selected is not None:
            self.delete(self.selected)
            return True
        if key == Qt.Key.Key_Escape and self.selected is not None:
            self.select(None)
            return True
        return False

    # ------------------------------------------------------------------ drawing
    def add_point(self, pt: tuple[float, float]) -> None:
        """Add a point (lattice map units) to the line being drawn."""
        super().add_point((float(pt[0]), float(pt[1])))

    def _point_status(self, pt) -> str:
        return f"{KIND_LABELS[self.kind].lower()}: point {len(self.points)}; double-click or Enter ends it"

    def finish(self) -> str | None:
        """End the line being drawn: add it to the map (one undo step) and return its id; None
        (nothing added) with fewer than two points or no length."""
        pts, self.points, self.hover = self.points, [], None
        if len(pts) < 2 or LineString(pts).length <= 0:
            self._redraw()
            if pts:
                self.set_status("a line needs two different points: nothing added")
            return None
        return self.add_line(self.kind, pts)

    def add_line(self, kind: str, pts: list[tuple[float, float]]) -> str:
        """Add a line of ``kind`` through ``pts`` (lattice map units) with designer provenance."""
        m = self.doc.map
        rid = self.next_id(kind)
        if kind == "tank_traps":
            rec = TankTraps(id=rid, line=[tuple(p) for p in pts], provenance=edits.DESIGNER)
            fields = {"tank_traps": list(m.tank_traps) + [rec]}
            sel = ("tank_traps", rid)
        else:
            rec = Obstacle(id=rid, kind=kind, line=[tuple(p) for p in pts], provenance=edits.DESIGNER)
            fields = {"obstacles": list(m.obstacles) + [rec]}
            sel = ("obstacles", rid)
        self.ctx.push(C.ObstacleCommand(self.doc, f"Draw {KIND_LABELS[kind].lower()} {rid}", fields=fields))
        self.selected = sel
        self._redraw()
        self.set_status(f"{KIND_LABELS[kind].lower()} {rid} added ({len(pts)} points)")
        return rid

    def next_id(self, kind: str) -> str:
        """A free id for a new line of ``kind``: its letter and the next number (``W3``)."""
        used = {r.id for r in self.doc.map.obstacles} | {r.id for r in self.doc.map.tank_traps}
        prefix = ID_PREFIX[kind]
        n = 1
        while f"{prefix}{n}" in used:
            n += 1
        return f"{prefix}{n}"

    # ------------------------------------------------------------------ selecting and editing
    def record(self, field: str, rid: str):
        """The obstacle (``field == "obstacles"``) or tank traps with id ``rid``, or None."""
        return next((r for r in getattr(self.doc.map, field) if r.id == rid), None)

    def record_at(self, sx: float, sy: float) -> tuple[str, str] | None:
        """The line nearest the scene point (within :attr:`GRAB`), or the field of tank traps it is
        in; None when there is none."""
        p = Point(sx, sy)
        best, best_d = None, self.GRAB
        for field in ("obstacles", "tank_traps"):
            for r in getattr(self.doc.map, field):
                d = _record_geometry(r).distance(p)
                if d <= best_d:
                    best, best_d = (field, r.id), d
        return best

    def select(self, key: tuple[str, str] | None) -> None:
        self.selected = key
        self._redraw()
        if key is None:
            self.set_status("no obstacle there")
            return
        rec = self.record(*key)
        kind = "tank_traps" if key[0] == "tank_traps" else rec.kind
        prov = rec.provenance.short() if rec.provenance else "no provenance"
        self.set_status(f"{KIND_LABELS[kind]} {rec.id} ({prov}): Delete removes it")
        self.kind = kind
        show_quietly(getattr(self, "kind_combo", None), KINDS, kind)

    def delete(self, key: tuple[str, str]) -> bool:
        """Remove the obstacle or tank traps ``key`` (one undo step)."""
        field, rid = key
        kept = [r for r in getattr(self.doc.map, field) if r.id != rid]
        if len(kept) == len(getattr(self.doc.map, field)):
            return False
        self.selected = None
        pushed = self.ctx.push(C.ObstacleCommand(self.doc, f"Delete {rid}", fields={field: kept}))
        self._redraw()
        self.set_status(f"{rid} deleted")
        return pushed

    def change_kind(self, key: tuple[str, str], kind: str) -> bool:
        """Make the selected line a ``kind`` (between obstacle kinds and tank traps too: the line
        moves between the two lists, keeping its id, points and note; designer provenance)."""
        field, rid = key
        rec = self.record(field, rid)
        if rec is None:
            return False
        cur = "tank_traps" if field == "tank_traps" else rec.kind
        if cur == kind:
            return False
        m = self.doc.map
        if kind == "tank_traps":
            if field == "tank_traps":
                return False
            new = TankTraps(id=rid, line=rec.line, provenance=edits.DESIGNER, note=rec.note)
            fields = {"obstacles": [r for r in m.obstacles if r.id != rid], "tank_traps": list(m.tank_traps) + [new]}
            sel = ("tank_traps", rid)
        elif field == "tank_traps":
            if rec.line is None:
                self.set_status(f"{rid} is a field of tank traps (a polygon): only a row can become a {KIND_LABELS[kind].lower()}")
                return False
            new = Obstacle(id=rid, kind=kind, line=rec.line, provenance=edits.DESIGNER, note=rec.note)
            fields = {"tank_traps": [r for r in m.tank_traps if r.id != rid], "obstacles": list(m.obstacles) + [new]}
            sel = ("obstacles", rid)
        else:
            new = rec.model_copy(update={"kind": kind, "provenance": edits.DESIGNER})
            fields = {"obstacles": [new if r.id == rid else r for r in m.obstacles]}
            sel = key
        pushed = self.ctx.push(C.ObstacleCommand(self.doc, f"Make {rid} a {KIND_LABELS[kind].lower()}", fields=fields))
        self.selected = sel
        self._redraw()
        self.set_status(f"{rid} is now a {KIND_LABELS[kind].lower()}")
        return pushed

    # ------------------------------------------------------------------ overlay
    def _redraw(self) -> None:
        self.clear_overlay()
        if self.doc is None:
            return
        if self.mode == "draw" and self.points:
            self.add_overlay(polyline_path(self.points, self.hover), None,
                             QPen(QColor(0, 90, 200), 5, Qt.PenStyle.DashLine), 14)
            self.add_overlay(dots_path(self.points, 7), QColor(0, 90, 200, 170), QPen(QColor(255, 255, 255), 2), 15)
        if self.selected is not None:
            rec = self.record(*self.selected)
            if rec is not None:
                from editor.drawing.map_symbols import _line_path, _shapely_path

                geom = _record_geometry(rec)
                path = _shapely_path(geom) if isinstance(geom, Polygon) else _line_path(geom)
                stroker = QPainterPathStroker()   # a yellow tube around the line: the line stays visible
                stroker.setWidth(22)
                stroker.setCapStyle(Qt.PenCapStyle.RoundCap)
                stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                self.add_overlay(stroker.createStroke(path).simplified(), QColor(255, 200, 0, 45),
                                 QPen(QColor(230, 170, 0), 3.5), 13)
