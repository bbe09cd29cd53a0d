"""Line of sight (rule 10.3): the one LOS function of the toolkit.

The engine, the AI, the CLI and the editor all call :func:`line_of_sight`; nothing else decides
LOS. The result says clear or blocked, by which clause (10.31 a, b, c or 10.32), where and by
what, and carries the counts later rules need (11.16 b, 11.16 c, 23.2 d/e, 12.31).

How the rules are read (full text in ``docs/rules-interpretations.md``):

* The line runs from the centre of the firer's hex to the centre of the target's hex; the hexes
  it meets are exact (:func:`maps.hexgrid.line_hexes`). The firer's and the target's own hexes are
  never obstacles (10.33: LOS extends *into* a blocking hex): only *intermediate* hexes block.
* A building symbol is met *in* a hex where the line crosses or touches the part of the symbol
  lying in that hex (exact geometry, :func:`_building_hexes`); that hex is where the obstacle is
  (the blocking hex, the Sighting Chart position). A symbol met only in the firer's or the
  target's own hex blocks nothing (10.33), and the result says so (``own_hex_buildings``).
* 10.31 a: a building symbol met in an intermediate hex blocks; a hill hex of a higher elevation
  than the (common) level blocks when the line crosses it, runs along one of its hexsides or
  touches one of its corners.
* 10.31 b: trees, AFVs and wrecks of the intermediate hexes are added up; along a hexside the
  adjoining hex with the greater number counts; more than three blocks. A hex touched only at a
  corner does not count.
* 10.31 c: a DOWN firer's line through an intermediate Marsh hex (or along a hexside of one).
* 10.32 (different levels): the Sighting Chart as exact 2-D geometry. The lower unit stands at
  x = 0 at its level, the higher at x = range at its level; each intermediate hex the line
  crosses, runs along or touches at a corner is an obstruction at x = its hex distance from the
  lower unit, as high as its ground level (hill), or its ground plus the chart's obstacle height
  for a building symbol met in it and (not for a hex touched only at a corner, as in 10.31 b) for
  Woods. An obstruction touching or rising above the sight line blocks (10.32 b).
* 10.34: a hex with two elevations is at the lower (the map's ``level``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Mapping

import numpy as np
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
    ``building`` is the id of the building symbol the line meets in this hex (crosses or touches
    the part of the symbol lying in it); in the firer's or target's own hex it blocks nothing
    (10.33).
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
    ``own_hex_buildings``: (hex id, building id) for each building symbol the line meets only in
    the firer's or the target's own hex, which never blocks (10.33).
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
    own_hex_buildings: tuple[tuple[str, str], ...] = ()
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
            "own_hex_buildings": [{"hex": hx, "building": bid} for hx, bid in self.own_hex_buildings],
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
    symbol touches the closed hex: the candidates, see :func:`_building_hexes`); other hexes are
    (0, 0, False, ()). ``buildings`` holds each symbol's exact geometry (:class:`_Symbol`).
    """

    def __init__(self, hexmap: HexMap):
        near: dict[Hex, list[str]] = {}
        self.buildings: dict[str, _Symbol] = {}
        for bid, poly in hexmap.building_polygons.items():
            minx, miny, maxx, maxy = poly.bounds
            touched = []
            for c in range(int(minx // 3) - 1, int(maxx // 3) + 2):
                for r in range(int(miny // 2) - 1, int(maxy // 2) + 2):
                    h = Hex(c, r)
                    if poly.intersects(hexgrid.hex_polygon(h)):
                        near.setdefault(h, []).append(bid)
                        touched.append(h)
            self.buildings[bid] = _Symbol.of(poly, touched)
        #: (firer, target) -> {index of a hex met on the line: building symbol met in it}, the
        #: geometry of lines already asked (it depends on the map alone)
        self.met: dict[tuple[Hex, Hex], dict[int, str]] = {}
        self.cells: dict[Hex, tuple[int, int, bool, tuple[str, ...]]] = {}
        for h in set(near) | {hexgrid.parse_hex_id(r.id) for r in hexmap.doc.hexes}:
            self.cells[h] = (hexmap.trees(h), hexmap.level(h), hexmap.is_marsh(h), tuple(near.get(h, ())))


# ---------------------------------------------------------------------------------------------
# Which hex a building symbol is met in (10.31 a, 10.32, 10.33).
#
# The line meets a symbol "in" hex h when it meets the part of the symbol lying in h: the closure
# of (symbol interior & hex interior). So a symbol lying in one hex with an edge on a hexside, or
# reaching a corner of the next hex, is not in the neighbouring hex: the obstacle is where the
# symbol is. Decided exactly (:func:`_meets_exact`): coordinates are dyadic rationals (doubles),
# scaled to integers, and every test is an integer sign test. Two shortcuts keep queries fast
# without changing an answer: a symbol inside one hex is met there whenever the line meets it
# (GEOS's exact predicate); otherwise a float pass (:func:`_meets_fast`) settles the hexes whose
# stretch of the line runs well inside the symbol, or stays well away from it, or touches it deep
# inside, and leaves every case within _FILTER / _MARGIN of a boundary to the exact test. Symbols
# are valid polygons (the map loader checks them).

_FILTER = 1e-9  # t-distance under which the float fast path defers to the exact test
_MARGIN = 1e-6  # map units: a point this far inside a symbol's outline is inside it, rounding or not


def _scale_of(coords) -> int:
    """The smallest power of two that makes every coordinate an integer (doubles are dyadic)."""
    s = 1
    for x in coords:
        d = Fraction(x).denominator
        if d > s:
            s = d
    return s


def _corners(points, scale: int) -> tuple[tuple[int, int, int, int, int, int], ...]:
    """A ring (interior on the left) as (x, y, ex, ey, fx, fy) per vertex, scaled to integers:
    the vertex, the vector to the next vertex and the vector to the previous one."""
    pts = []
    for x, y in points:
        q = (int(Fraction(x) * scale), int(Fraction(y) * scale))
        if not pts or pts[-1] != q:
            pts.append(q)
    while len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    n = len(pts)
    return tuple((x, y, pts[(k + 1) % n][0] - x, pts[(k + 1) % n][1] - y, pts[k - 1][0] - x, pts[k - 1][1] - y)
                 for k, (x, y) in enumerate(pts))


@dataclass(frozen=True, slots=True)
class _Symbol:
    """A building symbol's exact geometry: ``corners`` of every ring scaled by ``scale`` (interior
    on the left), and ``home``, the one hex whose closed polygon contains the whole symbol (None
    when the symbol reaches into several hexes)."""

    poly: object
    outline: object
    scale: int
    corners: tuple
    home: Hex | None
    edges: tuple  # float arrays for the fast path: vertex x, y, edge vector x, y, next vertex index

    @staticmethod
    def of(poly, touched: list[Hex]) -> "_Symbol":
        from shapely.geometry.polygon import orient

        o = orient(poly, 1.0)  # exterior counter-clockwise, holes clockwise: interior on the left
        rings = [list(o.exterior.coords)] + [list(r.coords) for r in o.interiors]
        scale = _scale_of(v for ring in rings for pt in ring for v in pt)
        corners = tuple(c for ring in rings for c in _corners(ring, scale))
        home = None
        for h in touched:
            hc = _corners(hexgrid.vertices(h), scale)
            if all(_sectors(hc, x, y, 1) or _inside(hc, x, y, 1) for x, y, *_ in corners):
                home = h  # every vertex in the closed (convex) hex: the whole symbol is
                break
        outline = poly.boundary
        shapely.prepare(outline)
        nxt, k = [], 0
        for ring in rings:
            n = len(_corners(ring, scale))
            nxt += [k + (j + 1) % n for j in range(n)]
            k += n
        edges = tuple(np.array([c[j] / scale for c in corners]) for j in range(4)) + (np.array(nxt),)
        return _Symbol(poly, outline, scale, corners, home, edges)


def _sectors(corners, px: int, py: int, q: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The region's open sectors at the point (px/q, py/q) when the point is on its boundary: at a
    vertex the interior angle, on an edge the half-plane on the interior side; each as directions
    (a, b), counter-clockwise from a to b. Empty when the point is not on the boundary."""
    out = []
    for x, y, ex, ey, fx, fy in corners:
        rx, ry = px - x * q, py - y * q
        if rx == 0 and ry == 0:
            out.append(((ex, ey), (fx, fy)))
        elif ex * ry - ey * rx == 0 and 0 < ex * rx + ey * ry < q * (ex * ex + ey * ey):
            out.append(((ex, ey), (-ex, -ey)))
    return out


def _inside(corners, px: int, py: int, q: int) -> bool:
    """Even-odd crossing test for a point (px/q, py/q) not on the boundary."""
    c = False
    for x, y, ex, ey, _fx, _fy in corners:
        y1, y2 = y * q, (y + ey) * q
        if (y1 > py) != (y2 > py):
            cr = ex * (py - y1) - ey * (px - x * q)
            if (cr > 0) == (ey > 0):
                c = not c
    return c


def _angle_class(a, w) -> int:
    """0: w points as a; 1: w is left of a; 2: opposite; 3: right of a."""
    c = a[0] * w[1] - a[1] * w[0]
    if c:
        return 1 if c > 0 else 3
    return 0 if a[0] * w[0] + a[1] * w[1] > 0 else 2


def _in_sector(d, a, b) -> bool:
    """Is direction d in the half-open counter-clockwise sector [a, b)?"""
    cd, cb = _angle_class(a, d), _angle_class(a, b)
    if cd != cb:
        return cd < cb
    return cd in (1, 3) and d[0] * b[1] - d[1] * b[0] > 0


def _overlap(s1, s2) -> bool:
    """Do two unions of open sectors (None = the whole plane) share an open set?"""
    if s1 is None:
        return s2 is None or bool(s2)
    if s2 is None:
        return bool(s1)
    return any(_in_sector(b[0], *a) or _in_sector(a[0], *b) for a in s1 for b in s2)


def _meets_exact(sym: _Symbol, ca, cb, entries) -> set[int]:
    """Exactly: the indices of ``entries`` ((index, hex, rel entry)) in whose hex the segment
    ``ca``-``cb`` meets the part of ``sym`` lying in that hex."""
    S = sym.scale
    ax, ay = ca[0] * S, ca[1] * S
    dx, dy = (cb[0] - ca[0]) * S, (cb[1] - ca[1]) * S
    dd = dx * dx + dy * dy
    on_edge: set[Fraction] = set()  # t where the line meets the symbol's boundary
    for x, y, ex, ey, _fx, _fy in sym.corners:
        wx, wy = x - ax, y - ay
        den = dx * ey - dy * ex
        if den:
            tn, sn = wx * ey - wy * ex, wx * dy - wy * dx
            if den < 0:
                den, tn, sn = -den, -tn, -sn
            if 0 <= tn <= den and 0 <= sn <= den:
                on_edge.add(Fraction(tn, den))
        elif wx * dy - wy * dx == 0:  # an edge along the line: its ends
            for qx, qy in ((x, y), (x + ex, y + ey)):
                n = (qx - ax) * dx + (qy - ay) * dy
                if 0 <= n <= dd:
                    on_edge.add(Fraction(n, dd))
    crit = sorted(on_edge)
    out = set()
    for i, h, e in entries:
        lo, hi = Fraction(e[8], e[10]), Fraction(e[9], e[10])
        pts = sorted({lo, hi, *(t for t in crit if lo <= t <= hi)})
        samples = pts + [(u + v) / 2 for u, v in zip(pts, pts[1:])]
        hc = None
        for t in samples:
            q = t.denominator
            px, py = ax * q + dx * t.numerator, ay * q + dy * t.numerator
            sb = _sectors(sym.corners, px, py, q)
            if not sb:
                if not _inside(sym.corners, px, py, q):
                    continue  # not on the symbol
                sb = None  # inside the symbol: every direction
            if lo < t < hi and e[4] == "interior":
                out.add(i)  # a point of the symbol inside the hex
                break
            if hc is None:
                hc = _hex_corners(S)  # relative to the hex's centre
                cx, cy = hexgrid.centre(h)
                cx, cy = cx * S, cy * S
            if _overlap(sb, _sectors(hc, px - cx * q, py - cy * q, q) or None):
                out.add(i)
                break
    return out


@lru_cache(maxsize=64)
def _hex_corners(scale: int):
    """A hex's corners (see :func:`_corners`) relative to its centre, scaled."""
    return tuple((x * scale, y * scale, ex * scale, ey * scale, fx * scale, fy * scale)
                 for x, y, ex, ey, fx, fy in _corners(hexgrid.vertices(Hex(0, 0)), 1))


def _intervals(sym: _Symbol, ca, cb) -> list[tuple[float, float]] | None:
    """Where (t from 0 at ``ca`` to 1 at ``cb``) the segment runs inside the symbol, in floats
    good to far better than _FILTER; None when that cannot be told reliably in floats (a corner of
    the symbol within _MARGIN of the line, or an edge crossing it at a very flat angle)."""
    vx, vy, ex, ey, nxt = sym.edges
    ax, ay = ca
    dx, dy = cb[0] - ax, cb[1] - ay
    nd = math.hypot(dx, dy)
    wx, wy = vx - ax, vy - ay
    side = wx * dy - wy * dx  # |D| times the corner's signed distance from the (infinite) line
    if (np.abs(side) <= _MARGIN * nd).any():
        return None
    left = side > 0
    cross = left != left[nxt]  # edges the infinite line crosses, each once, transversally
    if not cross.any():
        return None
    cex, cey = ex[cross], ey[cross]
    den = dx * cey - dy * cex
    if (np.abs(den) < 1e-3 * nd * np.hypot(cex, cey)).any():
        return None
    ts = np.sort((wx[cross] * cey - wy[cross] * cex) / den).tolist()
    # from outside at t = -inf, every crossing switches between outside and inside
    return [(max(t0, 0.0), min(t1, 1.0)) for t0, t1 in zip(ts[::2], ts[1::2]) if t1 >= 0.0 and t0 <= 1.0]


def _meets_fast(sym: _Symbol, ca, cb, entries) -> tuple[set[int], list] | None:
    """Like :func:`_meets_exact` in floats: the indices settled as met, and the entries too close
    to call (within _FILTER of the hex's stretch of the line without running inside the symbol in
    the hex's interior: along a hexside, at a corner, at an edge) and not deep inside the symbol,
    left to the exact test. None when the floats cannot be trusted at all (see :func:`_intervals`)."""
    ivs = _intervals(sym, ca, cb)
    if not ivs:
        return None
    out: set[int] = set()
    rest = []
    for entry in entries:
        e = entry[2]
        lo, hi = e[2], e[3]
        near = [(t0, t1) for t0, t1 in ivs if t0 - _FILTER <= hi and t1 + _FILTER >= lo]
        if not near:
            continue  # the symbol stays clear of this hex's stretch of the line
        if e[4] == "interior" and any(min(t1, hi) - max(t0, lo) > 2 * _FILTER for t0, t1 in near):
            out.add(entry[0])  # the line runs inside the symbol within the hex's interior
        else:
            # a point of the hex's stretch that lies deep inside the symbol (farther than _MARGIN
            # from its outline, far beyond rounding) has the symbol all around it: met
            t0, t1 = max(near, key=lambda iv: min(iv[1], hi) - max(iv[0], lo))
            t = min(max((max(t0, lo) + min(t1, hi)) / 2, lo), hi)
            rest.append((entry, t))
    if rest:
        (x0, y0), (x1, y1) = ca, cb
        ts = np.array([t for _entry, t in rest])
        pts = shapely.points(x0 + (x1 - x0) * ts, y0 + (y1 - y0) * ts)
        deep = (shapely.distance(sym.outline, pts) > _MARGIN) & shapely.intersects(sym.poly, pts)
        out.update(entry[0] for (entry, _t), d in zip(rest, deep.tolist()) if d)
        rest = [entry for (entry, _t), d in zip(rest, deep.tolist()) if not d]
    return out, rest


def _building_hexes(sym: _Symbol, ca, cb, entries) -> set[int]:
    """The indices of ``entries`` ((index, hex, rel entry), every hex the line meets that the
    symbol touches) in whose hex the line meets the part of the symbol lying in that hex."""
    if sym.home is not None:  # the whole symbol in one hex: met there, nowhere else
        return {i for i, h, _e in entries if h == sym.home}
    fast = _meets_fast(sym, ca, cb, entries)
    if fast is None:
        return _meets_exact(sym, ca, cb, entries)
    out, rest = fast
    return out | _meets_exact(sym, ca, cb, rest) if rest else out


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
    distance from the start; entries (dc, dr, t_in, t_out, contact, pdc, pdr, dist, n_in, n_out,
    den): t_in/t_out as floats, n_in/den and n_out/den exact."""
    start = Hex(parity, 0)
    out = []
    for dc, dr, lo, hi, contact, pdc, pdr, n_in, n_out, den in hexgrid._relative_line(parity, dcol, drow):
        out.append((dc, dr, lo, hi, contact, pdc, pdr, hexgrid.distance(start, Hex(parity + dc, dr)), n_in, n_out,
                    den))
    return tuple(out)


def _point(a: tuple[int, int], b: tuple[int, int], t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


_HOW = {"interior": "crosses", "hexside": "runs along a hexside of", "vertex": "touches a corner of"}


def _count_entry(h: Hex, cell: tuple, e: tuple, occ, cells: dict, ac: int, ar: int,
                 pair_done: set) -> tuple[int, Hex | None]:
    """One intermediate hex the line crosses or runs along a hexside of (never a corner): (what it
    adds to the 10.31 b count of trees, AFVs and wrecks, the Marsh hex it brings (10.31 c) or
    None). Along a hexside the pair counts once, by its larger side (``pair_done``: the pairs
    already met, updated here); ``cell``: (trees, level, marsh, building ids) of ``h``."""
    o = occ.get(h, _EMPTY) if occ else _EMPTY
    own = cell[0] + o.afvs + o.wrecks
    if e[4] == "interior":
        return own, (h if cell[2] else None)
    p = Hex(ac + e[5], ar + e[6])
    pcell = cells.get(p, _DEFAULT_CELL)
    po = occ.get(p, _EMPTY) if occ else _EMPTY
    other = pcell[0] + po.afvs + po.wrecks
    key = frozenset((h, p))
    if key in pair_done:
        return (own if own > other else 0), None
    pair_done.add(key)
    return (own if own >= other else 0), (h if cell[2] else p if pcell[2] else None)


def count_trees_afvs_wrecks(hexmap: HexMap, firer: Hex, target: Hex,
                            occupancy: Mapping[Hex, HexOccupancy] | None) -> int:
    """The 10.31 b count of :func:`line_of_sight` (``trees_afvs_wrecks``: Woods/Orchard hexes,
    AFVs and wrecks along the line between the two hexes) without the rest of the LOS: no
    building symbol is traced. ``firer`` and ``target`` are hexes of ``hexmap``."""
    occ = occupancy or {}
    cells = _map_los(hexmap).cells
    ac, ar = firer.col, firer.row
    total = 0
    pair_done: set[frozenset] = set()
    for e in _relative(ac & 1, target.col - ac, target.row - ar):
        if e[4] == "vertex":
            continue
        h = Hex(ac + e[0], ar + e[1])
        if h == firer or h == target:
            continue
        total += _count_entry(h, cells.get(h, _DEFAULT_CELL), e, occ, cells, ac, ar, pair_done)[0]
    return total


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

    # pass 1: intermediate hexes with their cells; building candidates (every hex met, the
    # firer's and the target's included, so the details can show a symbol met there too)
    inter = []  # (index, hex, cell, entry)
    cand_buildings: set[str] = set()
    touched_by: list[tuple[int, Hex, tuple, tuple]] = []  # hexes met whose closed polygon a symbol touches
    own: set[int] = set()  # indices of the firer's and the target's hexes
    for i, e in enumerate(rel):
        h = Hex(ac + e[0], ar + e[1])
        cell = cells.get(h, _DEFAULT_CELL)
        if cell[3]:
            cand_buildings.update(cell[3])
            touched_by.append((i, h, cell[3], e))
        if h == a or h == b:
            own.add(i)
            continue
        inter.append((i, h, cell, e))

    # building symbols met, by hex: a symbol is met in a hex where the line meets the part of the
    # symbol lying in that hex (10.31 a "crosses or touches"; exact, see _building_hexes)
    met_at: dict[int, str] = {}
    if cand_buildings and a != b:
        met_at = mlos.met.get((a, b))  # the same line asked again (other AFVs/wrecks, firer state)
        if met_at is None:
            met_at = {}
            ca, cb = hexgrid.centre(a), hexgrid.centre(b)
            full = LineString([ca, cb])  # integer end points: exact in GEOS
            for bid in sorted(cand_buildings):
                sym = mlos.buildings[bid]
                if not sym.poly.intersects(full):
                    continue
                entries = [(i, h, e) for i, h, bids, e in touched_by if bid in bids]
                for i in _building_hexes(sym, ca, cb, entries):
                    met_at.setdefault(i, bid)
            if len(mlos.met) > 100_000:
                mlos.met.clear()
            mlos.met[(a, b)] = met_at
    # 10.33: a symbol met only in the firer's or the target's own hex blocks nothing
    buildings_at = {i: bid for i, bid in met_at.items() if i not in own}
    blocking_ids = set(buildings_at.values())
    own_buildings = tuple((Hex(ac + rel[i][0], ar + rel[i][1]).id, bid) for i, bid in sorted(met_at.items())
                          if i in own and bid not in blocking_ids)

    # pass 2: 10.31 b counting, marsh hexes, first blockers
    total = 0
    marsh_count = 0
    b_block = c_block = a_block = None
    counted_at: dict[int, int] = {}
    pair_done: set[frozenset] = set()
    for i, h, cell, e in inter:
        contact = e[4]
        bid = buildings_at.get(i) if buildings_at else None
        if bid is not None and a_block is None:
            a_block = (h, bid, contact)
        if cell[1] > la and a_block is None and la == lb:
            a_block = (h, None, contact)
        if contact == "vertex":
            continue
        counted, marsh = _count_entry(h, cell, e, occ, cells, ac, ar, pair_done)
        if marsh is not None:
            marsh_count += 1
            if firer_down and c_block is None:
                c_block = marsh
        if counted:
            counted_at[i] = counted
            before = total
            total += counted
            if before <= 3 < total and b_block is None:
                b_block = h

    result = LosResult(
        firer=a.id, target=b.id, clear=True, rule=None, blocking_hex=None, blocking_feature=None,
        reason="", range=rng, firer_level=la, target_level=lb, firer_down=firer_down,
        trees_afvs_wrecks=total, marsh_hexes=marsh_count, own_hex_buildings=own_buildings)
    result._build = (hexmap, a, b, rel, occ, counted_at, met_at)

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
        between = "between the two hexes" if own_buildings else "on the line"
        result.reason = (f"same level {la}: {_own_note(hexmap, a, own_buildings)}no building symbol or higher "
                         f"hill {between}, {total} trees/AFVs/wrecks along it (10.31)")
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
        # 10.32 b "touching": a hex the line only touches at a corner is an obstruction too, with
        # its ground (hill) and a building symbol met there; its trees are not (as in 10.31 b, the
        # line does not pass through its woods)
        corner = e[4] == "vertex"
        dx = rng - e[7] if from_low else e[7]  # every hex met lies on a shortest path: x from the lower unit
        ground = cell[1] * q
        height, feature = ground, (f"hill level {cell[1]}" if cell[1] else "ground")
        trees = 0 if corner else cell[0]
        if trees >= 2 and ground + heights["woods"] > height:
            height, feature = ground + heights["woods"], f"woods ({trees} trees) on level {cell[1]}"
        elif trees == 1 and ground + heights["trees"] > height:
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
                first_block = (h, dx, height, feature, corner)
    result._sighting = (obstructions, q, low_q, high_q, rng)
    if first_block is not None:
        h, dx, height, feature, corner = first_block
        line_h = Fraction(low_q * rng + (high_q - low_q) * dx, rng * q)
        where = f"{h.id} (touched at a corner)" if corner else h.id
        return block("10.32", h, feature, (
            f"levels {la} and {lb}: {feature} in {where}, {dx} hexes from the lower unit, "
            f"reaches level {_fmt(Fraction(height, q))}, at or above the sight line ({_fmt(line_h)}) (10.32)"))
    result.reason = (f"levels {la} and {lb}: {_own_note(hexmap, a, own_buildings)}every obstruction stays below "
                     f"the sight line on the Sighting Chart (10.32)")
    return result


def _own_note(hexmap: HexMap, firer: Hex, own: tuple[tuple[str, str], ...]) -> str:
    """The 10.33 explanation of a clear LOS when the line meets a building symbol only in the
    firer's or the target's own hex ("" when it meets none)."""
    if not own:
        return ""
    where = [f"{hexmap.buildings[bid].display_name()} in the {'firer' if hx == firer.id else 'target'}'s hex {hx}"
             for hx, bid in own]
    return (f"clear: the building symbol met lies only in the firer's/target's own hexes "
            f"({', '.join(where)}; 10.33, LOS extends into a building hex); ")


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


def _build_hexes(hexmap, a, b, rel, occ, counted_at, met_at) -> list["LosHex"]:
    out = []
    for i, e in enumerate(rel):
        h = Hex(a.col + e[0], a.row + e[1])
        role = "firer" if h == a else "target" if h == b else "intermediate"
        o = occ.get(h, _EMPTY)
        partner = Hex(a.col + e[5], a.row + e[6]).id if e[4] == "hexside" else None
        out.append(LosHex(
            id=h.id, role=role, contact=e[4], partner=partner, trees=hexmap.trees(h), afvs=o.afvs,
            wrecks=o.wrecks, level=hexmap.level(h), marsh=hexmap.is_marsh(h),
            building=met_at.get(i), counted=counted_at.get(i, 0), distance=e[7]))
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
