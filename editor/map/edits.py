"""Pure map edits for the editor: no Qt here (testable without a window, as napari's tools are).

Every function takes the current :class:`maps.model.MapFile` (and, where geometry is needed, its
:class:`maps.hexmap.HexMap`) and returns *new* values (hex records, building lists, path lists);
nothing is changed in place. Model objects are treated as immutable values, so an undo command
can keep the previous fragments by reference and restore them exactly.

The functions here decide *what* an edit produces; :mod:`editor.map.commands` wraps each kind of edit
in a ``QUndoCommand`` and :class:`editor.map.document.MapDocument` applies them.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from dataclasses import dataclass
from typing import Callable, Iterable

from shapely.geometry import Polygon
from shapely.ops import unary_union

from maps import building_shapes, hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.model import Building, Extent, HexRecord, MapFile, NamedFeature
from maps.provenance import Provenance

__all__ = [
    "DESIGNER",
    "TERRAIN_KINDS",
    "set_hex_attrs",
    "brush_hexes",
    "flood_region",
    "buildings_without_hexes",
    "building_for_hexes",
    "next_building_id",
    "snap_to_lattice",
    "Region",
    "copy_region",
    "paste_region",
    "free_feature_name",
    "resize_map",
    "extend_path",
    "adjacent",
]

#: Provenance of a value a designer set in the editor.
#: a reshaped building's rooms and doors/windows no longer fit its outline: they are dropped
RESHAPED = {"rooms": None, "openings": None}

DESIGNER = Provenance(source="designer")

#: What the terrain brush paints (the base terrain of a hex, :data:`maps.model.TERRAINS`).
TERRAIN_KINDS: tuple[str, ...] = ("clear", "marsh")


def adjacent(a: Hex, b: Hex) -> bool:
    return hexgrid.distance(a, b) == 1


def hex_walk(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a road drawn from ``a`` to ``b`` runs through, hex to adjacent hex, as close to
    the straight line between their centres as hexes go: ``distance(a, b) + 1`` hexes from ``a``
    to ``b``. Each step goes to the neighbour nearer ``b``; among equals, the one whose centre
    lies nearest the line (then the lower hex id), so the same two waypoints always give the same
    hexes. Off-map hexes are not checked (the caller keeps to the map)."""
    ax, ay = hexgrid.centre(a)
    bx, by = hexgrid.centre(b)
    dx, dy = bx - ax, by - ay

    def off_line(h: Hex) -> float:
        x, y = hexgrid.centre(h)
        return abs((x - ax) * dy - (y - ay) * dx)

    out = [a]
    cur = a
    while cur != b:
        d = hexgrid.distance(cur, b)
        cur = min((n for n in hexgrid.neighbours(cur) if hexgrid.distance(n, b) < d),
                  key=lambda n: (off_line(n), n.id))
        out.append(cur)
    return out


def set_hex_attrs(records: dict[str, HexRecord], hexes: Iterable[Hex], fn: Callable[[HexRecord], dict]
                  ) -> dict[str, HexRecord]:
    """New records for ``hexes``: ``fn(current_record)`` gives the fields to change.

    Hexes whose values would not change are left out. Changed records get designer provenance.
    """
    out: dict[str, HexRecord] = {}
    for h in hexes:
        hid = h.id
        cur = records.get(hid) or HexRecord(id=hid)
        upd = fn(cur)
        if all(getattr(cur, k) == v for k, v in upd.items()):
            continue
        if "level" in upd and cur.upper_level is not None and upd["level"] >= cur.upper_level:
            upd["upper_level"] = None  # 10.34: the hex is then wholly at the new level
        upd["provenance"] = DESIGNER
        out[hid] = cur.model_copy(update=upd)
    return out


def brush_hexes(hexmap: HexMap, centre: Hex, size: int) -> list[Hex]:
    """The hexes a brush of ``size`` (1, 7 or 19 hexes) covers around ``centre``, on the map only."""
    radius = {1: 0, 7: 1, 19: 2}.get(size)
    if radius is None:
        raise ValueError(f"brush size must be 1, 7 or 19 hexes, not {size}")
    return [h for h in hexgrid.area(centre, radius) if hexmap.contains(h)]


def flood_region(hexmap: HexMap, start: Hex, key: Callable[[Hex], object]) -> list[Hex]:
    """Every hex 6-connected to ``start`` (through hexsides, cube neighbours) with the same ``key``.

    Breadth-first from ``start``; never leaves the map. Offset "diagonal-looking" links of the
    odd-q layout are real hexside neighbours and are followed.
    """
    if not hexmap.contains(start):
        return []
    want = key(start)
    seen = {start}
    order = [start]
    q = deque([start])
    while q:
        h = q.popleft()
        for n in hexgrid.neighbours(h):
            if n not in seen and hexmap.contains(n) and key(n) == want:
                seen.add(n)
                order.append(n)
                q.append(n)
    return order


# ------------------------------------------------------------------------------------------
# Buildings
# ------------------------------------------------------------------------------------------
def _hexes_of_polygon(poly) -> set[Hex]:
    minx, miny, maxx, maxy = poly.bounds
    out = set()
    for c in range(int(minx // 3) - 1, int(maxx // 3) + 2):
        for r in range(int(miny // 2) - 1, int(maxy // 2) + 2):
            h = Hex(c, r)
            if poly.intersection(hexgrid.hex_polygon(h)).area > 1e-9:
                out.add(h)
    return out


@lru_cache(maxsize=4096)
def _polygon_hexes(coords: tuple) -> frozenset[Hex]:
    return frozenset(_hexes_of_polygon(Polygon(coords)))


class BuildingIndex:
    """Which hexes each building symbol occupies, for brushes: like the building part of a
    :class:`HexMap`, but each polygon's hexes are cached, so rebuilding it after a building edit
    is cheap. Provides ``contains``, ``buildings``, ``building_polygons``, ``building_hexes``
    and ``buildings_at``."""

    def __init__(self, doc: MapFile):
        ex = doc.extent
        self._ext = (ex.first_column, ex.last_column, ex.first_row, ex.last_row)
        self.buildings = {b.id: b for b in doc.buildings}
        self.building_polygons = {b.id: Polygon(b.polygon) for b in doc.buildings}
        c0, c1, r0, r1 = self._ext
        self.building_hexes = {b.id: frozenset(h for h in _polygon_hexes(tuple(map(tuple, b.polygon)))
                                               if c0 <= h.col <= c1 and r0 <= h.row <= r1) for b in doc.buildings}
        self._at: dict[Hex, list[str]] = {}
        for bid, hs in self.building_hexes.items():
            for h in hs:
                self._at.setdefault(h, []).append(bid)

    def contains(self, h: Hex) -> bool:
        c0, c1, r0, r1 = self._ext
        return c0 <= h.col <= c1 and r0 <= h.row <= r1

    def buildings_at(self, h: Hex) -> list[str]:
        return list(self._at.get(h, ()))


def buildings_without_hexes(doc: MapFile, hexmap: HexMap, hexes: Iterable[Hex]) -> list[Building] | None:
    """The buildings list with the building symbols taken out of ``hexes``; None when no building
    occupies any of them.

    A one-hex symbol is removed; a multi-hex symbol loses the part in those hexes (the cut edge is
    inset like a symbol's edge, :func:`maps.building_shapes.footprint`); if it falls apart, each
    piece becomes its own building (the first keeps the id, number and name).
    """
    hs = set(hexes)
    hit = {bid for h in hs for bid in hexmap.buildings_at(h)}
    if not hit:
        return None
    out: list[Building] = []
    taken = {b.id for b in doc.buildings}
    for b in doc.buildings:
        if b.id not in hit:
            out.append(b)
            continue
        remaining = hexmap.building_hexes[b.id] - hs
        if not remaining:
            continue
        poly = hexmap.building_polygons[b.id]
        cut = poly.intersection(unary_union([hexgrid.hex_polygon(h) for h in remaining]).buffer(
            -building_shapes.DEFAULT_INSET, join_style="mitre"))
        parts = sorted((p for p in getattr(cut, "geoms", [cut]) if p.geom_type == "Polygon" and p.area > 1e-6),
                       key=lambda p: -p.area)
        for i, p in enumerate(parts):
            coords = [tuple(c) for c in building_shapes.polygon_coords(Polygon(p.exterior))]
            if i == 0:
                out.append(b.model_copy(update={"polygon": coords, "provenance": DESIGNER, **RESHAPED}))
            else:
                nid = next_building_id(taken, f"{b.id}-{i + 1}")
                taken.add(nid)
                out.append(Building(id=nid, polygon=coords, provenance=DESIGNER))
    return out


def next_building_id(taken: Iterable[str], base: str) -> str:
    """``base`` if free, else ``base-2``, ``base-3``..."""
    used = set(taken)
    if base not in used:
        return base
    n = 2
    while f"{base}-{n}" in used:
        n += 1
    return f"{base}-{n}"


def building_for_hexes(doc: MapFile, hexes: Iterable[Hex]) -> Building:
    """A new building symbol covering ``hexes`` (one connected group) with a fresh id."""
    hs = sorted(set(hexes))
    poly = building_shapes.footprint(hs)
    bid = next_building_id((b.id for b in doc.buildings), "B" + hs[0].id)
    return Building(id=bid, polygon=[tuple(c) for c in building_shapes.polygon_coords(poly)], provenance=DESIGNER)


def snap_to_lattice(x: float, y: float) -> tuple[int, int]:
    """The nearest lattice point that is a hex centre or a hex vertex (integer lattice coords).

    Hex centres are (3c, 2r + c%2); vertices are centre + (±2, 0) or (±1, ±1): together these are
    exactly the integer points (X, Y) with X + Y ... not every integer point qualifies, so pick
    the nearest of the candidates around (x, y) in true (metric) distance.
    """
    h = hexgrid.point_to_hex(x, y)
    cands = [hexgrid.centre(h)] + hexgrid.vertices(h)
    sx, sy = hexgrid.X_SCALE_M, hexgrid.Y_SCALE_M
    return min(cands, key=lambda p: ((p[0] - x) * sx) ** 2 + ((p[1] - y) * sy) ** 2)


# ------------------------------------------------------------------------------------------
# Copy / paste / rotate regions
# ------------------------------------------------------------------------------------------
Cube = tuple[int, int, int]


def _rot_cube(c: Cube) -> Cube:
    """Rotate a cube offset by 60 degrees (one hexside clockwise on the sheet)."""
    x, y, z = c
    return (-z, -x, -y)


def _rot_lattice(x: float, y: float) -> tuple[float, float]:
    """The same 60-degree rotation on lattice offsets: (X, Y) = (3x, x + 2z) in cube terms."""
    return ((x - 3 * y) / 2, (x + y) / 2)


@dataclass(frozen=True)
class Region:
    """A copied hex region, relative to its anchor hex (cube offsets), independent of position.

    ``cells`` maps a cube offset to ``(terrain, trees, level, upper_level)``; ``roads`` and
    ``gullies`` are links between two offsets inside the region; ``buildings`` are polygons (lattice
    offsets from the anchor's centre) of building symbols wholly inside the region, with number
    and name; ``features`` are the named features with hexes in the region, as
    ``(name, kind, offsets of their hexes inside the region)``. :meth:`rotated` turns the region
    by 60 degrees; six turns give it back.
    """

    cells: tuple[tuple[Cube, tuple], ...]
    roads: frozenset[frozenset[Cube]] = frozenset()
    gullies: frozenset[frozenset[Cube]] = frozenset()
    buildings: tuple[tuple[tuple[tuple[float, float], ...], int | None, str | None], ...] = ()
    features: tuple[tuple[str, str, frozenset[Cube]], ...] = ()

    def rotated(self, steps: int = 1) -> "Region":
        r = self
        for _ in range(steps % 6):
            r = Region(
                cells=tuple(sorted((_rot_cube(c), v) for c, v in r.cells)),
                roads=frozenset(frozenset(_rot_cube(c) for c in link) for link in r.roads),
                gullies=frozenset(frozenset(_rot_cube(c) for c in link) for link in r.gullies),
                buildings=tuple((tuple(_round_pt(_rot_lattice(*p)) for p in poly), n, name)
                                for poly, n, name in r.buildings),
                features=tuple((name, kind, frozenset(_rot_cube(c) for c in offs)) for name, kind, offs in r.features),
            )
        return r

    def __len__(self) -> int:
        return len(self.cells)


def _round_pt(p: tuple[float, float]) -> tuple[float, float]:
    return (round(p[0], 6) + 0.0, round(p[1], 6) + 0.0)


def _offset(anchor: Hex, h: Hex) -> Cube:
    a, b = hexgrid.to_cube(anchor), hexgrid.to_cube(h)
    return (b[0] - a[0], b[1] - a[1], b[2] - a[2])


def _at(anchor: Hex, off: Cube) -> Hex:
    a = hexgrid.to_cube(anchor)
    return hexgrid.from_cube(a[0] + off[0], a[1] + off[1], a[2] + off[2])


def copy_region(hexmap: HexMap, hexes: Iterable[Hex], anchor: Hex | None = None) -> Region:
    """Copy the per-hex values, road/gully links and whole building symbols of ``hexes``."""
    hs = sorted(set(hexes))
    if not hs:
        return Region(cells=())
    anchor = anchor or hs[0]
    inside = set(hs)
    cells = []
    for h in hs:
        rec = hexmap.record(h)
        cells.append((_offset(anchor, h), (rec.terrain, rec.trees, rec.level, rec.upper_level)))
    roads = frozenset(frozenset((_offset(anchor, a), _offset(anchor, b)))
                      for a in inside for b in hexmap.road_links.get(a, ()) if b in inside)
    gullies = frozenset(frozenset((_offset(anchor, a), _offset(anchor, b)))
                        for a in inside for b in hexmap.gully_links.get(a, ()) if b in inside)
    ax, ay = hexgrid.centre(anchor)
    blds = []
    for bid, bh in hexmap.building_hexes.items():
        if bh and bh <= inside:
            b = hexmap.buildings[bid]
            blds.append((tuple(_round_pt((x - ax, y - ay)) for x, y in b.polygon), b.number, b.name))
    feats = []
    for f in hexmap.doc.features:
        offs = frozenset(_offset(anchor, h) for h in map(hexgrid.parse_hex_id, f.hexes) if h in inside)
        if offs:
            feats.append((f.name, f.kind, offs))
    return Region(cells=tuple(sorted(cells)), roads=roads, gullies=gullies, buildings=tuple(sorted(blds, key=repr)),
                  features=tuple(feats))


def free_feature_name(taken: Iterable[str], name: str) -> str:
    """``name`` if no feature is called so (case-insensitively), else ``name (2)``, ``name (3)``..."""
    used = {t.casefold() for t in taken}
    if name.casefold() not in used:
        return name
    n = 2
    while f"{name} ({n})".casefold() in used:
        n += 1
    return f"{name} ({n})"


def paste_region(doc: MapFile, hexmap: HexMap, region: Region, anchor: Hex
                 ) -> tuple[dict[str, HexRecord], dict[str, list]]:
    """What pasting ``region`` with its anchor at ``anchor`` changes: new hex records and new values
    of the list fields (``roads``, ``gullies``, ``buildings``) that change. Parts off the map are
    dropped. Building symbols already in the target hexes are replaced. The region's named
    features are added with their pasted hexes, under their own name when no feature of the
    map has it, else with a suffix (:func:`free_feature_name`); features already there keep
    their hexes."""
    recs = {r.id: r for r in doc.hexes}
    targets: dict[Hex, tuple] = {}
    for off, v in region.cells:
        h = _at(anchor, off)
        if hexmap.contains(h):
            targets[h] = v
    new_recs: dict[str, HexRecord] = {}
    for h, (terrain, trees, level, upper) in targets.items():
        cur = recs.get(h.id) or HexRecord(id=h.id)
        rec = cur.model_copy(update={"terrain": terrain, "trees": trees, "level": level, "upper_level": upper,
                                     "provenance": DESIGNER})
        if rec != cur:
            new_recs[h.id] = rec
    fields: dict[str, list] = {}
    for kind, links in (("roads", region.roads), ("gullies", region.gullies)):
        have = hexmap.road_links if kind == "roads" else hexmap.gully_links
        add = []
        for link in sorted(tuple(sorted(l)) for l in links):
            a, b = (_at(anchor, o) for o in link)
            if hexmap.contains(a) and hexmap.contains(b) and b not in have.get(a, ()):
                add.append([a.id, b.id])
        if add:
            fields[kind] = list(getattr(doc, kind)) + add
    ax, ay = hexgrid.centre(anchor)
    new_blds = []
    taken = {b.id for b in doc.buildings}
    for poly, number, name in region.buildings:
        coords = [(round(x + ax, 3), round(y + ay, 3)) for x, y in poly]
        hs = _hexes_of_polygon(Polygon(coords))
        if not all(hexmap.contains(h) for h in hs):
            continue
        bid = next_building_id(taken, "B" + min(hs).id)
        taken.add(bid)
        new_blds.append(Building(id=bid, number=None, name=name if name and number is None else None,
                                 polygon=coords, provenance=DESIGNER))
    cleared = buildings_without_hexes(doc, hexmap, targets)
    if cleared is not None or new_blds:
        fields["buildings"] = list(cleared if cleared is not None else doc.buildings) + new_blds
    new_feats = []
    names = [f.name for f in doc.features]
    for name, kind, offs in region.features:
        hs = sorted(h for h in (_at(anchor, o) for o in offs) if hexmap.contains(h))
        if not hs:
            continue
        fname = free_feature_name(names, name)
        names.append(fname)
        new_feats.append(NamedFeature(name=fname, kind=kind, hexes=[h.id for h in hs], provenance=DESIGNER))
    if new_feats:
        fields["features"] = list(doc.features) + new_feats
    return new_recs, fields


# ------------------------------------------------------------------------------------------
# Resize
# ------------------------------------------------------------------------------------------
def resize_map(doc: MapFile, hexmap: HexMap, *, left: int = 0, right: int = 0, top: int = 0, bottom: int = 0,
               grow_sections: bool = True) -> MapFile:
    """A copy of ``doc`` with columns/rows added (positive) or removed (negative) on each edge.

    Hex ids are absolute (printed), so every hex, feature, label, road and building keeps its hex
    and adjacency is unchanged. Removing drops what lies outside: hex records, path steps (a path
    cut in two becomes two paths), feature hexes (a feature left empty is dropped), building
    symbols (cut to the hexes that remain), obstacles and tank traps lying wholly off the map.
    Sections are clipped to the new columns; with ``grow_sections`` a section that ended on an
    old edge grows with the columns added there, without it it keeps its columns (where it is on
    the ground; a scenario on it keeps its playing area and edges). Raises
    ``ValueError`` when the map would be empty or leave columns/rows 00-99.
    """
    ex = doc.extent
    c0, c1 = ex.first_column - left, ex.last_column + right
    r0, r1 = ex.first_row - top, ex.last_row + bottom
    if c0 > c1 or r0 > r1:
        raise ValueError("the map would have no hexes left")
    if min(c0, r0) < 0 or max(c1, r1) > 99:
        raise ValueError(f"columns {c0}-{c1} / rows {r0}-{r1} do not fit four-digit hex ids (00-99)")

    def on(text: str) -> bool:
        h = hexgrid.parse_hex_id(text)
        return c0 <= h.col <= c1 and r0 <= h.row <= r1

    hexes = [r for r in doc.hexes if on(r.id)]

    def cut_paths(paths):
        out = []
        for p in paths:
            cur: list[str] = []
            for t in p:
                if on(t):
                    cur.append(t)
                else:
                    if cur:
                        out.append(cur)
                    cur = []
            if cur:
                out.append(cur)
        return out

    features = []
    for f in doc.features:
        kept = [t for t in f.hexes if on(t)]
        if kept:
            features.append(f.model_copy(update={"hexes": kept}))
    off_map = [h for h in hexmap.all_hexes() if not (c0 <= h.col <= c1 and r0 <= h.row <= r1)]
    buildings = buildings_without_hexes(doc, hexmap, off_map)
    extent = Extent(first_column=c0, last_column=c1, first_row=r0, last_row=r1)
    obstacles, tank_traps = _vectors_on(doc, extent)
    sections = []
    for s in doc.sections:
        a, b = max(s.first_column, c0), min(s.last_column, c1)
        if a <= b:
            # a section that ended on the old edge grows with the map
            if grow_sections and s.first_column == ex.first_column:
                a = c0
            if grow_sections and s.last_column == ex.last_column:
                b = c1
            sections.append(s.model_copy(update={"first_column": a, "last_column": b}))
    return doc.model_copy(update={
        "extent": extent,
        "hexes": hexes,
        "roads": cut_paths(doc.roads),
        "gullies": cut_paths(doc.gullies),
        "features": features,
        "buildings": buildings if buildings is not None else list(doc.buildings),
        "sections": sections,
        "obstacles": obstacles,
        "tank_traps": tank_traps,
    })


def _vectors_on(doc: MapFile, extent: Extent) -> tuple[list, list]:
    """The obstacles and tank traps of ``doc`` that still meet a map of ``extent`` (the others are
    dropped by a resize; the same lists when none is)."""
    from shapely.geometry import LineString
    from maps.mapfile import extent_polygon

    box = extent_polygon(extent)

    def meets(rec) -> bool:
        pts = getattr(rec, "polygon", None) or rec.line
        return (Polygon(pts) if getattr(rec, "polygon", None) else LineString(pts)).intersects(box)

    obstacles = [o for o in doc.obstacles if meets(o)]
    traps = [t for t in doc.tank_traps if meets(t)]
    return (obstacles if len(obstacles) < len(doc.obstacles) else doc.obstacles,
            traps if len(traps) < len(doc.tank_traps) else doc.tank_traps)


# ------------------------------------------------------------------------------------------
# Paths
# ------------------------------------------------------------------------------------------
def extend_path(paths: list[list[str]], index: int | None, h: Hex) -> tuple[list[list[str]], int]:
    """Paths with ``h`` appended to path ``index`` (a new path when None); returns (paths, index).

    Raises ``ValueError`` when ``h`` is not adjacent to the path's last hex (paths step between
    adjacent hexes only).
    """
    out = [list(p) for p in paths]
    if index is None:
        out.append([h.id])
        return out, len(out) - 1
    last = hexgrid.parse_hex_id(out[index][-1])
    if last == h:
        return out, index
    if not adjacent(last, h):
        raise ValueError(f"{h.id} is not adjacent to {last.id}: a path steps from hex to adjacent hex")
    out[index].append(h.id)
    return out, index
