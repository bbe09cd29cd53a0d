"""The map file model (pydantic): what a map JSON file holds.

A map file is JSON with ``"format": "ironcross-map"`` and an integer ``"version"``. Geometry is in
integer lattice map units (see :mod:`maps.hexgrid`): hex centre of (col, row) at
``(3*col, 2*row + col % 2)``; one unit is 5/sqrt(3) m across and 5 m down.

Per-hex attributes live on :class:`HexRecord` (hexes not listed are clear, no trees, level 0);
vector features are building polygons (:class:`Building`), road and gully paths (consecutive
hexes adjacent; a road hex on a gully is a bridge), and named features (:class:`NamedFeature`,
e.g. "Hill K" = a set of hexes), linear obstacles (:class:`Obstacle`: walls, low stone walls,
hedges, fences) and tank traps (:class:`TankTraps`) for the measured rule systems that read the
map as a table (:mod:`maps.table_map`; Iron Cross ignores both), and the terrain chart the map is played with (``terrain_chart``:
absent = the shipped chart, a chart file's path, or the chart embedded). Semantic checks that need
the whole file (ids inside the extent, hexes listed twice, non-adjacent path steps, invalid
polygons, the chart) are in :mod:`maps.mapfile`.

The JSON Schema of this model is exported to ``docs/schema/map.schema.json``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from maps.json_file import json_tuple

from maps.provenance import Provenance
from maps.terrain_chart import TerrainChart

__all__ = [
    "MAP_FORMAT",
    "MAP_VERSION",
    "TERRAINS",
    "Extent",
    "Section",
    "HexRecord",
    "Building",
    "NamedFeature",
    "OBSTACLE_KINDS",
    "Obstacle",
    "TankTraps",
    "MapFile",
]

MAP_FORMAT = "ironcross-map"
MAP_VERSION = 1

#: Base terrain of a hex. Roads, gullies (paths), buildings (polygons), trees (a count) and hill
#: levels are separate attributes that combine with it.
TERRAINS: tuple[str, ...] = ("clear", "marsh")
Terrain = Literal["clear", "marsh"]

HexIdStr = str


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Extent(_Strict):
    """Columns and rows the map spans, inclusive (the mapsheet: columns 10-70, rows 01-27)."""

    first_column: int = Field(ge=0, le=99)
    last_column: int = Field(ge=0, le=99)
    first_row: int = Field(ge=0, le=99)
    last_row: int = Field(ge=0, le=99)


class Section(_Strict):
    """A named map section by column range, inclusive (rule 2.1: "Map 2" = columns 30-50).

    Boundary columns belong to both neighbouring sections.
    """

    name: str = Field(min_length=1)
    first_column: int = Field(ge=0, le=99)
    last_column: int = Field(ge=0, le=99)


class HexRecord(_Strict):
    """Attributes of one hex.

    ``level`` is the hill level that counts (10.34: a hex with two elevations is at the lower);
    ``upper_level`` records the higher elevation drawn in part of such a hex (None when the hex
    has one elevation). ``trees`` is the number of tree symbols (2 or more make a Woods hex, 8.54).
    ``provenance`` overrides the map's default provenance for this hex's values.
    """

    id: HexIdStr
    terrain: Terrain = "clear"
    trees: int = Field(default=0, ge=0, le=9)
    level: int = Field(default=0, ge=0, le=9)
    upper_level: int | None = Field(default=None, ge=0, le=9)
    provenance: Provenance | None = None
    note: str | None = None


MapPoint = json_tuple(tuple[float, float])


class Building(_Strict):
    """A building symbol: one polygon in lattice map units, spanning one or several hexes.

    ``number`` is the printed building number where the map prints one ("Building 1");
    ``name`` defaults to ``"Building <number>"``. The hexes it occupies are computed from the
    polygon (a hex whose interior the polygon overlaps is a building hex).
    """

    id: str = Field(min_length=1)
    number: int | None = Field(default=None, ge=1, le=99)
    name: str | None = None
    polygon: list[MapPoint] = Field(min_length=3)
    #: Rooms (20 mm seed 003, "Infantry Moving and Firing in Buildings"): polygons in lattice map
    #: units inside ``polygon``, not overlapping, partitioning it. Absent (None) = one room (or a
    #: large building without rooms); left out of the saved file when absent.
    rooms: list[list[MapPoint]] | None = None
    #: Doors and windows on the outline or on a room wall; absent (None) = every wall counts as
    #: having doors and windows (the reading before openings existed).
    openings: list["Opening"] | None = None
    provenance: Provenance | None = None
    note: str | None = None

    def display_name(self) -> str:
        """``name``, else ``"Building <number>"``, else the id."""
        if self.name:
            return self.name
        if self.number is not None:
            return f"Building {self.number}"
        return self.id


#: Kinds of opening in a building wall (seed 003: doors pass freely, windows only are an obstacle).
OPENING_KINDS: tuple[str, ...] = ("door", "window")


class Opening(_Strict):
    """A door or window: ``{"kind": "door", "segment": [[x1, y1], [x2, y2]]}``, the segment in
    lattice map units lying on its building's outline or on one of its room walls (within
    :data:`maps.mapfile.OPENING_TOLERANCE` map units). Only measured rule systems read it."""

    kind: Literal["door", "window"]
    segment: list[MapPoint] = Field(min_length=2, max_length=2)
    provenance: Provenance | None = None
    note: str | None = None


Building.model_rebuild()


class NamedFeature(_Strict):
    """A named set of hexes: ``{"name": "Hill K", "kind": "hill", "hexes": [...]}``."""

    name: str = Field(min_length=1)
    kind: Literal["hill", "area", "other"] = "area"
    hexes: list[HexIdStr] = Field(min_length=1)
    provenance: Provenance | None = None


#: Kinds of linear obstacle (the 20 mm rules, seed 003: "Obstacles", "Cover Saves": a stone wall is
#: hard cover, low stone walls hard cover only for low-profile tanks, a bush or hedge soft cover).
#: What each kind means on the table is in ``docs/table-map.md``.
OBSTACLE_KINDS: tuple[str, ...] = ("wall", "low_stone_wall", "hedge", "fence")
ObstacleKind = Literal["wall", "low_stone_wall", "hedge", "fence"]



class Obstacle(_Strict):
    """A linear obstacle: a polyline in lattice map units (at least two points), e.g.
    ``{"id": "W1", "kind": "wall", "line": [[30, 10], [36, 10]]}``.

    Only measured rule systems read it (:mod:`maps.table_map`); Iron Cross ignores it. ``id`` is
    unique among the map's obstacles and tank traps.
    """

    id: str = Field(min_length=1)
    kind: ObstacleKind
    line: list[MapPoint] = Field(min_length=2)
    provenance: Provenance | None = None
    note: str | None = None


class TankTraps(_Strict):
    """Tank traps (dragon's teeth, a ditch): a row along a polyline (``line``, at least two points)
    or a field (``polygon``, at least three corners), in lattice map units; exactly one of the two.

    Impassable to vehicles in the 20 mm rules (seed 003); Iron Cross ignores them. ``id`` is unique
    among the map's obstacles and tank traps.
    """

    id: str = Field(min_length=1)
    line: list[MapPoint] | None = Field(default=None, min_length=2)
    polygon: list[MapPoint] | None = Field(default=None, min_length=3)
    provenance: Provenance | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _line_or_polygon(self) -> "TankTraps":
        if (self.line is None) == (self.polygon is None):
            raise ValueError("tank traps need exactly one of 'line' (a row) or 'polygon' (a field)")
        return self


class MapFile(_Strict):
    """A whole map file (format ``ironcross-map``)."""

    format: Literal["ironcross-map"] = MAP_FORMAT
    version: int = MAP_VERSION
    name: str = Field(min_length=1)
    description: str = ""
    extent: Extent
    sections: list[Section] = Field(default_factory=list)
    provenance: Provenance | None = None
    hexes: list[HexRecord] = Field(default_factory=list)
    buildings: list[Building] = Field(default_factory=list)
    roads: list[list[HexIdStr]] = Field(default_factory=list)
    gullies: list[list[HexIdStr]] = Field(default_factory=list)
    features: list[NamedFeature] = Field(default_factory=list)
    #: Linear obstacles and tank traps (measured rule systems only; absent = none, and left out of
    #: the saved file when empty, so maps without them save exactly as before).
    obstacles: list[Obstacle] = Field(default_factory=list)
    tank_traps: list[TankTraps] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    #: The terrain effects chart the map is played with: absent (None) = the shipped chart
    #: (``maps/data/terrain_chart.json``); a string = a chart file, relative to the map file's folder
    #: (or absolute); an object = the chart embedded in the map file (the editor saves a chart the
    #: designer edited this way). :func:`maps.mapfile.map_chart` resolves it.
    terrain_chart: str | TerrainChart | None = None
