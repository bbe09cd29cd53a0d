"""What the map painter draws, built once per column range and cached: the per-hex data (levels,
marshes, grid, trees, ids, provenance marks) in blocks of :data:`BLOCK` x :data:`BLOCK` hexes, and
the roads and gullies, buildings, obstacles, labels and sections over them; an edit rebuilds only
the blocks and items it changed (:meth:`MapGeometry.update_map`)."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Iterable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFontMetricsF, QPainterPath, QPolygonF
import shapely
import shapely.affinity
from shapely.geometry import LinearRing, LineString, Point, Polygon
from shapely.ops import polylabel, unary_union

from maps import hexgrid
from maps.content_cache import ContentCache, content_key
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.model import TankTraps
from editor.drawing.hex_scene import _neighbour_offsets, _pt, _side_vertices, _xy, hex_centre_scene
from editor.drawing.map_style import (
    BUILDING_LABEL_PX,
    GULLY_EDGE_WIDTH,
    GULLY_WIDTH,
    HEX_HEIGHT,
    HEX_WIDTH,
    ID_PX,
    LABEL_PX,
    MARGIN,
    ROAD_EDGE_WIDTH,
    ROAD_WIDTH,
    SCENE_PER_X,
    SCENE_PER_Y,
    TANK_TRAP_ARM,
)
from editor.drawing.map_symbols import (
    _add_segment,
    _effective,
    _font,
    _line_path,
    _shapely_path,
    _tank_trap_crosses,
    _template,
    _tree_positions,
    _tree_radius,
)


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


#: the top of a printed hex id below the hex's top edge (scene units)
ID_TOP = 3.0


def _id_rect(h: Hex) -> QRectF:
    """Where the printed id of hex ``h`` stands (scene units, its printed size and a margin of 2 on
    each side, 1 above and below), as :meth:`MapGeometry._build_block` places it."""
    fm = QFontMetricsF(_font(ID_PX, condensed=True))
    c = hex_centre_scene(h)
    w = fm.horizontalAdvance(h.id)
    return QRectF(c.x() - w / 2 - 2.0, c.y() - HEX_HEIGHT / 2 + ID_TOP - 1.0, w + 4.0, fm.height() + 2.0)


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



#: Geometries built for a map's content and a column range, shared by every painter in the
#: process (a reopened map draws at once): keyed by :meth:`MapGeometry._shared_key`, at most a
#: few (each holds a whole picture's paths). Stored geometries are private copies, never drawn
#: nor updated themselves.
SHARED_GEOMETRY = ContentCache(6)


def _private_copy(g: _Geometry) -> _Geometry:
    """A copy of ``g`` whose tables are its own: :meth:`MapGeometry.update_map` replaces blocks,
    buildings and obstacles in them and reassigns the other fields (the paths and items are
    never changed in place once built, so they are shared)."""
    return dataclasses.replace(g, blocks=dict(g.blocks), building_cache=dict(g.building_cache),
                               obstacle_cache=dict(g.obstacle_cache), inputs=dict(g.inputs))


class MapGeometry:
    """The geometry half of :class:`editor.drawing.map_painter.MapPainter`: builds, caches and
    updates the :class:`_Geometry` of a column range from ``self.hexmap`` (``self._cache``)."""

    # ------------------------------------------------------------------ geometry
    def _geometry(self, section: str | None) -> _Geometry:
        cols = self.section_columns(section)
        g = self._cache.get(cols)
        if g is None:
            key = self._shared_key(cols)
            shared = SHARED_GEOMETRY.get(key) if key is not None else None
            if shared is not None:
                g = self._adopt(shared)
            else:
                g = self._build(*cols)
                if key is not None:
                    SHARED_GEOMETRY.put(key, _private_copy(g))
            self._cache[cols] = g
        return g

    def _shared_key(self, cols: tuple[int, int]) -> tuple[str, int, int] | None:
        """The key of the geometry of ``cols`` in :data:`SHARED_GEOMETRY`: the map's content key
        (:func:`maps.content_cache.content_key`, so an edited map has another key) and the
        columns. None for anything but a plain :class:`HexMap` (a view of a map, such as the
        engine's playing area, answers ``contains`` its own way: never shared)."""
        if type(self.hexmap) is not HexMap:
            return None
        key = content_key(self.hexmap.doc)
        return (key, *cols) if key is not None else None

    def _adopt(self, shared: _Geometry) -> _Geometry:
        """A geometry of this painter's own from ``shared`` (built from a map of the same content):
        its own block, building and obstacle tables (:meth:`update_map` changes them in place),
        the building and obstacle entries tied to this map's records (equal to the ones they were
        built from), so the first edit rebuilds only what it changes."""
        g = _private_copy(shared)
        m = self.hexmap
        g.building_cache = {bid: (m.buildings[bid], item) for bid, (_rec, item) in shared.building_cache.items()}
        recs = {("t:" if isinstance(rec, TankTraps) else "o:") + rec.id: rec
                for rec in list(m.doc.obstacles) + list(m.doc.tank_traps)}
        g.obstacle_cache = {k: (recs[k], item) for k, (_rec, item) in shared.obstacle_cache.items()}
        g.inputs = self._inputs()
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
                at = QPointF(centre.x() - fm.horizontalAdvance(h.id) / 2, centre.y() - HEX_HEIGHT / 2 + ID_TOP + asc)
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
                path.addPath(MapGeometry._lines_path(part))
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
        avoid: list[list[QRectF]] = []
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
            # the printed ids of the feature's hexes and their neighbours: a label over one reads as
            # part of it ("Hill Z" over 4420 read "Hill Z20")
            near = {n for h in hs_in for n in (h, *hexgrid.neighbours(h)) if c0 <= n.col <= c1 and r0 <= n.row <= r1}
            avoid.append([_id_rect(n) for n in sorted(near)])
        self._place_labels(g.labels, avoid)

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
    def _place_labels(labels: list[_Label], avoid: list[list[QRectF]] | None = None) -> None:
        """Move labels that would overlap an earlier one up or down (bigger labels first), and off
        the printed hex ids of ``avoid[i]`` (per label): a place that cuts an id in part (the
        label's end over "44" of "4420" reads "Hill Z20") is taken only when none within three
        lines up or down and a quarter hex aside leaves every id whole (clear or wholly covered)."""
        placed: list[QRectF] = []
        order = sorted(range(len(labels)), key=lambda i: -labels[i].px)
        steps = (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8, -8, 9, -9)
        for i in order:
            lab = labels[i]
            ids = avoid[i] if avoid is not None else []
            fm = QFontMetricsF(_font(lab.px, bold=True, italic=lab.italic))
            w, h = fm.horizontalAdvance(lab.text) + 6, fm.height()
            base = QPointF(lab.anchor)
            best = None
            for dx in (0.0, -HEX_WIDTH / 8, HEX_WIDTH / 8, -HEX_WIDTH / 4, HEX_WIDTH / 4):
                for k in steps:
                    at = QPointF(base.x() + dx, base.y() + k * h / 3.0)
                    r = QRectF(at.x() - w / 2, at.y() - h / 2, w, h)
                    if any(r.intersects(o) for o in placed):
                        continue
                    cut = sum(1 for o in ids if r.intersects(o) and not r.contains(o))
                    cost = (cut, abs(dx) + abs(k) * h / 3.0)
                    if best is None or cost < best[0]:
                        best = (cost, at, r)
                    if cut == 0:
                        break
            if best is None:   # every place overlaps another label: the feature's centre
                at = base
                r = QRectF(at.x() - w / 2, at.y() - h / 2, w, h)
            else:
                _cost, at, r = best
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
