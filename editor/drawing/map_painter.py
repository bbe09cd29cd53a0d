"""Draw a map as an SPI-style hex map with QPainter: one renderer for the editor, PNG and SVG.

:class:`MapPainter` paints a :class:`maps.hexmap.HexMap` (or one named section of it) onto any
``QPainter``: a ``QImage`` (:func:`render_png`), a ``QSvgGenerator`` (:func:`render_svg`) or a
``QGraphicsView``'s scene (the editor).

**Scene coordinates.** Everything is drawn in one fixed scene coordinate system derived from the
integer lattice of :mod:`maps.hexgrid` by the affine map
:func:`editor.drawing.hex_scene.lattice_to_scene`:
``x_scene = X * SCENE_PER_X``, ``y_scene = Y * SCENE_PER_Y`` with ``SCENE_PER_Y = 50`` and
``SCENE_PER_X = 50 * X_SCALE_M / Y_SCALE_M``, so hexes are true regular hexagons, a hex is
:data:`HEX_HEIGHT` = 100 scene units across flats (1 scene unit = 0.1 m) and scene positions do
not depend on the section drawn. Hex corners come from :func:`maps.hexgrid.vertices` (integers)
mapped by that transform, so neighbouring hexes share bit-identical corners; nothing here
recomputes a vertex with trigonometry. :func:`editor.drawing.hex_scene.hex_at_scene` maps a scene
point back to its hex. The scale, colours and sizes are in :mod:`editor.drawing.map_style`, the
symbols in :mod:`editor.drawing.map_symbols`; what is drawn is built and cached by
:mod:`editor.drawing.map_geometry`, the title and legend drawn by :mod:`editor.drawing.map_margins`.

**Layers** (:data:`editor.drawing.map_style.LAYERS`) can be switched on and off: the hex ``grid``, printed ``ids``,
hill ``levels``, ``marshes``, ``gullies``, ``roads`` (with bridges), ``trees``, ``buildings``,
``obstacles`` (linear obstacles and tank traps, which only measured rule systems read: walls as
solid dark lines, low stone walls grey, hedges green, fences dashed brown, tank traps as a row of
small crosses), feature ``labels``, ``sections`` (boundaries and names), ``provenance`` (markers for rulebook and
reconstructed items), and the ``title`` and ``legend`` margins (off in the editor's view).

**Provenance.** Items whose values the rulebook states are drawn solid; reconstructed ones dashed
(building outlines) or italic (feature names); a hex whose own provenance is ``rulebook`` gets a
small black diamond. A map whose provenance is ``reconstructed`` says "reconstructed layout" in
its title line. The legend under the map explains every convention it uses.

Example::

    from maps.mapfile import load_map
    from editor.drawing.map_painter import MapPainter, render_png

    render_png(load_map("maps/data/sample_village.json"), "village.png", section="East")

    mp = MapPainter(hexmap, layers=set(LAYERS) - {"title", "legend"})
    mp.paint(painter)                              # scene coordinates (QGraphicsView)
    mp.paint(painter, target_rect=QRectF(0, 0, 800, 600), section="Map 2")   # fit into a rect
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QBuffer, QIODevice, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QGuiApplication, QImage, QPainter, QPainterPath, QPen

from maps.document_file import atomic_write_bytes
from maps.hexmap import HexMap
from editor.drawing.map_geometry import MapGeometry, _Building, _Geometry, _Label, _Obstacle
from editor.drawing.map_margins import MapMargins
from editor.drawing.map_style import (
    BRIDGE_DECK,
    BUILDING_EDGE,
    BUILDING_EDGE_WIDTH,
    BUILDING_FILL,
    BUILDING_LABEL_PX,
    CLEAR,
    CONTOUR,
    CONTOUR_WIDTH,
    FRAME_WIDTH,
    GRID,
    GRID_WIDTH,
    GULLY_EDGE,
    GULLY_FILL,
    HEX_HEIGHT,
    HEX_WIDTH,
    ID_COLOUR,
    ID_PX,
    LABEL_PX,
    LAYERS,
    LEVEL_COLOURS,
    MARGIN,
    MARGIN_BG,
    MARSH,
    MARSH_STROKE,
    OBSTACLE_STYLE,
    ROAD_EDGE,
    ROAD_FILL,
    SECTION_LINE,
    SECTION_TEXT,
    SECTION_WIDTH,
    TANK_TRAP,
    TANK_TRAP_WIDTH,
    TITLE_H,
    TREE_EDGE,
    TREE_EDGE_WIDTH,
    TREE_FILL,
    TREE_LIGHT,
    WINDOW_CORE,
)
from editor.drawing.map_symbols import _font

__all__ = ["MapPainter", "UnknownSectionError", "render_png", "render_svg", "render_file"]




class UnknownSectionError(KeyError):
    """The map has no section of that name (the message lists the sections it has)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown section"


class MapPainter(MapGeometry, MapMargins):
    """Paints a :class:`HexMap` (or one section) onto a ``QPainter``.

    ``layers`` is an iterable of names from :data:`LAYERS` (default: all). Geometry is built
    lazily per section and cached (and shared with painters of maps of the same content,
    :data:`editor.drawing.map_geometry.SHARED_GEOMETRY`); after the map changes call :meth:`update_map` (rebuilds what
    the edit changed) or :meth:`set_map` (rebuilds everything), or build a new painter. The
    per-hex drawing data is kept in blocks of :data:`BLOCK` x :data:`BLOCK` hexes: an edit
    rebuilds a few blocks, and ``paint(..., exposed=rect)`` draws only the blocks that reach into
    ``rect`` (each layer joined into one path, so the pixels in ``rect`` are those of a whole
    paint). A ``QGuiApplication`` must exist (fonts); :func:`render_png` makes one if needed.
    """

    def __init__(self, hexmap: HexMap, layers: Iterable[str] | None = None):
        self.hexmap = hexmap
        self.layers: set[str] = set(LAYERS)
        if layers is not None:
            self.set_layers(layers)
        self._cache: dict[tuple[int, int], _Geometry] = {}
        #: the smallest hex id on screen (pixels): below it ids are drawn larger, up to the
        #: zoom where they no longer fit in a hex, and left out below that. None (the renderer,
        #: exports): ids at their printed size at every scale.
        self.min_id_px: float | None = None

    def id_scale(self, device_per_scene: float) -> float | None:
        """How much larger than printed the hex ids are drawn at ``device_per_scene`` pixels per
        scene unit: 1 when they are readable as printed (at least :attr:`min_id_px`), more below
        that while a readable id fits across the top of its hex (three quarters of its width),
        None (no ids) at smaller zooms."""
        if self.min_id_px is None:
            return 1.0
        px = ID_PX * device_per_scene
        if px >= self.min_id_px:
            return 1.0
        k = self.min_id_px / max(px, 1e-6)
        width = QFontMetricsF(_font(ID_PX, condensed=True)).horizontalAdvance("0000") * k
        return k if width <= 0.75 * HEX_WIDTH else None

    # ------------------------------------------------------------------ configuration
    def set_layers(self, layers: Iterable[str]) -> None:
        """Draw exactly ``layers`` (names from :data:`LAYERS`); raises ValueError on unknown names."""
        wanted = set(layers)
        unknown = wanted - set(LAYERS)
        if unknown:
            raise ValueError(f"unknown layer(s) {sorted(unknown)}; layers are {', '.join(LAYERS)}")
        self.layers = wanted

    def set_layer(self, name: str, visible: bool) -> None:
        """Switch one layer on or off."""
        if name not in LAYERS:
            raise ValueError(f"unknown layer {name!r}; layers are {', '.join(LAYERS)}")
        (self.layers.add if visible else self.layers.discard)(name)

    def set_map(self, hexmap: HexMap) -> None:
        """Draw another (e.g. edited) map; drops the cached geometry."""
        self.hexmap = hexmap
        self._cache.clear()

    # ------------------------------------------------------------------ sections and rects
    def section_columns(self, section: str | None) -> tuple[int, int]:
        """(first, last) column drawn for ``section`` (None: the whole map).

        Raises :class:`UnknownSectionError` naming the sections the map has.
        """
        m = self.hexmap
        if section is None:
            return (m.first_column, m.last_column)
        try:
            return m.section_columns(section)
        except KeyError:
            have = ", ".join(repr(s.name) for s in m.doc.sections) or "none"
            raise UnknownSectionError(
                f"map {m.name!r} has no section named {section!r} (sections: {have})") from None

    def map_rect(self, section: str | None = None) -> QRectF:
        """Bounding rect of the hexes drawn for ``section``, in scene units."""
        return QRectF(self._geometry(section).map_rect)

    def scene_rect(self, section: str | None = None) -> QRectF:
        """The whole picture for ``section`` in scene units: hexes plus margin, title and legend."""
        g = self._geometry(section)
        r = self.map_rect(section).adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)
        if "title" in self.layers or "legend" in self.layers:  # room for them beside a small map
            r.setRight(max(r.right(), g.map_rect.left() + self._legend_width(g) + MARGIN))
        if "title" in self.layers:
            r.setTop(r.top() - TITLE_H)
        if "sections" in self.layers and self._geometry(section).section_names:
            r.setTop(r.top() - LABEL_PX * 1.3)
        if "legend" in self.layers:
            r.setBottom(r.bottom() + self._legend_height(section))
        return r

    def outline(self, section: str | None = None) -> QPainterPath:
        """The outline of the hexes drawn for ``section`` (scene units), e.g. to clip."""
        return QPainterPath(self._geometry(section).outline)

    # ------------------------------------------------------------------ painting
    def paint(self, painter: QPainter, target_rect: QRectF | None = None, section: str | None = None,
              *, scale: float | None = None, exposed: QRectF | None = None) -> None:
        """Paint the map (or ``section``) with ``painter``.

        Without ``target_rect`` and ``scale`` the map is drawn in scene coordinates on top of the
        painter's current transform (what a ``QGraphicsView`` scene needs). With ``target_rect``
        the :meth:`scene_rect` is fitted into it (aspect ratio kept, centred); with ``scale`` the
        scene rect's top-left goes to the painter's origin at ``scale`` device units per scene unit.

        ``exposed`` (scene units; None: everything) limits the per-hex drawing to the blocks of
        hexes that reach into it: the pixels inside ``exposed`` are exactly those of a whole
        paint, the ones outside may be left unpainted (clip the painter to it).
        """
        self._paint(painter, target_rect, section, scale, exposed)

    def _paint(self, painter: QPainter, target_rect: QRectF | None, section: str | None,
               scale: float | None, exposed: QRectF | None = None) -> None:
        g = self._geometry(section)
        painter.save()
        try:
            if target_rect is not None or scale is not None:
                src = self.scene_rect(section)
                if target_rect is not None:
                    s = min(target_rect.width() / src.width(), target_rect.height() / src.height())
                    ox = target_rect.left() + (target_rect.width() - src.width() * s) / 2
                    oy = target_rect.top() + (target_rect.height() - src.height() * s) / 2
                else:
                    s, ox, oy = float(scale), 0.0, 0.0
                painter.translate(ox, oy)
                painter.scale(s, s)
                painter.translate(-src.left(), -src.top())
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            self._paint_map(painter, g, exposed)
            if "title" in self.layers:
                self._paint_title(painter, g, section)
            if "legend" in self.layers:
                self._paint_legend(painter, g, section)
        finally:
            painter.restore()

    #: blocks joined by the last paint (how much of the map it drew), and how many there were
    last_blocks: tuple[int, int] = (0, 0)

    def _paint_map(self, p: QPainter, g: _Geometry, exposed: QRectF | None = None) -> None:
        L = self.layers
        blocks = self._blocks_in(g, exposed)
        self.last_blocks = (len(blocks), len(g.blocks))
        # a symbol or text placed at a point (an id, a tree count, a bridge) reaches less than
        # half a hex from it
        reach = exposed.adjusted(-HEX_HEIGHT / 2, -HEX_HEIGHT / 2, HEX_HEIGHT / 2, HEX_HEIGHT / 2) \
            if exposed is not None else None

        def near(pt: QPointF) -> bool:
            return reach is None or reach.contains(pt)

        def joined(name: str) -> QPainterPath:
            # one path per layer, as if the map were one block: abutting fills of two blocks
            # show no seam and a part of the map is painted exactly as in a whole paint
            out = QPainterPath()
            for b in blocks:
                part = getattr(b, name)
                if not part.isEmpty():
                    out.addPath(part)
            return out

        def joined_levels(name: str) -> list[tuple[int, QPainterPath]]:
            out: dict[int, QPainterPath] = {}
            for b in blocks:
                for lvl, part in getattr(b, name).items():
                    out.setdefault(lvl, QPainterPath()).addPath(part)
            return sorted(out.items())

        p.save()
        p.setPen(Qt.PenStyle.NoPen)
        p.fillPath(g.outline, CLEAR)
        if "levels" in L:
            for lvl, path in joined_levels("levels"):
                p.fillPath(path, LEVEL_COLOURS[min(lvl, 4)])
            for lvl, path in joined_levels("hatches"):
                p.fillPath(path, LEVEL_COLOURS[min(lvl, 4)])
        if "marshes" in L:
            marsh = joined("marsh")
            if not marsh.isEmpty():
                p.fillPath(marsh, MARSH)
                p.strokePath(joined("marsh_strokes"), self._pen(MARSH_STROKE, 2.4, cap=Qt.PenCapStyle.RoundCap))
        if "grid" in L:
            p.strokePath(joined("grid"), self._pen(GRID, GRID_WIDTH))
        if "levels" in L:
            contours = joined("contours")
            if not contours.isEmpty():
                p.strokePath(contours, self._pen(CONTOUR, CONTOUR_WIDTH, cap=Qt.PenCapStyle.RoundCap))
        if "sections" in L and not g.sections.isEmpty():
            p.strokePath(g.sections, self._pen(SECTION_LINE, SECTION_WIDTH))
        if "gullies" in L:
            p.fillPath(g.gully_edge, GULLY_EDGE)
            p.fillPath(g.gully_fill, GULLY_FILL)
        if "roads" in L:
            p.fillPath(g.road_edge, ROAD_EDGE)
            p.fillPath(g.road_fill, ROAD_FILL)
            for centre, angle in g.bridges:
                if near(centre):
                    self._paint_bridge(p, centre, angle)
        trees = joined("trees") if "trees" in L else QPainterPath()
        if not trees.isEmpty():
            p.setPen(self._pen(TREE_EDGE, TREE_EDGE_WIDTH))
            p.setBrush(TREE_FILL)
            p.drawPath(trees)
            p.fillPath(joined("tree_lights"), TREE_LIGHT)
            p.setPen(ID_COLOUR)
            p.setFont(_font(ID_PX, bold=True))
            for b in blocks:
                for pos, n in b.tree_counts:
                    if near(pos):
                        p.drawText(QRectF(pos.x() - 20, pos.y() - 10, 40, 20), Qt.AlignmentFlag.AlignCenter, str(n))
        buildings = [b for b in g.buildings if exposed is None or b.rect.intersects(exposed)]
        if "buildings" in L:
            for b in buildings:
                pen = self._pen(BUILDING_EDGE, BUILDING_EDGE_WIDTH)
                if b.dashed and "provenance" in L:
                    pen.setDashPattern([2.5, 1.5])
                p.setPen(pen)
                p.setBrush(BUILDING_FILL)
                p.drawPath(b.path)
                self._paint_building_inside(p, b)
        if "obstacles" in L:
            self._paint_obstacles(p, [o for o in g.obstacles if exposed is None or o.rect.intersects(exposed)])
        if "provenance" in L:
            marks = joined("rulebook_marks")
            if not marks.isEmpty():
                p.fillPath(marks, QColor("#111111"))
            marks = joined("reconstructed_marks")
            if not marks.isEmpty():
                p.strokePath(marks, self._pen(QColor("#111111"), 1.8))
        k = self.id_scale(abs(p.worldTransform().m22())) if "ids" in L else None
        if k is not None:
            p.setPen(ID_COLOUR)
            id_font = _font(ID_PX, condensed=True)
            p.setFont(id_font)
            fm = QFontMetricsF(id_font)
            halo = QPen(QColor(241, 228, 195, 225), ID_PX * 0.3)
            halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            for b in blocks:
                for at, text, path in b.ids:
                    if not near(at):
                        continue
                    if k != 1.0:   # enlarged about the top middle of the hex, where the id stands
                        top = QPointF(at.x() + fm.horizontalAdvance(text) / 2, at.y() - fm.ascent())
                        p.save()
                        p.translate(top)
                        p.scale(k, k)
                        p.translate(-top)
                    if path is not None:  # on a road, gully or building: a light halo keeps the id legible
                        p.strokePath(path, halo)
                        p.fillPath(path, ID_COLOUR)
                    else:
                        p.drawText(at, text)
                    if k != 1.0:
                        p.restore()
        if "buildings" in L:
            f = _font(BUILDING_LABEL_PX, bold=True)
            for b in buildings:
                if b.label:
                    if b.small:
                        self._halo_text(p, b.anchor, b.label, f, QColor("#111111"), QColor(255, 255, 255, 220))
                    else:
                        self._centred_text(p, b.anchor, b.label, f, QColor("#ffffff"))
        p.restore()
        # the frame around the map
        p.strokePath(g.outline, self._pen(QColor("#2b2116"), FRAME_WIDTH))
        if "labels" in L:
            for lab in g.labels:
                if exposed is not None and not self._label_rect(lab).intersects(exposed):
                    continue
                self._halo_text(p, lab.anchor, lab.text, _font(lab.px, bold=True, italic=lab.italic),
                                QColor("#111111"), QColor(255, 255, 255, 230))
        if "sections" in L:
            f = _font(LABEL_PX, bold=True)
            for pos, text in g.section_names:
                self._centred_text(p, pos, text, f, SECTION_TEXT)

    def _paint_building_inside(self, p: QPainter, b: _Building) -> None:
        """Room walls (a thin dark line), doors (a gap in the wall: the segment painted over in the
        building's fill) and windows (a thin double line: dark edges, a light core)."""
        if not b.walls.isEmpty():
            p.strokePath(b.walls, self._pen(BUILDING_EDGE, BUILDING_EDGE_WIDTH * 0.5))
        if not b.doors.isEmpty():
            pen = self._pen(BUILDING_FILL, BUILDING_EDGE_WIDTH * 1.1)
            pen.setCapStyle(Qt.PenCapStyle.FlatCap)
            p.strokePath(b.doors, pen)
        if not b.windows.isEmpty():
            outer = self._pen(BUILDING_EDGE, BUILDING_EDGE_WIDTH * 1.5)
            outer.setCapStyle(Qt.PenCapStyle.FlatCap)
            p.strokePath(b.windows, outer)
            inner = self._pen(WINDOW_CORE, BUILDING_EDGE_WIDTH * 0.6)
            inner.setCapStyle(Qt.PenCapStyle.FlatCap)
            p.strokePath(b.windows, inner)

    def _paint_obstacles(self, p: QPainter, items: list[_Obstacle]) -> None:
        """Walls, low stone walls, hedges and fences as lines (:data:`OBSTACLE_STYLE`), then tank
        traps as crosses (a field also gets a thin dashed outline)."""
        for kind, strokes in OBSTACLE_STYLE.items():
            path = QPainterPath()
            for o in items:
                if o.kind == kind:
                    path.addPath(o.path)
            if path.isEmpty():
                continue
            for colour, width, dash in strokes:
                pen = self._pen(colour, width, cap=Qt.PenCapStyle.FlatCap if dash else Qt.PenCapStyle.RoundCap)
                pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                if dash:
                    pen.setDashPattern(dash)
                p.strokePath(path, pen)
        traps = [o for o in items if o.kind == "tank_traps"]
        if traps:
            outline = QPainterPath()
            crosses = QPainterPath()
            for o in traps:
                crosses.addPath(o.crosses)
                if o.field:
                    outline.addPath(o.path)
            if not outline.isEmpty():
                pen = self._pen(TANK_TRAP, 1.6)
                pen.setDashPattern([3.0, 3.0])
                p.strokePath(outline, pen)
            p.strokePath(crosses, self._pen(TANK_TRAP, TANK_TRAP_WIDTH, cap=Qt.PenCapStyle.RoundCap))

    # ------------------------------------------------------------------ small drawing helpers
    @staticmethod
    def _pen(colour: QColor, width: float, *, cap=Qt.PenCapStyle.FlatCap) -> QPen:
        pen = QPen(colour, width)
        pen.setCapStyle(cap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        return pen

    @staticmethod
    def _centred_text(p: QPainter, anchor: QPointF, text: str, font: QFont, colour: QColor) -> None:
        fm = QFontMetricsF(font)
        p.setFont(font)
        p.setPen(colour)
        p.drawText(QPointF(anchor.x() - fm.horizontalAdvance(text) / 2,
                           anchor.y() + (fm.ascent() - fm.descent()) / 2), text)

    @staticmethod
    def _halo_text(p: QPainter, anchor: QPointF, text: str, font: QFont, colour: QColor, halo: QColor) -> None:
        fm = QFontMetricsF(font)
        path = QPainterPath()
        path.addText(QPointF(anchor.x() - fm.horizontalAdvance(text) / 2,
                             anchor.y() + (fm.ascent() - fm.descent()) / 2), font, text)
        pen = QPen(halo, font.pixelSize() * 0.28)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        p.strokePath(path, pen)
        p.fillPath(path, colour)

    @staticmethod
    def _text_rect(anchor: QPointF, text: str, font: QFont) -> QRectF:
        """Bounds of ``text`` centred on ``anchor`` (as :meth:`_centred_text` and :meth:`_halo_text`
        draw it) with room for the halo and antialiasing, in scene units."""
        fm = QFontMetricsF(font)
        w = fm.horizontalAdvance(text)
        h = fm.ascent() + fm.descent()
        grow = font.pixelSize() * 0.3 + 4.0
        return QRectF(anchor.x() - w / 2 - grow, anchor.y() - h / 2 - grow, w + 2 * grow, h + 2 * grow)

    def _label_rect(self, lab: _Label) -> QRectF:
        if lab.rect is None:
            lab.rect = self._text_rect(lab.anchor, lab.text, _font(lab.px, bold=True, italic=lab.italic))
        return lab.rect

    def _paint_bridge(self, p: QPainter, centre: QPointF, angle: float) -> None:
        """A bridge symbol: a deck along ``angle`` (degrees) with flared black parapets."""
        p.save()
        p.translate(centre)
        p.rotate(angle)
        half_l, half_w = 27.0, 12.0
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(BRIDGE_DECK)
        p.drawRect(QRectF(-half_l, -half_w, 2 * half_l, 2 * half_w))
        parapet = QPainterPath()
        for s in (-1, 1):
            parapet.moveTo(-half_l - 7, s * (half_w + 7))
            parapet.lineTo(-half_l, s * half_w)
            parapet.lineTo(half_l, s * half_w)
            parapet.lineTo(half_l + 7, s * (half_w + 7))
        p.strokePath(parapet, self._pen(QColor("#111111"), 3.2, cap=Qt.PenCapStyle.RoundCap))
        p.restore()

# ------------------------------------------------------------------------------------------
# Files
# ------------------------------------------------------------------------------------------
_APP = None


def ensure_app() -> None:
    """Make a Qt application if none exists (fonts need one), headless when there is no display.

    It is a ``QApplication`` (widgets), not a bare ``QGuiApplication``, so that the editor can
    still open windows in the same process later (Qt aborts on widgets without QApplication).
    """
    global _APP
    if QGuiApplication.instance() is None:
        if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from PySide6.QtWidgets import QApplication

        _APP = QApplication([])


_ensure_app = ensure_app


def render_png(hexmap: HexMap, path: str | os.PathLike[str], section: str | None = None,
               px_per_hex: float = 64.0, layers: Iterable[str] | None = None) -> QSize:
    """Render the map (or ``section``) to a PNG; a hex is ``px_per_hex`` pixels across flats.

    Returns the image size. Raises :class:`UnknownSectionError` or ``OSError`` (cannot write).
    """
    return _render_png(hexmap, path, section, px_per_hex, layers)


def _render_png(hexmap, path, section, px_per_hex, layers) -> QSize:
    _ensure_app()
    mp = MapPainter(hexmap, layers)
    rect = mp.scene_rect(section)
    scale = px_per_hex / HEX_HEIGHT
    size = QSize(math.ceil(rect.width() * scale), math.ceil(rect.height() * scale))
    img = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(MARGIN_BG)
    painter = QPainter(img)
    try:
        mp.paint(painter, section=section, scale=scale)
    finally:
        painter.end()
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    if not img.save(buf, "PNG"):
        raise OSError(f"cannot encode PNG file {path}")
    atomic_write_bytes(path, bytes(buf.data()))   # never a truncated picture on a full disk
    return size


def render_svg(hexmap: HexMap, path: str | os.PathLike[str], section: str | None = None,
               layers: Iterable[str] | None = None, px_per_hex: float = 64.0) -> QSize:
    """Render the map (or ``section``) to an SVG file (vector; one scene unit per viewBox unit).

    Returns the nominal size (``px_per_hex`` pixels per hex). Raises :class:`UnknownSectionError`.
    """
    return _render_svg(hexmap, path, section, layers, px_per_hex)


def _render_svg(hexmap, path, section, layers, px_per_hex) -> QSize:
    from PySide6.QtSvg import QSvgGenerator

    _ensure_app()
    mp = MapPainter(hexmap, layers)
    rect = mp.scene_rect(section)
    scale = px_per_hex / HEX_HEIGHT
    size = QSize(math.ceil(rect.width() * scale), math.ceil(rect.height() * scale))
    view = QRectF(0, 0, rect.width(), rect.height())
    gen = QSvgGenerator()
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    gen.setOutputDevice(buf)
    gen.setSize(size)
    gen.setViewBox(view)
    gen.setResolution(96)
    gen.setTitle(mp._title_text(section))
    gen.setDescription("Iron Cross map rendered by ironcross")
    painter = QPainter()
    if not painter.begin(gen):
        raise OSError(f"cannot write SVG file {path}")
    try:
        painter.fillRect(view, MARGIN_BG)
        mp.paint(painter, section=section, scale=1.0)
    finally:
        painter.end()
    atomic_write_bytes(path, bytes(buf.data()))
    return size


def render_file(hexmap: HexMap, path: str | os.PathLike[str], section: str | None = None) -> QSize:
    """Render to ``path`` as PNG or SVG by its extension; raises ValueError for another extension."""
    ext = Path(path).suffix.lower()
    if ext == ".png":
        return render_png(hexmap, path, section)
    if ext == ".svg":
        return render_svg(hexmap, path, section)
    raise ValueError(f"cannot render to {os.fspath(path)!r}: the output must end in .png or .svg")
