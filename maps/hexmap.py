"""The in-memory map: fast per-hex lookups and derived geometry over a validated :class:`MapFile`.

A :class:`HexMap` is built once from a checked :class:`maps.model.MapFile` and not changed
afterwards (the editor edits the ``MapFile`` and builds a new ``HexMap``). It answers what the
rules ask of the map: terrain, trees, level, roads along hexes (8.52), gullies, bridges
(chart note a), which hexes a building symbol occupies, named features, sections.
"""

from __future__ import annotations

from functools import cached_property
from typing import Iterator

import shapely
from shapely.geometry import Polygon
from shapely.strtree import STRtree

from maps import hexgrid
from maps.content_cache import ContentCache, content_key
from maps.hexgrid import Hex
from maps.model import Building, HexRecord, MapFile

__all__ = ["HexMap", "UnknownHexError"]


class UnknownHexError(KeyError):
    """A hex id is malformed or not on this map."""

    def __str__(self) -> str:  # KeyError quotes its message; we want plain text
        return str(self.args[0]) if self.args else "unknown hex"


#: building symbols (and the extent) -> (polygons, hexes each occupies, buildings per hex), the
#: last few maps': shared read-only between the HexMaps of equal maps
_BUILDING_HEXES = ContentCache(8)


class HexMap:
    """A validated map with derived lookups.

    ``hexmap.hex("4307")`` parses and checks an id (raises :class:`UnknownHexError`);
    ``record(h)`` gives a hex's :class:`HexRecord` (a default clear record when not listed).
    """

    def __init__(self, doc: MapFile, chart=None, *, reuse: "HexMap | None" = None):
        """``reuse``: a HexMap of an earlier version of the same map (the editor's, before an edit);
        its road and gully links and its building hexes are taken over when ``doc`` has the same
        extent and the same (identical) road, gully and building lists: an edit of hexes does not
        recompute which hexes each building symbol occupies."""
        self.doc = doc
        self._chart = chart
        ex = doc.extent
        self.first_column, self.last_column = ex.first_column, ex.last_column
        self.first_row, self.last_row = ex.first_row, ex.last_row
        self._records: dict[Hex, HexRecord] = {}
        for rec in doc.hexes:
            self._records[hexgrid.parse_hex_id(rec.id)] = rec
        same = reuse is not None and reuse.doc.extent == ex
        if same and reuse.doc.roads is doc.roads and reuse.doc.gullies is doc.gullies:
            self.road_links, self.gully_links = reuse.road_links, reuse.gully_links
            self.road_hexes, self.gully_hexes = reuse.road_hexes, reuse.gully_hexes
        else:
            self._build_paths(doc)
        if same and reuse.doc.buildings is doc.buildings:
            self.buildings, self.building_polygons = reuse.buildings, reuse.building_polygons
            self.building_hexes, self._buildings_at = reuse.building_hexes, reuse._buildings_at
        else:
            self._build_buildings(doc)
        self.features = {f.name: f for f in doc.features}

    def _build_paths(self, doc: MapFile) -> None:
        self.road_links: dict[Hex, set[Hex]] = {}
        self.gully_links: dict[Hex, set[Hex]] = {}
        self.road_hexes: set[Hex] = set()
        self.gully_hexes: set[Hex] = set()
        for paths, links, members in ((doc.roads, self.road_links, self.road_hexes),
                                      (doc.gullies, self.gully_links, self.gully_hexes)):
            for path in paths:
                hs = [hexgrid.parse_hex_id(t) for t in path]
                members.update(hs)
                for a, b in zip(hs, hs[1:]):
                    links.setdefault(a, set()).add(b)
                    links.setdefault(b, set()).add(a)

    def _build_buildings(self, doc: MapFile) -> None:
        # the same building symbols on the same extent occupy the same hexes: another document of
        # the same map (an editor window opened again, a scenario's copy of its map) takes them over
        ex = doc.extent
        key = (ex.first_column, ex.last_column, ex.first_row, ex.last_row, content_key(doc.buildings))
        self.buildings: dict[str, Building] = {b.id: b for b in doc.buildings}
        hit = _BUILDING_HEXES.get(key)
        if hit is not None:
            self.building_polygons, self.building_hexes, self._buildings_at = hit
            return
        self.building_polygons: dict[str, Polygon] = {b.id: Polygon(b.polygon) for b in doc.buildings}
        for p in self.building_polygons.values():
            shapely.prepare(p)
        self.building_hexes: dict[str, frozenset[Hex]] = {}
        self._buildings_at: dict[Hex, list[str]] = {}
        for bid, poly in self.building_polygons.items():
            hs = self._hexes_overlapped_by(poly)
            self.building_hexes[bid] = frozenset(hs)
            for h in hs:
                self._buildings_at.setdefault(h, []).append(bid)
        _BUILDING_HEXES.put(key, (self.building_polygons, self.building_hexes, self._buildings_at))

    @property
    def chart(self):
        """The terrain effects chart the map is played with (:class:`maps.terrain_chart.TerrainChart`):
        the one given when the map was built (:func:`maps.mapfile.load_map` resolves the file's
        ``terrain_chart``), else the embedded chart, else the shipped chart. A map that names a
        chart file must be built with that chart (raises ValueError otherwise)."""
        if self._chart is not None:
            return self._chart
        ref = self.doc.terrain_chart
        if ref is None:
            from maps.los import default_chart

            return default_chart()
        if isinstance(ref, str):
            raise ValueError(f"map {self.name!r} names the terrain chart file {ref!r}, which was not loaded "
                             "(build the map with maps.mapfile.load_map)")
        return ref

    # ------------------------------------------------------------------ hexes
    @property
    def name(self) -> str:
        return self.doc.name

    def contains(self, h: Hex) -> bool:
        """True when ``h`` lies inside the map's extent."""
        return self.first_column <= h.col <= self.last_column and self.first_row <= h.row <= self.last_row

    def hex(self, text: str | Hex) -> Hex:
        """Parse ``text`` (``"4307"``) and check it is on the map; raises :class:`UnknownHexError`."""
        if isinstance(text, Hex):
            h = text
        else:
            try:
                h = hexgrid.parse_hex_id(text)
            except hexgrid.HexIdError as e:
                raise UnknownHexError(str(e)) from None
        if not self.contains(h):
            raise UnknownHexError(
                f"hex {h.id} is not on map {self.name!r} (columns {self.first_column:02d}-{self.last_column:02d}, "
                f"rows {self.first_row:02d}-{self.last_row:02d})")
        return h

    def all_hexes(self) -> Iterator[Hex]:
        """Every hex of the map, column by column."""
        return hexgrid.iter_block(self.first_column, self.last_column, self.first_row, self.last_row)

    @cached_property
    def hex_count(self) -> int:
        return (self.last_column - self.first_column + 1) * (self.last_row - self.first_row + 1)

    def record(self, h: Hex) -> HexRecord:
        """The hex's attributes; a default (clear, no trees, level 0) record when not listed."""
        rec = self._records.get(h)
        if rec is None:
            rec = HexRecord(id=h.id)
        return rec

    def terrain(self, h: Hex) -> str:
        rec = self._records.get(h)
        return rec.terrain if rec else "clear"

    def trees(self, h: Hex) -> int:
        """Number of tree symbols in the hex (0 off the map)."""
        rec = self._records.get(h)
        return rec.trees if rec else 0

    def level(self, h: Hex) -> int:
        """The hex's level for all rules (10.34: the lower of two elevations)."""
        rec = self._records.get(h)
        return rec.level if rec else 0

    def is_marsh(self, h: Hex) -> bool:
        return self.terrain(h) == "marsh"

    def is_woods(self, h: Hex) -> bool:
        """A Woods hex has two or more tree symbols (8.54)."""
        return self.trees(h) >= 2

    # ------------------------------------------------------------------ paths
    def is_road(self, h: Hex) -> bool:
        return h in self.road_hexes

    def road_connected(self, a: Hex, b: Hex) -> bool:
        """True when the road runs from ``a`` directly into adjacent ``b`` (8.52 "along the road")."""
        return b in self.road_links.get(a, ())

    def is_gully(self, h: Hex) -> bool:
        return h in self.gully_hexes

    def is_bridge(self, h: Hex) -> bool:
        """A Bridge hex is a Road hex that crosses a Gully (chart note a)."""
        return h in self.road_hexes and h in self.gully_hexes

    # ------------------------------------------------------------------ buildings
    def _hexes_overlapped_by(self, poly: Polygon) -> list[Hex]:
        minx, miny, maxx, maxy = poly.bounds
        c0, c1 = int(minx // 3) - 1, int(maxx // 3) + 1
        r0, r1 = int(miny // 2) - 1, int(maxy // 2) + 1
        out = []
        for c in range(max(c0, self.first_column), min(c1, self.last_column) + 1):
            for r in range(max(r0, self.first_row), min(r1, self.last_row) + 1):
                h = Hex(c, r)
                hp = hexgrid.hex_polygon(h)
                if poly.intersects(hp) and poly.intersection(hp).area > 1e-9:
                    out.append(h)
        return out

    def buildings_at(self, h: Hex) -> list[str]:
        """Ids of the building symbols occupying hex ``h`` (usually zero or one)."""
        return list(self._buildings_at.get(h, ()))

    def is_building_hex(self, h: Hex) -> bool:
        """A building hex is a hex that a building symbol occupies."""
        return h in self._buildings_at

    def is_multi_hex_building(self, building_id: str) -> bool:
        return len(self.building_hexes[building_id]) > 1

    def building_by_name(self, name: str) -> Building | None:
        """The building whose display name is ``name`` ("Building 1"), or None."""
        for b in self.buildings.values():
            if b.display_name() == name:
                return b
        return None

    @cached_property
    def building_tree(self) -> tuple[STRtree, list[str]]:
        """An STRtree over the building polygons and the building ids in tree order."""
        ids = list(self.building_polygons)
        return STRtree([self.building_polygons[i] for i in ids]), ids

    # ------------------------------------------------------------------ features and sections
    def feature_hexes(self, name: str) -> frozenset[Hex]:
        """Hexes of a named feature ("Hill K") or building ("Building 1"); raises KeyError."""
        f = self.features.get(name)
        if f is not None:
            return frozenset(hexgrid.parse_hex_id(t) for t in f.hexes)
        b = self.building_by_name(name)
        if b is not None:
            return self.building_hexes[b.id]
        raise KeyError(f"map {self.name!r} has no feature or building named {name!r}")

    def section_columns(self, name: str) -> tuple[int, int]:
        """(first, last) column of a named section; raises KeyError."""
        for s in self.doc.sections:
            if s.name == name:
                return s.first_column, s.last_column
        raise KeyError(f"map {self.name!r} has no section named {name!r}")

    def sections_of(self, h: Hex) -> list[str]:
        """Names of the sections containing ``h`` (boundary columns belong to both)."""
        return [s.name for s in self.doc.sections if s.first_column <= h.col <= s.last_column]

    def summary(self) -> dict[str, int]:
        """Counts a designer checks at a glance."""
        return {
            "hexes": self.hex_count,
            "sections": len(self.doc.sections),
            "tree_hexes": sum(1 for r in self._records.values() if r.trees > 0),
            "woods_hexes": sum(1 for r in self._records.values() if r.trees >= 2),
            "marsh_hexes": sum(1 for r in self._records.values() if r.terrain == "marsh"),
            "hill_hexes": sum(1 for r in self._records.values() if r.level > 0),
            "buildings": len(self.buildings),
            "building_hexes": len(self._buildings_at),
            "road_hexes": len(self.road_hexes),
            "gully_hexes": len(self.gully_hexes),
            "bridges": len(self.road_hexes & self.gully_hexes),
            "features": len(self.features),
        }
