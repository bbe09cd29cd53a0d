"""The map's margins: the title line (map name, section, source) and the legend that explains
every convention the map uses, with its swatches."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPolygonF, QTransform
from shapely.geometry import LineString
from editor.drawing.hex_scene import _LOCAL_VERTICES
from editor.drawing.map_geometry import _Geometry, _Obstacle
from editor.drawing.map_style import (
    BUILDING_EDGE,
    BUILDING_FILL,
    CLEAR,
    GRID,
    GULLY_EDGE,
    GULLY_EDGE_WIDTH,
    GULLY_FILL,
    GULLY_WIDTH,
    HEX_HEIGHT,
    LABEL_PX,
    LEGEND_PX,
    LEVEL_COLOURS,
    MARGIN,
    MARSH,
    MARSH_STROKE,
    OBSTACLE_STYLE,
    ROAD_EDGE,
    ROAD_EDGE_WIDTH,
    ROAD_FILL,
    ROAD_WIDTH,
    SCENE_PER_X,
    SCENE_PER_Y,
    SECTION_LINE,
    TITLE_PX,
    TREE_EDGE,
    TREE_FILL,
    TREE_LIGHT,
)
from editor.drawing.map_symbols import _font, _tank_trap_crosses, _template


class MapMargins:
    """The title and legend half of :class:`editor.drawing.map_painter.MapPainter` (drawn
    from ``self.hexmap`` and the painter's geometry)."""

    # ------------------------------------------------------------------ title and legend
    def _title_text(self, section: str | None) -> str:
        m = self.hexmap
        c0, c1 = self.section_columns(section)
        where = f"{section} (columns {c0:02d}-{c1:02d})" if section else (
            f"columns {m.first_column:02d}-{m.last_column:02d}, rows {m.first_row:02d}-{m.last_row:02d}")
        return f"{m.name} \u2014 {where}"

    def _paint_title(self, p: QPainter, g: _Geometry, section: str | None) -> None:
        r = self.scene_rect(section)
        title = self._title_text(section)
        avail = self._legend_width(g)
        note = "reconstructed layout" if self._map_source() == "reconstructed" else ""
        f2 = _font(LEGEND_PX + 2, italic=True)
        fm2 = QFontMetricsF(f2)
        if note:
            avail -= fm2.horizontalAdvance(note) + 20
        px = TITLE_PX
        f = _font(px, bold=True)
        while px > 16 and QFontMetricsF(f).horizontalAdvance(title) > avail:  # shrink to fit
            px -= 2
            f = _font(px, bold=True)
        fm = QFontMetricsF(f)
        title = fm.elidedText(title, Qt.TextElideMode.ElideRight, max(avail, 50.0))
        base = r.top() + MARGIN * 0.5 + QFontMetricsF(_font(TITLE_PX, bold=True)).ascent()
        p.setFont(f)
        p.setPen(QColor("#1c1610"))
        p.drawText(QPointF(g.map_rect.left(), base), title)
        if note:
            p.setFont(f2)
            p.setPen(QColor("#7a1f1f"))
            p.drawText(QPointF(g.map_rect.left() + self._legend_width(g) - fm2.horizontalAdvance(note), base), note)

    def _map_source(self) -> str | None:
        prov = self.hexmap.doc.provenance
        return prov.source if prov else None

    def _legend_entries(self, g: _Geometry) -> list[tuple[str, str]]:
        L, present = self.layers, g.present
        out: list[tuple[str, str]] = [("clear", "clear")]
        if "levels" in L:
            for lvl in sorted(x for x in g.level_keys if x > 0):
                out.append((f"level{lvl}", f"level {lvl} hill"))
            if g.hatch_keys:
                out.append(("upper", "two elevations (10.34)"))
        if "marshes" in L and "marsh" in present:
            out.append(("marsh", "marsh"))
        if "trees" in L and "trees" in present:
            out.append(("trees", "tree symbol (2+ = woods)"))
        if "roads" in L and "road" in present:
            out.append(("road", "road"))
            if g.bridges:
                out.append(("bridge", "bridge"))
        if "gullies" in L and "gully" in present:
            out.append(("gully", "gully"))
        if "buildings" in L and g.buildings:
            out.append(("building", "building symbol"))
        if "obstacles" in L:
            kinds = {o.kind for o in g.obstacles}
            for key, text in (("wall", "wall"), ("low_stone_wall", "low stone wall"), ("hedge", "hedge"),
                              ("fence", "fence"), ("tank_traps", "tank traps")):
                if key in kinds:
                    out.append((key, text))
        if "sections" in L and not g.sections.isEmpty():
            out.append(("section", "section boundary column (in both)"))
        if "provenance" in L:
            if "rulebook_hex" in present:
                out.append(("rulebook_hex", "hex stated by the rulebook"))
            if "reconstructed_hex" in present:
                out.append(("reconstructed_hex", "hex reconstructed"))
            if "dashed_building" in present:
                out.append(("dashed", "dashed outline: reconstructed"))
            if "solid_building" in present and "dashed_building" in present:
                out.append(("solid", "solid outline: rulebook / designer"))
            if "italic_label" in present:
                out.append(("italic", "italic name: reconstructed"))
        return out

    _SWATCH = 34.0
    _ENTRY_GAP = 30.0

    def _legend_layout(self, section: str | None) -> tuple[list[tuple[str, str, QPointF]], float]:
        """Entries with their top-left positions (relative to the legend's top-left), and height."""
        g = self._geometry(section)
        width = self._legend_width(g)
        fm = QFontMetricsF(_font(LEGEND_PX))
        row_h = self._SWATCH + 12
        x = y = 0.0
        out = []
        for key, text in self._legend_entries(g):
            w = self._SWATCH + 8 + fm.horizontalAdvance(text)
            if x > 0 and x + w > width:
                x, y = 0.0, y + row_h
            out.append((key, text, QPointF(x, y)))
            x += w + self._ENTRY_GAP
        rows_h = y + row_h
        return out, rows_h

    def _legend_height(self, section: str | None) -> float:
        _, h = self._legend_layout(section)
        return h + self._note_height(self._geometry(section)) + 18

    def _paint_legend(self, p: QPainter, g: _Geometry, section: str | None) -> None:
        entries, rows_h = self._legend_layout(section)
        left = g.map_rect.left()
        top = g.map_rect.bottom() + MARGIN + 10
        f = _font(LEGEND_PX)
        fm = QFontMetricsF(f)
        S = self._SWATCH
        for key, text, off in entries:
            sw = QRectF(left + off.x(), top + off.y(), S, S)
            self._paint_swatch(p, key, sw)
            p.setFont(f)
            p.setPen(QColor("#1c1610"))
            p.drawText(QPointF(sw.right() + 8, sw.center().y() + (fm.ascent() - fm.descent()) / 2), text)
        note = self._note_text()
        if note:
            f2 = _font(LEGEND_PX - 1, italic=True)
            p.setFont(f2)
            p.setPen(QColor("#7a1f1f"))
            box = QRectF(left, top + rows_h, self._legend_width(g), 10_000)
            p.drawText(box, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap), note)

    def _note_text(self) -> str:
        """The legend's provenance note for a reconstructed map ("" otherwise)."""
        if self._map_source() != "reconstructed":
            return ""
        prov = self.hexmap.doc.provenance
        if prov is not None and prov.rationale:
            return f"Reconstructed layout: {prov.rationale}."
        return "Reconstructed layout: the rulebook does not print this map."

    def _note_height(self, g: _Geometry) -> float:
        note = self._note_text()
        if not note:
            return 0.0
        fm = QFontMetricsF(_font(LEGEND_PX - 1, italic=True))
        flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
        return fm.boundingRect(QRectF(0, 0, self._legend_width(g), 10_000), flags, note).height()

    @staticmethod
    def _legend_width(g: _Geometry) -> float:
        return max(g.map_rect.width(), 600.0)

    def _paint_swatch(self, p: QPainter, key: str, r: QRectF) -> None:
        p.save()
        c = r.center()
        # a small flat-topped hex as the swatch shape (from the lattice, scaled down)
        s = r.height() / HEX_HEIGHT
        hexpoly = QPolygonF([QPointF(c.x() + x * SCENE_PER_X * s * 0.92, c.y() + y * SCENE_PER_Y * s * 0.92)
                             for x, y in _LOCAL_VERTICES])
        hexpath = QPainterPath()
        hexpath.addPolygon(hexpoly)
        hexpath.closeSubpath()
        base = CLEAR
        if key.startswith("level"):
            base = LEVEL_COLOURS[min(int(key[5:]), 4)]
        elif key == "marsh":
            base = MARSH
        elif key == "upper":
            base = LEVEL_COLOURS[1]
        p.fillPath(hexpath, base)
        p.setClipPath(hexpath)
        local = QTransform().translate(c.x(), c.y()).scale(s * 0.92, s * 0.92)
        if key == "upper":
            p.fillPath(local.map(_template("hatch")), LEVEL_COLOURS[2])
        elif key == "marsh":
            p.strokePath(local.map(_template("marsh")), self._pen(MARSH_STROKE, 1.6, cap=Qt.PenCapStyle.RoundCap))
        elif key == "trees":
            p.setPen(self._pen(TREE_EDGE, 1.5))
            p.setBrush(TREE_FILL)
            p.drawEllipse(c, 9, 9)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(TREE_LIGHT)
            p.drawEllipse(QPointF(c.x() - 3, c.y() - 3), 3.2, 3.2)
        elif key in ("road", "gully", "bridge"):
            line = QPainterPath()
            line.moveTo(r.left() - 4, c.y())
            line.lineTo(r.right() + 4, c.y())
            if key == "gully":
                p.strokePath(line, self._pen(GULLY_EDGE, GULLY_WIDTH * s))
                p.strokePath(line, self._pen(GULLY_FILL, (GULLY_WIDTH - 2 * GULLY_EDGE_WIDTH) * s))
            else:
                if key == "bridge":
                    vline = QPainterPath()
                    vline.moveTo(c.x(), r.top() - 4)
                    vline.lineTo(c.x(), r.bottom() + 4)
                    p.strokePath(vline, self._pen(GULLY_EDGE, GULLY_WIDTH * s))
                    p.strokePath(vline, self._pen(GULLY_FILL, (GULLY_WIDTH - 2 * GULLY_EDGE_WIDTH) * s))
                p.strokePath(line, self._pen(ROAD_EDGE, ROAD_WIDTH * s))
                p.strokePath(line, self._pen(ROAD_FILL, (ROAD_WIDTH - 2 * ROAD_EDGE_WIDTH) * s))
                if key == "bridge":
                    p.setClipping(False)
                    p.save()
                    p.translate(c)
                    p.scale(s, s)
                    p.translate(-c)
                    self._paint_bridge(p, c, 0.0)
                    p.restore()
        elif key in OBSTACLE_STYLE or key == "tank_traps":
            p.setClipping(False)
            line = QPainterPath()
            line.moveTo(r.left() + 2, c.y())
            line.lineTo(r.right() - 2, c.y())
            item = _Obstacle(key, line, _tank_trap_crosses(LineString([(r.left() + 4, c.y()), (r.right() - 4, c.y())]), None)
                             if key == "tank_traps" else QPainterPath(), QRectF(r))
            self._paint_obstacles(p, [item])
        elif key in ("building", "dashed", "solid"):
            pen = self._pen(BUILDING_EDGE, 1.8)
            if key == "dashed":
                pen.setDashPattern([2.5, 1.5])
            p.setPen(pen)
            p.setBrush(BUILDING_FILL)
            p.drawRect(QRectF(c.x() - 9, c.y() - 7, 18, 14))
        elif key == "rulebook_hex":
            p.fillPath(local.map(self._diamond(QPointF(0, 0), 40)), QColor("#111111"))
        elif key == "reconstructed_hex":
            p.strokePath(local.map(self._diamond(QPointF(0, 0), 40)), self._pen(QColor("#111111"), 1.5))
        elif key == "italic":
            p.setClipping(False)
            self._halo_text(p, c, "K", _font(int(LABEL_PX * 0.8), bold=True, italic=True),
                            QColor("#111111"), QColor(255, 255, 255))
        elif key == "section":
            p.setClipping(False)
            line = QPainterPath()
            for dx in (-0.5, 0.5):
                line.moveTo(c.x() + dx * r.width() * 0.5, r.top())
                line.lineTo(c.x() + dx * r.width() * 0.5, r.bottom())
            p.strokePath(line, self._pen(SECTION_LINE, 3.0))
        p.setClipping(False)
        p.strokePath(hexpath, self._pen(GRID, 1.2))
        p.restore()

    @staticmethod
    def _diamond(c: QPointF, size: float) -> QPainterPath:
        d = QPainterPath()
        h = size / 2
        d.moveTo(c.x(), c.y() - h)
        d.lineTo(c.x() + h * 0.7, c.y())
        d.lineTo(c.x(), c.y() + h)
        d.lineTo(c.x() - h * 0.7, c.y())
        d.closeSubpath()
        return d
