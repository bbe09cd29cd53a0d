"""The map's symbols and text, built once: tree crowns, marsh tufts, hatching, tank-trap crosses,
Qt paths of shapely geometries, and the fonts (scene units, centred on the hex centre)."""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QFont, QPainterPath, QPolygonF
from shapely.geometry import Point, Polygon
from shapely.ops import unary_union

from maps.provenance import Provenance
from editor.drawing.hex_scene import _LOCAL_VERTICES
from editor.drawing.map_style import FONT_FAMILY, SCENE_PER_X, SCENE_PER_Y, TANK_TRAP_ARM, TANK_TRAP_STEP


# ------------------------------------------------------------------------------------------
# Symbol templates (scene units, centred on the hex centre), built once
# ------------------------------------------------------------------------------------------
_TREE_R = 13.0
# Tree crown positions per number of symbols; kept below the printed id at the top of the hex.
_TREE_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 10),),
    2: ((-17, 10), (17, 10)),
    3: ((-17, 2), (17, 2), (0, 26)),
    4: ((-17, -1), (17, -1), (-17, 25), (17, 25)),
    5: ((-22, -1), (22, -1), (0, 11), (-22, 25), (22, 25)),
    6: ((-26, 0), (0, 0), (26, 0), (-26, 25), (0, 25), (26, 25)),
}


@lru_cache(maxsize=None)
def _tree_positions(n: int) -> tuple[tuple[float, float], ...]:
    if n in _TREE_LAYOUT:
        return _TREE_LAYOUT[n]
    # 7 or more: a tight cluster of seven (the count is printed beside it)
    return ((0, 12), (-22, 0), (0, -2), (22, 0), (-22, 24), (0, 26), (22, 24))


@lru_cache(maxsize=None)
def _tree_radius(n: int) -> float:
    return _TREE_R if n <= 5 else 11.0


def _marsh_template() -> QPainterPath:
    """Short horizontal marsh strokes with grass tufts, as an open path to stroke."""
    p = QPainterPath()
    for x, y in ((-28, -8), (14, -8), (-12, 12), (28, 12), (-22, 32), (16, 32)):
        half = 11.0
        p.moveTo(x - half, y)
        p.lineTo(x + half, y)
        for dx, h in ((-5, 5.0), (0, 8.0), (5, 5.0)):
            p.moveTo(x + dx, y)
            p.lineTo(x + dx * 1.4, y - h)
    return p


def _hatch_template() -> QPainterPath:
    """Diagonal stripes clipped to the hex at the origin: the 'upper level' half-shading."""
    hexp = Polygon([(x * SCENE_PER_X, y * SCENE_PER_Y) for x, y in _LOCAL_VERTICES])
    stripes = []
    w, gap = 7.0, 16.0
    for i in range(-12, 13):
        o = i * gap
        stripes.append(Polygon([(o - 80, 80), (o - 80 + w, 80), (o + 80 + w, -80), (o + 80, -80)]))
    shape = unary_union(stripes).intersection(hexp)
    return _shapely_path(shape)


def _shapely_path(geom) -> QPainterPath:
    p = QPainterPath()
    p.setFillRule(Qt.FillRule.OddEvenFill)
    polys = getattr(geom, "geoms", [geom])
    for g in polys:
        if g.is_empty or g.geom_type != "Polygon":
            continue
        for ring in (g.exterior, *g.interiors):
            p.addPolygon(QPolygonF([QPointF(x, y) for x, y in ring.coords]))
            p.closeSubpath()
    return p


def _line_path(geom) -> QPainterPath:
    """The lines of a (multi)line string or collection as an open path (points left out)."""
    p = QPainterPath()
    for g in getattr(geom, "geoms", [geom]):
        if g.is_empty:
            continue
        if g.geom_type in ("MultiLineString", "GeometryCollection"):
            p.addPath(_line_path(g))
        elif g.geom_type in ("LineString", "LinearRing"):
            pts = list(g.coords)
            p.moveTo(QPointF(*pts[0]))
            for x, y in pts[1:]:
                p.lineTo(QPointF(x, y))
    return p


_TEMPLATES: dict[str, QPainterPath] = {}


def _tank_trap_crosses(geom, clip) -> QPainterPath:
    """Small crosses (scene units) every :data:`TANK_TRAP_STEP` along a row of tank traps (a
    LineString) or in staggered rows over a field (a Polygon); those outside ``clip`` (None: none) are left
    out, so a clipped picture shows the crosses where the whole one does."""
    pts: list[tuple[float, float]] = []
    if isinstance(geom, Polygon):   # a field: staggered rows, sparser than a row of traps
        minx, miny, maxx, maxy = geom.bounds
        step = 1.6 * TANK_TRAP_STEP
        y, odd = miny + step / 2, False
        while y < maxy:
            x = minx + step / 2 + (step / 2 if odd else 0.0)
            while x < maxx:
                pts.append((x, y))
                x += step
            y += step * 0.8
            odd = not odd
        pts = [q for q in pts if geom.contains(Point(q))]
    else:
        n = max(1, int(geom.length // TANK_TRAP_STEP))
        step = geom.length / n
        pts = [(q.x, q.y) for q in (geom.interpolate(i * step) for i in range(n + 1))]
    if clip is not None:
        pts = [q for q in pts if clip.intersects(Point(q))]
    path = QPainterPath()
    a = TANK_TRAP_ARM
    for x, y in pts:
        _add_segment(path, QPointF(x - a, y - a), QPointF(x + a, y + a))
        _add_segment(path, QPointF(x - a, y + a), QPointF(x + a, y - a))
    return path


def _template(name: str) -> QPainterPath:
    if name not in _TEMPLATES:
        _TEMPLATES[name] = {"marsh": _marsh_template, "hatch": _hatch_template}[name]()
    return _TEMPLATES[name]


@lru_cache(maxsize=None)
def _font(px: int, *, bold: bool = False, italic: bool = False, condensed: bool = False) -> QFont:
    """The map's font (shared: do not change the returned font)."""
    f = QFont(FONT_FAMILY + (" Condensed" if condensed else ""))
    f.setPixelSize(px)
    f.setBold(bold)
    f.setItalic(italic)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return f


def _effective(prov: Provenance | None, default: Provenance | None) -> str | None:
    p = prov or default
    return p.source if p else None


def _add_segment(path: QPainterPath, a: QPointF, b: QPointF) -> None:
    path.moveTo(a)
    path.lineTo(b)
