"""The painted map read as a tabletop: areas, lines and queries in inches (measured rule systems).

A hex rule system reads the shared map hex by hex; a measured system (the 20 mm Russo-German rules,
``seeds/003_*``) reads the same painted map as a table at the scale its scenario states:
``TableMap.from_map(hexmap, 4.0)`` makes one hex 4 inches across flats. Everything here is shapely
geometry in **table inches**; the full reading is in ``docs/table-map.md``.

**Map units -> inches.** The map's lattice (:mod:`maps.hexgrid`) has the centre of hex (col, row)
at ``X = 3 col``, ``Y = 2 row + (col & 1)``; one Y unit is half a hex across flats, one X unit is
``1/sqrt(3)`` of a Y unit. With ``S`` inches per hex across flats::

    x_in = X * S / (2 * sqrt(3))        y_in = Y * S / 2

(:meth:`TableMap.to_table`; no offset: the same map point has the same inches on every table of
the map, whatever its sections; x grows with the columns, y with the rows, as on the sheet).
Neighbouring hex centres are ``S`` inches apart. Areas are merged on the integer lattice first
(exact shared hexsides, no slivers) and then scaled.

**Areas.** Woods = the hexes with two or more tree symbols (8.54's Woods), merged per ground level;
scattered trees = hexes with one tree symbol; buildings = the building symbols (hard cover);
hills = for each level ``L`` the hexes at level ``L`` or higher, merged (a hex with two elevations
counts at its lower, 10.34); marsh = marsh hexes; roads and gullies = bands of a stated width
along the centre-to-centre lines of their paths; obstacles and tank traps = the map's lines
and polygons (:class:`maps.model.Obstacle`, :class:`maps.model.TankTraps`). Everything is clipped
to the table (the hexes of the chosen sections).

**Queries** (the 20 mm rules' needs): :meth:`TableMap.terrain_at` (going and cover where a
figure stands), :meth:`TableMap.line_of_sight` / :meth:`TableMap.blocks_los`,
:meth:`TableMap.crosses_obstacle`, :meth:`TableMap.cover`, :meth:`TableMap.distance`. Lookups
use prepared geometries and STRtrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Literal, Sequence

import shapely
import shapely.affinity
from shapely.geometry import GeometryCollection, LineString, MultiPolygon, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union
from shapely.strtree import STRtree

from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.model import MapFile, Obstacle, TankTraps
from maps.provenance import Provenance

__all__ = [
    "TableMap",
    "TableArea",
    "TableObstacle",
    "TerrainAt",
    "TableLos",
    "LosBlock",
    "Crossing",
    "TableRoom",
    "WallCrossing",
    "Going",
    "Cover",
    "TargetKind",
    "OBSTACLE_COVER",
    "DEFAULT_OBSTACLE_HEIGHT",
]

Going = Literal["road", "cross_country", "difficult"]
Cover = Literal["hard", "soft"]
TargetKind = Literal["man", "vehicle", "low_profile_vehicle"]
XY = tuple[float, float] | Point

#: Cover a linear obstacle gives a man right behind it (seed 003, Cover Saves: "hard cover implies a
#: stone wall or similar, soft cover implies a bush, tree or similar"; a fence hides nothing).
#: Vehicles take hard cover only (they have no soft-cover save), and from a low stone wall only a
#: low-profile tank does ("Low stone walls can only provide hard cover to low-profile tanks such as
#: the Stug III"). Tank traps give no cover.
OBSTACLE_COVER: dict[str, Cover | None] = {"wall": "hard", "low_stone_wall": "hard", "hedge": "soft", "fence": None}

#: Levels a wood or a building stands above its ground for line of sight: 0.5, as the Woods and
#: Buildings rows of the shipped Iron Cross chart (10.32 a) - one notion of height for both systems.
DEFAULT_OBSTACLE_HEIGHT = 0.5

_EPS = 1e-9


def _xy(p: XY) -> tuple[float, float]:
    if isinstance(p, Point):
        return (p.x, p.y)
    x, y = p
    return (float(x), float(y))


def _polys(geom: BaseGeometry) -> list[Polygon]:
    """The polygons of a (multi)polygon or collection (empty: [])."""
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    return [g for part in getattr(geom, "geoms", []) for g in _polys(part)]


def _lines(geom: BaseGeometry) -> list[LineString]:
    """The line strings of a (multi)line or collection (points dropped)."""
    if geom.is_empty:
        return []
    if isinstance(geom, LineString):
        return [geom]
    return [g for part in getattr(geom, "geoms", []) for g in _lines(part)]


# ------------------------------------------------------------------------------------------
# Results
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableArea:
    """One area of the table: ``kind`` (``"woods"``, ``"building"``, ``"hill"``), a ``name``
    (``"woods 3"``, the building's display name, ``"level 1"``), its ``polygon`` in inches, its
    ``ground`` level and ``top``, the level its top stands at for line of sight (a hill: its level;
    woods and buildings: ground + the obstacle height). ``ref`` is the building id (else None)."""

    kind: str
    name: str
    polygon: Polygon
    ground: int
    top: float
    ref: str | None = None


@dataclass(frozen=True)
class TableObstacle:
    """A linear obstacle or tank traps on the table: ``id``, ``kind`` (an obstacle kind of
    :data:`maps.model.OBSTACLE_KINDS` or ``"tank_traps"``), ``geometry`` in inches (a LineString,
    or a Polygon for a field of tank traps; clipped to the table), ``provenance``."""

    id: str
    kind: str
    geometry: BaseGeometry
    provenance: Provenance | None = None


@dataclass(frozen=True)
class TerrainAt:
    """What a figure standing at a point is in.

    ``going``: ``"road"`` (on a road band, bridges included), ``"difficult"`` (marsh, a gully,
    woods unless the table says otherwise) or ``"cross_country"``; ``cover``: the cover the ground
    itself gives a man there (``"hard"`` in a building, ``"soft"`` in woods, scattered trees or a
    gully - "a fold in the ground"; None in the open; obstacles are in :meth:`TableMap.cover`);
    ``level``: the ground level; ``building``: the id of the building symbol it stands in;
    ``snow``: the table's scenario has snow (see :meth:`infantry_going`); ``on_table``: False off
    the table (then nothing else is set).
    """

    going: Going = "cross_country"
    cover: Cover | None = None
    level: int = 0
    woods: bool = False
    trees: bool = False
    building: str | None = None
    marsh: bool = False
    gully: bool = False
    road: bool = False
    snow: bool = False
    on_table: bool = True

    def infantry_going(self) -> Going:
        """The going for infantry: in snow cross-country counts as difficult, roads as normal
        (seed 003, "Infantry in Snow Terrain")."""
        if self.snow and self.going == "cross_country":
            return "difficult"
        return self.going


@dataclass(frozen=True)
class LosBlock:
    """Why a line of sight is blocked: the area (``kind``, ``name``, ``ref``), the stretch of the
    line it blocks (``start``/``end``, inches from the first point) and the ``point`` where that
    stretch begins."""

    kind: str
    name: str
    ref: str | None
    start: float
    end: float
    point: tuple[float, float]


@dataclass(frozen=True)
class TableLos:
    """A line of sight on the table: ``clear``; ``blocks`` (every blocking stretch, nearest the
    first point first); the two ground ``levels``; the ``distance`` in inches."""

    clear: bool
    blocks: tuple[LosBlock, ...]
    levels: tuple[int, int]
    distance: float


@dataclass(frozen=True)
class Crossing:
    """A straight move meets obstacle ``id`` (``kind``) first at ``point``, ``distance`` inches from
    the start; ``times`` is how often it crosses it."""

    id: str
    kind: str
    point: tuple[float, float]
    distance: float
    times: int = 1


@dataclass(frozen=True)
class TableRoom:
    """A room of a building on the table (seed 003, "Infantry Moving and Firing in Buildings"):
    ``building`` (the building id), ``index`` (its place in the map's ``rooms``; 0 for a building
    without rooms), ``polygon`` in inches; ``sectioned``: the map gives the building rooms (troops
    stand loosely in a room and fire out of any side of it with a door or window); False: the whole
    building is one room (no rooms in the map)."""

    building: str
    index: int
    polygon: Polygon
    sectioned: bool


@dataclass(frozen=True)
class WallCrossing:
    """A straight move crosses a wall of building ``building`` at ``point``, ``distance`` inches
    from its start, through ``kind``: ``"door"`` (free), ``"window"`` (windows only: an obstacle)
    or ``"wall"`` (a blank wall: no way through). Seed 003, "Infantry Moving and Firing in
    Buildings"."""

    building: str
    kind: Literal["door", "window", "wall"]
    point: tuple[float, float]
    distance: float


@dataclass(frozen=True)
class _BuildingInside:
    """Rooms and openings of one building, in inches (unclipped)."""

    id: str
    outline: Polygon
    rooms: tuple[Polygon, ...]
    sectioned: bool
    openings: tuple[tuple[str, LineString], ...] | None
    walls: BaseGeometry


# ------------------------------------------------------------------------------------------
# The table
# ------------------------------------------------------------------------------------------
@dataclass(eq=False, repr=False)
class TableMap:
    """The painted map as a table at ``scale`` inches per hex across flats. Build it with
    :meth:`from_map`; it does not change afterwards.

    Attributes (inches): ``table`` (the playing area: the hexes of the chosen sections), ``woods``,
    ``buildings`` and ``hills`` (lists of :class:`TableArea`), ``scattered_trees``, ``marsh``,
    ``gully_area``, ``road_area`` and ``difficult`` (polygons), ``roads`` and ``gullies`` (the
    centre lines), ``obstacles`` and ``tank_traps`` (lists of :class:`TableObstacle`).
    """

    hexmap: HexMap
    scale: float
    sections: tuple[str, ...] | None
    snow: bool
    see_into: float
    obstacle_height: float
    road_width: float
    gully_width: float
    woods_difficult: bool
    behind: float
    table: BaseGeometry = field(default_factory=Polygon)
    woods: list[TableArea] = field(default_factory=list)
    buildings: list[TableArea] = field(default_factory=list)
    hills: list[TableArea] = field(default_factory=list)
    scattered_trees: BaseGeometry = field(default_factory=Polygon)
    marsh: BaseGeometry = field(default_factory=Polygon)
    roads: BaseGeometry = field(default_factory=GeometryCollection)
    gullies: BaseGeometry = field(default_factory=GeometryCollection)
    road_area: BaseGeometry = field(default_factory=Polygon)
    gully_area: BaseGeometry = field(default_factory=Polygon)
    difficult: BaseGeometry = field(default_factory=Polygon)
    obstacles: list[TableObstacle] = field(default_factory=list)
    tank_traps: list[TableObstacle] = field(default_factory=list)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_map(cls, hexmap: HexMap | MapFile, scale_inches_per_hex: float, sections: Iterable[str] | None = None,
                 *, snow: bool = False, see_into: float | None = None,
                 obstacle_height: float = DEFAULT_OBSTACLE_HEIGHT, road_width: float | None = None,
                 gully_width: float | None = None, woods_difficult: bool = True, behind: float = 1.0) -> "TableMap":
        """Read ``hexmap`` (a :class:`HexMap`, or a checked :class:`MapFile`) as a table.

        ``scale_inches_per_hex``: inches per hex across flats (``4.0``: one 10 m hex = 4 inches;
        100 mm hexes are about 3.94). ``sections``: names of the map's sections that make the table
        (None: the whole map; boundary columns belong to both). ``snow``: the scenario is in snow
        (:meth:`TerrainAt.infantry_going`). Readings, all in inches unless said otherwise (see
        ``docs/table-map.md``): ``see_into`` - how far a figure in woods or a building, or on its
        own hill, sees out of it and is seen into it (default half a hex, ``scale / 2``: 10.33's
        "LOS will extend INTO a blocking hex" as a distance); ``obstacle_height`` - levels woods and
        buildings stand above their ground; ``road_width`` (default a quarter hex) and
        ``gully_width`` (default 0.3 hex, as painted) - the bands that count as road and gully;
        ``woods_difficult`` - woods are difficult terrain; ``behind`` - how near the target an
        obstacle must cross the line of fire to give cover (:meth:`cover`).

        Raises ValueError for a scale or width that is not positive, or an unknown section.
        """
        hm = hexmap if isinstance(hexmap, HexMap) else HexMap(hexmap)
        s = float(scale_inches_per_hex)
        if not (s > 0 and math.isfinite(s)):
            raise ValueError(f"the table scale must be a positive number of inches per hex, not {scale_inches_per_hex!r}")
        names = tuple(sections) if sections is not None else None
        t = cls(hexmap=hm, scale=s, sections=names, snow=bool(snow),
                see_into=s / 2 if see_into is None else float(see_into), obstacle_height=float(obstacle_height),
                road_width=s / 4 if road_width is None else float(road_width),
                gully_width=0.3 * s if gully_width is None else float(gully_width),
                woods_difficult=bool(woods_difficult), behind=float(behind))
        for what, v in (("see_into", t.see_into), ("behind", t.behind)):
            if not (v >= 0 and math.isfinite(v)):
                raise ValueError(f"{what} must be a distance of 0 inches or more, not {v!r}")
        for what, v in (("road_width", t.road_width), ("gully_width", t.gully_width)):
            if not (v > 0 and math.isfinite(v)):
                raise ValueError(f"{what} must be a positive number of inches, not {v!r}")
        t._build()
        return t

    def __repr__(self) -> str:
        secs = list(self.sections) if self.sections is not None else "whole map"
        return f"TableMap({self.hexmap.name!r}, {self.scale:g} in per hex, {secs}{', snow' if self.snow else ''})"

    @property
    def kx(self) -> float:
        """Inches per lattice X unit: ``scale / (2 sqrt 3)``."""
        return self.scale * hexgrid.X_SCALE_M / (2 * hexgrid.Y_SCALE_M)

    @property
    def ky(self) -> float:
        """Inches per lattice Y unit: ``scale / 2``."""
        return self.scale / 2

    def to_table(self, x: float, y: float) -> tuple[float, float]:
        """Lattice map units -> table inches."""
        return (x * self.kx, y * self.ky)

    def from_table(self, x: float, y: float) -> tuple[float, float]:
        """Table inches -> lattice map units."""
        return (x / self.kx, y / self.ky)

    def hex_centre(self, h: Hex | str) -> tuple[float, float]:
        """The centre of hex ``h`` (a :class:`Hex` or an id ``"4307"``) in inches."""
        hx = hexgrid.parse_hex_id(h) if isinstance(h, str) else h
        return self.to_table(*hexgrid.centre(hx))

    def hex_at(self, p: XY) -> Hex:
        """The hex under a table point (it may lie off the map)."""
        return hexgrid.point_to_hex(*self.from_table(*_xy(p)))

    def _scaled(self, geom: BaseGeometry) -> BaseGeometry:
        return shapely.affinity.scale(geom, self.kx, self.ky, origin=(0, 0))

    def _columns(self) -> list[tuple[int, int]]:
        hm = self.hexmap
        if self.sections is None:
            return [(hm.first_column, hm.last_column)]
        out = []
        for name in self.sections:
            try:
                out.append(hm.section_columns(name))
            except KeyError:
                have = ", ".join(repr(s.name) for s in hm.doc.sections) or "none"
                raise ValueError(f"map {hm.name!r} has no section named {name!r} (sections: {have})") from None
        if not out:
            raise ValueError("a table needs at least one section (or sections=None for the whole map)")
        return out

    def _build(self) -> None:
        hm = self.hexmap
        r0, r1 = hm.first_row, hm.last_row
        cols = self._columns()
        on: set[Hex] = set()
        blocks = []
        for c0, c1 in cols:
            edge = [Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)
                    if c in (c0, c1) or r in (r0, r1)]   # a block of hexes has no holes
            blocks.append(Polygon(unary_union([hexgrid.hex_polygon(h) for h in edge]).exterior))
            on.update(Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))
        table_lat = unary_union(blocks)
        self.table = self._scaled(table_lat)
        shapely.prepare(self.table)

        def hexes_where(pred) -> list[Hex]:
            return [h for h in sorted(on) if pred(h)]

        def merged(hexes: Sequence[Hex]) -> BaseGeometry:
            """Hexes merged on the lattice (exact shared sides), then scaled to inches."""
            if not hexes:
                return Polygon()
            return self._scaled(unary_union([hexgrid.hex_polygon(h) for h in hexes]))

        # woods (8.54: two or more tree symbols), merged per ground level
        self.woods = []
        woods_hexes = hexes_where(hm.is_woods)
        for lvl in sorted({hm.level(h) for h in woods_hexes}):
            for poly in _polys(merged([h for h in woods_hexes if hm.level(h) == lvl])):
                self.woods.append(TableArea("woods", f"woods {len(self.woods) + 1}", poly, lvl,
                                            lvl + self.obstacle_height))
        self.scattered_trees = merged(hexes_where(lambda h: hm.trees(h) == 1))
        # hills: the area at level L or higher, per level, merged (10.34: a hex counts at its lower level)
        self.hills = []
        hill_hexes = hexes_where(lambda h: hm.level(h) > 0)
        for lvl in range(1, max((hm.level(h) for h in hill_hexes), default=0) + 1):
            for poly in _polys(merged([h for h in hill_hexes if hm.level(h) >= lvl])):
                self.hills.append(TableArea("hill", f"level {lvl}", poly, lvl, float(lvl)))
        self.marsh = merged(hexes_where(hm.is_marsh))
        # buildings: the symbols, clipped to the table; ground = the lowest level of their hexes
        self.buildings = []
        for bid, bpoly in hm.building_polygons.items():
            inside = self._scaled(bpoly).intersection(self.table)
            hexes = hm.building_hexes.get(bid, frozenset())
            ground = min((hm.level(h) for h in hexes), default=0)
            for poly in _polys(inside):
                self.buildings.append(TableArea("building", hm.buildings[bid].display_name(), poly, ground,
                                                ground + self.obstacle_height, ref=bid))
        # roads and gullies: centre lines along the links, bands of the stated widths
        self.roads = self._path_lines(hm.road_links, hm.road_hexes).intersection(self.table)
        self.gullies = self._path_lines(hm.gully_links, hm.gully_hexes).intersection(self.table)
        self.road_area = self._path_lines(hm.road_links, hm.road_hexes).buffer(self.road_width / 2).intersection(self.table)
        self.gully_area = self._path_lines(hm.gully_links, hm.gully_hexes).buffer(self.gully_width / 2).intersection(self.table)
        # difficult going (seed 003: marsh; a gully; woods by default) except along a road
        diff = [self.marsh, self.gully_area]
        if self.woods_difficult:
            diff += [a.polygon for a in self.woods]
        self.difficult = unary_union(diff).difference(self.road_area)
        # obstacles and tank traps
        self.obstacles = [self._obstacle(o) for o in hm.doc.obstacles]
        self.obstacles = [o for o in self.obstacles if not o.geometry.is_empty]
        self.tank_traps = [self._traps(t) for t in hm.doc.tank_traps]
        self.tank_traps = [t for t in self.tank_traps if not t.geometry.is_empty]
        for g in (self.scattered_trees, self.marsh, self.road_area, self.gully_area, self.difficult):
            shapely.prepare(g)
        self._blockers = self.woods + self.buildings + self.hills
        for a in self._blockers:
            shapely.prepare(a.polygon)
        self._blocker_tree = STRtree([a.polygon for a in self._blockers])
        self._woods_tree = STRtree([a.polygon for a in self.woods])
        self._building_tree = STRtree([a.polygon for a in self.buildings])
        self._hill_tree = STRtree([a.polygon for a in self.hills])
        self._lines = self.obstacles + self.tank_traps
        self._line_tree = STRtree([o.geometry for o in self._lines])
        # rooms and openings (seed 003, "Infantry Moving and Firing in Buildings")
        self._insides: dict[str, _BuildingInside] = {}
        for b in hm.doc.buildings:
            outline = self._scaled(Polygon(b.polygon))
            rooms = tuple(self._scaled(Polygon(r)) for r in b.rooms) if b.rooms else (outline,)
            ops = None if b.openings is None else tuple((o.kind, self._scaled(LineString(o.segment))) for o in b.openings)
            walls = unary_union([outline.boundary] + [r.boundary for r in rooms])
            self._insides[b.id] = _BuildingInside(b.id, outline, rooms, bool(b.rooms), ops, walls)

    def _path_lines(self, links: dict[Hex, set[Hex]], members: set[Hex]) -> BaseGeometry:
        """The centre-to-centre lines of a road or gully network in inches; a path end on the
        map's edge runs on to the edge (as painted); a one-hex path is its centre point."""
        hm = self.hexmap
        lines: list[BaseGeometry] = []
        done: set[frozenset[Hex]] = set()
        for a in sorted(links):
            for b in sorted(links[a]):
                key = frozenset((a, b))
                if key not in done:
                    done.add(key)
                    lines.append(LineString([hexgrid.centre(a), hexgrid.centre(b)]))
            if len(links[a]) == 1 and (a.col in (hm.first_column, hm.last_column) or a.row in (hm.first_row, hm.last_row)):
                (b,) = links[a]
                ca, cb = hexgrid.centre(a), hexgrid.centre(b)
                lines.append(LineString([ca, (2 * ca[0] - cb[0], 2 * ca[1] - cb[1])]))
        for h in sorted(members):
            if h not in links:
                lines.append(Point(hexgrid.centre(h)))
        if not lines:
            return GeometryCollection()
        return self._scaled(unary_union(lines))

    def _obstacle(self, o: Obstacle) -> TableObstacle:
        g = self._scaled(LineString(o.line)).intersection(self.table)
        return TableObstacle(o.id, o.kind, g, o.provenance)

    def _traps(self, t: TankTraps) -> TableObstacle:
        g = LineString(t.line) if t.line is not None else Polygon(t.polygon)
        return TableObstacle(t.id, "tank_traps", self._scaled(g).intersection(self.table), t.provenance)

    # ------------------------------------------------------------------ queries
    @staticmethod
    def distance(a: XY, b: XY) -> float:
        """Straight-line distance between two table points, in inches."""
        (ax, ay), (bx, by) = _xy(a), _xy(b)
        return math.hypot(bx - ax, by - ay)

    def on_table(self, p: XY) -> bool:
        """True when the point lies on the table (its edge included)."""
        x, y = _xy(p)
        return bool(shapely.intersects_xy(self.table, x, y))

    def _hit(self, tree: STRtree, areas: list[TableArea], x: float, y: float) -> list[TableArea]:
        pt = Point(x, y)
        return [areas[i] for i in tree.query(pt, predicate="intersects")]

    def level_at(self, p: XY) -> int:
        """The ground level at a table point: the highest hill area it stands on (0 elsewhere);
        a point on a hill's edge stands on the hill."""
        x, y = _xy(p)
        return max((a.ground for a in self._hit(self._hill_tree, self.hills, x, y)), default=0)

    def building_at(self, p: XY) -> TableArea | None:
        """The building symbol a point stands in (its walls included), or None."""
        x, y = _xy(p)
        hits = self._hit(self._building_tree, self.buildings, x, y)
        return hits[0] if hits else None

    # ------------------------------------------------------------------ rooms, doors, windows
    @property
    def wall_tolerance(self) -> float:
        """How near (inches) a point must be to a door's or window's segment to be in it: the map
        file's :data:`maps.mapfile.OPENING_TOLERANCE` at this scale."""
        from maps.mapfile import OPENING_TOLERANCE

        return OPENING_TOLERANCE * max(self.kx, self.ky)

    def has_openings(self, building: str) -> bool:
        """True when the map gives building ``building`` its doors and windows (else every wall
        counts as having both: the reading before openings existed)."""
        return self._insides[building].openings is not None

    def rooms(self, building: str) -> list[TableRoom]:
        """The rooms of building ``building`` (its id), in inches; one room (the whole symbol,
        ``sectioned`` False) when the map gives it none. Raises KeyError for an unknown id."""
        ins = self._insides[building]
        return [TableRoom(ins.id, i, r, ins.sectioned) for i, r in enumerate(ins.rooms)]

    def room_at(self, p: XY) -> TableRoom | None:
        """The room a point (inches) stands in (its walls included; on a wall between two rooms,
        the first), or None outside every building. A building without rooms is one room."""
        b = self.building_at(p)
        if b is None or b.ref is None:
            return None
        x, y = _xy(p)
        for room in self.rooms(b.ref):
            if shapely.intersects_xy(room.polygon, x, y):
                return room
        return None

    def _opening_at(self, ins: _BuildingInside, pt: Point) -> str:
        """What a wall point is: ``"door"``, ``"window"`` or ``"wall"`` (no openings data: door)."""
        if ins.openings is None:
            return "door"
        tol = self.wall_tolerance
        kinds = {k for k, seg in ins.openings if seg.distance(pt) <= tol}
        return "door" if "door" in kinds else "window" if "window" in kinds else "wall"

    def wall_openings(self, building: str, side: Sequence[XY]) -> list[str]:
        """The kinds of opening (``"door"``, ``"window"``) on one side of building ``building``'s
        outline or of one of its rooms: ``side`` is that side's two end points in inches; an
        opening counts when it overlaps the side (within :attr:`wall_tolerance`). Without openings
        data every side has both (``["door", "window"]``). Sorted, each kind once."""
        ins = self._insides[building]
        if ins.openings is None:
            return ["door", "window"]
        wall = LineString([_xy(q) for q in side])
        tol = self.wall_tolerance
        band = wall.buffer(tol, cap_style="flat")
        return sorted({k for k, seg in ins.openings if seg.intersection(band).length > tol})

    def wall_crossings(self, a: XY, b: XY) -> list[WallCrossing]:
        """Every building wall (outline or room wall) a straight move from ``a`` to ``b`` (inches)
        crosses, nearest first, with what it passes through (seed 003, "Infantry Moving and Firing
        in Buildings": "troops can move in or out of any building wall with doors or windows, but
        if there are windows only then this counts as an obstacle"): a door, a window (no door
        there), or a blank wall. A building without openings data has a door everywhere (free).
        Touching a wall only at the move's start does not count; running along a wall does not
        cross it."""
        a, b = _xy(a), _xy(b)
        if self.distance(a, b) <= _EPS:
            return []
        seg = LineString([a, b])
        start = Point(a)
        out: list[WallCrossing] = []
        refs = {self.buildings[int(i)].ref for i in self._building_tree.query(seg, predicate="intersects")}
        for ref in sorted(r for r in refs if r is not None):
            ins = self._insides[ref]
            for part in shapely.get_parts(seg.intersection(ins.walls)):
                if not isinstance(part, Point) or start.distance(part) <= 1e-9:
                    continue
                # a move ending on the wall from outside (or inside) still has to pass it
                d = seg.project(part)
                out.append(WallCrossing(ins.id, self._opening_at(ins, part), (part.x, part.y), d))
        out.sort(key=lambda c: (c.distance, c.building))
        return out

    def _room_sides(self, room: Polygon) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        cs = list(room.exterior.coords)
        return [(cs[i], cs[i + 1]) for i in range(len(cs) - 1)]

    def fire_side(self, p: XY, q: XY) -> tuple[tuple[float, float], tuple[float, float]] | None:
        """The side (two end points, inches) of the room at ``p`` that a line of fire from ``p``
        to ``q`` leaves it by; in a building without rooms but with openings data (a larger
        building without rooms, where "infantry need to be positioned against a particular wall"),
        the side of the outline nearest ``p`` (reading). None when ``p`` is in no building or
        ``q`` is in the same room."""
        room = self.room_at(p)
        if room is None:
            return None
        pp, qq = _xy(p), _xy(q)
        ins = self._insides[room.building]
        if not room.sectioned and ins.openings is not None:
            pt = Point(pp)
            return min(self._room_sides(room.polygon), key=lambda s: LineString(s).distance(pt))
        seg = LineString([pp, qq])
        exits = [g for g in shapely.get_parts(seg.intersection(room.polygon.exterior))]
        pts = [c for g in exits for c in shapely.get_coordinates(g)
               if self.distance(pp, (c[0], c[1])) > 1e-9]
        if not pts:
            return None
        c = min(pts, key=lambda c: self.distance(pp, (c[0], c[1])))
        cp = Point(c)
        return min(self._room_sides(room.polygon), key=lambda s: LineString(s).distance(cp))

    def can_fire_across(self, p: XY, q: XY) -> bool:
        """Whether a figure at ``p`` can fire at ``q`` (and be fired at from there) as far as its
        building's walls go (seed 003, "Infantry Moving and Firing in Buildings": "all infantry in
        a room can shoot out of any side with windows or doors (and be shot at)"): True outside
        buildings, in a building without openings data (every wall has doors and windows), and when
        ``q`` is in the same room; else the side of its room the line of fire leaves by
        (:meth:`fire_side`) must have a door or a window, and in a larger building without rooms
        the line of fire must also leave the building across that side (the wall it is positioned
        against: the one nearest it)."""
        room = self.room_at(p)
        if room is None:
            return True
        ins = self._insides[room.building]
        if ins.openings is None or shapely.intersects_xy(room.polygon, *_xy(q)):
            return True
        side = self.fire_side(p, q)
        if side is None:
            return True
        if not self.wall_openings(room.building, side):
            return False
        if not room.sectioned:
            seg = LineString([_xy(p), _xy(q)])
            band = LineString(side).buffer(self.wall_tolerance)
            first = min((c for g in shapely.get_parts(seg.intersection(room.polygon.exterior))
                         for c in shapely.get_coordinates(g)), key=lambda c: self.distance(_xy(p), (c[0], c[1])),
                        default=None)
            return first is not None and band.contains(Point(first))
        return True

    def terrain_at(self, p: XY) -> TerrainAt:
        """What a figure standing at ``p`` (inches) is in: going, cover, level, areas (see
        :class:`TerrainAt`). A point on the edge of an area counts as inside it."""
        x, y = _xy(p)
        if not shapely.intersects_xy(self.table, x, y):
            return TerrainAt(on_table=False, snow=self.snow)
        woods = bool(self._hit(self._woods_tree, self.woods, x, y))
        trees = bool(shapely.intersects_xy(self.scattered_trees, x, y))
        b = self.building_at((x, y))
        marsh = bool(shapely.intersects_xy(self.marsh, x, y))
        gully = bool(shapely.intersects_xy(self.gully_area, x, y))
        road = bool(shapely.intersects_xy(self.road_area, x, y))
        if road:
            going: Going = "road"
        elif shapely.intersects_xy(self.difficult, x, y):
            going = "difficult"
        else:
            going = "cross_country"
        cover: Cover | None = "hard" if b is not None else "soft" if (woods or trees or gully) else None
        return TerrainAt(going=going, cover=cover, level=self.level_at((x, y)), woods=woods, trees=trees,
                         building=b.ref if b is not None else None, marsh=marsh, gully=gully, road=road,
                         snow=self.snow)

    def line_of_sight(self, a: XY, b: XY) -> TableLos:
        """Line of sight between figures standing at ``a`` and ``b`` (inches); symmetric.

        Reading of seed 003 ("completely obscured by intervening terrain such as a hill, wood or
        village"), as the Sighting Chart of Iron Cross 10.32 in continuous form: each figure sees
        from its ground level; a hill area of level L stands L high, woods and buildings
        ``obstacle_height`` above their ground. A stretch of the straight line inside an area
        blocks when the area rises above the sight line somewhere along it (a wood or building
        in a valley does not block two figures on hills; a firer on a hill sees over lower woods
        near him, not those near a low target). Within ``see_into`` of a figure the area it stands
        in does not block (it sees out of its wood, building or own hill top within that
        distance, and is seen into it). A line that only grazes an outline (a corner, along a
        wall) is not blocked. Linear obstacles, tank traps, marsh and scattered trees never block.
        """
        a, b = _xy(a), _xy(b)
        la, lb = self.level_at(a), self.level_at(b)
        d = self.distance(a, b)
        if d <= _EPS:
            return TableLos(True, (), (la, lb), 0.0)
        seg = LineString([a, b])
        blocks: list[LosBlock] = []
        for i in self._blocker_tree.query(seg, predicate="intersects"):
            area = self._blockers[int(i)]
            for s1, s2 in self._inside_stretches(seg, area.polygon, d):
                if s1 <= _EPS:
                    s1 = max(s1, self.see_into)
                if s2 >= d - _EPS:
                    s2 = min(s2, d - self.see_into)
                if s2 - s1 <= 1e-7:
                    continue
                # the sight line's height at both ends of the stretch; the area's top is flat, so
                # it rises above the line on one sub-stretch (where the line is below the top)
                h1 = la + (lb - la) * s1 / d
                h2 = la + (lb - la) * s2 / d
                if area.top <= min(h1, h2) + 1e-9:
                    continue
                start, end = s1, s2
                if area.top <= h1:   # the line starts above the top and dips below it
                    start = s1 + (s2 - s1) * (h1 - area.top) / (h1 - h2)
                elif area.top <= h2:   # the line starts below the top and climbs above it
                    end = s1 + (s2 - s1) * (area.top - h1) / (h2 - h1)
                pt = seg.interpolate(start)
                blocks.append(LosBlock(area.kind, area.name, area.ref, start, end, (pt.x, pt.y)))
        blocks.sort(key=lambda x: (x.start, x.kind, x.name))
        return TableLos(not blocks, tuple(blocks), (la, lb), d)

    @staticmethod
    def _inside_stretches(seg: LineString, poly: Polygon, d: float) -> list[tuple[float, float]]:
        """The stretches (from, to; inches along ``seg``) where the segment runs inside the
        polygon's interior (stretches along its outline left out)."""
        out = []
        boundary = poly.boundary
        for piece in _lines(seg.intersection(poly).difference(boundary)):
            if piece.length <= _EPS:
                continue
            mid = piece.interpolate(0.5, normalized=True)
            if boundary.distance(mid) <= 1e-7:   # along a wall or an edge: not inside
                continue
            p0, p1 = piece.coords[0], piece.coords[-1]
            s1, s2 = sorted((seg.project(Point(p0)), seg.project(Point(p1))))
            out.append((s1, s2))
        return out

    def blocks_los(self, a: XY, b: XY) -> bool:
        """True when terrain blocks the line of sight between ``a`` and ``b`` (:meth:`line_of_sight`)."""
        return not self.line_of_sight(a, b).clear

    def crosses_obstacle(self, a: XY, b: XY, *, tank_traps: bool = True) -> list[Crossing]:
        """The obstacles (and tank traps, unless ``tank_traps=False``) a straight move from ``a``
        to ``b`` crosses, nearest first.

        Reaching an obstacle counts (a move that ends on a wall has crossed it; the next move, off
        the wall, has not): every obstacle the segment meets anywhere other than its start point.
        A field of tank traps is crossed when the move enters it.
        """
        a, b = _xy(a), _xy(b)
        if self.distance(a, b) <= _EPS:
            return []
        seg = LineString([a, b])
        start = Point(a)
        out = []
        for i in self._line_tree.query(seg, predicate="intersects"):
            o = self._lines[int(i)]
            if o.kind == "tank_traps" and not tank_traps:
                continue
            firsts = []
            for part in shapely.get_parts(seg.intersection(o.geometry)):
                if isinstance(part, Point) and start.distance(part) <= 1e-9:
                    continue   # it touches the move only where the move starts
                firsts.append(min(seg.project(Point(c)) for c in shapely.get_coordinates(part)))
            if not firsts:
                continue
            firsts.sort()
            pt = seg.interpolate(firsts[0])
            out.append(Crossing(o.id, o.kind, (pt.x, pt.y), firsts[0], len(firsts)))
        out.sort(key=lambda c: (c.distance, c.id))
        return out

    def cover(self, target: XY, firer: XY, target_kind: TargetKind = "man") -> Cover | None:
        """The cover a target at ``target`` has against fire from ``firer`` (seed 003, Cover Saves):
        the better of the ground's cover there (:meth:`terrain_at`) and that of each obstacle the
        line of fire crosses within ``behind`` inches of the target (:data:`OBSTACLE_COVER`).

        Vehicles (``"vehicle"``, ``"low_profile_vehicle"``) count hard cover only ("any vehicle
        behind hard cover, or any man in or behind hard or soft cover"); a low stone wall gives
        hard cover to a man and to a low-profile vehicle, none to other vehicles.
        """
        t, f = _xy(target), _xy(firer)
        best: Cover | None = self.terrain_at(t).cover
        d = self.distance(t, f)
        if d > _EPS and self.obstacles:
            k = min(self.behind, d) / d   # the first `behind` inches of the line of fire, from the target
            near = LineString([t, (t[0] + (f[0] - t[0]) * k, t[1] + (f[1] - t[1]) * k)])
            for i in self._line_tree.query(near, predicate="intersects"):
                o = self._lines[int(i)]
                got = OBSTACLE_COVER.get(o.kind)   # tank traps: none
                if o.kind == "low_stone_wall" and target_kind == "vehicle":
                    got = None
                if got == "hard" or (got == "soft" and best is None):
                    best = got
        if target_kind != "man" and best != "hard":
            return None
        return best

    def areas(self) -> list[TableArea]:
        """Every woods, building and hill area (the line-of-sight blockers)."""
        return list(self._blockers)


