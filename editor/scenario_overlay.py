"""Scenario overlays drawn on the map canvas above :class:`editor.canvas.MapItem`: coloured regions
(set-up zones, entries, victory areas) with their hex counts, the north indicator and a compass
rose showing where the compass words point, unit counters (the designer's placement, a watched or
hot-seat game), a heat map, lines of fire and highlighted hexes.

:class:`ScenarioOverlay` keeps one list of ``QGraphicsItem`` per named layer; ``set_layer(name,
items)`` replaces a layer, so each panel redraws only its own layer. Nothing here edits a
document.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from maps import hexgrid
from editor.canvas import hex_path
from editor.map_painter import SCENE_PER_X, SCENE_PER_Y

__all__ = ["SIDE_COLOURS", "hex_centre", "ScenarioOverlay", "CounterSpec", "CountersItem", "region_items",
           "compass_items", "heat_items", "fire_line_item"]

SIDE_COLOURS = {"german": QColor(70, 90, 120), "russian": QColor(160, 60, 40), "draw": QColor(150, 150, 150),
                "error": QColor(220, 0, 200)}
_ZONE_FILL = {"german": QColor(40, 100, 235, 120), "russian": QColor(225, 60, 30, 110)}
_ENTRY_FILL = {"german": QColor(60, 110, 220, 150), "russian": QColor(220, 70, 40, 150)}
_VICTORY = QColor(240, 190, 0)


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


def region_items(hexes, kind: str, side: str | None, label: str | None = None) -> list[QGraphicsItem]:
    """Items drawing a region: ``kind`` "setup" (filled in the side's colour), "entry" (strong
    fill), "victory" (yellow outline), "paint" (the region being edited) or "ip"."""
    hs = [hexgrid.parse_hex_id(h) if isinstance(h, str) else h for h in hexes]
    if not hs:
        return []
    path = hex_path(hs)
    side = side if side in _ZONE_FILL else "german"
    if kind == "setup":
        items = [_path_item(path, _ZONE_FILL[side], QPen(QColor(_ZONE_FILL[side].darker(170).rgb()), 5), 12)]
    elif kind == "entry":
        items = [_path_item(path, _ENTRY_FILL[side], QPen(_ENTRY_FILL[side].darker(160), 2), 12)]
    elif kind == "victory":
        pen = QPen(_VICTORY.darker(130), 7)
        items = [_path_item(path, QColor(255, 220, 0, 60), pen, 13)]
    else:
        items = [_path_item(path, QColor(250, 0, 200, 80), QPen(QColor(170, 0, 140), 3), 14)]
    if label:
        # the label in the middle of the region's hexes (on the hex nearest to the mean centre)
        cx = sum(hex_centre(h).x() for h in hs) / len(hs)
        cy = sum(hex_centre(h).y() for h in hs) / len(hs)
        best = min(hs, key=lambda h: (hex_centre(h).x() - cx) ** 2 + (hex_centre(h).y() - cy) ** 2)
        colour = SIDE_COLOURS.get(side, QColor(0, 0, 0)) if kind != "victory" else QColor(120, 90, 0)
        items += _label(label, hex_centre(best), colour, 24, 31)
    return items


def compass_items(north, hexmap) -> list[QGraphicsItem]:
    """The north indicator (an arrow from its hex to the hex it points to) and a compass rose in
    the corner of the map whose N/E/S/W letters point where the scenario's compass words resolve."""
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
    items.append(_path_item(ring, QColor(255, 255, 255, 220), QPen(QColor(10, 10, 10), 4), 40))
    items.append(_path_item(p, None, pen, 41))
    items += _label("N", a, QColor(0, 0, 0), 22, 42, bg=None)
    # compass rose near the north indicator's hex, pushed inside the map
    k = north.north_k
    c0, c1, r0, r1 = hexmap.first_column, hexmap.last_column, hexmap.first_row, hexmap.last_row
    nh = hexgrid.parse_hex_id(north.hex)
    col = min(max(nh.col, c0 + 2), c1 - 2)
    row = min(max(nh.row, r0 + 2), r1 - 2)
    centre = hex_centre(hexgrid.Hex(col, row)) + QPointF(0, 0)
    rose = QPainterPath()
    rose.addEllipse(centre, 140, 140)
    items.append(_path_item(rose, QColor(255, 255, 255, 200), QPen(QColor(60, 60, 60), 3), 38))
    for word, off in (("N", 0), ("E", 3), ("S", 6), ("W", 9)):
        kk = (k + off) % 12
        a2 = math.radians(30 * kk - 90)
        tip = centre + QPointF(math.cos(a2) * 100, math.sin(a2) * 100)
        arm = QPainterPath(centre)
        arm.lineTo(tip)
        items.append(_path_item(arm, None, QPen(QColor(200, 0, 0) if word == "N" else QColor(40, 40, 40),
                                                8 if word == "N" else 4), 39))
        items += _label(word, centre + QPointF(math.cos(a2) * 118, math.sin(a2) * 118),
                        QColor(200, 0, 0) if word == "N" else QColor(30, 30, 30), 26, 40)
    return items


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


def heat_items(counts: dict[str, int], colour: QColor, label: bool = True) -> list[QGraphicsItem]:
    """A heat map: each hex filled with ``colour`` at an opacity growing with its count."""
    if not counts:
        return []
    top = max(counts.values()) or 1
    items: list[QGraphicsItem] = []
    for hid, n in counts.items():
        try:
            h = hexgrid.parse_hex_id(hid)
        except ValueError:
            continue
        c = QColor(colour)
        c.setAlpha(int(40 + 190 * math.sqrt(n / top)))
        items.append(_path_item(hex_path([h]), c, None, 20))
        if label and n / top > 0.15:
            items += _label(str(n), hex_centre(h), QColor(0, 0, 0), 18, 21, bold=False, bg=None)
    return items


def fire_line_item(a: str, b: str, colour: QColor = QColor(230, 30, 30), width: float = 6) -> QGraphicsItem:
    p = QPainterPath(hex_centre(a))
    p.lineTo(hex_centre(b))
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    return _path_item(p, None, pen, 45)


class ScenarioOverlay:
    """Named layers of overlay items on a scene."""

    def __init__(self, scene: QGraphicsScene):
        self.scene = scene
        self.layers: dict[str, list[QGraphicsItem]] = {}
        self.hidden: set[str] = set()

    def set_layer(self, name: str, items: list[QGraphicsItem]) -> None:
        self.clear(name)
        for it in items:
            self.scene.addItem(it)
            it.setVisible(name not in self.hidden)
        self.layers[name] = list(items)

    def clear(self, name: str | None = None) -> None:
        names = [name] if name is not None else list(self.layers)
        for n in names:
            for it in self.layers.pop(n, []):
                if it.scene() is not None:
                    it.scene().removeItem(it)

    def set_visible(self, name: str, on: bool) -> None:
        (self.hidden.discard if on else self.hidden.add)(name)
        for it in self.layers.get(name, []):
            it.setVisible(on)

    def count(self, name: str) -> int:
        return len(self.layers.get(name, []))


def marks_items(hidden: dict[str, str], mines: dict[str, dict]) -> list[QGraphicsItem]:
    """The designer's hidden hexes (dashed outline in the side's colour, "hidden") and mines
    ("AP n / AT n" below the hex centre)."""
    items: list[QGraphicsItem] = []
    for hid, side in sorted(hidden.items()):
        pen = QPen(SIDE_COLOURS.get(side, QColor(0, 0, 0)), 6, Qt.PenStyle.DashLine)
        items.append(_path_item(hex_path([hexgrid.parse_hex_id(hid)]), QColor(255, 255, 255, 70), pen, 16))
        items += _label("hidden", hex_centre(hid) + QPointF(0, -28), SIDE_COLOURS.get(side, QColor(0, 0, 0)), 18, 32)
    for hid, m in sorted(mines.items()):
        text = " ".join(t for t in (f"AP{m['ap']}" if m.get("ap") else "", f"AT{m['at']}" if m.get("at") else "") if t)
        if text:
            items += _label(text, hex_centre(hid) + QPointF(0, 30), QColor(120, 0, 0), 18, 32)
    return items
