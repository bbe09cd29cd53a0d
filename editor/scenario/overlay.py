"""Scenario overlays drawn on the map canvas above :class:`editor.drawing.canvas.MapItem`: regions (set-up
zones, entries, victory areas), their labels and a legend, the north indicator and a compass rose
showing where the compass words point, unit counters (the designer's placement, a watched or
hot-seat game), a heat map, lines of fire and highlighted hexes.

The terrain stays readable under them, so a designer sees what the zones cover: a region is its outline (solid for a
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

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from maps import hexgrid
from editor.drawing.canvas import hex_path
from editor.drawing.map_style import SCENE_PER_Y
from editor.drawing.pieces import (
    CountersItem,
    GROUP_COLOURS,
    SIDE_COLOURS,
    VICTORY_COLOUR,
    _fill,
    _label,
    _outline,
    _path_item,
    _pen,
    group_colour,
    hex_centre,
)

__all__ = [
    "ScenarioOverlay",
    "region_items",
    "ZoneLabelsItem",
    "LegendItem",
    "compass_items",
    "CompassRoseItem",
    "heat_items",
    "marks_items",
    "SCENARIO_LAYERS",
    "DESIGNER_LAYERS",
    "GAME_LAYERS",
]



#: the View menu's scenario layers: (key, label, overlay layers)
SCENARIO_LAYERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("zones", "Zones", ("zones",)), ("labels", "Zone labels and legend", ("labels", "legend")),
    ("setup", "Trial set-up", ("units",)), ("marks", "Hidden hexes and mines", ("marks",)),
    ("heat", "Heat map", ("heat",)), ("compass", "North and compass", ("compass",)))
#: the designer's layers, hidden while a game (Watch, Hot-seat) is shown
DESIGNER_LAYERS = ("units", "marks", "region", "goto", "heat")
#: the layers of the game views
GAME_LAYERS = {"watch": ("game", "game-lines"), "hotseat": ("hotseat",)}
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
    """The labels of the regions, laid out at paint time (for the view's zoom): a label never
    covers a counter, a heat circle or a mark tag, never overlaps another label, and never covers
    a small area it names. A region larger than its label on screen is labelled on one of its hexes
    (nearest its middle first) clear of what is drawn there; a smaller one (a hill, a victory hex
    group) gets its label beside it, outside the area, with a leader line to it. A label with no
    free place is left out (the legend names every group and victory area). Labels are of
    constant screen size."""

    PX = 12
    #: the gap (device pixels) between a small area and its label outside it
    GAP = 8

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
            self.labels.append((text, QColor(colour), cands, hex_path(hs).boundingRect()))
            xs += [q.x() for q in pts]
            ys += [q.y() for q in pts]
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(self.PX)
        self.font.setBold(True)
        from PySide6.QtGui import QFontMetricsF

        self._fm = QFontMetricsF(self.font)
        m = 1200.0
        self._rect = QRectF(min(xs) - m, min(ys) - m, max(xs) - min(xs) + 2 * m, max(ys) - min(ys) + 2 * m) \
            if xs else QRectF()
        #: the last layout: (text, colour, box, leader line or None) in device pixels
        self.last_placed: list[tuple[str, QColor, QRectF, tuple[QPointF, QPointF] | None]] = []
        self.setZValue(31)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def _outside(self, area: QRectF, w: float, h: float) -> list[QRectF]:
        """Boxes of ``w`` x ``h`` beside a device rect ``area`` (above, below, left, right and the
        corners, then the same one box further out), none touching it."""
        g = self.GAP
        out = []
        for k in (1, 3, 6):
            d = g * k
            cx, cy = area.center().x(), area.center().y()
            for x, y in ((cx - w / 2, area.top() - d - h), (cx - w / 2, area.bottom() + d),
                         (area.right() + d, cy - h / 2), (area.left() - d - w, cy - h / 2),
                         (area.right() + d, area.top() - d - h), (area.left() - d - w, area.top() - d - h),
                         (area.right() + d, area.bottom() + d), (area.left() - d - w, area.bottom() + d)):
                out.append(QRectF(x, y, w, h))
        return out

    def layout(self, transform, avoid: list[QRectF] = (), view: QRectF | None = None
               ) -> list[tuple[str, QColor, QRectF]]:
        """The labels placed for a scene-to-device ``transform``: (text, colour, box in device
        pixels), no two boxes intersecting, none covering any of ``avoid`` (scene rectangles: the
        counters, heat circles and mark tags shown) and, for an area smaller than its label, none
        on the area (the label is beside it; :attr:`last_placed` has its leader line). Only a
        region at least partly in ``view`` (the viewport, device pixels) is labelled, and its box
        lies inside the view."""
        placed: list[tuple[str, QColor, QRectF]] = []
        self.last_placed = []
        blocked = [transform.mapRect(r) for r in avoid]
        for text, colour, cands, bounds in self.labels:
            w, h = self._fm.horizontalAdvance(text) + 10, self._fm.height() + 4
            area = transform.mapRect(bounds)
            if view is not None and not view.intersects(area):
                continue   # a region out of the view: no label
            # small: thinner than its label, or less ground on screen than four labels cover
            hex_px = transform.mapRect(QRectF(0, 0, 100, 100)).width()
            small = area.width() < w + 2 * self.GAP or area.height() < 3 * h or \
                len(cands) * hex_px * hex_px * 0.87 < 4 * w * h
            boxes = []
            if not small:   # on one of its hexes in the view (a box at the view's edge moved inside it)
                for q in cands:
                    d = transform.map(q)
                    r = QRectF(d.x() - w / 2, d.y() - h / 2, w, h)
                    if view is not None:
                        if not view.contains(d):
                            continue
                        r.moveLeft(min(max(r.left(), view.left()), view.right() - w))
                        r.moveTop(min(max(r.top(), view.top()), view.bottom() - h))
                    boxes.append(r)
            else:   # beside the area, preferably not over another region
                others = [transform.mapRect(b) for _t, _c, _q, b in self.labels if b is not bounds]
                outside = self._outside(area, w, h)
                boxes += [r for r in outside if not any(r.intersects(o) for o in others)] + outside
            best = None
            for r in boxes:
                if view is not None and not view.contains(r):
                    continue
                if any(r.intersects(o) for _t, _c, o in placed) or any(r.intersects(b) for b in blocked):
                    continue
                best = r
                break
            if best is None:
                continue   # no free place: the legend names it
            placed.append((text, colour, best))
            leader = None
            if small:
                tip = min((transform.map(q) for q in cands),
                          key=lambda d: (d.x() - best.center().x()) ** 2 + (d.y() - best.center().y()) ** 2)
                leader = (_nearest_on_rect(best, tip), tip)
            self.last_placed.append((text, colour, best, leader))
        return placed

    def avoid_rects(self) -> list[QRectF]:
        """The scene boxes a label must not cover: each hex holding a counter shown (the
        designer's set-up or a game's), each heat circle and each mark tag shown."""
        sc = self.scene()
        out: list[QRectF] = []
        if sc is None:
            return out
        for it in sc.items():
            if not it.isVisible():
                continue
            if isinstance(it, CountersItem):
                for hid in {c.hex for c in it.counters}:
                    c = hex_centre(hid)
                    out.append(QRectF(c.x() - 42, c.y() - 42, 84, 84))
            elif it.data(AVOID_KEY):
                out.append(it.sceneBoundingRect())
        return out

    counter_rects = avoid_rects

    def fixed_rects(self, transform) -> list[QRectF]:
        """The scene boxes, for ``transform``, of the legend and the compass rose shown (items of
        constant screen size, so their box on the map depends on the zoom)."""
        sc = self.scene()
        inv, ok = transform.inverted()
        if sc is None or not ok:
            return []
        return [inv.mapRect(it.deviceTransform(transform).mapRect(it.boundingRect())) for it in sc.items()
                if it.isVisible() and isinstance(it, (LegendItem, CompassRoseItem))]

    def paint(self, p: QPainter, option, widget=None) -> None:
        view = QRectF(widget.rect()) if widget is not None else None
        tr = p.worldTransform()
        self.layout(tr, self.avoid_rects() + self.fixed_rects(tr), view)
        p.save()
        p.resetTransform()
        p.setFont(self.font)
        for text, colour, r, leader in self.last_placed:
            if leader is not None:
                p.setPen(QPen(QColor(255, 255, 255, 220), 3.5))
                p.drawLine(*leader)
                p.setPen(QPen(colour, 1.5))
                p.drawLine(*leader)
                p.setBrush(colour)
                p.drawEllipse(leader[1], 2.5, 2.5)
            p.setPen(QPen(colour, 1.2))
            p.setBrush(QColor(255, 255, 255, 225))
            p.drawRoundedRect(r, 3, 3)
            p.setPen(colour.darker(130))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, text)
        p.restore()


#: ``QGraphicsItem.data`` key marking an item a zone label must not cover (heat circles, mark tags)
AVOID_KEY = 7


def _nearest_on_rect(r: QRectF, to: QPointF) -> QPointF:
    """The point of rectangle ``r`` nearest to ``to`` (where a leader line leaves a label)."""
    return QPointF(min(max(to.x(), r.left()), r.right()), min(max(to.y(), r.top()), r.bottom()))


class LegendItem(QGraphicsItem):
    """The legend of the regions and marks: a swatch drawn as on the map and its meaning, in
    columns of :attr:`ROWS` rows or more (:meth:`wrap` fits it to a width: the view's); of
    constant screen size, its top-left corner at a scene point (in the margin below the map)."""

    ROWS = 3
    PX = 11

    def __init__(self, entries: list[tuple[str, QColor, str]], at: QPointF):
        super().__init__()
        self.entries = list(entries)   # (style: setup/entry/victory/hidden/mines, colour, text)
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(self.PX)
        from PySide6.QtGui import QFontMetricsF

        self._fm = QFontMetricsF(self.font)
        self.row_h = self._fm.height() + 5
        self.rows = self.ROWS
        self._texts = [t for _s, _c, t in self.entries]
        self._layout(self.ROWS, None)
        self.setPos(at)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setZValue(35)

    def _layout(self, rows: int, max_width: float | None) -> None:
        self.rows = max(1, rows)
        fm = self._fm
        self._texts = [t if max_width is None else fm.elidedText(t, Qt.TextElideMode.ElideRight, max_width - 48)
                       for _s, _c, t in self.entries]
        self.cols = [max(fm.horizontalAdvance(t) for t in self._texts[i:i + self.rows]) + 40
                     for i in range(0, len(self.entries), self.rows)]
        w = sum(self.cols) + 8
        h = self.row_h * min(self.rows, max(1, len(self.entries))) + 8
        self._rect = QRectF(0, 0, w, h)

    def wrap(self, max_width: float) -> None:
        """Lay the legend out in as few rows (at least :attr:`ROWS`) as keep it within
        ``max_width`` screen pixels; a single column still too wide has its texts elided (their
        full text is the item's tooltip)."""
        self.prepareGeometryChange()
        for rows in range(self.ROWS, max(self.ROWS, len(self.entries)) + 1):
            self._layout(rows, None)
            if self._rect.width() <= max_width:
                break
        else:
            self._layout(len(self.entries), max_width)
        self.setToolTip("\n".join(t for _s, _c, t in self.entries))
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setPen(QPen(QColor(120, 120, 120), 1))
        p.setBrush(QColor(255, 255, 255, 235))
        p.drawRoundedRect(self._rect, 4, 4)
        p.setFont(self.font)
        x = 4.0
        for ci, cw in enumerate(self.cols):
            part = slice(ci * self.rows, (ci + 1) * self.rows)
            for ri, ((style, colour, _t), text) in enumerate(zip(self.entries[part], self._texts[part])):
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
        disc = _path_item(circle, c, _pen(QColor(colour).darker(220), 2.0), 20.5)
        disc.setData(AVOID_KEY, True)   # no zone label over it
        items += [halo, disc]
        if label and n / top > 0.15:
            items += _label(str(n), hex_centre(h), QColor(255, 255, 255), 18, 21, bold=True, bg=None)
    return items


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
        #: the map shown is not the scenario's: every layer is hidden (a scenario is never drawn
        #: over a map it does not name)
        self.elsewhere = False

    def shown(self, name: str) -> bool:
        return not self.elsewhere and name not in self.hidden and name not in self.suppressed

    def set_elsewhere(self, on: bool) -> None:
        """Hide every layer (``on``: the map shown is not the scenario's) or show them again."""
        self.elsewhere = bool(on)
        for n in list(self.layers):
            self._apply(n)

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
    the hex at every zoom), under the counters (z below :class:`CountersItem`). Where its text
    would be smaller than :data:`MIN_TEXT_PX` on screen, the tag is a band of its colour without
    text (the hex's tooltip says what it is): never unreadable specks."""

    def __init__(self, text: str, rect: QRectF, colour: QColor):
        super().__init__()
        self.text, self.colour, self._rect = text, QColor(colour), QRectF(rect)
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(int(rect.height() * 0.8))
        self.font.setBold(True)
        self.setZValue(16)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setData(AVOID_KEY, True)   # no zone label over it

    def boundingRect(self) -> QRectF:  # noqa: N802
        return self._rect

    def text_px(self, transform) -> float:
        """The height of the tag's text on screen for a scene-to-device ``transform`` (pixels)."""
        return self.font.pixelSize() * abs(transform.m22())

    def paint(self, p: QPainter, option, widget=None) -> None:
        p.setPen(Qt.PenStyle.NoPen)
        if self.text_px(p.worldTransform()) < MIN_TEXT_PX:
            band = QColor(self.colour)
            band.setAlpha(170)
            p.setBrush(band)
            p.drawRoundedRect(self._rect.adjusted(6, 5, -6, -5), 4, 4)
            return
        p.setBrush(QColor(255, 255, 255, 200))
        p.drawRoundedRect(self._rect, 4, 4)
        p.setFont(self.font)
        p.setPen(self.colour)
        p.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


#: the smallest text (pixels on screen) drawn on the map; smaller text is left out, not shown as specks
MIN_TEXT_PX = 8.0

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
