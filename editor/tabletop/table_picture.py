"""A picture of a map read as a table (:class:`maps.table_map.TableMap`): the areas in inches.

Not the painted map: what a measured rule system sees - hills per level, woods, scattered trees,
marsh, gullies and roads as the bands that count, buildings, obstacles and tank traps, on a grid of
inches (a thin line every 6 inches, labelled every 12), to check that the areas make a recognisable
map::

    python -m editor.tabletop.table_picture maps/data/iron_cross_mapsheet_corrected.json --scale 4 \\
        --section "Map 2" -o table.png
"""

from __future__ import annotations

import argparse
import math
import os
import sys

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPainterPath, QPen, QTransform
import shapely.affinity

from editor.drawing.map_symbols import _line_path, _shapely_path, _tank_trap_crosses
from editor.drawing.map_painter import ensure_app
from maps.table_map import TableMap

__all__ = ["render_table_png", "main"]

_HILL = {1: QColor("#d9bd84"), 2: QColor("#b9904f"), 3: QColor("#9a7036")}
_OBSTACLE_PEN = {"wall": (QColor("#1e1e1e"), 0.35), "low_stone_wall": (QColor("#6b6b66"), 0.3),
                 "hedge": (QColor("#2f7d2a"), 0.45), "fence": (QColor("#6b4424"), 0.18)}


def render_table_png(table: TableMap, path: str | os.PathLike[str], px_per_inch: float = 8.0) -> tuple[int, int]:
    """Draw ``table``'s areas to a PNG at ``px_per_inch``; returns the image size (w, h)."""
    ensure_app()
    minx, miny, maxx, maxy = table.table.bounds
    margin, title_h = 4.0, 5.0
    f = QFont("DejaVu Sans")
    f.setPixelSize(max(10, round(1.6 * px_per_inch)))
    secs = ", ".join(table.sections) if table.sections else "whole map"
    title = (f"{table.hexmap.name} as a table: one hex = {table.scale:g} in across flats ({secs}); "
             f"{maxx - minx:.0f} x {maxy - miny:.0f} in")
    w = max(math.ceil((maxx - minx + 2 * margin) * px_per_inch),
            math.ceil(QFontMetricsF(f).horizontalAdvance(title) + 2 * margin * px_per_inch))
    h = math.ceil((maxy - miny + 2 * margin + title_h) * px_per_inch)
    img = QImage(w, h, QImage.Format.Format_ARGB32)
    img.fill(QColor("#ffffff"))
    p = QPainter(img)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setFont(f)
        p.drawText(QPointF(margin * px_per_inch, 3.2 * px_per_inch), title)
        p.translate(margin * px_per_inch, (margin + title_h) * px_per_inch)
        p.scale(px_per_inch, px_per_inch)
        p.translate(-minx, -miny)
        p.fillPath(_shapely_path(table.table), QColor("#f4ecd6"))
        for a in table.hills:
            lvl = min(a.ground, 3)
            p.fillPath(_shapely_path(a.polygon), _HILL[lvl])
            p.strokePath(_shapely_path(a.polygon), QPen(QColor("#6e4a22"), 0.12))
        p.fillPath(_shapely_path(table.marsh), QColor("#9fcbbd"))
        p.fillPath(_shapely_path(table.gully_area), QColor("#9a6836"))
        p.fillPath(_shapely_path(table.road_area), QColor("#8f8678"))
        p.fillPath(_shapely_path(table.scattered_trees), QColor(120, 190, 100, 110))
        for a in table.woods:
            p.fillPath(_shapely_path(a.polygon), QColor(40, 120, 40, 200))
            p.strokePath(_shapely_path(a.polygon), QPen(QColor("#143d12"), 0.12))
        for a in table.buildings:
            p.fillPath(_shapely_path(a.polygon), QColor("#9b2f24"))
            p.strokePath(_shapely_path(a.polygon), QPen(QColor("#111111"), 0.1))
        for o in table.obstacles:
            colour, width = _OBSTACLE_PEN[o.kind]
            pen = QPen(colour, width)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            if o.kind == "fence":
                pen.setDashPattern([3.0, 2.0])
            p.strokePath(_line_path(o.geometry), pen)
        k = 100.0 / table.scale   # scene units of the map painter (100 per hex) per inch
        for o in table.tank_traps:   # crosses as the map painter spaces them, scaled to inches
            crosses = _tank_trap_crosses(shapely.affinity.scale(o.geometry, k, k, origin=(0, 0)), None)
            p.strokePath(QTransform.fromScale(1 / k, 1 / k).map(crosses), QPen(QColor("#1e1e1e"), 0.1))
            if o.geometry.geom_type == "Polygon":
                p.strokePath(_line_path(o.geometry.boundary), QPen(QColor("#1e1e1e"), 0.08, Qt.PenStyle.DashLine))
        # the inch grid: a line every 6 inches, a label every 12
        grid = QPainterPath()
        x0, y0 = math.floor(minx / 6) * 6, math.floor(miny / 6) * 6
        x = x0
        while x <= maxx:
            grid.moveTo(x, miny)
            grid.lineTo(x, maxy)
            x += 6
        y = y0
        while y <= maxy:
            grid.moveTo(minx, y)
            grid.lineTo(maxx, y)
            y += 6
        p.strokePath(grid, QPen(QColor(40, 40, 120, 90), 0.08))
        p.strokePath(_shapely_path(table.table), QPen(QColor("#2b2116"), 0.25))
    finally:
        p.end()
    _label_grid(img, table, px_per_inch, margin, title_h)
    img.save(str(path))
    return (w, h)


def _label_grid(img: QImage, table: TableMap, ppi: float, margin: float, title_h: float) -> None:
    """Inch labels every 12 inches along the top and left edges of the table."""
    minx, miny, maxx, maxy = table.table.bounds
    p = QPainter(img)
    try:
        f = QFont("DejaVu Sans")
        f.setPixelSize(max(9, round(1.4 * ppi)))
        p.setFont(f)
        p.setPen(QColor(40, 40, 120))

        def dev(x: float, y: float) -> QPointF:
            return QPointF((x - minx + margin) * ppi, (y - miny + margin + title_h) * ppi)

        x = math.ceil(minx / 12) * 12
        while x <= maxx:
            q = dev(x, miny)
            p.drawText(QRectF(q.x() - 30, q.y() - 1.9 * ppi, 60, 1.8 * ppi), Qt.AlignmentFlag.AlignCenter, f"{x:g}\"")
            x += 12
        y = math.ceil(miny / 12) * 12
        while y <= maxy:
            q = dev(minx, y)
            p.drawText(QRectF(0, q.y() - ppi, q.x() - 0.3 * ppi, 2 * ppi),
                       int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), f"{y:g}\"")
            y += 12
    finally:
        p.end()


def main(argv: list[str] | None = None) -> int:
    from maps.document_file import DocumentError
    from maps.mapfile import load_map

    ap = argparse.ArgumentParser(prog="python -m editor.tabletop.table_picture", description=__doc__.split("\n\n")[0])
    ap.add_argument("map")
    ap.add_argument("--scale", type=float, default=4.0, help="inches per hex across flats (default 4)")
    ap.add_argument("--section", action="append", help="a section of the map (repeatable; default: the whole map)")
    ap.add_argument("--px-per-inch", type=float, default=8.0)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    try:
        table = TableMap.from_map(load_map(args.map), args.scale, args.section)
    except DocumentError as e:
        print(e, file=sys.stderr)
        return 1
    except ValueError as e:
        print(f"{args.map}: {e}", file=sys.stderr)
        return 1
    w, h = render_table_png(table, args.output, args.px_per_inch)
    print(f"{args.output}: {w} x {h} px")
    return 0


if __name__ == "__main__":
    sys.exit(main())
