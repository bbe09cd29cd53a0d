"""What the overlays of every mode draw over the map, in the canvas's scene coordinates (a hex is
100 scene units across flats): the sides' and groups' colours, labels with a halo, outlined
paths over hexes, unit counters (:class:`CountersItem`, hex systems) and pieces with their
footprint and facing (:class:`PiecesItem`, measured systems), crosses, lines of fire and the rule
systems' marks (:func:`mark_items`). The Scenario overlay, the Watch, the Hot-seat and the tabletop
tools share them; nothing here edits a document."""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem

from maps import hexgrid
from maps.content_cache import ContentCache
from editor.drawing.canvas import hex_path
from editor.drawing.map_style import SCENE_PER_X, SCENE_PER_Y

__all__ = [
    "reach_item",
    "SIDE_COLOURS",
    "GROUP_COLOURS",
    "VICTORY_COLOUR",
    "FILL_ALPHA",
    "group_colour",
    "hex_centre",
    "CounterSpec",
    "CountersItem",
    "PiecesItem",
    "fire_line_item",
    "cross_item",
    "mark_items",
    "point_cross_item",
    "map_point",
    "bearing_vector",
    "arc_polygon",
]


SIDE_COLOURS = {"german": QColor(70, 90, 120), "russian": QColor(160, 60, 40), "draw": QColor(150, 150, 150),
                "error": QColor(220, 0, 200)}
#: one colour per group: cool colours for the Germans, warm ones for the Russians
GROUP_COLOURS = {"german": (QColor(30, 80, 210), QColor(0, 130, 140), QColor(110, 60, 190), QColor(40, 120, 40)),
                 "russian": (QColor(205, 30, 30), QColor(215, 110, 0), QColor(170, 20, 120), QColor(120, 70, 20))}
VICTORY_COLOUR = QColor(200, 150, 0)
#: the fill of a region: about 12 % opacity, so trees and contours show through
FILL_ALPHA = 30


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


#: hexes -> their outline, the last few drawn: the scenario's zones, areas and the dimmed map
#: outside its sections are drawn again after every edit, mostly unchanged
_outlines = ContentCache(256)


def _outline(hs) -> QPainterPath:
    """The outer boundary of a set of hexes (shared edges removed), in scene units."""
    hs = list(hs)
    key = frozenset(hs)
    path = _outlines.get(key)
    if path is None:
        path = hex_path(hs).simplified()
        _outlines.put(key, path)
    return QPainterPath(path)


def _pen(colour: QColor, width: float, style=Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)   # the same width in pixels at every zoom
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


def _fill(colour: QColor, alpha: int = FILL_ALPHA) -> QColor:
    c = QColor(colour)
    c.setAlpha(alpha)
    return c



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


#: scene units per hex across flats (:data:`editor.drawing.map_style.HEX_HEIGHT`)
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


#: the movement reach of a measured system's piece (the tabletop set-up tool and the Hot-seat)
REACH_FILL = QColor(40, 160, 90, 45)
REACH_PEN = QColor(20, 120, 60)


def reach_item(ring, z: float = 46):
    """The movement reach (a ring of map units) as a green area, or None for an empty ring."""
    if not ring or len(ring) < 3:
        return None
    path = QPainterPath()
    path.addPolygon(QPolygonF([map_point(p) for p in ring] + [map_point(ring[0])]))
    pen = QPen(REACH_PEN, 2.5, Qt.PenStyle.DashLine)
    pen.setCosmetic(True)
    return _path_item(path, REACH_FILL, pen, z)

