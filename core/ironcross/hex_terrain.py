"""What the rules need to know about a hex's terrain: chart rows, movement costs, dice, frontal areas.

Glue between the map (:class:`maps.hexmap.HexMap`), the terrain effects chart
(:mod:`maps.terrain_chart`) and the engine. Costs follow 8.5 (terrain by UP/DOWN state), 8.52 (road
rate along the road for NORMAL UP units), 8.53 (uphill); dice follow 11.31-11.34.
"""

from __future__ import annotations

from functools import lru_cache

from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap
from maps.terrain_chart import hex_row_keys

__all__ = ["HexTerrain", "in_frontal_area"]


class HexTerrain:
    """Per-map cache of chart rows per hex; ``chart`` is a :class:`maps.terrain_chart.TerrainChart`."""

    def __init__(self, hexmap: HexMap, chart):
        self.map = hexmap
        self.chart = chart
        self._rows: dict[str, list[str]] = {}
        self._dice: dict[tuple, int] = {}
        self._move: dict[tuple, float | None] = {}

    def building_kind(self, h: Hex) -> str | None:
        """"single" / "multi" when a building symbol occupies the hex, else None."""
        ids = self.map.buildings_at(h)
        if not ids:
            return None
        return "multi" if any(self.map.is_multi_hex_building(b) for b in ids) else "single"

    def rows(self, hex_id: str) -> list[str]:
        """Chart rows that apply to the hex, governing row first (see ``hex_row_keys``)."""
        r = self._rows.get(hex_id)
        if r is None:
            h = hexgrid.parse_hex_id(hex_id)
            r = hex_row_keys(terrain=self.map.terrain(h), trees=self.map.trees(h), level=self.map.level(h),
                             road=self.map.is_road(h), gully=self.map.is_gully(h), building=self.building_kind(h))
            self._rows[hex_id] = r
        return r

    def governing_row(self, hex_id: str, along_road: bool = False) -> str:
        """The row that sets costs and dice: road/bridge rows count only along the road (8.52)."""
        for k in self.rows(hex_id):
            if k in ("road", "bridge") and not along_road:
                continue
            return k
        return "clear"

    def is_building(self, hex_id: str) -> bool:
        return self.map.is_building_hex(hexgrid.parse_hex_id(hex_id))

    def trees(self, hex_id: str) -> int:
        return self.map.trees(hexgrid.parse_hex_id(hex_id))

    def level(self, hex_id: str) -> int:
        return self.map.level(hexgrid.parse_hex_id(hex_id))

    def is_marsh(self, hex_id: str) -> bool:
        return self.map.is_marsh(hexgrid.parse_hex_id(hex_id))

    def is_woods(self, hex_id: str) -> bool:
        return self.trees(hex_id) >= 2

    def move_cost(self, from_hex: str, to_hex: str, unit_kind: str, down: bool, road_rate: bool) -> float | None:
        """MP to move from ``from_hex`` into adjacent ``to_hex`` (8.5): the road rate of 1/2 MP when
        both are road hexes joined by the road and ``road_rate`` (NORMAL and UP, 8.52), else the
        governing row's cost for ``unit_kind`` ("infantry" or "afv") UP/DOWN, plus 1 uphill (8.53).
        None when prohibited. Remembered per question (the map and the chart do not change during
        a game)."""
        key = (from_hex, to_hex, unit_kind, down, road_rate)
        hit = self._move.get(key, -1)
        if hit == -1:
            hit = self._move[key] = self._move_cost(from_hex, to_hex, unit_kind, down, road_rate)
        return hit

    def _move_cost(self, from_hex: str, to_hex: str, unit_kind: str, down: bool, road_rate: bool) -> float | None:
        a, b = hexgrid.parse_hex_id(from_hex), hexgrid.parse_hex_id(to_hex)
        along = self.map.road_connected(a, b)
        if along and road_rate:
            cost: float | None = 0.5
        else:
            row = self.governing_row(to_hex, along_road=along and road_rate)
            cost = self._row_cost(row, unit_kind, down, self.trees(to_hex) if row in ("trees", "woods") else 0)
        if cost is None:
            return None
        la, lb = self.map.level(a), self.map.level(b)
        up = self._move.get(("uphill", la, lb))
        if up is None:
            up = self._move[("uphill", la, lb)] = self.chart.uphill_mp(la, lb)
        return cost + up

    def _row_cost(self, row: str, unit_kind: str, down: bool, trees: int) -> float | None:
        """The chart's move cost of ``row`` (:meth:`maps.terrain_chart.TerrainChart.move_cost`),
        remembered per question."""
        key = ("row", row, unit_kind, down, trees)
        hit = self._move.get(key, -1)
        if hit == -1:
            hit = self._move[key] = self.chart.move_cost(row, unit_kind, down, trees)
        return hit

    def entry_cost(self, to_hex: str, unit_kind: str, down: bool) -> float | None:
        """MP to enter the map at ``to_hex`` (the hex's own cost, no road rate, no uphill)."""
        row = self.governing_row(to_hex)
        return self._row_cost(row, unit_kind, down, self.trees(to_hex) if row in ("trees", "woods") else 0)

    def ap_dice(self, hex_id: str, *, target_down: bool, firer_moved: bool, afv_cover: bool, ip_points: int,
                ignore_trees: bool = False) -> int:
        """AP dice against an infantry/CW unit in ``hex_id`` (11.31-11.33, 18.3). With
        ``ignore_trees`` (mortars, 14.4) the hex's non-tree row is used. Remembered per
        question (the map and the chart do not change during a game)."""
        key = (hex_id, target_down, firer_moved, afv_cover, ip_points, ignore_trees)
        hit = self._dice.get(key)
        if hit is None:
            hit = self._dice[key] = self._ap_dice(hex_id, target_down, firer_moved, afv_cover, ip_points, ignore_trees)
        return hit

    def _ap_dice(self, hex_id: str, target_down: bool, firer_moved: bool, afv_cover: bool, ip_points: int,
                 ignore_trees: bool) -> int:
        rows = [k for k in self.rows(hex_id) if k not in ("road", "bridge")]
        if ignore_trees:
            rows = [k for k in rows if k not in ("trees", "woods")] or ["clear"]
        row = rows[0] if rows else "clear"
        trees = self.trees(hex_id) if row in ("trees", "woods") else 0
        return self.chart.ap_dice_total(row, trees, target_down=target_down, firer_moved=firer_moved,
                                        afv_cover=afv_cover, ip_points=ip_points)


def _cross(a: tuple[int, int], b: tuple[int, int]) -> int:
    return a[0] * b[1] - a[1] * b[0]


@lru_cache(maxsize=200_000)  # a pure function of three small values, asked again and again
def in_frontal_area(unit_hex: str, facing: int, target_hex: str) -> bool:
    """True when ``target_hex`` lies in the frontal area of a unit in ``unit_hex`` facing hexside
    ``facing`` (8.7, 10.23, 12.31): the 60-degree wedge from the unit's centre through the two
    vertices of its frontal hexside, boundaries included. Exact (integer cross products)."""
    if unit_hex == target_hex:
        return False
    u, t = hexgrid.parse_hex_id(unit_hex), hexgrid.parse_hex_id(target_hex)
    ux, _, uz = hexgrid.to_cube(u)
    tx, _, tz = hexgrid.to_cube(t)
    v = (tx - ux, tz - uz)
    d = hexgrid._CUBE_DIRS[facing]
    left = hexgrid._CUBE_DIRS[(facing - 2) % 6 + 1]
    right = hexgrid._CUBE_DIRS[facing % 6 + 1]
    a = (d[0] + left[0], d[2] + left[2])
    b = (d[0] + right[0], d[2] + right[2])
    s = _cross(a, b)
    return _cross(a, v) * s >= 0 and _cross(v, b) * s >= 0
