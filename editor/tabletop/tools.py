"""The editor's tabletop tools: a measuring tape, and units set up at free positions with a facing.

Generic: nothing here knows a rule system. A system measured in inches (the 20 mm rules,
``core/twentymm``) describes itself through the optional :class:`core.rule_system.RuleSystem`
fields ``table_scale``, ``setup_pieces``, ``place_piece`` and ``move_reach`` (``docs/tabletop.md``);
a hex system leaves them None.

- :class:`TapeTool` ("Tape", M): drag on the map; the tape shows the distance in inches at the open
  scenario's scale (``table_scale``) and in hexes (across flats, true scale; and the hex count
  between the two hexes, as hex rules count). Without a measured scenario: hexes only.
- :class:`TablePlaceTool` ("Set up", A): for a scenario of a measured system (opened read-only as
  :class:`editor.scenario.system.scenario.SystemScenarioDocument`): every unit is drawn where it sets up
  (:func:`setup_items`); press on a piece to select it (its fire arc and its movement reach are
  drawn), drag it to a free position, drag the round handle ahead of it (or ``[`` / ``]``, 15
  degrees; with Shift 5) to turn it. Snapping (the options: off, hex centres, a 0.5-inch grid)
  applies to where it is dropped; with snapping on, facings snap to 15 degrees. Each placement is
  one step on the scenario's undo stack (:class:`PlacePieceCommand`), made in the scenario's JSON in
  memory (saved with the scenario, atomically) through the system's ``place_piece``; a position the rules refuse is not placed and
  the rule's reason is shown in the status bar.
- :func:`editor.drawing.pieces.reach_item`: the movement reach polygon (``move_reach``), drawn in the set-up and in the
  Hot-seat (:mod:`editor.play.hotseat`).

Units: points are map units (the lattice of :mod:`maps.hexgrid`), bearings degrees clockwise from
the top of the sheet, as :class:`core.rule_system.Piece`; the scene is true scale, 100 scene units
per hex across flats (:data:`editor.scenario.overlay.HEX_SCENE`).
"""

from __future__ import annotations

import copy

import json
import math
from dataclasses import replace

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen, QUndoCommand
from PySide6.QtWidgets import QButtonGroup, QRadioButton, QWidget

from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y
from editor.drawing.pieces import HEX_SCENE, PiecesItem, _label, _path_item, bearing_vector, map_point, reach_item
from editor.drawing.tool import Tool
from maps import hexgrid

__all__ = ["TapeTool", "TablePlaceTool", "PlacePieceCommand", "tape_reading", "tape_text",
           "setup_items", "table_document", "snap_point", "scenario_json_text", "SNAP_MODES"]

#: the snapping choices of the Set-up tool
SNAP_MODES = ("off", "hex", "half-inch")
#: how near (scene units) a press must be to a piece's point to take it (a hex is 100)
PICK_SCENE = 40.0
#: the rotation handle's distance ahead of the piece (scene units)
HANDLE_SCENE = 70.0
TAPE_COLOUR = QColor(255, 140, 0)


# ------------------------------------------------------------------------------- pure helpers
def scene_distance_hexes(a, b) -> float:
    """The true distance between two points in map units, in hexes across flats."""
    pa, pb = map_point(a), map_point(b)
    return math.hypot(pb.x() - pa.x(), pb.y() - pa.y()) / HEX_SCENE


def tape_reading(a, b, scale: float | None) -> dict:
    """What the tape from ``a`` to ``b`` (map units) reads: ``{"hexes": true distance in hexes
    across flats, "count": hexes counted between the two hexes (:func:`maps.hexgrid.distance`),
    "inches": hexes x ``scale`` (inches per hex across flats) or None for a hex system}``."""
    d = scene_distance_hexes(a, b)
    count = hexgrid.distance(hexgrid.point_to_hex(*a), hexgrid.point_to_hex(*b))
    return {"hexes": d, "count": count, "inches": None if not scale else d * scale}


def tape_text(reading: dict) -> str:
    """The tape's label: '13.5 in (3.4 hexes)' for a measured scenario, '3 hexes' otherwise."""
    n = reading["count"]
    if reading["inches"] is None:
        return f"{n} hex{'es' if n != 1 else ''}"
    return f"{reading['inches']:.1f} in ({reading['hexes']:.2f} hexes across; {n} counted)"


def snap_point(point, mode: str, scale: float | None):
    """``point`` (map units) snapped: ``"hex"`` to its hex's centre, ``"half-inch"`` to the
    0.5-inch grid of the table (needs ``scale``, inches per hex across flats; the table's inches
    start at the map's origin, :class:`maps.table_map.TableMap`), ``"off"`` unchanged."""
    x, y = float(point[0]), float(point[1])
    if mode == "hex":
        return tuple(float(v) for v in hexgrid.centre(hexgrid.point_to_hex(x, y)))
    if mode == "half-inch" and scale:
        kx = scale * hexgrid.X_SCALE_M / (2 * hexgrid.Y_SCALE_M)   # inches per X unit
        ky = scale / 2                                              # inches per Y unit
        return (round(x * kx * 2) / 2 / kx, round(y * ky * 2) / 2 / ky)
    return (x, y)


def scene_bearing(a: QPointF, b: QPointF) -> float:
    """The bearing (degrees clockwise from the top of the sheet) from scene point a to b."""
    return math.degrees(math.atan2(b.x() - a.x(), -(b.y() - a.y()))) % 360.0


def table_document(ctx):
    """The open scenario of a measured system (a :class:`SystemScenarioDocument` whose system has
    ``setup_pieces`` and ``place_piece``), or None."""
    doc = getattr(ctx, "table_scenario", None)
    s = getattr(doc, "system", None)
    if doc is None or s is None or s.setup_pieces is None or s.place_piece is None:
        return None
    return doc


def table_scale_of(doc) -> float | None:
    """Inches per hex across flats of the scenario ``doc`` (its system's ``table_scale``), or None."""
    s = getattr(doc, "system", None)
    if s is None or s.table_scale is None:
        return None
    return s.table_scale(str(doc.path), doc.data)


def setup_items(doc, selected: str | None = None, pieces=None) -> list:
    """The set-up of the measured scenario ``doc`` drawn: its pieces where they stand (the
    selected one with its fire arc) and the selected piece's movement reach."""
    s = doc.system
    path, data = doc.system_args()   # the live map while the map window shows it (one truth)
    pieces = s.setup_pieces(path, data) if pieces is None else pieces
    items = [PiecesItem(pieces, selected)]
    if selected is not None and s.move_reach is not None:
        it = reach_item(s.move_reach(path, selected, data))
        if it is not None:
            items.append(it)
    return items


def scenario_json_text(data: dict) -> str:
    """The scenario's JSON as the shipped files write it: a key per line, each unit (and each
    objective) of a list on one line."""
    out = ["{"]
    keys = list(data)
    for i, k in enumerate(keys):
        v = data[k]
        end = "," if i < len(keys) - 1 else ""
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            rows = ",\n".join(f"    {json.dumps(x, ensure_ascii=False)}" for x in v)
            out.append(f"  {json.dumps(k)}: [\n{rows}\n  ]{end}")
        else:
            out.append(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{end}")
    out.append("}")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------------------- undo
class PlacePieceCommand(QUndoCommand):
    """Set up one unit at a new position and facing: the scenario JSON before and after (the
    after computed by the system's ``place_piece``, so it is legal); redo and undo set the
    document's JSON in memory (``set_data``, the same edit the scenario form makes: one truth for
    the form, the games started from the editor and Save, which writes the file atomically)."""

    def __init__(self, doc, uid: str, before: dict, after: dict, text: str):
        super().__init__(text)
        self.doc, self.uid, self.before, self.after = doc, uid, before, after

    def redo(self) -> None:
        self.doc.set_data(copy.deepcopy(self.after))

    def undo(self) -> None:
        self.doc.set_data(copy.deepcopy(self.before))


# ------------------------------------------------------------------------------- tools
class TapeTool(Tool):
    """The measuring tape: drag from one point to another (see the module docstring)."""

    name = "tape"
    label = "Tape"
    shortcut = "M"
    help = "Tape: drag on the map to measure (inches at the scenario's scale, and hexes); Esc clears"

    def __init__(self, ctx):
        super().__init__(ctx)
        self.start = None
        self.end = None
        self.reading: dict | None = None
        self._pressed = False

    def press(self, ev) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        self._pressed = True
        self.start, self.end = (ev.x, ev.y), (ev.x, ev.y)
        self.measure(self.start, self.end)

    def move(self, ev) -> None:
        if self._pressed and ev.left_down:
            self.measure(self.start, (ev.x, ev.y))

    def release(self, ev) -> None:
        if self._pressed:
            self._pressed = False
            self.measure(self.start, (ev.x, ev.y))

    def double_click(self, ev) -> None:
        pass

    def key(self, key, modifiers) -> bool:
        if key == Qt.Key.Key_Escape:   # also mid-drag: the rest of the drag measures nothing
            self.start = self.end = self.reading = None
            self._pressed = False
            self.clear_overlay()
            self.set_status(self.help)
            return True
        return False

    def scale(self) -> float | None:
        doc = getattr(self.ctx, "table_scenario", None)
        return table_scale_of(doc) if doc is not None else None

    def measure(self, a, b) -> dict:
        """Measure from ``a`` to ``b`` (map units): draw the tape, return :func:`tape_reading`."""
        self.start, self.end = tuple(a), tuple(b)
        scale = self.scale()
        self.reading = r = tape_reading(a, b, scale)
        self.set_status("Tape: " + tape_text(r))
        self._draw(scale)
        return r

    def _draw(self, scale: float | None) -> None:
        self.clear_overlay()
        if self.ctx.scene is None:
            return
        pa, pb = map_point(self.start), map_point(self.end)
        path = QPainterPath(pa)
        path.lineTo(pb)
        # ticks across the tape: every inch (every 6 inches longer), or every hex for a hex system
        length = math.hypot(pb.x() - pa.x(), pb.y() - pa.y())
        if length > 1e-6:
            ux, uy = (pb.x() - pa.x()) / length, (pb.y() - pa.y()) / length
            step = HEX_SCENE / scale if scale else HEX_SCENE
            n = int(length / step + 1e-9)
            for i in range(1, n + 1):
                big = (i % 6 == 0) if scale else True
                h = 14 if big else 7
                c = QPointF(pa.x() + ux * step * i, pa.y() + uy * step * i)
                path.moveTo(c.x() - uy * h, c.y() + ux * h)
                path.lineTo(c.x() + uy * h, c.y() - ux * h)
        pen = QPen(TAPE_COLOUR, 3)
        pen.setCosmetic(True)
        self.add_overlay(path, None, pen, z=80)
        for lab in _label(tape_text(self.reading), QPointF(pb.x() + 12, pb.y() - 12), QColor(120, 60, 0), 26, z=81,
                          bg=QColor(255, 250, 230, 230)):
            self.ctx.scene.addItem(lab)
            self._items.append(lab)


class TablePlaceTool(Tool):
    """Set up the units of a measured scenario at free positions with a facing (see the module
    docstring)."""

    name = "tableplace"
    label = "Set up"
    shortcut = "A"
    help = ("Set up (a measured scenario): drag a unit to a free position; drag its round handle or press [ / ] "
            "to turn it; snapping in the tool options")

    def __init__(self, ctx):
        super().__init__(ctx)
        self.selected: str | None = None
        self.snap = "off"
        self.pieces: list = []
        self._drag: str | None = None   # "move" or "turn"
        self._ghost = None              # (point, bearing) while dragging
        self._trial = None              # the scenario JSON with the piece at the ghost (None: refused there)
        self.refusal = ""               # why the rules refuse the ghost's position
        self._doc = None

    # -- lifecycle
    def activate(self) -> None:
        if self.show() is None:
            self.set_status("Set up: open a scenario of a measured rule system (e.g. the 20 mm rules)")
            return
        self.set_status(self.help)

    def deactivate(self) -> None:
        super().deactivate()
        self._drag = self._ghost = self._trial = None

    def show(self):
        """Draw the open measured scenario's set-up (after it was opened, reloaded, or a placement
        was done or undone: the scenario window calls it on each redraw while the tool is the
        current one). Returns the document, or None when none is open."""
        doc = table_document(self.ctx)
        if doc is not self._doc:   # another scenario: nothing selected
            self._doc, self.selected = doc, None
            self._drag = self._ghost = self._trial = None
        self.refresh()
        return doc

    @property
    def doc_(self):
        return table_document(self.ctx)

    # -- drawing
    def refresh(self) -> None:
        """Read the set-up again and draw it (the selected piece with its arc and reach)."""
        doc = self.doc_
        self.clear_overlay()
        if doc is None or self.ctx.scene is None:
            self.pieces = []
            return
        from core.rule_system import ScenarioError
        from maps.document_file import DocumentError

        try:
            self.pieces = doc.system.setup_pieces(*doc.system_args())   # the live map (one truth)
        except (ScenarioError, DocumentError) as e:
            # the scenario in memory has a problem (the form shows it with its path): nothing to
            # draw until it is mended, never an exception out of a redraw
            self.pieces = []
            self.set_status(f"Set up: the scenario cannot be set up yet: {str(e).splitlines()[0]}")
            return
        if self.selected is not None and not any(p.uid == self.selected for p in self.pieces):
            self.selected = None
        if self._ghost is not None and self.selected is not None and self._trial is not None:
            # dragging to a position the rules accept: the piece and its reach as they would be
            path, trial = doc.system_args(self._trial)
            shown = [replace(p, status=p.status + ("placing",)) if p.uid == self.selected else p
                     for p in doc.system.setup_pieces(path, trial)]
            items = [PiecesItem(shown, self.selected)]
            if doc.system.move_reach is not None:
                items.append(reach_item(doc.system.move_reach(path, self.selected, trial)))
        elif self._ghost is not None and self.selected is not None:   # refused there: drawn as moved, marked
            shown = [self._moved(p, "refused") if p.uid == self.selected else p for p in self.pieces]
            items = [PiecesItem(shown, self.selected)]
        else:
            items = setup_items(doc, self.selected, self.pieces)
        for it in items:
            if it is not None:
                self._add(it)
        pc = self.piece(self.selected)
        if pc is not None:
            pt, brg = self._ghost or (pc.point, pc.bearing or 0.0)
            h = self.handle_scene(pt, brg)
            path = QPainterPath()
            path.moveTo(map_point(pt))
            path.lineTo(h)
            path.addEllipse(h, 11, 11)
            pen = QPen(QColor(20, 20, 20), 2)
            pen.setCosmetic(True)
            self._add(_path_item(path, QColor(255, 220, 0, 220), pen, 60))

    def _add(self, it) -> None:
        self.ctx.scene.addItem(it)
        self._items.append(it)

    def piece(self, uid: str | None):
        return next((p for p in self.pieces if p.uid == uid), None)

    @staticmethod
    def handle_scene(point, bearing: float) -> QPointF:
        """The rotation handle of a piece at ``point`` facing ``bearing`` (scene point)."""
        return map_point(point) + bearing_vector(bearing) * HANDLE_SCENE

    def _moved(self, pc, word: str = "placing"):
        """The selected piece drawn at the ghost's point and bearing (its outline, figures moved
        and turned on the true-scale scene)."""
        pt, brg = self._ghost
        c0, c1 = map_point(pc.point), map_point(pt)
        turn = math.radians(brg - (pc.bearing or 0.0))
        cs, sn = math.cos(turn), math.sin(turn)

        def tr(q):
            s = map_point(q)
            dx, dy = s.x() - c0.x(), s.y() - c0.y()
            x, y = c1.x() + dx * cs - dy * sn, c1.y() + dx * sn + dy * cs
            return (x / SCENE_PER_X, y / SCENE_PER_Y)

        turret = None if pc.turret is None else (pc.turret + brg - (pc.bearing or 0.0)) % 360
        return replace(pc, point=tuple(pt), bearing=brg, footprint=tuple(tr(q) for q in pc.footprint),
                       figures=tuple(tr(q) for q in pc.figures), turret=turret, status=pc.status + (word,))

    # -- events
    def pick(self, ev) -> str | None:
        """The piece nearest the press within :data:`PICK_SCENE` scene units, or None."""
        best, bd = None, PICK_SCENE
        for pc in self.pieces:
            c = map_point(pc.point)
            d = math.hypot(c.x() - ev.scene_pos.x(), c.y() - ev.scene_pos.y())
            if d < bd:
                best, bd = pc.uid, d
        return best

    def press(self, ev) -> None:
        if ev.button != Qt.MouseButton.LeftButton:
            return
        if self.doc_ is None:
            self.activate()
            return
        pc = self.piece(self.selected)
        if pc is not None:
            h = self.handle_scene(pc.point, pc.bearing or 0.0)
            if math.hypot(h.x() - ev.scene_pos.x(), h.y() - ev.scene_pos.y()) <= 16:
                self._drag, self._ghost, self._trial = "turn", (pc.point, pc.bearing or 0.0), json.loads(json.dumps(self.doc_.data))
                return
        uid = self.pick(ev)
        self.selected = uid
        if uid is None:
            self._drag = self._ghost = None
            self.refresh()
            self.set_status(self.help)
            return
        pc = self.piece(uid)
        self._drag, self._ghost = "move", None
        self.refresh()
        self.set_status(f"{pc.label}: drag to move it, drag the handle to turn it")

    def move(self, ev) -> None:
        pc = self.piece(self.selected)
        if self._drag is None or pc is None or not ev.left_down:
            return
        if self._drag == "turn":
            ghost = (pc.point, self._snap_bearing(scene_bearing(map_point(pc.point), ev.scene_pos)))
        else:
            ghost = (self._snapped((ev.x, ev.y)), pc.bearing or 0.0)
        self.preview(pc.uid, *ghost)

    def preview(self, uid: str, point, bearing: float) -> bool:
        """Show ``uid`` as it would stand at ``point`` facing ``bearing`` (its arc and reach there
        when the rules accept it; marked "refused", the reason in the status bar, when not);
        nothing is written. Returns whether the position is accepted."""
        from core.rule_system import ScenarioError

        doc = self.doc_
        self.selected = uid
        self._ghost = (tuple(point), float(bearing))
        try:
            path, data = doc.system_args()
            self._trial = doc.own_refs(doc.system.place_piece(path, data, uid, tuple(point), float(bearing)), doc.data)
            self.refusal = ""
        except ScenarioError as e:
            self._trial, self.refusal = None, str(e)
        self.refresh()
        pc = self.piece(uid)
        where = f"{pc.label}: to {self.where(point)} facing {bearing:.0f} deg"
        self.set_status(f"{where} -- release to set it up" if not self.refusal else f"{where} -- refused: {self.refusal}")
        return not self.refusal

    def release(self, ev) -> None:
        drag, ghost, pc = self._drag, self._ghost, self.piece(self.selected)
        self._drag = self._ghost = self._trial = None
        if drag is None or ghost is None or pc is None:
            return
        self.place(pc.uid, ghost[0], ghost[1])

    def double_click(self, ev) -> None:
        pass

    def key(self, key, modifiers) -> bool:
        pc = self.piece(self.selected)
        if pc is None or key not in (Qt.Key.Key_BracketLeft, Qt.Key.Key_BracketRight):
            return False
        step = 5.0 if modifiers & Qt.KeyboardModifier.ShiftModifier else 15.0
        brg = ((pc.bearing or 0.0) + (step if key == Qt.Key.Key_BracketRight else -step)) % 360
        self.place(pc.uid, pc.point, brg)
        return True

    def _snapped(self, point):
        return snap_point(point, self.snap, table_scale_of(self.doc_))

    def _snap_bearing(self, b: float) -> float:
        return (round(b / 15.0) * 15.0) % 360 if self.snap != "off" else round(b, 1) % 360

    # -- the placement
    def place(self, uid: str, point, bearing: float) -> bool:
        """Set ``uid`` up at ``point`` (map units) facing ``bearing``: one undo step writing the
        scenario file; False (nothing changes, the rule's reason in the status bar) when the
        system's ``place_piece`` refuses it."""
        from core.rule_system import ScenarioError

        doc = self.doc_
        if doc is None:
            return False
        before = json.loads(json.dumps(doc.data))
        try:
            path, data = doc.system_args(before)   # refused or not as on the live map (one truth)
            after = doc.own_refs(doc.system.place_piece(path, data, uid, tuple(point), float(bearing)), before)
        except ScenarioError as e:
            self.refresh()
            self.set_status(f"{uid} not placed: {e}")
            return False
        self.selected = uid
        doc.undo_stack.push(PlacePieceCommand(doc, uid, before, after, f"set up {uid}"))
        self.refresh()
        pc = self.piece(uid)
        self.set_status(f"{uid} set up at {self.where(pc.point)} facing {pc.bearing:.0f} deg"
                        if pc is not None else f"{uid} set up")
        return True

    def where(self, point) -> str:
        """A point (map units) in words: table inches at the scenario's scale, else map units."""
        scale = table_scale_of(self.doc_)
        if not scale:
            return f"({point[0]:.2f}, {point[1]:.2f}) map units"
        kx, ky = scale * hexgrid.X_SCALE_M / (2 * hexgrid.Y_SCALE_M), scale / 2
        return f"({point[0] * kx:.1f}, {point[1] * ky:.1f}) in"

    def set_snap(self, mode: str) -> None:
        if mode not in SNAP_MODES:
            raise ValueError(f"unknown snapping {mode!r}; use one of {', '.join(SNAP_MODES)}")
        self.snap = mode

    def make_options(self) -> QWidget:
        w, lay = self.help_panel()
        group = QButtonGroup(w)
        for mode, text in zip(SNAP_MODES, ("No snapping", "Snap to hex centres", "Snap to a 0.5-inch grid")):
            b = QRadioButton(text)
            b.setChecked(mode == self.snap)
            b.toggled.connect(lambda on, m=mode: on and self.set_snap(m))
            group.addButton(b)
            lay.addWidget(b)
        lay.addStretch(1)
        return w
