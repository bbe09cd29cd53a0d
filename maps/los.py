"""Line of sight (rule 10.3): the one LOS function of the toolkit.

The engine, the AI, the CLI and the editor all call :func:`line_of_sight`; nothing else decides
LOS. The result says clear or blocked, by which clause (10.31 a, b, c or 10.32), where and by
what, and carries the counts later rules need (11.16 b, 11.16 c, 23.2 d/e, 12.31).

How the rules are read (full text in ``docs/rules-interpretations.md``):

* The line runs from the centre of the firer's hex to the centre of the target's hex; the hexes
  it meets are exact (:func:`maps.hexgrid.line_hexes`). The firer's and the target's own hexes are
  never obstacles (10.33: LOS extends *into* a blocking hex): only *intermediate* hexes block,
  and building symbols count only where the line meets them outside those two hexes.
* 10.31 a: a building symbol blocks when the line crosses or touches the polygon (exact
  geometry); a hill hex of a higher elevation than the (common) level blocks when the line
  crosses it, runs along one of its hexsides or touches one of its corners.
* 10.31 b: trees, AFVs and wrecks of the intermediate hexes are added up; along a hexside the
  adjoining hex with the greater number counts; more than three blocks. A hex touched only at a
  corner does not count.
* 10.31 c: a DOWN firer's line through an intermediate Marsh hex (or along a hexside of one).
* 10.32 (different levels): the Sighting Chart as exact 2-D geometry. The lower unit stands at
  x = 0 at its level, the higher at x = range at its level; each intermediate hex the line
  crosses or runs along is an obstruction at x = its hex distance from the lower unit, as high
  as its ground level (hill), or its ground plus the chart's obstacle height for Woods and for a
  building symbol the line meets. An obstruction touching or rising above the sight line blocks.
* 10.34: a hex with two elevations is at the lower (the map's ``level``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Mapping

import shapely
from shapely.geometry import LineString

from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap

__all__ = ["HexOccupancy", "LosHex", "Obstruction", "LosResult", "line_of_sight", "default_chart", "los_table",
           "visible_from", "warm_line_cache"]


@dataclass(frozen=True, slots=True)
class HexOccupancy:
    """AFVs and Wreck markers in a hex (both count along the LOS, 10.31 b; wrecks 12.4)."""

    afvs: int = 0
    wrecks: int = 0


_EMPTY = HexOccupancy()


@dataclass(frozen=True, slots=True)
class LosHex:
    """One hex the line meets, firer's hex first.

    ``contact``: ``"interior"`` (crossed), ``"hexside"`` (the line runs along a hexside shared
    with ``partner``) or ``"vertex"`` (a corner touched only). ``role``: ``"firer"``,
    ``"target"`` or ``"intermediate"``. ``counted`` is the Tree/AFV/Wreck number this hex adds
    to the 10.31 b total (along a hexside only the adjoining hex with more counts).
    """

    id: str
    role: str
    contact: str
    partner: str | None
    trees: int
    afvs: int
    wrecks: int
    level: int
    marsh: bool
    building: str | None
    counted: int
    distance: int


@dataclass(frozen=True, slots=True)
class Obstruction:
    """An obstruction on the Sighting Chart (10.32): ``x`` hexes from the lower unit, ``height``
    in levels, and the sight line's height ``line_height`` there."""

    hex: str
    x: int
    height: Fraction
    line_height: Fraction
    feature: str

    @property
    def blocks(self) -> bool:
        return self.height >= self.line_height


@dataclass
class LosResult:
    """The answer to one LOS question.

    ``clear`` is True when LOS exists. When blocked: ``rule`` is ``"10.31a"``, ``"10.31b"``,
    ``"10.31c"`` or ``"10.32"``, ``blocking_hex`` the first intermediate hex that blocks and
    ``blocking_feature`` what blocks there. ``range`` is the hex distance (11.2). ``hexes`` lists
    every hex met, in order from firer to target. Counts for later rules:
    ``trees_afvs_wrecks`` along the LOS (11.16 b, 23.2 d), ``marsh_hexes`` along the LOS
    (23.2 e), ``level_difference`` = target level - firer level (11.16 c, 12.31, 23.2).
    ``sighting`` holds the Sighting Chart obstructions when the levels differ (10.32).
    """

    firer: str
    target: str
    clear: bool
    rule: str | None
    blocking_hex: str | None
    blocking_feature: str | None
    reason: str
    range: int
    firer_level: int
    target_level: int
    firer_down: bool
    trees_afvs_wrecks: int
    marsh_hexes: int
    _sighting: tuple | None = field(default=None, repr=False, compare=False)
    _build: tuple | None = field(default=None, repr=False, compare=False)
    _hexes: list[LosHex] | None = field(default=None, repr=False, compare=False)

    @property
    def sighting(self) -> list[Obstruction]:
        """The Sighting Chart obstructions (10.32) ordered by distance from the lower unit; empty
        when both units are on the same level."""
        if not self._sighting:
            return []
        obs, q, low_q, high_q, rng = self._sighting
        out = [Obstruction(hx, dx, Fraction(h, q), Fraction(low_q * rng + (high_q - low_q) * dx, rng * q), feat)
               for hx, dx, h, feat in obs]
        return sorted(out, key=lambda o: (o.x, o.hex))

    @property
    def hexes(self) -> list[LosHex]:
        """Every hex the line meets, firer first, target last (built on first use)."""
        if self._hexes is None:
            self._hexes = _build_hexes(*self._build) if self._build else []
        return self._hexes

    @property
    def level_difference(self) -> int:
        return self.target_level - self.firer_level

    @property
    def hex_ids(self) -> list[str]:
        return [h.id for h in self.hexes]

    def to_json(self) -> dict:
        """A JSON-ready dict: ``clear``, ``range``, ``rule``, ``blocking_hex``, ``hexes`` (ids) and
        the details (``hex_details``, counts, ``sighting``)."""
        return {
            "firer": self.firer,
            "target": self.target,
            "clear": self.clear,
            "range": self.range,
            "rule": self.rule,
            "blocking_hex": self.blocking_hex,
            "blocking_feature": self.blocking_feature,
            "reason": self.reason,
            "firer_level": self.firer_level,
            "target_level": self.target_level,
            "level_difference": self.level_difference,
            "firer_down": self.firer_down,
            "trees_afvs_wrecks_along_los": self.trees_afvs_wrecks,
            "marsh_hexes_along_los": self.marsh_hexes,
            "hexes": self.hex_ids,
            "hex_details": [
                {"id": h.id, "role": h.role, "contact": h.contact, "partner": h.partner, "trees": h.trees,
                 "afvs": h.afvs, "wrecks": h.wrecks, "level": h.level, "marsh": h.marsh, "building": h.building,
                 "counted": h.counted, "distance": h.distance}
                for h in self.hexes
            ],
            "sighting": [
                {"hex": o.hex, "x": o.x, "height": float(o.height), "line_height": float(o.line_height),
                 "feature": o.feature, "blocks": o.blocks}
                for o in self.sighting
            ],
        }


@lru_cache(maxsize=1)
def default_chart():
    """The shipped terrain effects chart (loaded once)."""
    from maps.terrain_chart import load_terrain_chart

    return load_terrain_chart()


class _MapLos:
    """Per-map precomputation for fast queries.

    ``cells`` maps each hex with anything LOS cares about to (trees, level, marsh, buildings whose
    symbol touches the closed hex); other hexes are (0, 0, False, ()). ``ids`` caches hex ids.
    """

    def __init__(self, hexmap: HexMap):
        near: dict[Hex, list[str]] = {}
        for bid, poly in hexmap.building_polygons.items():
            minx, miny, maxx, maxy = poly.bounds
            for c in range(int(minx // 3) - 1, int(maxx // 3) + 2):
                for r in range(int(miny // 2) - 1, int(maxy // 2) + 2):
                    h = Hex(c, r)
                    if poly.intersects(hexgrid.hex_polygon(h)):
                        near.setdefault(h, []).append(bid)
        self.cells: dict[Hex, tuple[int, int, bool, tuple[str, ...]]] = {}
        for h in set(near) | {hexgrid.parse_hex_id(r.id) for r in hexmap.doc.hexes}:
            self.cells[h] = (hexmap.trees(h), hexmap.level(h), hexmap.is_marsh(h), tuple(near.get(h, ())))


_DEFAULT_CELL = (0, 0, False, ())


def _map_los(hexmap: HexMap) -> _MapLos:
    cache = getattr(hexmap, "_los_cache", None)
    if cache is None:
        cache = _MapLos(hexmap)
        hexmap._los_cache = cache  # type: ignore[attr-defined]
    return cache


@lru_cache(maxsize=65536)
def _relative(parity: int, dcol: int, drow: int):
    """The exact line for a displacement (see :func:`maps.hexgrid.line_hexes`) with each hex's
    distance from the start; entries (dc, dr, t_in, t_out, contact, pdc, pdr, dist)."""
    start = Hex(parity, 0)
    out = []
    for dc, dr, lo, hi, contact, pdc, pdr, *_exact in hexgrid._relative_line(parity, dcol, drow):
        out.append((dc, dr, lo, hi, contact, pdc, pdr, hexgrid.distance(start, Hex(parity + dc, dr))))
    return tuple(out)


def _point(a: tuple[int, int], b: tuple[int, int], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


_HOW = {"interior": "crosses", "hexside": "runs along a hexside of", "vertex": "touches a corner of"}


def line_of_sight(
    hexmap: HexMap,
    firer: Hex | str,
    target: Hex | str,
    *,
    occupancy: Mapping[Hex, HexOccupancy] | None = None,
    firer_down: bool = False,
    chart=None,
) -> LosResult:
    """LOS from ``firer`` to ``target`` (hex ids or :class:`Hex`) on ``hexmap`` (rule 10.3).

    ``occupancy`` maps hexes to their AFVs and Wreck markers (10.31 b); ``firer_down`` is the
    firer's DOWN state (10.31 c); ``chart`` is the terrain effects chart (obstacle heights of
    10.32 a), by default the map's own (``hexmap.chart``: the chart its file names, else the shipped one). Raises :class:`maps.hexmap.UnknownHexError` for a hex
    that is malformed or off the map.
    """
    a = hexmap.hex(firer)
    b = hexmap.hex(target)
    occ = occupancy or {}
    mlos = _map_los(hexmap)
    cells = mlos.cells
    ac, ar = a.col, a.row
    rel = _relative(ac & 1, b.col - ac, b.row - ar)
    la = cells.get(a, _DEFAULT_CELL)[1]
    lb = cells.get(b, _DEFAULT_CELL)[1]
    rng = rel[-1][7] if rel else 0

    # pass 1: intermediate hexes with their cells; building candidates
    inter = []  # (index, hex, cell, entry)
    cand_buildings: set[str] = set()
    for i, e in enumerate(rel):
        h = Hex(ac + e[0], ar + e[1])
        if h == a or h == b:
            continue
        cell = cells.get(h, _DEFAULT_CELL)
        if cell[3]:
            cand_buildings.update(cell[3])
        inter.append((i, h, cell, e))

    # building symbols met by the middle of the line (outside the firer's and target's hexes)
    spans: list[tuple[float, float, str]] = []
    if cand_buildings:
        t_lo = next(e[3] for e in rel if e[0] == 0 and e[1] == 0)
        t_hi = next(e[2] for e in rel if (ac + e[0], ar + e[1]) == (b.col, b.row))
        # the predicate is evaluated on the whole centre-to-centre segment, whose end points are
        # integer lattice points (exact in GEOS); only the parts met between the firer's and the
        # target's hexes count (t between t_lo and t_hi)
        ca, cb = hexgrid.centre(a), hexgrid.centre(b)
        full = LineString([ca, cb])
        flen = full.length
        eps = 1e-9
        for bid in sorted(cand_buildings):
            poly = hexmap.building_polygons[bid]
            if not poly.intersects(full):
                continue
            for part in shapely.get_parts(poly.intersection(full)):
                ts = shapely.line_locate_point(full, shapely.points(shapely.get_coordinates(part))) / flen
                t0, t1 = float(ts.min()), float(ts.max())
                if max(t0, t_lo) <= min(t1, t_hi) + eps:
                    spans.append((max(t0, t_lo) - eps, min(t1, t_hi) + eps, bid))

    def building_of(cell, e) -> str | None:
        for t0, t1, bid in spans:
            if t0 <= e[3] and t1 >= e[2] and bid in cell[3]:
                return bid
        return None

    # pass 2: 10.31 b counting, marsh hexes, first blockers
    total = 0
    marsh_count = 0
    b_block = c_block = a_block = None
    counted_at: dict[int, int] = {}
    pair_done: set[frozenset] = set()
    buildings_at: dict[int, str] = {}
    for i, h, cell, e in inter:
        contact = e[4]
        if spans and cell[3]:
            bid = building_of(cell, e)
            if bid is not None:
                buildings_at[i] = bid
                if a_block is None:
                    a_block = (h, bid, contact)
        if cell[1] > la and a_block is None and la == lb:
            a_block = (h, None, contact)
        if contact == "vertex":
            continue
        o = occ.get(h, _EMPTY) if occ else _EMPTY
        own = cell[0] + o.afvs + o.wrecks
        if contact == "interior":
            counted = own
            if cell[2]:
                marsh_count += 1
                if firer_down and c_block is None:
                    c_block = h
        else:
            p = Hex(ac + e[5], ar + e[6])
            pcell = cells.get(p, _DEFAULT_CELL)
            po = occ.get(p, _EMPTY) if occ else _EMPTY
            other = pcell[0] + po.afvs + po.wrecks
            key = frozenset((h, p))
            if key in pair_done:
                counted = own if own > other else 0
            else:
                pair_done.add(key)
                counted = own if own >= other else 0
                if cell[2] or pcell[2]:
                    marsh_count += 1
                    if firer_down and c_block is None:
                        c_block = h if cell[2] else p
        if counted:
            counted_at[i] = counted
            before = total
            total += counted
            if before <= 3 < total and b_block is None:
                b_block = h

    result = LosResult(
        firer=a.id, target=b.id, clear=True, rule=None, blocking_hex=None, blocking_feature=None,
        reason="", range=rng, firer_level=la, target_level=lb, firer_down=firer_down,
        trees_afvs_wrecks=total, marsh_hexes=marsh_count)
    result._build = (hexmap, a, b, rel, occ, counted_at, buildings_at)

    def block(rule: str, where: Hex, feature: str, reason: str) -> LosResult:
        result.clear = False
        result.rule = rule
        result.blocking_hex = where.id
        result.blocking_feature = feature
        result.reason = reason
        return result

    if la == lb:
        if a_block is not None:  # 10.31 a: first building symbol or higher hill along the line
            h, bid, contact = a_block
            if bid is not None:
                name = hexmap.buildings[bid].display_name()
                return block("10.31a", h, name, f"the line crosses or touches {name} in {h.id} (10.31 a)")
            lvl = cells.get(h, _DEFAULT_CELL)[1]
            return block("10.31a", h, f"hill level {lvl}",
                         f"the line {_HOW[contact]} {h.id}, a level {lvl} hill hex higher than level {la} (10.31 a)")
        if b_block is not None:
            return block("10.31b", b_block, f"{total} trees/AFVs/wrecks along the line",
                         f"more than three trees/AFVs/wrecks along the line ({total}), blocked at {b_block.id} (10.31 b)")
        if c_block is not None:
            return block("10.31c", c_block, "marsh",
                         f"the firer is DOWN and the line passes through marsh hex {c_block.id} (10.31 c)")
        result.reason = (f"same level {la}: no building symbol or higher hill on the line, "
                         f"{total} trees/AFVs/wrecks along it (10.31)")
        return result

    # 10.32 different levels: the Sighting Chart, exact in (range, level): heights are counted in
    # steps of 1/``q`` level (q = 2 for the chart's half levels), so every comparison is integer
    chart = chart or getattr(hexmap, "chart", None) or default_chart()   # the map's own chart (its file names it)
    q, heights = _chart_heights(chart)
    low_q, high_q = min(la, lb) * q, max(la, lb) * q
    from_low = la > lb  # distances are measured from the lower unit
    obstructions: list[tuple[str, int, int, str]] = []  # (hex, x, height in 1/q levels, feature)
    first_block = None
    for i, h, cell, e in inter:
        if e[4] == "vertex":
            continue
        dx = rng - e[7] if from_low else e[7]
        ground = cell[1] * q
        height, feature = ground, (f"hill level {cell[1]}" if cell[1] else "ground")
        if cell[0] >= 2 and ground + heights["woods"] > height:
            height, feature = ground + heights["woods"], f"woods ({cell[0]} trees) on level {cell[1]}"
        elif cell[0] == 1 and ground + heights["trees"] > height:
            height, feature = ground + heights["trees"], f"tree on level {cell[1]}"
        bid = buildings_at.get(i)
        if bid is not None:
            bh = heights["building_multi"] if hexmap.is_multi_hex_building(bid) else heights["building_single"]
            if ground + bh > height:
                height, feature = ground + bh, f"{hexmap.buildings[bid].display_name()} on level {cell[1]}"
        if height > 0:
            obstructions.append((h.id, dx, height, feature))
            # blocks when height >= low + (high - low) * dx / range, multiplied out by range
            if first_block is None and height * rng >= low_q * rng + (high_q - low_q) * dx:
                first_block = (h, dx, height, feature)
    result._sighting = (obstructions, q, low_q, high_q, rng)
    if first_block is not None:
        h, dx, height, feature = first_block
        line_h = Fraction(low_q * rng + (high_q - low_q) * dx, rng * q)
        return block("10.32", h, feature, (
            f"levels {la} and {lb}: {feature} in {h.id}, {dx} hexes from the lower unit, "
            f"reaches level {_fmt(Fraction(height, q))}, at or above the sight line ({_fmt(line_h)}) (10.32)"))
    result.reason = (f"levels {la} and {lb}: every obstruction stays below the sight line on the "
                     f"Sighting Chart (10.32)")
    return result


_HEIGHTS_CACHE: dict[int, tuple[object, tuple[int, dict[str, int]]]] = {}


def _chart_heights(chart) -> tuple[int, dict[str, int]]:
    """Obstacle heights above ground from the chart (10.32 a) for Woods, one tree and buildings,
    as integers in steps of 1/q level; returns (q, heights)."""
    hit = _HEIGHTS_CACHE.get(id(chart))
    if hit is not None and hit[0] is chart:
        return hit[1]
    fr = {k: Fraction(chart.obstacle_height_above_ground(k)).limit_denominator(100)
          for k in ("woods", "trees", "building_single", "building_multi")}
    q = 1
    for v in fr.values():
        q = q * v.denominator // math.gcd(q, v.denominator)
    out = (q, {k: int(v * q) for k, v in fr.items()})
    _HEIGHTS_CACHE[id(chart)] = (chart, out)
    return out


def _build_hexes(hexmap, a, b, rel, occ, counted_at, buildings_at) -> list["LosHex"]:
    out = []
    for i, e in enumerate(rel):
        h = Hex(a.col + e[0], a.row + e[1])
        role = "firer" if h == a else "target" if h == b else "intermediate"
        o = occ.get(h, _EMPTY)
        partner = Hex(a.col + e[5], a.row + e[6]).id if e[4] == "hexside" else None
        out.append(LosHex(
            id=h.id, role=role, contact=e[4], partner=partner, trees=hexmap.trees(h), afvs=o.afvs,
            wrecks=o.wrecks, level=hexmap.level(h), marsh=hexmap.is_marsh(h),
            building=buildings_at.get(i), counted=counted_at.get(i, 0), distance=e[7]))
    return out


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):.2f}".rstrip("0")


def warm_line_cache(hexmap: HexMap, columns: tuple[int, int] | None = None) -> int:
    """Compute the exact lines for every displacement between hexes of ``hexmap`` (or of a column
    range) once, so later LOS queries only look them up; returns how many lines were computed."""
    c0, c1 = columns or (hexmap.first_column, hexmap.last_column)
    rows = hexmap.last_row - hexmap.first_row
    n = 0
    for parity in (0, 1):
        for dc in range(-(c1 - c0), c1 - c0 + 1):
            for dr in range(-rows, rows + 1):
                if dc or dr:
                    _relative(parity, dc, dr)
                    n += 1
    return n


def los_table(hexmap: HexMap, hexes, *, occupancy: Mapping[Hex, HexOccupancy] | None = None,
              chart=None) -> dict[tuple[str, str], bool]:
    """Clear/blocked for every ordered pair of ``hexes`` (hex ids or :class:`Hex`), firers UP.

    With the firer UP, LOS is symmetric (10.31 a, b and 10.32 do not depend on who fires), so each
    unordered pair is computed once. Returns ``{(from_id, to_id): clear}``.
    """
    hs = [hexmap.hex(h) for h in hexes]
    out: dict[tuple[str, str], bool] = {}
    for i, a in enumerate(hs):
        for b in hs[i + 1:]:
            c = line_of_sight(hexmap, a, b, occupancy=occupancy, chart=chart).clear
            out[(a.id, b.id)] = c
            out[(b.id, a.id)] = c
    return out


def visible_from(hexmap: HexMap, origin, *, firer_down: bool = False,
                 occupancy: Mapping[Hex, HexOccupancy] | None = None, chart=None) -> set[str]:
    """Ids of every hex of the map to which a unit in ``origin`` has LOS (10.3)."""
    a = hexmap.hex(origin)
    return {h.id for h in hexmap.all_hexes()
            if h != a and line_of_sight(hexmap, a, h, occupancy=occupancy, firer_down=firer_down, chart=chart).clear}
