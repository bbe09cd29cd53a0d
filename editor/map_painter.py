"""Draw a map as an SPI-style hex map with QPainter: one renderer for the editor, PNG and SVG.

:class:`MapPainter` paints a :class:`maps.hexmap.HexMap` (or one named section of it) onto any
``QPainter``: a ``QImage`` (:func:`render_png`), a ``QSvgGenerator`` (:func:`render_svg`) or a
``QGraphicsView``'s scene (the editor).

**Scene coordinates.** Everything is drawn in one fixed scene coordinate system derived from the
integer lattice of :mod:`maps.hexgrid` by the affine map :func:`lattice_to_scene`:
``x_scene = X * SCENE_PER_X``, ``y_scene = Y * SCENE_PER_Y`` with ``SCENE_PER_Y = 50`` and
``SCENE_PER_X = 50 * X_SCALE_M / Y_SCALE_M``, so hexes are true regular hexagons, a hex is
:data:`HEX_HEIGHT` = 100 scene units across flats (1 scene unit = 0.1 m) and scene positions do
not depend on the section drawn. Hex corners come from :func:`maps.hexgrid.vertices` (integers)
mapped by that transform, so neighbouring hexes share bit-identical corners; nothing here
recomputes a vertex with trigonometry. :func:`hex_at_scene` maps a scene point back to its hex.

**Layers** (:data:`LAYERS`) can be switched on and off: the hex ``grid``, printed ``ids``,
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
    from editor.map_painter import MapPainter, render_png

    render_png(load_map("maps/data/sample_village.json"), "village.png", section="East")

    mp = MapPainter(hexmap, layers=set(LAYERS) - {"title", "legend"})
    mp.paint(painter)                              # scene coordinates (QGraphicsView)
    mp.paint(painter, target_rect=QRectF(0, 0, 800, 600), section="Map 2")   # fit into a rect
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from PySide6.QtCore import QBuffer, QIODevice, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QGuiApplication,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QTransform,
)
import shapely
import shapely.affinity
from shapely.geometry import LinearRing, LineString, Point, Polygon
from shapely.ops import polylabel, unary_union

from maps import hexgrid
from maps.document_file import atomic_write_bytes
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.model import TankTraps
from maps.provenance import Provenance

__all__ = [
    "LAYERS",
    "HEX_HEIGHT",
    "SCENE_PER_X",
    "SCENE_PER_Y",
    "MapPainter",
    "UnknownSectionError",
    "lattice_to_scene",
    "scene_to_lattice",
    "hex_at_scene",
    "hex_centre_scene",
    "render_png",
    "render_svg",
    "render_file",
]

#: Every layer a :class:`MapPainter` can draw, in drawing order of their main items.
LAYERS: tuple[str, ...] = (
    "levels", "marshes", "grid", "gullies", "roads", "trees", "buildings", "obstacles", "ids", "labels",
    "sections", "provenance", "title", "legend",
)

#: Scene units per lattice unit (Y: 5 m; X: 5/sqrt(3) m), so that hexes are regular.
SCENE_PER_Y: float = 50.0
SCENE_PER_X: float = SCENE_PER_Y * hexgrid.X_SCALE_M / hexgrid.Y_SCALE_M
#: A hex is this many scene units across flats (10 m, rule 2.1).
HEX_HEIGHT: float = 2 * SCENE_PER_Y
#: Corner-to-corner width of a hex in scene units.
HEX_WIDTH: float = 4 * SCENE_PER_X

# ------------------------------------------------------------------------------------------
# Colours and sizes (scene units: a hex is 100 across flats)
# ------------------------------------------------------------------------------------------
CLEAR = QColor("#f1e4c3")          # pale buff
LEVEL_COLOURS = {1: QColor("#dcbf86"), 2: QColor("#c09658"), 3: QColor("#a2753c"), 4: QColor("#86592a")}
CONTOUR = QColor("#6e4a22")
MARSH = QColor("#b3d5c9")
MARSH_STROKE = QColor("#2b6c78")
GRID = QColor("#5b5042")
GULLY_EDGE = QColor("#5a3818")
GULLY_FILL = QColor("#9a6836")
ROAD_EDGE = QColor("#4d453c")
ROAD_FILL = QColor("#b9ad98")
BRIDGE_DECK = QColor("#e0d6c2")
TREE_FILL = QColor("#4b9a3f")
TREE_LIGHT = QColor("#86c46c")
TREE_EDGE = QColor("#1d4a19")
BUILDING_FILL = QColor("#9b2f24")
#: Linear obstacles (drawn in this order of kinds): (colour, width, dash pattern or None) strokes,
#: the first one underneath: a wall solid dark, a low stone wall dark with a dotted light core, a
#: hedge green, a fence dashed brown.
OBSTACLE_STYLE: dict[str, tuple[tuple[QColor, float, list[float] | None], ...]] = {
    "wall": ((QColor("#1e1e1e"), 7.0, None),),
    "low_stone_wall": ((QColor("#1e1e1e"), 5.5, None), (QColor("#c9c4b6"), 2.6, [1.0, 1.0])),
    "hedge": ((QColor("#1d4a19"), 10.0, None), (QColor("#4b9a3f"), 6.0, None)),
    "fence": ((QColor("#6b4424"), 3.2, [3.0, 1.6]),),
}
TANK_TRAP = QColor("#1e1e1e")
#: Scene units between two crosses of a row of tank traps, and half the arm of a cross.
TANK_TRAP_STEP = 14.0
TANK_TRAP_ARM = 4.5
TANK_TRAP_WIDTH = 2.2
BUILDING_EDGE = QColor("#111111")
#: The light core of a window's double line.
WINDOW_CORE = QColor("#e8eef2")
ID_COLOUR = QColor("#3d352b")
SECTION_LINE = QColor(42, 42, 88, 190)
SECTION_TEXT = QColor("#2a2a58")
MARGIN_BG = QColor("#fbf7ec")

GRID_WIDTH = 1.6
FRAME_WIDTH = 4.0
SECTION_WIDTH = 4.5
CONTOUR_WIDTH = 3.5
GULLY_WIDTH = 30.0
GULLY_EDGE_WIDTH = 4.0
ROAD_WIDTH = 15.0
ROAD_EDGE_WIDTH = 3.0
TREE_EDGE_WIDTH = 2.2
BUILDING_EDGE_WIDTH = 2.6

ID_PX = 15
LABEL_PX = 26
BUILDING_LABEL_PX = 22
TITLE_PX = 36
LEGEND_PX = 18
MARGIN = 24.0          # around the map inside the scene rect
TITLE_H = 60.0
FONT_FAMILY = "DejaVu Sans"


class UnknownSectionError(KeyError):
    """The map has no section of that name (the message lists the sections it has)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown section"


# ------------------------------------------------------------------------------------------
# Lattice <-> scene
# ------------------------------------------------------------------------------------------
def lattice_to_scene() -> QTransform:
    """The affine transform from lattice map units to scene units (a pure scale)."""
    return QTransform.fromScale(SCENE_PER_X, SCENE_PER_Y)


def scene_to_lattice(x: float, y: float) -> tuple[float, float]:
    """Lattice map units of the scene point (x, y)."""
    return (x / SCENE_PER_X, y / SCENE_PER_Y)


def hex_at_scene(x: float, y: float) -> Hex:
    """The hex containing the scene point (x, y) (it may lie off any particular map)."""
    return hexgrid.point_to_hex(*scene_to_lattice(x, y))


def _pt(x: float, y: float) -> QPointF:
    return QPointF(x * SCENE_PER_X, y * SCENE_PER_Y)


def _xy(x: float, y: float) -> tuple[float, float]:
    return (x * SCENE_PER_X, y * SCENE_PER_Y)


def hex_centre_scene(h: Hex) -> QPointF:
    """The centre of hex ``h`` in scene units."""
    return _pt(*hexgrid.centre(h))


def _hex_polygon(h: Hex) -> QPolygonF:
    return QPolygonF([_pt(x, y) for x, y in hexgrid.vertices(h)])


# Offsets of the vertices of a hex from its centre, in lattice units (from hexgrid itself).
_ORIGIN = Hex(0, 0)
_LOCAL_VERTICES: tuple[tuple[int, int], ...] = tuple(
    (x - hexgrid.centre(_ORIGIN)[0], y - hexgrid.centre(_ORIGIN)[1]) for x, y in hexgrid.vertices(_ORIGIN))


@lru_cache(maxsize=None)
def _neighbour_offsets(parity: int) -> dict[int, tuple[int, int]]:
    """(column, row) offsets of the neighbour across each hexside of a hex in a column of
    ``parity`` (0 even, 1 odd), from :func:`maps.hexgrid.neighbour`."""
    h = Hex(2 + parity, 2)
    return {side: (nb.col - h.col, nb.row - h.row)
            for side in hexgrid.HEXSIDES for nb in [hexgrid.neighbour(h, side)]}


def _side_vertices(h: Hex, side: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two lattice vertices of hexside ``side`` (1 = top, clockwise) of ``h``."""
    v = hexgrid.vertices(h)  # clockwise from the right vertex: R, LR, LL, L, UL, UR
    return v[(side + 3) % 6], v[(side + 4) % 6]


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


# ------------------------------------------------------------------------------------------
# Geometry of one column range, built once and cached (the per-hex data in blocks of hexes)
# ------------------------------------------------------------------------------------------
@dataclass
class _Building:
    path: QPainterPath
    label: str | None
    anchor: QPointF
    dashed: bool
    small: bool
    rect: QRectF = field(default_factory=QRectF)   # bounds the outline and the number (scene units)
    #: room walls, doors and windows (20 mm seed 003, "Infantry Moving and Firing in Buildings"),
    #: scene units: walls a thin line, a door a gap in the wall, a window a thin double line
    walls: QPainterPath = field(default_factory=QPainterPath)
    doors: QPainterPath = field(default_factory=QPainterPath)
    windows: QPainterPath = field(default_factory=QPainterPath)


@dataclass
class _Obstacle:
    """A linear obstacle or tank traps as drawn: ``kind`` (an obstacle kind or ``"tank_traps"``),
    its line (or a field's outline) clipped to the map, the crosses of tank traps, and ``rect``
    (scene units) bounding the drawing."""

    kind: str
    path: QPainterPath
    crosses: QPainterPath
    rect: QRectF
    field: bool = False


@dataclass
class _Label:
    text: str
    anchor: QPointF
    italic: bool
    px: int = LABEL_PX
    rect: QRectF | None = None   # bounds of the text and its halo once placed (scene units)


#: Hexes per side of a drawing block: the per-hex drawing data is kept per block of BLOCK x BLOCK
#: hexes, so that an edit rebuilds a few blocks and a paint joins only the blocks in view.
BLOCK = 4
#: Scene units a hex's drawing may reach beyond its hexagon's bounding box (contour and grid
#: strokes on its sides, text antialiasing); a block's rect is its hexes' box grown by this.
BLOCK_MARGIN = 8.0


@dataclass
class _Geometry:
    outline: QPainterPath
    map_rect: QRectF
    gully_edge: QPainterPath = field(default_factory=QPainterPath)
    gully_fill: QPainterPath = field(default_factory=QPainterPath)
    road_edge: QPainterPath = field(default_factory=QPainterPath)
    road_fill: QPainterPath = field(default_factory=QPainterPath)
    bridges: list[tuple[QPointF, float]] = field(default_factory=list)
    buildings: list[_Building] = field(default_factory=list)
    obstacles: list[_Obstacle] = field(default_factory=list)
    labels: list[_Label] = field(default_factory=list)
    sections: QPainterPath = field(default_factory=QPainterPath)
    section_names: list[tuple[QPointF, str]] = field(default_factory=list)
    #: what the blocks hold, for the legend: levels drawn, upper levels hatched, symbols present
    level_keys: list[int] = field(default_factory=list)
    hatch_keys: list[int] = field(default_factory=list)
    present: set[str] = field(default_factory=set)
    # what the layers above are built from, kept for incremental updates
    clip: object = None
    c0: int = 0
    c1: int = -1
    #: per-hex drawing data by block key (col // BLOCK, row // BLOCK), in drawing order
    blocks: dict[tuple[int, int], "_Block"] = field(default_factory=dict)
    path_present: set[str] = field(default_factory=set)
    label_present: set[str] = field(default_factory=set)
    building_cache: dict[str, tuple[object, _Building]] = field(default_factory=dict)
    obstacle_cache: dict[str, tuple[object, _Obstacle]] = field(default_factory=dict)
    inputs: dict[str, object] = field(default_factory=dict)


@dataclass
class _Block:
    """The per-hex drawing data of a block of up to BLOCK x BLOCK hexes (rebuilt alone when a hex in
    or beside it changes). ``rect`` (scene units) bounds everything the block draws."""

    rect: QRectF
    grid: QPainterPath = field(default_factory=QPainterPath)
    levels: dict[int, QPainterPath] = field(default_factory=dict)
    hatches: dict[int, QPainterPath] = field(default_factory=dict)
    contours: QPainterPath = field(default_factory=QPainterPath)
    marsh: QPainterPath = field(default_factory=QPainterPath)
    marsh_strokes: QPainterPath = field(default_factory=QPainterPath)
    trees: QPainterPath = field(default_factory=QPainterPath)
    tree_lights: QPainterPath = field(default_factory=QPainterPath)
    tree_counts: list[tuple[QPointF, int]] = field(default_factory=list)
    #: (baseline point, id, outline path for a halo or None)
    ids: list[tuple[QPointF, str, QPainterPath | None]] = field(default_factory=list)
    rulebook_marks: QPainterPath = field(default_factory=QPainterPath)
    reconstructed_marks: QPainterPath = field(default_factory=QPainterPath)
    present: set[str] = field(default_factory=set)


def _hex_rect(h: Hex, grow: float = 0.0) -> QRectF:
    """The bounding box of hex ``h`` in scene units, grown by ``grow`` on every side."""
    cx, cy = hexgrid.centre(h)
    w, hh = HEX_WIDTH / 2 + grow, HEX_HEIGHT / 2 + grow
    return QRectF(cx * SCENE_PER_X - w, cy * SCENE_PER_Y - hh, 2 * w, 2 * hh)


def _add_segment(path: QPainterPath, a: QPointF, b: QPointF) -> None:
    path.moveTo(a)
    path.lineTo(b)


class MapPainter:
    """Paints a :class:`HexMap` (or one section) onto a ``QPainter``.

    ``layers`` is an iterable of names from :data:`LAYERS` (default: all). Geometry is built
    lazily per section and cached; after the map changes call :meth:`update_map` (rebuilds what
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
        if "ids" in L:
            p.setPen(ID_COLOUR)
            p.setFont(_font(ID_PX, condensed=True))
            halo = QPen(QColor(241, 228, 195, 225), ID_PX * 0.3)
            halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            for b in blocks:
                for at, text, path in b.ids:
                    if not near(at):
                        continue
                    if path is not None:  # on a road, gully or building: a light halo keeps the id legible
                        p.strokePath(path, halo)
                        p.fillPath(path, ID_COLOUR)
                    else:
                        p.drawText(at, text)
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

    # ------------------------------------------------------------------ geometry
    def _geometry(self, section: str | None) -> _Geometry:
        cols = self.section_columns(section)
        g = self._cache.get(cols)
        if g is None:
            g = self._build(*cols)
            self._cache[cols] = g
        return g

    def _build(self, c0: int, c1: int) -> _Geometry:
        m = self.hexmap
        r0, r1 = m.first_row, m.last_row
        inside = [Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]

        # outline: the union of the hex polygons, exact on the lattice, then scaled; a block of
        # columns and rows has no holes, so the outer ring of its edge hexes is its outline
        edge = [h for h in inside if h.col in (c0, c1) or h.row in (r0, r1)]
        union = Polygon(unary_union([hexgrid.hex_polygon(h) for h in edge]).exterior)
        clip = shapely.affinity.scale(union, SCENE_PER_X, SCENE_PER_Y, origin=(0, 0))
        outline = _shapely_path(clip)
        g = _Geometry(outline=outline, map_rect=outline.boundingRect())
        g.clip, g.c0, g.c1 = clip, c0, c1

        busy = self._busy_hexes()
        for key in self._block_keys(g):
            g.blocks[key] = self._build_block(g, key, busy)
        self._build_paths(g)
        self._build_buildings(g)
        self._build_obstacles(g)
        self._build_labels(g)
        self._build_sections(g)
        g.inputs = self._inputs()
        self._summarise(g)
        return g

    # -- incremental rebuilding: the parts of a geometry and what each depends on
    def _inputs(self) -> dict[str, object]:
        doc = self.hexmap.doc
        return {k: getattr(doc, k) for k in ("hexes", "roads", "gullies", "buildings", "features", "obstacles",
                                             "tank_traps")}

    def _busy_hexes(self, m: HexMap | None = None) -> set[Hex]:
        """Hexes on a road, gully or building (their ids get a halo)."""
        m = m or self.hexmap
        return m.road_hexes | m.gully_hexes | {h for hs in m.building_hexes.values() for h in hs}

    def _block_keys(self, g: _Geometry) -> list[tuple[int, int]]:
        """The keys of the blocks of the geometry's hexes, in drawing order."""
        m = self.hexmap
        return [(bc, br) for bc in range(g.c0 // BLOCK, g.c1 // BLOCK + 1)
                for br in range(m.first_row // BLOCK, m.last_row // BLOCK + 1)]

    @staticmethod
    def _blocks_in(g: _Geometry, exposed: QRectF | None) -> list[_Block]:
        """The blocks whose drawing reaches into ``exposed`` (None: all), in drawing order."""
        if exposed is None:
            return list(g.blocks.values())
        # the columns and rows of the hexes whose box (grown by BLOCK_MARGIN) meets the rect
        reach_x, reach_y = HEX_WIDTH / 2 + BLOCK_MARGIN, HEX_HEIGHT + BLOCK_MARGIN
        c0 = math.floor((exposed.left() - reach_x) / (3 * SCENE_PER_X))
        c1 = math.ceil((exposed.right() + reach_x) / (3 * SCENE_PER_X))
        r0 = math.floor((exposed.top() - reach_y) / (2 * SCENE_PER_Y))
        r1 = math.ceil((exposed.bottom() + reach_y) / (2 * SCENE_PER_Y))
        out = []
        for bc in range(c0 // BLOCK, c1 // BLOCK + 1):
            for br in range(r0 // BLOCK, r1 // BLOCK + 1):
                b = g.blocks.get((bc, br))
                if b is not None and b.rect.intersects(exposed):
                    out.append(b)
        return out

    def _build_block(self, g: _Geometry, key: tuple[int, int], busy: set[Hex]) -> _Block:
        """The per-hex drawing data of block ``key``: grid, levels, contours, marsh, trees, ids, marks."""
        m = self.hexmap
        map_prov = m.doc.provenance
        records = getattr(m, "_records", None)
        c0, c1, r0, r1 = g.c0, g.c1, m.first_row, m.last_row
        cs = range(max(c0, key[0] * BLOCK), min(c1, key[0] * BLOCK + BLOCK - 1) + 1)
        rs = range(max(r0, key[1] * BLOCK), min(r1, key[1] * BLOCK + BLOCK - 1) + 1)
        rect = QRectF()
        for h in (Hex(cs[0], rs[0]), Hex(cs[-1], rs[-1]), Hex(min(cs[0] + 1, cs[-1]), rs[0]),
                  Hex(max(cs[-1] - 1, cs[0]), rs[-1])):
            rect = rect.united(_hex_rect(h, BLOCK_MARGIN))
        blk = _Block(rect=rect)
        hatch = _template("hatch")
        marsh = _template("marsh")
        id_font = _font(ID_PX, condensed=True)
        fm = QFontMetricsF(id_font)
        asc = fm.ascent()
        for c in cs:
            offsets = _neighbour_offsets(c & 1)
            for r in rs:
                h = Hex(c, r)
                pts = [_pt(x, y) for x, y in hexgrid.vertices(h)]
                # the grid: each hexside once, drawn by the hex above / left of it when both are drawn
                rim = c in (c0, c1) or r in (r0, r1)
                for side in hexgrid.HEXSIDES:
                    if side > 3:
                        dc, dr = offsets[side]
                        if not rim or (c0 <= c + dc <= c1 and r0 <= r + dr <= r1):
                            continue
                    _add_segment(blk.grid, pts[(side + 3) % 6], pts[(side + 4) % 6])
                rec = records.get(h) if records is not None else m.record(h)  # listed hexes only
                cx, cy = hexgrid.centre(h)
                centre = _pt(cx, cy)
                at = QPointF(centre.x() - fm.horizontalAdvance(h.id) / 2, centre.y() - HEX_HEIGHT / 2 + 3.0 + asc)
                halo = None
                if h in busy:
                    halo = QPainterPath()
                    halo.addText(at, id_font, h.id)
                blk.ids.append((at, h.id, halo))
                if rec is None:
                    continue
                poly = None
                if rec.level > 0:
                    poly = QPolygonF(pts)
                    path = blk.levels.setdefault(rec.level, QPainterPath())
                    path.addPolygon(poly)
                    path.closeSubpath()
                if rec.upper_level is not None and rec.upper_level > rec.level:
                    blk.hatches.setdefault(rec.upper_level, QPainterPath()).addPath(hatch.translated(centre))
                if rec.level > 0:
                    for side in hexgrid.HEXSIDES:
                        dc, dr = offsets[side]
                        nb = Hex(c + dc, r + dr)
                        if m.contains(nb) and m.level(nb) < rec.level:
                            _add_segment(blk.contours, pts[(side + 3) % 6], pts[(side + 4) % 6])
                if rec.terrain == "marsh":
                    blk.present.add("marsh")
                    blk.marsh.addPolygon(poly or QPolygonF(pts))
                    blk.marsh.closeSubpath()
                    blk.marsh_strokes.addPath(marsh.translated(centre))
                if rec.trees > 0:
                    blk.present.add("trees")
                    n = rec.trees
                    rad = _tree_radius(n)
                    for dx, dy in _tree_positions(n):
                        blk.trees.addEllipse(QPointF(centre.x() + dx, centre.y() + dy), rad, rad)
                        blk.tree_lights.addEllipse(QPointF(centre.x() + dx - rad * 0.3, centre.y() + dy - rad * 0.3),
                                                   rad * 0.3, rad * 0.3)
                    if n > 7:
                        blk.tree_counts.append((QPointF(centre.x() + 36, centre.y() - 16), n))
                if rec.provenance is not None:
                    mark = self._diamond(QPointF(centre.x() + 28, centre.y() - HEX_HEIGHT / 2 + 10), 11)
                    if rec.provenance.source == "rulebook":
                        blk.present.add("rulebook_hex")
                        blk.rulebook_marks.addPath(mark)
                    elif rec.provenance.source == "reconstructed" and _effective(None, map_prov) != "reconstructed":
                        blk.present.add("reconstructed_hex")
                        blk.reconstructed_marks.addPath(mark)
        return blk

    def _build_paths(self, g: _Geometry) -> None:
        """Roads, gullies and bridges of the geometry's columns."""
        m = self.hexmap
        c0, c1, clip = g.c0, g.c1, g.clip
        r0, r1 = m.first_row, m.last_row
        near = {Hex(c, r) for c in range(c0 - 1, c1 + 2) for r in range(r0, r1 + 1)}

        def in_range(h: Hex) -> bool:
            return c0 <= h.col <= c1 and r0 <= h.row <= r1

        # roads and gullies: bands centre to centre along the links; a path end on the map's edge
        # runs off it. Bands are polygons (buffered in scene units) clipped to the outline, so
        # every output device (raster, SVG, graphics scene) shows the same shapes.
        def band_lines(links: dict[Hex, set[Hex]], members: set[Hex]) -> list:
            lines = []
            done: set[frozenset[Hex]] = set()
            for a in sorted(links):
                for b in sorted(links[a]):
                    key = frozenset((a, b))
                    if key in done or not (a in near or b in near):
                        continue
                    done.add(key)
                    lines.append(LineString([_xy(*hexgrid.centre(a)), _xy(*hexgrid.centre(b))]))
                if len(links[a]) == 1 and in_range(a) and self._on_edge(a):
                    (b,) = links[a]
                    ca, cb = hexgrid.centre(a), hexgrid.centre(b)
                    lines.append(LineString([_xy(*ca), _xy(2 * ca[0] - cb[0], 2 * ca[1] - cb[1])]))
            for h in sorted(members):
                if in_range(h) and h not in links:  # a one-hex path: a dot
                    lines.append(Point(_xy(*hexgrid.centre(h))))
            return lines

        g.gully_edge, g.gully_fill = QPainterPath(), QPainterPath()
        g.road_edge, g.road_fill = QPainterPath(), QPainterPath()
        g.path_present = set()
        for kind, links, members, width, edge in (
                ("gully", m.gully_links, m.gully_hexes, GULLY_WIDTH, GULLY_EDGE_WIDTH),
                ("road", m.road_links, m.road_hexes, ROAD_WIDTH, ROAD_EDGE_WIDTH)):
            lines = band_lines(links, members)
            if not lines:
                continue
            g.path_present.add(kind)
            geo = shapely.GeometryCollection(lines)
            outer = _shapely_path(geo.buffer(width / 2, quad_segs=6).intersection(clip))
            inner = _shapely_path(geo.buffer(width / 2 - edge, quad_segs=6).intersection(clip))
            if kind == "gully":
                g.gully_edge, g.gully_fill = outer, inner
            else:
                g.road_edge, g.road_fill = outer, inner
        g.bridges = [(hex_centre_scene(h), self._bridge_angle(h))
                     for h in sorted(m.road_hexes & m.gully_hexes) if in_range(h)]

    def _build_buildings(self, g: _Geometry) -> None:
        """Building symbols of the geometry's columns; a building whose record is unchanged since
        the last build keeps its drawing data."""
        m = self.hexmap
        map_prov = m.doc.provenance
        c0, c1 = g.c0, g.c1
        r0, r1 = m.first_row, m.last_row
        old = g.building_cache
        g.building_cache = {}
        g.buildings = []
        for bid, bpoly in m.building_polygons.items():
            hexes = m.building_hexes.get(bid, frozenset())
            if not any(c0 <= h.col <= c1 and r0 <= h.row <= r1 for h in hexes):
                continue
            b = m.buildings[bid]
            hit = old.get(bid)
            if hit is not None and hit[0] is b:
                item = hit[1]
            else:
                spoly = shapely.affinity.scale(bpoly, SCENE_PER_X, SCENE_PER_Y, origin=(0, 0))
                path = _shapely_path(spoly.intersection(g.clip))
                label = str(b.number) if b.number is not None else b.name
                rp = polylabel(spoly, tolerance=1.0)
                anchor = QPointF(rp.x, rp.y)
                room = 2 * spoly.exterior.distance(rp)  # diameter of the largest inscribed circle
                small = bool(label) and room < BUILDING_LABEL_PX * (0.62 * len(label) + 0.3)
                dashed = _effective(b.provenance, map_prov) == "reconstructed"
                rect = path.boundingRect().adjusted(-BLOCK_MARGIN, -BLOCK_MARGIN, BLOCK_MARGIN, BLOCK_MARGIN)
                if label:
                    rect = rect.united(self._text_rect(anchor, label, _font(BUILDING_LABEL_PX, bold=True)))
                item = _Building(path, label, anchor, dashed, small, rect)
                self._building_inside(b, g, item)
            g.building_cache[bid] = (b, item)
            g.buildings.append(item)

    @staticmethod
    def _lines_path(geom) -> QPainterPath:
        path = QPainterPath()
        for part in shapely.get_parts(geom):
            if isinstance(part, (LineString, LinearRing)):
                cs = list(part.coords)
                if len(cs) >= 2:
                    path.moveTo(QPointF(*cs[0]))
                    for c in cs[1:]:
                        path.lineTo(QPointF(*c))
            elif hasattr(part, "geoms"):
                path.addPath(MapPainter._lines_path(part))
        return path

    def _building_inside(self, b, g: _Geometry, item: _Building) -> None:
        """Fill ``item``'s room walls, doors and windows from building record ``b`` (scene units,
        clipped to the geometry's hexes)."""
        def scene(geom):
            return shapely.affinity.scale(geom, SCENE_PER_X, SCENE_PER_Y, origin=(0, 0)).intersection(g.clip)

        if b.rooms:
            outline = Polygon(b.polygon).boundary
            inner = unary_union([Polygon(r).boundary for r in b.rooms]).difference(outline.buffer(1e-6))
            item.walls = self._lines_path(scene(inner))
        for o in b.openings or []:
            path = self._lines_path(scene(LineString(o.segment)))
            (item.doors if o.kind == "door" else item.windows).addPath(path)

    def _build_obstacles(self, g: _Geometry) -> None:
        """Linear obstacles and tank traps meeting the geometry's hexes (clipped to them); one whose
        record is unchanged since the last build keeps its drawing data."""
        doc = self.hexmap.doc
        old = g.obstacle_cache
        g.obstacle_cache = {}
        g.obstacles = []
        for rec in list(doc.obstacles) + list(doc.tank_traps):
            key = ("t:" if isinstance(rec, TankTraps) else "o:") + rec.id
            hit = old.get(key)
            if hit is not None and hit[0] is rec:
                item = hit[1]
            else:
                item = self._obstacle_item(rec, g.clip)
            g.obstacle_cache[key] = (rec, item)
            if item is not None:
                g.obstacles.append(item)

    @staticmethod
    def _obstacle_item(rec, clip) -> "_Obstacle | None":
        """The drawing of one obstacle or tank traps record (None when it lies off the geometry)."""
        def scene(pts):
            return [_xy(x, y) for x, y in pts]

        if isinstance(rec, TankTraps):
            kind = "tank_traps"
            geom = LineString(scene(rec.line)) if rec.line is not None else Polygon(scene(rec.polygon))
        else:
            kind = rec.kind
            geom = LineString(scene(rec.line))
        shown = geom.intersection(clip)
        if shown.is_empty:
            return None
        is_field = isinstance(geom, Polygon)
        path = _line_path(shown.boundary if is_field else shown)
        crosses = _tank_trap_crosses(geom, clip) if kind == "tank_traps" else QPainterPath()
        reach = 6.0 + TANK_TRAP_ARM
        rect = path.boundingRect().united(crosses.boundingRect()).adjusted(-reach, -reach, reach, reach)
        return _Obstacle(kind, path, crosses, rect, is_field)

    def _build_labels(self, g: _Geometry) -> None:
        """Named features: bold label at the centroid of their hexes' centres."""
        m = self.hexmap
        map_prov = m.doc.provenance
        c0, c1 = g.c0, g.c1
        r0, r1 = m.first_row, m.last_row
        g.labels = []
        g.label_present = set()
        for f in m.doc.features:
            hs = [hexgrid.parse_hex_id(t) for t in f.hexes]
            hs_in = [h for h in hs if c0 <= h.col <= c1 and r0 <= h.row <= r1]
            if not hs_in:
                continue
            pts = [hex_centre_scene(h) for h in hs_in]
            x = sum(q.x() for q in pts) / len(pts)
            y = sum(q.y() for q in pts) / len(pts)
            italic = _effective(f.provenance, map_prov) == "reconstructed" and _effective(f.provenance, None) is not None
            if italic:
                g.label_present.add("italic_label")
            px = LABEL_PX if f.kind != "other" else int(LABEL_PX * 0.8)
            g.labels.append(_Label(f.name, QPointF(x, y), italic, px))
        self._place_labels(g.labels)

    def _build_sections(self, g: _Geometry) -> None:
        """Section boundaries (both outer edges of each shared boundary column) and names."""
        m = self.hexmap
        doc = m.doc
        c0, c1 = g.c0, g.c1
        r0, r1 = m.first_row, m.last_row
        for s in doc.sections:
            for t in doc.sections:
                if s is not t and s.last_column == t.first_column and c0 < s.last_column < c1:
                    col = s.last_column
                    for r in range(r0, r1 + 1):
                        h = Hex(col, r)
                        for side in (2, 3, 5, 6):
                            a, b = _side_vertices(h, side)
                            _add_segment(g.sections, _pt(*a), _pt(*b))
        top = g.map_rect.top() - MARGIN * 0.5 - LABEL_PX * 0.5
        for s in doc.sections:
            a, b = s.first_column, s.last_column
            if a < c0 or b > c1 or (a, b) == (c0, c1):
                continue  # only sections lying wholly inside a larger picture are named
            x = (_pt(3 * a, 0).x() + _pt(3 * b, 0).x()) / 2
            g.section_names.append((QPointF(x, top), f"{s.name} ({s.first_column:02d}-{s.last_column:02d})"))

    @staticmethod
    def _summarise(g: _Geometry) -> None:
        """What the geometry draws, for the legend (the blocks' levels, hatches and symbols)."""
        levels: set[int] = set()
        hatches: set[int] = set()
        present: set[str] = set()
        for blk in g.blocks.values():
            levels.update(blk.levels)
            hatches.update(blk.hatches)
            present |= blk.present
        present |= g.path_present | g.label_present
        for b in g.buildings:
            present.add("dashed_building" if b.dashed else "solid_building")
        g.level_keys, g.hatch_keys, g.present = sorted(levels), sorted(hatches), present

    @staticmethod
    def hex_rects(hexes: Iterable[str | Hex]) -> list[QRectF]:
        """The scene rects whose drawing changes when only the records of ``hexes`` change (their
        contour, grid and symbols; a neighbour's contour on a shared side lies inside them)."""
        return [_hex_rect(hexgrid.parse_hex_id(t) if isinstance(t, str) else t, BLOCK_MARGIN) for t in hexes]

    def update_map(self, hexmap: HexMap, hexes: Iterable[str] | None = None) -> list[QRectF] | None:
        """Draw an edited version of the current map, rebuilding only what the edit changed.

        ``hexes`` are the ids of the hexes whose records changed (None: find them by comparing the
        records; the document's records are immutable values, so unchanged ones are the same
        objects). The blocks holding changed hexes (and their neighbours, for the contours) are
        rebuilt; roads and gullies, buildings and feature labels only when those lists changed,
        and the ids of the hexes that came onto or left a road, gully or building (their halo).
        A change of extent, sections, name or provenance rebuilds everything (:meth:`set_map`).

        Returns the scene rects whose picture changed (outside them a paint gives the same
        pixels as before the edit), or None when anything may have changed.
        """
        old = self.hexmap
        od, nd = old.doc, hexmap.doc
        if (od.extent != nd.extent or od.provenance != nd.provenance or od.name != nd.name
                or (od.sections is not nd.sections and od.sections != nd.sections)):
            self.set_map(hexmap)
            return None
        self.hexmap = hexmap
        if hexes is not None:
            changed = {hexgrid.parse_hex_id(t) if isinstance(t, str) else t for t in hexes}
        elif od.hexes is nd.hexes:
            changed = set()
        else:
            before = getattr(old, "_records", {})
            after = getattr(hexmap, "_records", {})
            changed = {h for h in before.keys() | after.keys() if before.get(h) is not after.get(h)}
        roads = od.roads is not nd.roads or od.gullies is not nd.gullies
        blds = od.buildings is not nd.buildings
        feats = od.features is not nd.features
        obst = od.obstacles is not nd.obstacles or od.tank_traps is not nd.tank_traps
        rects = self.hex_rects(changed)
        rebuild = set(changed) | {nb for h in changed for nb in hexgrid.neighbours(h)}
        busy = self._busy_hexes()
        if roads or blds:   # the ids' halo follows roads, gullies and buildings
            flipped = busy ^ self._busy_hexes(old)
            rebuild |= flipped
            rects += self.hex_rects(flipped)
        if roads:   # a band changes within a hex of the hexes whose links or one-hex paths changed
            moved: set[Hex] = set()
            for links, members in (("road_links", "road_hexes"), ("gully_links", "gully_hexes")):
                lo, ln = getattr(old, links), getattr(hexmap, links)
                moved |= {h for h in lo.keys() | ln.keys() if lo.get(h, set()) != ln.get(h, set())}
                moved |= getattr(old, members) ^ getattr(hexmap, members)
            rects += [_hex_rect(h, HEX_WIDTH) for h in moved]
        for g in self._cache.values():
            keys = {(h.col // BLOCK, h.row // BLOCK) for h in rebuild
                    if g.c0 <= h.col <= g.c1 and hexmap.first_row <= h.row <= hexmap.last_row}
            for key in keys:
                g.blocks[key] = self._build_block(g, key, busy)   # the key keeps its place (drawing order)
            if roads:
                self._build_paths(g)
            if blds:
                before_b = {bid: item for bid, (_rec, item) in g.building_cache.items()}
                self._build_buildings(g)
                after_b = {bid: item for bid, (_rec, item) in g.building_cache.items()}
                for bid in before_b.keys() | after_b.keys():
                    if before_b.get(bid) is not after_b.get(bid):
                        rects += [i.rect for i in (before_b.get(bid), after_b.get(bid)) if i is not None]
            if obst:
                before_o = {k: item for k, (_rec, item) in g.obstacle_cache.items()}
                self._build_obstacles(g)
                after_o = {k: item for k, (_rec, item) in g.obstacle_cache.items()}
                for k in before_o.keys() | after_o.keys():
                    if before_o.get(k) is not after_o.get(k):
                        rects += [i.rect for i in (before_o.get(k), after_o.get(k)) if i is not None]
            if feats:   # labels make room for each other: any of them may move
                rects += [self._label_rect(lab) for lab in g.labels]
                self._build_labels(g)
                rects += [self._label_rect(lab) for lab in g.labels]
            g.inputs = self._inputs()
            self._summarise(g)
        return rects

    @staticmethod
    def _place_labels(labels: list[_Label]) -> None:
        """Move labels that would overlap an earlier one up or down by a line (bigger first)."""
        placed: list[QRectF] = []
        for lab in sorted(labels, key=lambda lb: -lb.px):
            fm = QFontMetricsF(_font(lab.px, bold=True, italic=lab.italic))
            w, h = fm.horizontalAdvance(lab.text) + 6, fm.height()
            base = QPointF(lab.anchor)
            for k in (0, -1, 1, -2, 2, -3, 3):
                at = QPointF(base.x(), base.y() + k * h * 0.95)
                r = QRectF(at.x() - w / 2, at.y() - h / 2, w, h)
                if not any(r.intersects(o) for o in placed):
                    break
            lab.anchor = at
            placed.append(r)

    def _on_edge(self, h: Hex) -> bool:
        m = self.hexmap
        return h.col in (m.first_column, m.last_column) or h.row in (m.first_row, m.last_row)

    def _bridge_angle(self, h: Hex) -> float:
        """Direction (degrees, scene) of the bridge deck: along the road link that crosses the
        gully most squarely (across the gully when the hex has no road link)."""
        m = self.hexmap
        c = hex_centre_scene(h)

        def unit(o: Hex) -> tuple[float, float]:
            q = hex_centre_scene(o)
            dx, dy = q.x() - c.x(), q.y() - c.y()
            n = math.hypot(dx, dy)
            return (dx / n, dy / n)

        gully = [unit(o) for o in sorted(m.gully_links.get(h, ()))]
        roads = sorted(m.road_links.get(h, ()))
        if roads:
            def squareness(o: Hex) -> float:
                u = unit(o)
                return min((1 - abs(u[0] * v[0] + u[1] * v[1]) for v in gully), default=1.0)

            best = max(roads, key=squareness)
            u = unit(best)
            return math.degrees(math.atan2(u[1], u[0]))
        if gully:
            v = gully[0]
            return math.degrees(math.atan2(v[1], v[0])) + 90.0
        return 0.0


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
