"""Scenario overlays drawn on the map canvas above :class:`editor.drawing.canvas.MapItem`: regions (set-up
zones, entries, victory areas), their labels and a legend, the north indicator and a compass rose
showing where the compass words point, unit counters (the designer's placement, a watched or
hot-seat game), a heat map, lines of fire and highlighted hexes.

The terrain stays readable under them (issue 16 item 10): a region is its outline (solid for a
set-up zone, dashed for an entry, gold for a victory area) with a light fill (at most 15 %
opacity) and, for entries and victory areas, hatching; each group of a side has its own colour
(:func:`group_colour`), explained by the legend (:class:`LegendItem`) in the margin below the
map; the region labels are laid out at paint time so that none overlaps another
(:class:`ZoneLabelsItem`); the compass rose stands in the margin above the map, never on hexes;
the heat map is circles with a dark outline, visible over any zone; "hidden" and mine tags sit
at the edge of their hex, under the counters.

:class:`ScenarioOverlay` keeps one list of ``QGraphicsItem`` per named layer; ``set_layer(name,
items)`` replaces a layer, so each panel redraws only its own layer. Layers can be hidden by the
user (View menu) or suppressed by a game view (Watch, Hot-seat hide the designer's layers), and
have an opacity. Nothing here edits a document.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from maps import hexgrid
from editor.drawing.canvas import hex_path
from editor.drawing.map_painter import SCENE_PER_X, SCENE_PER_Y

__all__ = ["SIDE_COLOURS", "GROUP_COLOURS", "VICTORY_COLOUR", "FILL_ALPHA", "group_colour", "hex_centre",
           "ScenarioOverlay", "CounterSpec", "CountersItem", "PiecesItem", "region_items", "ZoneLabelsItem", "LegendItem",
           "compass_items", "CompassRoseItem", "heat_items", "fire_line_item", "cross_item", "mark_items",
           "point_cross_item", "map_point", "bearing_vector", "arc_polygon", "marks_items", "SCENARIO_LAYERS",
           "DESIGNER_LAYERS", "GAME_LAYERS"]

SIDE_COLOURS = {"german": QColor(70, 90, 120), "russian": QColor(160, 60, 40), "draw": QColor(150, 150, 150),
                "error": QColor(220, 0, 200)}
#: one colour per group: cool colours for the Germans, warm ones for the Russians
GROUP_COLOURS = {"german": (QColor(30, 80, 210), QColor(0, 130, 140), QColor(110, 60, 190), QColor(40, 120, 40)),
                 "russian": (QColor(205, 30, 30), QColor(215, 110, 0), QColor(170, 20, 120), QColor(120, 70, 20))}
VICTORY_COLOUR = QColor(200, 150, 0)
#: the fill of a region: about 12 % opacity, so trees and contours show through
FILL_ALPHA = 30
#: the View menu's scenario layers: (key, label, overlay layers)
SCENARIO_LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("zones", "Zones", ("zones",)), ("labels", "Zone labels and legend", ("labels", "legend")),
    ("setup", "Trial set-up", ("units",)), ("marks", "Hidden hexes and mines", ("marks",)),
    ("heat", "Heat map", ("heat",)), ("compass", "North and compass", ("compass",)))
#: the designer's layers, hidden while a game (Watch, Hot-seat) is shown
DESIGNER_LAYERS = ("units", "marks", "region", "goto", "heat")
#: the layers of the game views
GAME_LAYERS = {"watch": ("game", "game-lines"), "hotseat": ("hotseat",)}


def group_colour(side: str, index: int) -> QColor:
    """The colour of group ``index`` of ``side`` (cycling through :data:`GROUP_COLOURS`)."""
    cs = GROUP_COLOURS.get(side, GROUP_COLOURS["german"])
    return QColor(cs[index % len(cs)])


def hex_centre(hid) -> QPointF:
    h = hexgrid.parse_hex_id(hid) if isinstance(hid, str) else hid
    x, y = hexgrid.centre(h)
    return QPointF(x * SCENE_PER_X, y * SCENE_PER_Y)


def _path_item(path: QPainterPath, fill: QColor | None, pen: QPen | None, z: float) -> QGraphicsPathItem:
    it = QGraphicsPathItem(path)
    it.setBrush(QBrush(fill) if fill is not None else QBrush(Qt.BrushStyle.NoBrush))
    it.setPen(pen if pen is not None else QPen(Qt.PenStyle.NoPen))
    it.setZValue(z)
    it.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
    return it


class _LabelItem(QGraphicsItem):
    """A text label of constant screen size (ignores the view's zoom) centred on a scene point."""

    def __init__(self, text: str, at: QPointF, colour: QColor, px: float, bold: bool, bg: QColor | None):
        super().__init__()
        self.text, self.colour, self.bg = text, QColor(colour), bg
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(max(9, int(px)))
        self.font.setBold(bold)
        from PySide6.QtGui import QFontMetricsF

        fm = QFontMetricsF(self.font)
        w, h = fm.horizontalAdvance(text) + 8, fm.height() + 2
        self._rect = QRectF(-w / 2, -h / 2, w, h)
        self.setPos(at)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        if self.bg is not None:
            p.setPen(QPen(self.colour, 1.2))
            p.setBrush(self.bg)
            p.drawRoundedRect(self._rect, 3, 3)
        p.setFont(self.font)
        p.setPen(self.colour)
        p.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


def _label(text: str, at: QPointF, colour: QColor, px: float = 26, z: float = 30, bold: bool = True,
           bg: QColor | None = QColor(255, 255, 255, 215)) -> list[QGraphicsItem]:
    """A label of about ``px / 2`` screen pixels (constant whatever the zoom)."""
    it = _LabelItem(text, at, colour, px / 2, bold, bg)
    it.setZValue(z)
    return [it]


def _outline(hs) -> QPainterPath:
    """The outer boundary of a set of hexes (shared edges removed)."""
    return hex_path(hs).simplified()


def _pen(colour: QColor, width: float, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)   # the same width in pixels at every zoom
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


def _fill(colour: QColor, alpha: int = FILL_ALPHA) -> QColor:
    c = QColor(colour)
    c.setAlpha(alpha)
    return c


def region_items(hexes, kind: str, side: str | None, label: str | None = None, colour: QColor | None = None
                 ) -> list[QGraphicsItem]:
    """Items drawing a region: ``kind`` "setup" (solid outline, light fill), "entry" (dashed
    outline, light fill, hatching), "victory" (gold outline, gold hatching), "paint" (the region
    being edited or a hex to look at: magenta outline) or "ip". ``colour``: the group's colour
    (default: the side's first). Fills stay at or below :data:`FILL_ALPHA` (about 12 %) so the
    terrain stays readable. ``label`` is ignored (labels go to a :class:`ZoneLabelsItem`)."""
    hs = [hexgrid.parse_hex_id(h) if isinstance(h, str) else h for h in hexes]
    if not hs:
        return []
    path = _outline(hs)
    side = side if side in GROUP_COLOURS else "german"
    c = QColor(colour) if colour is not None else group_colour(side, 0)
    items: list[QGraphicsItem] = []
    if kind == "setup":
        items.append(_path_item(path, _fill(c), _pen(c, 3.0), 12))
    elif kind == "entry":
        items.append(_path_item(path, _fill(c), _pen(c, 3.0, Qt.PenStyle.DashLine), 12))
        hatch = _path_item(path, None, None, 12.5)
        hatch.setBrush(QBrush(_fill(c, 150), Qt.BrushStyle.BDiagPattern))
        items.append(hatch)
    elif kind == "victory":
        items.append(_path_item(path, _fill(VICTORY_COLOUR, 25), _pen(VICTORY_COLOUR.darker(115), 4.0), 13))
        hatch = _path_item(path, None, None, 13.5)
        hatch.setBrush(QBrush(_fill(VICTORY_COLOUR, 170), Qt.BrushStyle.FDiagPattern))
        items.append(hatch)
    else:
        items.append(_path_item(path, QColor(250, 0, 200, 25), _pen(QColor(190, 0, 160), 3.0), 14))
    return items


class ZoneLabelsItem(QGraphicsItem):
    """The labels of the regions, laid out at paint time (for the view's zoom) so that no two
    overlap: each label goes on the first of its candidate hexes (nearest the region's middle
    first) where its box meets no label placed before it; a label with no free place is left out
    (the legend names every region). Labels are of constant screen size."""

    PX = 12

    def __init__(self, labels: list[tuple[str, QColor, list]]):
        super().__init__()
        self.labels = []
        xs, ys = [], []
        for text, colour, hexes in labels:
            hs = [hexgrid.parse_hex_id(h) if isinstance(h, str) else h for h in hexes]
            if not hs:
                continue
            pts = [hex_centre(h) for h in hs]
            cx = sum(q.x() for q in pts) / len(pts)
            cy = sum(q.y() for q in pts) / len(pts)
            cands = sorted(pts, key=lambda q: ((q.x() - cx) ** 2 + (q.y() - cy) ** 2, q.x(), q.y()))[:1000]
            self.labels.append((text, QColor(colour), cands))
            xs += [q.x() for q in pts]
            ys += [q.y() for q in pts]
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(self.PX)
        self.font.setBold(True)
        from PySide6.QtGui import QFontMetricsF

        self._fm = QFontMetricsF(self.font)
        m = 600.0
        self._rect = QRectF(min(xs) - m, min(ys) - m, max(xs) - min(xs) + 2 * m, max(ys) - min(ys) + 2 * m) \
            if xs else QRectF()
        self.setZValue(31)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def layout(self, transform, avoid: list[QRectF] = (), view: QRectF | None = None
               ) -> list[tuple[str, QColor, QRectF]]:
        """The labels placed for a scene-to-device ``transform``: (text, colour, box in device
        pixels), no two boxes intersecting. A label goes on one of its region's hexes (nearest the
        region's middle first) that is in ``view`` (the viewport, device pixels; a box that
        would stick out is moved inside it; a region out of the view has no label), preferably
        where it covers none of ``avoid`` (scene rectangles: the counters shown)."""
        placed: list[tuple[str, QColor, QRectF]] = []
        blocked = [transform.mapRect(r) for r in avoid]
        for text, colour, cands in self.labels:
            w, h = self._fm.horizontalAdvance(text) + 10, self._fm.height() + 4
            boxes = []
            for q in cands:
                d = transform.map(q)
                r = QRectF(d.x() - w / 2, d.y() - h / 2, w, h)
                if view is not None:
                    if not view.contains(d):
                        continue   # a hex out of the view: no label there
                    if not view.contains(r):   # a hex at the edge of the view: the label inside it
                        r.moveLeft(min(max(r.left(), view.left()), view.right() - w))
                        r.moveTop(min(max(r.top(), view.top()), view.bottom() - h))
                boxes.append(r)
            free = [r for r in boxes if not any(r.intersects(o) for _t, _c, o in placed)]
            best = next((r for r in free if not any(r.intersects(b) for b in blocked)), free[0] if free else None)
            if best is not None:
                placed.append((text, colour, best))
        return placed

    def counter_rects(self) -> list[QRectF]:
        """The boxes of the counters shown on the scene (the designer's set-up or a game's)."""
        sc = self.scene()
        out: list[QRectF] = []
        if sc is None:
            return out
        for it in sc.items():
            if isinstance(it, CountersItem) and it.isVisible():
                for hid in {c.hex for c in it.counters}:
                    c = hex_centre(hid)
                    out.append(QRectF(c.x() - 42, c.y() - 42, 84, 84))
        return out

    def paint(self, p: QPainter, option, widget=None) -> None:
        view = QRectF(widget.rect()) if widget is not None else None
        placed = self.layout(p.worldTransform(), self.counter_rects(), view)
        p.save()
        p.resetTransform()
        p.setFont(self.font)
        for text, colour, r in placed:
            p.setPen(QPen(colour, 1.2))
            p.setBrush(QColor(255, 255, 255, 225))
            p.drawRoundedRect(r, 3, 3)
            p.setPen(colour.darker(130))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
        p.restore()


class LegendItem(QGraphicsItem):
    """The legend of the regions and marks: a swatch drawn as on the map and its meaning, in
    columns of :attr:`ROWS` rows; of constant screen size, its top-left corner at a scene point
    (in the margin below the map)."""

    ROWS = 3
    PX = 11

    def __init__(self, entries: list[tuple[str, QColor, str]], at: QPointF):
        super().__init__()
        self.entries = list(entries)   # (style: setup/entry/victory/hidden/mines, colour, text)
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(self.PX)
        from PySide6.QtGui import QFontMetricsF

        fm = QFontMetricsF(self.font)
        self.row_h = fm.height() + 5
        self.cols: list[float] = []
        for i in range(0, len(self.entries), self.ROWS):
            self.cols.append(max(fm.horizontalAdvance(t) for _s, _c, t in self.entries[i:i + self.ROWS]) + 40)
        w = sum(self.cols) + 8
        h = self.row_h * min(self.ROWS, max(1, len(self.entries))) + 8
        self._rect = QRectF(0, 0, w, h)
        self.setPos(at)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(35)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setPen(QPen(QColor(120, 120, 120), 1))
        p.setBrush(QColor(255, 255, 255, 235))
        p.drawRoundedRect(self._rect, 4, 4)
        p.setFont(self.font)
        x = 4.0
        for ci, cw in enumerate(self.cols):
            for ri, (style, colour, text) in enumerate(self.entries[ci * self.ROWS:(ci + 1) * self.ROWS]):
                y = 4 + ri * self.row_h
                sw = QRectF(x + 2, y + 3, 24, self.row_h - 6)
                if style == "victory":
                    p.setPen(QPen(VICTORY_COLOUR.darker(115), 2.5))
                    p.setBrush(QBrush(_fill(VICTORY_COLOUR, 170), Qt.BrushStyle.FDiagPattern))
                elif style == "entry":
                    p.setPen(QPen(colour, 2, Qt.PenStyle.DashLine))
                    p.setBrush(QBrush(_fill(colour, 150), Qt.BrushStyle.BDiagPattern))
                elif style == "hidden":
                    p.setPen(QPen(colour, 2, Qt.PenStyle.DashLine))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                elif style == "mines":
                    p.setPen(QPen(QColor(120, 0, 0), 1))
                    p.setBrush(Qt.BrushStyle.NoBrush)
                else:
                    p.setPen(QPen(colour, 2))
                    p.setBrush(_fill(colour, 60))
                p.drawRect(sw)
                if style == "mines":
                    p.setPen(QColor(120, 0, 0))
                    p.drawText(sw, Qt.AlignmentFlag.AlignCenter, "AP")
                p.setPen(QColor(30, 30, 30))
                p.drawText(QRectF(x + 32, y, cw - 34, self.row_h), Qt.AlignmentFlag.AlignVCenter, text)
            x += cw


def map_top(hexmap, cols: tuple[int, int] | None = None) -> float:
    """The scene y of the top edge of the map's first row (over columns ``cols``)."""
    c0, c1 = cols or (hexmap.first_column, hexmap.last_column)
    ys = [y for c in range(c0, c1 + 1) for _x, y in hexgrid.vertices(hexgrid.Hex(c, hexmap.first_row))]
    return min(ys) * SCENE_PER_Y


def map_bottom(hexmap, cols: tuple[int, int] | None = None) -> float:
    """The scene y of the bottom edge of the map's last row (over columns ``cols``)."""
    c0, c1 = cols or (hexmap.first_column, hexmap.last_column)
    ys = [y for c in range(c0, c1 + 1) for _x, y in hexgrid.vertices(hexgrid.Hex(c, hexmap.last_row))]
    return max(ys) * SCENE_PER_Y


def compass_items(north, hexmap, cols: tuple[int, int] | None = None) -> list[QGraphicsItem]:
    """The north indicator (an arrow from its hex to the hex it points to) and a compass rose in
    the margin above the map (over the left end of columns ``cols``, the playing area), never on
    a hex, whose N/E/S/W arms point where the scenario's compass words resolve."""
    items: list[QGraphicsItem] = []
    a, b = hex_centre(north.hex), hex_centre(north.points_to)
    pen = QPen(QColor(10, 10, 10), 6)
    p = QPainterPath(a)
    p.lineTo(b)
    d = b - a
    ang = math.atan2(d.y(), d.x())
    for s in (-1, 1):
        p.moveTo(b)
        p.lineTo(b - QPointF(math.cos(ang + s * 0.45) * 30, math.sin(ang + s * 0.45) * 30))
    ring = QPainterPath()
    ring.addEllipse(a, 22, 22)
    items.append(_path_item(ring, QColor(255, 255, 255, 90), QPen(QColor(10, 10, 10), 4), 40))
    items.append(_path_item(p, None, pen, 41))
    items += _label("N", a, QColor(0, 0, 0), 22, 42, bg=None)
    # the compass rose in the margin above the playing area's first columns
    c0, c1 = cols or (hexmap.first_column, hexmap.last_column)
    x0 = hex_centre(hexgrid.Hex(c0, hexmap.first_row)).x()
    items.append(CompassRoseItem(north.north_k, QPointF(x0 + 60, map_top(hexmap, (c0, min(c1, c0 + 3))) - 20)))
    return items


class CompassRoseItem(QGraphicsItem):
    """A compass rose of constant screen size whose bottom stands :attr:`GAP` pixels above a scene
    point (the top edge of the map), so it is in the margin at every zoom, never over a hex. Its
    N/E/S/W arms point where the scenario's compass words resolve (``north_k``: the clock
    direction of north, 0 = up the sheet, in twelfths of a turn)."""

    RADIUS = 34.0
    GAP = 6.0

    def __init__(self, north_k: int, anchor: QPointF):
        super().__init__()
        self.north_k = north_k
        r = self.RADIUS
        self._rect = QRectF(-r - 2, -2 * r - self.GAP - 2, 2 * r + 4, 2 * r + 4)
        self.setPos(anchor)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(38)
        self.setData(0, "compass-rose")

    def centre(self) -> QPointF:
        return QPointF(0, -self.RADIUS - self.GAP)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        r, c = self.RADIUS, self.centre()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setPen(QPen(QColor(60, 60, 60), 1.5))
        p.setBrush(QColor(255, 255, 255, 230))
        p.drawEllipse(c, r, r)
        f = QFont("DejaVu Sans")
        f.setPixelSize(11)
        f.setBold(True)
        p.setFont(f)
        for word, off in (("E", 3), ("S", 6), ("W", 9), ("N", 0)):
            a = math.radians(30 * ((self.north_k + off) % 12) - 90)
            d = QPointF(math.cos(a), math.sin(a))
            red = word == "N"
            p.setPen(QPen(QColor(200, 0, 0) if red else QColor(40, 40, 40), 3 if red else 1.8))
            p.drawLine(c, c + d * (r * 0.45))
            p.setPen(QColor(200, 0, 0) if red else QColor(30, 30, 30))
            p.drawText(QRectF(c.x() + d.x() * r * 0.72 - 8, c.y() + d.y() * r * 0.72 - 8, 16, 16),
                       Qt.AlignmentFlag.AlignCenter, word)


@dataclass(frozen=True)
class CounterSpec:
    """One counter to draw: hex, side, short label, facing (hexside 1-6 or None), flags."""

    hex: str
    side: str
    label: str
    facing: int | None = None
    down: bool = False
    morale: str = "normal"
    selected: bool = False


class CountersItem(QGraphicsItem):
    """Unit counters drawn in their hexes (a stack fans out down-right; facing as a triangle)."""

    def __init__(self, counters: list[CounterSpec]):
        super().__init__()
        self.counters = list(counters)
        self.setZValue(50)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        xs = [hex_centre(c.hex) for c in self.counters]
        if xs:
            x0 = min(p.x() for p in xs) - 80
            y0 = min(p.y() for p in xs) - 80
            x1 = max(p.x() for p in xs) + 120
            y1 = max(p.y() for p in xs) + 120
            self._rect = QRectF(x0, y0, x1 - x0, y1 - y0)
        else:
            self._rect = QRectF()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        by_hex: dict[str, list[CounterSpec]] = {}
        for c in self.counters:
            by_hex.setdefault(c.hex, []).append(c)
        f = QFont("DejaVu Sans")
        f.setPixelSize(13)
        f.setBold(True)
        p.setFont(f)
        size = 46.0
        for hid, cs in by_hex.items():
            c0 = hex_centre(hid)
            n = len(cs)
            step = min(9.0, 36.0 / max(1, n - 1)) if n > 1 else 0
            for i, c in enumerate(cs):
                off = (i - (n - 1) / 2) * step
                r = QRectF(c0.x() - size / 2 + off, c0.y() - size / 2 + off, size, size)
                fill = QColor(SIDE_COLOURS.get(c.side, QColor(90, 90, 90)))
                if c.morale != "normal":
                    fill = fill.lighter(150)
                p.setPen(QPen(QColor(255, 230, 0) if c.selected else QColor(20, 20, 20), 5 if c.selected else 1.5))
                p.setBrush(fill)
                p.drawRoundedRect(r, 5, 5)
                if c.down:   # 3.12 DOWN: a dark band along the top, visible even under a stack
                    p.fillRect(QRectF(r.left() + 3, r.top() + 2.5, r.width() - 6, 5), QColor(15, 15, 15))
                p.setPen(QColor(255, 255, 255))
                p.drawText(r.adjusted(1, 1, -1, -14), Qt.AlignmentFlag.AlignCenter, c.label[:6])
                tag = ("D" if c.down else "U") + ({"pinned": " P", "suppressed": " S"}.get(c.morale, ""))
                sf = QFont(f)
                sf.setPixelSize(10)
                p.setFont(sf)
                p.drawText(r.adjusted(1, 24, -1, -1), Qt.AlignmentFlag.AlignCenter, tag)
                p.setFont(f)
                if c.facing:
                    a = math.radians(60 * (c.facing - 1) - 90)
                    tip = r.center() + QPointF(math.cos(a) * 36, math.sin(a) * 36)
                    b1 = r.center() + QPointF(math.cos(a + 0.5) * 22, math.sin(a + 0.5) * 22)
                    b2 = r.center() + QPointF(math.cos(a - 0.5) * 22, math.sin(a - 0.5) * 22)
                    p.setPen(QPen(QColor(20, 20, 20), 1))
                    p.setBrush(QColor(255, 220, 0))
                    p.drawPolygon(QPolygonF([tip, b1, b2]))


def map_point(pt) -> QPointF:
    """The scene point of ``(X, Y)`` in map units (the lattice of :mod:`maps.hexgrid`)."""
    return QPointF(pt[0] * SCENE_PER_X, pt[1] * SCENE_PER_Y)


def bearing_vector(bearing: float) -> QPointF:
    """The unit scene vector of a bearing in degrees clockwise from the top of the sheet."""
    a = math.radians(bearing)
    return QPointF(math.sin(a), -math.cos(a))


#: scene units per hex across flats (:data:`editor.drawing.map_painter.HEX_HEIGHT`)
HEX_SCENE = 100.0


def arc_polygon(centre: QPointF, bearing: float, half: float, radius: float) -> QPolygonF:
    """The wedge of +-``half`` degrees about ``bearing`` out to ``radius`` scene units."""
    n = max(4, 2 * int(half / 3))   # even: the bearing itself is a vertex
    pts = [QPointF(centre)]
    for i in range(n + 1):
        b = bearing - half + 2 * half * i / n
        pts.append(centre + bearing_vector(b) * radius)
    return QPolygonF(pts)


class PiecesItem(QGraphicsItem):
    """The pieces of a game of any rule system (:class:`core.rule_system.Piece`: uid, side, hexes,
    label, kind, status, facing), drawn generically: a counter per piece in each hex it occupies,
    in its side's colour, with its label, its status words under it and its facing as a triangle;
    a piece spanning several hexes is joined across them by a band in its side's colour and each
    of its counters is marked "1/2", "2/2", ...; a stack fans out down-right. ``selected``: the
    uid drawn with a yellow frame. Pieces off the map (no hexes) are not drawn.

    A piece with a ``point`` (a measured system: map units) is drawn where it stands, as on a
    table: its ``footprint`` (a vehicle's hull, a section's line of men) filled in its side's
    colour, its ``figures`` as round bases, a facing tick along its ``bearing``, a turret and gun
    along its ``turret``, a round base when it has no footprint, and a label tag of constant screen
    size beside it (status words after the label; a hidden piece dashed and pale). Its fire arc
    (the wedge of +-``arc`` degrees about its turret or bearing, ``reach`` hexes long) is drawn
    for the selected piece, or for every piece with ``arcs=True``."""

    SIZE = 50.0
    #: the radius of the round base of a point piece without a footprint (scene units)
    BASE = 13.0

    def __init__(self, pieces, selected: str | None = None, arcs: bool = False):
        super().__init__()
        self.pieces = [p for p in pieces if p.hexes or getattr(p, "point", None) is not None]
        self.selected = selected
        self.arcs = arcs
        self.setZValue(50)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        rects = []
        for pc in self.pieces:
            if getattr(pc, "point", None) is not None:
                c = map_point(pc.point)
                r = 90.0
                if pc.arc and (arcs or pc.uid == selected):
                    r = max(r, (pc.reach or 1.5) * HEX_SCENE + 10)
                rects.append(QRectF(c.x() - r, c.y() - r, 2 * r + 160, 2 * r))
            else:
                for h in pc.hexes:
                    c = hex_centre(h)
                    rects.append(QRectF(c.x() - 80, c.y() - 80, 200, 200))
        self._rect = QRectF()
        for r in rects:
            self._rect = self._rect.united(r)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        measured = [pc for pc in self.pieces if getattr(pc, "point", None) is not None]
        if measured:
            self._paint_measured(p, measured)
        hexed = [pc for pc in self.pieces if getattr(pc, "point", None) is None]
        if hexed:
            self._paint_hexes(p, hexed)

    # -- pieces standing at a point (measured systems)
    def _paint_measured(self, p: QPainter, pieces) -> None:
        p.save()
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        scale = max(1e-6, math.hypot(p.worldTransform().m11(), p.worldTransform().m12()))
        # the fire arcs, under everything
        for pc in pieces:
            if not pc.arc or not (self.arcs or pc.uid == self.selected):
                continue
            sel = pc.uid == self.selected
            b = pc.turret if pc.turret is not None else pc.bearing
            if b is None:
                continue
            col = QColor(SIDE_COLOURS.get(pc.side, QColor(90, 90, 90)))
            fill = QColor(255, 215, 0, 30) if sel else QColor(col.red(), col.green(), col.blue(), 14)
            edge = QColor(200, 150, 0, 230) if sel else QColor(col.red(), col.green(), col.blue(), 120)
            pen = QPen(edge, 2.5 / scale if not sel else 3.5 / scale, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(fill)
            p.drawPolygon(arc_polygon(map_point(pc.point), b, pc.arc, (pc.reach or 1.5) * HEX_SCENE))
        for pc in pieces:
            self._paint_one(p, pc, scale)
        # labels last, so no piece hides another's
        f = QFont("DejaVu Sans")
        f.setBold(True)
        f.setPixelSize(max(4, min(60, int(round(11.0 / scale)))))
        p.setFont(f)
        fm = p.fontMetrics()
        for pc in pieces:
            c = map_point(pc.point)
            words = pc.label + ("  " + " ".join(pc.status) if pc.status else "")
            tw = fm.horizontalAdvance(words) + 6 / scale
            th = fm.height() + 2 / scale
            ext = self._extent(pc)
            tag = QRectF(c.x() + ext * 0.6, c.y() + ext * 0.6, tw, th)
            p.setPen(Qt.PenStyle.NoPen)
            bg = QColor(SIDE_COLOURS.get(pc.side, QColor(90, 90, 90))).darker(170)
            bg.setAlpha(200 if "hidden" not in pc.status else 120)
            p.setBrush(bg)
            p.drawRoundedRect(tag, 3 / scale, 3 / scale)
            p.setPen(QColor(255, 255, 255))
            p.drawText(tag, Qt.AlignmentFlag.AlignCenter, words)
        p.restore()

    @staticmethod
    def _extent(pc) -> float:
        """About how far (scene units) the piece reaches from its point."""
        c = map_point(pc.point)
        pts = [map_point(q) for q in (pc.footprint or ())]
        if not pts:
            return PiecesItem.BASE
        return max(math.hypot(q.x() - c.x(), q.y() - c.y()) for q in pts)

    def _paint_one(self, p: QPainter, pc, scale: float) -> None:
        c = map_point(pc.point)
        side = QColor(SIDE_COLOURS.get(pc.side, QColor(90, 90, 90)))
        hidden = "hidden" in pc.status
        sel = pc.uid == self.selected
        dark = QColor(15, 15, 15)
        outline = QPen(dark, 1.6 / scale + 0.6, Qt.PenStyle.DashLine if hidden else Qt.PenStyle.SolidLine)
        body = QColor(side)
        if hidden:
            body.setAlpha(120)
        ext = self._extent(pc)
        if sel:   # a yellow halo under the piece
            p.setPen(QPen(QColor(255, 230, 0), 6 / scale + 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawEllipse(c, ext + 8, ext + 8)
        ring = QPolygonF([map_point(q) for q in pc.footprint]) if pc.footprint else None
        if pc.kind == "infantry" and pc.figures:
            if ring is not None:   # the section's ground: a light band in its colour
                band = QColor(side)
                band.setAlpha(70 if not hidden else 40)
                p.setPen(QPen(side.darker(150), 1.0 / scale + 0.3, Qt.PenStyle.DashLine if hidden else Qt.PenStyle.SolidLine))
                p.setBrush(band)
                p.drawPolygon(ring)
            figs = [map_point(q) for q in pc.figures]
            spacing = min((math.hypot(a.x() - b.x(), a.y() - b.y()) for a, b in zip(figs, figs[1:])), default=12.0)
            rad = max(2.0, min(6.0, spacing * 0.38))
            p.setPen(QPen(dark, 0.8 / scale + 0.4))
            p.setBrush(body.lighter(115))
            for q in figs:
                p.drawEllipse(q, rad, rad)
        elif ring is not None:
            p.setPen(outline)
            p.setBrush(body)
            p.drawPolygon(ring)
            for q in pc.figures:   # a gun's crew beside it
                p.setPen(QPen(dark, 0.8 / scale + 0.4))
                p.setBrush(body.lighter(130))
                p.drawEllipse(map_point(q), 3.5, 3.5)
        else:
            p.setPen(outline)
            p.setBrush(body)
            p.drawEllipse(c, self.BASE, self.BASE)
        if pc.bearing is not None:   # the facing: a tick with a head from the centre past the front
            d = bearing_vector(pc.bearing)
            front = max(ext * 0.55, 10.0) if pc.kind != "infantry" else 9.0
            length = front + 12.0
            tip = c + d * length
            n = QPointF(-d.y(), d.x())
            p.setPen(QPen(QColor(255, 215, 0), 3.2 / scale + 1.2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(c + d * (front * 0.3), tip)
            p.setPen(QPen(dark, 0.8 / scale + 0.3))
            p.setBrush(QColor(255, 215, 0))
            p.drawPolygon(QPolygonF([tip + d * 6, tip + n * 4.5, tip - n * 4.5]))
        if pc.turret is not None:   # the turret and its gun
            d = bearing_vector(pc.turret)
            r = max(5.0, ext * 0.28)
            p.setPen(QPen(dark, 2.4 / scale + 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(c, c + d * (r + ext * 0.75))
            p.setPen(QPen(dark, 1.0 / scale + 0.4))
            p.setBrush(body.darker(125))
            p.drawEllipse(c, r, r)
        elif pc.kind == "gun":
            d = bearing_vector(pc.bearing or 0.0)
            p.setPen(QPen(dark, 2.0 / scale + 1.4, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(c, c + d * (ext + 10))

    # -- pieces in hexes
    def _paint_hexes(self, p: QPainter, pieces) -> None:
        # the band of each piece spanning several hexes, under the counters
        for pc in pieces:
            if len(pc.hexes) > 1:
                band = QColor(SIDE_COLOURS.get(pc.side, QColor(90, 90, 90)))
                band.setAlpha(150)
                p.setPen(QPen(band, 30, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawPolyline(QPolygonF([hex_centre(h) for h in pc.hexes]))
        by_hex: dict[str, list[tuple]] = {}
        for pc in pieces:
            for i, h in enumerate(pc.hexes):
                by_hex.setdefault(h, []).append((pc, i))
        f = QFont("DejaVu Sans")
        f.setPixelSize(13)
        f.setBold(True)
        sf = QFont(f)
        sf.setPixelSize(10)
        size = self.SIZE
        for hid, cs in by_hex.items():
            c0 = hex_centre(hid)
            n = len(cs)
            step = min(9.0, 36.0 / max(1, n - 1)) if n > 1 else 0
            for k, (pc, i) in enumerate(cs):
                off = (k - (n - 1) / 2) * step
                r = QRectF(c0.x() - size / 2 + off, c0.y() - size / 2 + off, size, size)
                fill = QColor(SIDE_COLOURS.get(pc.side, QColor(90, 90, 90)))
                sel = pc.uid == self.selected
                p.setPen(QPen(QColor(255, 230, 0) if sel else QColor(20, 20, 20), 5 if sel else 1.5))
                p.setBrush(fill)
                p.drawRoundedRect(r, 5, 5)
                p.setPen(QColor(255, 255, 255))
                p.setFont(f)
                p.drawText(r.adjusted(1, 1, -1, -18), Qt.AlignmentFlag.AlignCenter, pc.label[:6])
                p.setFont(sf)
                if len(pc.hexes) > 1:   # which part of a piece spanning several hexes
                    p.drawText(r.adjusted(1, 28, -1, -1), Qt.AlignmentFlag.AlignCenter, f"{i + 1}/{len(pc.hexes)}")
                words = " ".join(pc.status)
                if words:   # the status words on a dark tag under the counter
                    tw = p.fontMetrics().horizontalAdvance(words) + 8
                    tag = QRectF(r.center().x() - tw / 2, r.bottom() + 1, tw, 14)
                    p.setPen(Qt.PenStyle.NoPen)
                    p.setBrush(QColor(20, 20, 20, 200))
                    p.drawRoundedRect(tag, 3, 3)
                    p.setPen(QColor(255, 255, 255))
                    p.drawText(tag, Qt.AlignmentFlag.AlignCenter, words)
                if pc.facing:
                    a = math.radians(60 * (pc.facing - 1) - 90)
                    tip = r.center() + QPointF(math.cos(a) * 38, math.sin(a) * 38)
                    b1 = r.center() + QPointF(math.cos(a + 0.5) * 24, math.sin(a + 0.5) * 24)
                    b2 = r.center() + QPointF(math.cos(a - 0.5) * 24, math.sin(a - 0.5) * 24)
                    p.setPen(QPen(QColor(20, 20, 20), 1))
                    p.setBrush(QColor(255, 220, 0))
                    p.drawPolygon(QPolygonF([tip, b1, b2]))


def heat_items(counts: dict[str, int], colour: QColor, label: bool = True) -> list[QGraphicsItem]:
    """A heat map: a circle on each hex whose area grows with its count (as the report's
    pictures), in ``colour`` with a white halo and a dark outline, so it stands out over any zone."""
    if not counts:
        return []
    top = max(counts.values()) or 1
    items: list[QGraphicsItem] = []
    r_max = 0.46 * 100.0   # scene units: a hex is 100 across flats
    for hid, n in sorted(counts.items()):
        try:
            h = hexgrid.parse_hex_id(hid)
        except ValueError:
            continue
        if n <= 0:
            continue
        r = max(10.0, r_max * math.sqrt(n / top))
        circle = QPainterPath()
        circle.addEllipse(hex_centre(h), r, r)
        halo = _path_item(circle, None, _pen(QColor(255, 255, 255, 230), 5.0), 20)
        c = QColor(colour)
        c.setAlpha(int(150 + 90 * math.sqrt(n / top)))
        items += [halo, _path_item(circle, c, _pen(QColor(colour).darker(220), 2.0), 20.5)]
        if label and n / top > 0.15:
            items += _label(str(n), hex_centre(h), QColor(255, 255, 255), 18, 21, bold=True, bg=None)
    return items


def cross_item(hid: str, colour: QColor = QColor(210, 0, 0)) -> QGraphicsItem:
    """A cross on a hex (a unit eliminated there)."""
    c = hex_centre(hid)
    p = QPainterPath()
    for dx, dy in ((1, 1), (1, -1)):
        p.moveTo(c + QPointF(-30 * dx, -30 * dy))
        p.lineTo(c + QPointF(30 * dx, 30 * dy))
    pen = _pen(colour, 4.0)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return _path_item(p, None, pen, 46)


#: how the Watch and Hot-seat draw a rule system's marks (:class:`core.rule_system.Mark`), by kind
MARK_COLOURS = {"fire": QColor(225, 25, 25), "miss": QColor(240, 140, 20), "move": QColor(30, 120, 230),
                "template": QColor(255, 120, 0), "corridor": QColor(220, 30, 30), "scatter": QColor(40, 40, 40),
                "other": QColor(120, 120, 120)}


def _arrow_path(a: QPointF, b: QPointF, head: float) -> QPainterPath:
    path = QPainterPath(a)
    path.lineTo(b)
    d = b - a
    n = math.hypot(d.x(), d.y())
    if n > head:
        u = QPointF(d.x() / n, d.y() / n)
        v = QPointF(-u.y(), u.x())
        path.moveTo(b - u * head + v * head * 0.5)
        path.lineTo(b)
        path.lineTo(b - u * head - v * head * 0.5)
    return path


def mark_items(marks) -> list[QGraphicsItem]:
    """The items of a rule system's marks (:class:`core.rule_system.Mark`, map units): a ``fire``
    line with an arrow head, red (solid when it hit or hit is unknown, orange dashed for a miss);
    a ``move`` as a blue arrow; a ``template`` as an orange disc with a dark rim and a cross at
    its centre; a ``corridor`` as a light red band with a dashed edge; a ``scatter`` as a thin
    dashed arrow; any other kind as a grey line."""
    items: list[QGraphicsItem] = []
    for m in marks:
        pts = [QPointF(x * SCENE_PER_X, y * SCENE_PER_Y) for x, y in m.points]
        if len(pts) < 2:
            continue
        if m.kind in ("template", "corridor"):
            path = QPainterPath()
            path.addPolygon(QPolygonF(pts + [pts[0]]))
            if m.kind == "template":
                fill = QColor(255, 205, 40, 150)
                items.append(_path_item(path, fill, _pen(QColor(110, 35, 0), 3.0), 44))
                cx = sum(q.x() for q in pts) / len(pts)
                cy = sum(q.y() for q in pts) / len(pts)
                cross = QPainterPath()
                for dx, dy in ((1, 0), (0, 1)):
                    cross.moveTo(cx - 7 * dx, cy - 7 * dy)
                    cross.lineTo(cx + 7 * dx, cy + 7 * dy)
                items.append(_path_item(cross, None, _pen(QColor(90, 30, 0), 2.0), 44.5))
            else:
                fill = QColor(MARK_COLOURS["corridor"])
                fill.setAlpha(35)
                items.append(_path_item(path, fill, _pen(QColor(200, 20, 20, 200), 2.0, Qt.PenStyle.DashLine), 43))
            continue
        if m.kind == "fire":
            miss = m.hit is False
            colour = MARK_COLOURS["miss" if miss else "fire"]
            pen = QPen(colour, 3.5, Qt.PenStyle.DashLine if miss else Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap,
                       Qt.PenJoinStyle.RoundJoin)
            pen.setCosmetic(True)
            items.append(_path_item(_arrow_path(pts[0], pts[-1], 22.0), None, pen, 45))
        elif m.kind == "move":
            path = QPainterPath(pts[0])
            for q in pts[1:-1]:
                path.lineTo(q)
            path.addPath(_arrow_path(pts[-2], pts[-1], 18.0))
            pen = QPen(MARK_COLOURS["move"], 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
            pen.setCosmetic(True)
            items.append(_path_item(path, None, pen, 45))
        elif m.kind == "scatter":
            pen = QPen(MARK_COLOURS["scatter"], 2.0, Qt.PenStyle.DotLine, Qt.PenCapStyle.RoundCap)
            pen.setCosmetic(True)
            items.append(_path_item(_arrow_path(pts[0], pts[-1], 10.0), None, pen, 45.5))
        else:
            path = QPainterPath(pts[0])
            for q in pts[1:]:
                path.lineTo(q)
            items.append(_path_item(path, None, _pen(MARK_COLOURS["other"], 3.0), 45))
        if m.label and m.kind == "fire":
            mid = (pts[0] + pts[-1]) / 2
            items += _label(m.label, mid, QColor(255, 255, 255), 22, 46, bold=True, bg=QColor(120, 10, 10, 190))
    return items


def point_cross_item(pt, colour: QColor = QColor(210, 0, 0)) -> QGraphicsItem:
    """A cross at ``pt`` in map units (a piece standing there was eliminated)."""
    c = QPointF(pt[0] * SCENE_PER_X, pt[1] * SCENE_PER_Y)
    p = QPainterPath()
    for dx, dy in ((1, 1), (1, -1)):
        p.moveTo(c + QPointF(-18 * dx, -18 * dy))
        p.lineTo(c + QPointF(18 * dx, 18 * dy))
    pen = _pen(colour, 4.0)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return _path_item(p, None, pen, 46)


def fire_line_item(a: str, b: str, colour: QColor = QColor(230, 30, 30), width: float = 6) -> QGraphicsItem:
    p = QPainterPath(hex_centre(a))
    p.lineTo(hex_centre(b))
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return _path_item(p, None, pen, 45)


class ScenarioOverlay:
    """Named layers of overlay items on a scene. A layer is drawn unless the user hid it
    (:meth:`set_visible`, the View menu) or a game view suppresses it (:meth:`set_suppressed`);
    :meth:`set_opacity` sets its opacity (0-1)."""

    def __init__(self, scene: QGraphicsScene):
        self.scene = scene
        self.layers: dict[str, list[QGraphicsItem]] = {}
        self.hidden: set[str] = set()
        self.suppressed: set[str] = set()
        self.opacity: dict[str, float] = {}

    def shown(self, name: str) -> bool:
        return name not in self.hidden and name not in self.suppressed

    def set_layer(self, name: str, items: list[QGraphicsItem]) -> None:
        self.clear(name)
        on, op = self.shown(name), self.opacity.get(name, 1.0)
        for it in items:
            self.scene.addItem(it)
            it.setVisible(on)
            it.setOpacity(op)
        self.layers[name] = list(items)

    def clear(self, name: str | None = None) -> None:
        names = [name] if name is not None else list(self.layers)
        for n in names:
            for it in self.layers.pop(n, []):
                if it.scene() is not None:
                    it.scene().removeItem(it)

    def _apply(self, name: str) -> None:
        on = self.shown(name)
        for it in self.layers.get(name, []):
            it.setVisible(on)

    def set_visible(self, name: str, on: bool) -> None:
        (self.hidden.discard if on else self.hidden.add)(name)
        self._apply(name)

    def set_suppressed(self, names) -> None:
        """Hide exactly ``names`` for a game view (the user's choices stay as they are)."""
        old, self.suppressed = self.suppressed, set(names)
        for n in old | self.suppressed:
            self._apply(n)

    def set_opacity(self, name: str, opacity: float) -> None:
        self.opacity[name] = max(0.0, min(1.0, float(opacity)))
        for it in self.layers.get(name, []):
            it.setOpacity(self.opacity[name])

    def visible_items(self, name: str) -> list[QGraphicsItem]:
        return [it for it in self.layers.get(name, []) if it.isVisible()]

    def count(self, name: str) -> int:
        return len(self.layers.get(name, []))


class _TagItem(QGraphicsItem):
    """A small text tag drawn in scene units (it scales with the map, so it keeps to its band of
    the hex at every zoom), under the counters (z below :class:`CountersItem`)."""

    def __init__(self, text: str, rect: QRectF, colour: QColor):
        super().__init__()
        self.text, self.colour, self._rect = text, QColor(colour), QRectF(rect)
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(int(rect.height() * 0.8))
        self.font.setBold(True)
        self.setZValue(16)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255, 200))
        p.drawRoundedRect(self._rect, 4, 4)
        p.setFont(self.font)
        p.setPen(self.colour)
        p.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


#: the bands of a hex (scene units from its centre) where the hidden and mine tags go: clear of a
#: counter in the middle of the hex (46 units square)
TAG_TOP = QRectF(-30, -47, 60, 21)
TAG_BOTTOM = QRectF(-30, 26, 60, 21)


def marks_items(hidden: dict[str, str], mines: dict[str, dict], ips: dict[str, dict] | None = None,
                problems: dict[str, str] | None = None) -> list[QGraphicsItem]:
    """The designer's hidden hexes (dashed outline in the side's colour, "hidden" at the top edge
    of the hex), IPs ("IP2" at the top edge, in the side's colour, 18.1) and mines ("AP2 AT5" at
    its bottom edge); the tags stay clear of a counter in the hex and under the counters of a
    stack. ``problems``: hex -> what is wrong there (a set-up check, e.g. a cap exceeded): a thick
    red outline and "!" tag."""
    items: list[QGraphicsItem] = []
    ips = ips or {}
    for hid, side in sorted(hidden.items()):
        col = SIDE_COLOURS.get(side, QColor(0, 0, 0))
        items.append(_path_item(hex_path([hexgrid.parse_hex_id(hid)]), None, _pen(col, 2.5, Qt.PenStyle.DashLine), 16))
        ip = ips.get(hid)
        items.append(_TagItem("hidden" + (f" IP{ip['points']}" if ip else ""), TAG_TOP.translated(hex_centre(hid)), col))
    for hid, ip in sorted(ips.items()):
        if hid not in hidden:
            items.append(_TagItem(f"IP{ip['points']}", TAG_TOP.translated(hex_centre(hid)),
                                  SIDE_COLOURS.get(ip.get("side"), QColor(0, 0, 0))))
    for hid, why in sorted((problems or {}).items()):
        try:
            h = hexgrid.parse_hex_id(hid)
        except ValueError:
            continue
        it = _path_item(hex_path([h]), None, _pen(QColor(220, 0, 0), 4.5), 17)
        it.setToolTip(why)
        items.append(it)
        items.append(_TagItem("!", QRectF(28, -10, 20, 20).translated(hex_centre(hid)), QColor(220, 0, 0)))
    for hid, m in sorted(mines.items()):
        text = " ".join(t for t in (f"AP{m['ap']}" if m.get("ap") else "", f"AT{m['at']}" if m.get("at") else "") if t)
        if text:
            items.append(_TagItem(text, TAG_BOTTOM.translated(hex_centre(hid)), QColor(120, 0, 0)))
    return items
