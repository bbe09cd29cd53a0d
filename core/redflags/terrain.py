"""How Red Flags and Iron Crosses reads the shared painted map, and its line-of-sight rule.

The map (:class:`maps.hexmap.HexMap`) is the toolkit's ground truth: per hex its terrain (clear,
marsh), tree symbols, level; roads and gullies as paths; building symbols as shapely polygons.
The fragment plays on 100 mm hexes (General Rules), one map hex each. How each map feature counts
here is data, ``core/redflags/data/terrain_mapping.json`` (every entry with its provenance):
woods (two or more tree symbols) and hills (level > 0) carry the printed movement rules, marsh and
gullies the reconstructed ones; woods, trees, buildings and gullies give cover (reconstructed).

Line of sight (:class:`Sight`, General Rules; the "common sense" part is reconstructed, rule
``r.los``): the line between two hex centres meets, in order, the hexes whose interior it crosses
(:func:`maps.hexgrid.line_hexes`, exact); where it runs along a hexside both hexes of that side
form one *slot* that obscures only if both obscure. With ends at levels ``la``, ``lb`` (``H`` the
higher, ``Lo`` the lower):

- a hex higher than both ends obscures (a hill between);
- ends at one level: a vertical obstacle (woods; a building symbol whose polygon the line crosses
  inside that hex; a hex holding ground units) at that level obscures, one on lower ground not;
- ends at different levels ("higher terrain ... vertical obstacles may not obscure"; common sense):
  a hex as high as the higher end obscures unless it adjoins the higher end (the crest); a vertical
  obstacle obscures when it stands at the higher level or adjoins the lower end (dead ground close
  behind it), else not.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import shapely
from shapely.geometry import LineString

from core.redflags.tables import load_data, value
from maps import hexgrid
from maps.hexgrid import Hex
from maps.hexmap import HexMap

__all__ = ["terrain_mapping", "Terrain", "Sight"]


@lru_cache(maxsize=1)
def _mapping() -> dict:
    return load_data("terrain_mapping.json")


def terrain_mapping() -> dict:
    """The terrain mapping as JSON data (a fresh copy): ``features`` -> map feature -> its
    movement, vehicles, los_obstacle and cover entries, each with provenance."""
    return load_data("terrain_mapping.json")


class Terrain:
    """The map as Red Flags reads it, limited to the scenario's playing area (hex ids).

    Queries take hex ids (``"3717"``). ``cover``, ``vehicles_may_enter`` and the movement classes
    follow the terrain mapping; raises KeyError for a hex id the map does not know."""

    def __init__(self, hexmap: HexMap, area: Iterable[str] | None = None):
        self.map = hexmap
        self.area: frozenset[str] = frozenset(area) if area is not None else frozenset(h.id for h in hexmap.all_hexes())
        m = _mapping()
        self.woods_min_trees = int(value(m["woods_min_trees"]))
        self.features = {k: {f: value(v) for f, v in e.items() if isinstance(v, dict)} for k, e in m["features"].items()}
        self._feat: dict[str, str] = {}

    # ------------------------------------------------------------------ per hex
    def hex(self, hid: str) -> Hex:
        return hexgrid.parse_hex_id(hid)

    def in_area(self, hid: str) -> bool:
        return hid in self.area

    def level(self, hid: str) -> int:
        return self.map.level(self.hex(hid))

    def trees(self, hid: str) -> int:
        return self.map.trees(self.hex(hid))

    def is_woods(self, hid: str) -> bool:
        return self.trees(hid) >= self.woods_min_trees

    def is_hill(self, hid: str) -> bool:
        """A hill hex: level above 0 (Movement: 'on hills')."""
        return self.level(hid) > 0

    def is_marsh(self, hid: str) -> bool:
        return self.map.is_marsh(self.hex(hid))

    def is_building(self, hid: str) -> bool:
        return self.map.is_building_hex(self.hex(hid))

    def is_gully(self, hid: str) -> bool:
        return self.map.is_gully(self.hex(hid)) and not self.map.is_bridge(self.hex(hid))

    def is_road(self, hid: str) -> bool:
        return self.map.is_road(self.hex(hid))

    def road_connected(self, a: str, b: str) -> bool:
        """The road runs from ``a`` straight into adjacent ``b`` (a step 'along a road')."""
        return self.map.road_connected(self.hex(a), self.hex(b))

    def feature(self, hid: str) -> str:
        """The terrain-mapping feature that governs the hex: building, woods, marsh, gully, bridge,
        trees, road or clear (the first that applies)."""
        f = self._feat.get(hid)
        if f is None:
            h = self.hex(hid)
            if self.map.is_building_hex(h):
                f = "building"
            elif self.map.trees(h) >= self.woods_min_trees:
                f = "woods"
            elif self.map.is_marsh(h):
                f = "marsh"
            elif self.map.is_bridge(h):
                f = "bridge"
            elif self.map.is_gully(h):
                f = "gully"
            elif self.map.trees(h) > 0:
                f = "trees"
            elif self.map.is_road(h):
                f = "road"
            else:
                f = "clear"
            self._feat[hid] = f
        return f

    def cover(self, hid: str) -> bool:
        """Troops in the hex are in cover (r.hits; terrain mapping ``cover``)."""
        return bool(self.features[self.feature(hid)]["cover"])

    def woods_for_vehicles(self, hid: str) -> bool:
        """Woods for the vehicle rules (Movement: AFVs 1 hex, transport on a black card): woods,
        and what the mapping reads as woods for vehicles (building hexes)."""
        return self.features[self.feature(hid)]["movement"] == "woods"

    def vehicles_may_enter(self, a: str, b: str) -> bool:
        """A vehicle or gun may step from ``a`` into adjacent ``b`` (mapping ``vehicles``: marsh
        never, a gully only along a road)."""
        v = self.features[self.feature(b)]["vehicles"]
        if v is True:
            return True
        if v == "road only":
            return self.road_connected(a, b)
        return False

    def in_front(self, hid: str, heading: int, turns: Iterable[int]) -> str | None:
        """The hex reached from ``hid`` by one step per entry of ``turns``, each across hexside
        ``heading + turn`` (1-6, clockwise); None when it falls off the map's hex ids."""
        h = self.hex(hid)
        for t in turns:
            side = (heading - 1 + t) % 6 + 1
            h = hexgrid.neighbour(h, side)
            if not (0 <= h.col <= 99 and 0 <= h.row <= 99):
                return None
        return h.id


class Sight:
    """The Red Flags line-of-sight rule over one map (see the module docstring).

    ``los(a, b, occupied)``: True when the line from hex ``a`` to hex ``b`` is clear, ``occupied``
    the hex ids holding ground units (vertical obstacles, General Rules 'including other units').
    The terrain part of each line is computed once and remembered."""

    def __init__(self, terrain: Terrain):
        self.t = terrain
        self._slots: dict[tuple[str, str], tuple | None] = {}
        self._bpieces: dict[str, list] = {}

    def _building_crossed(self, line: LineString, hid: str) -> bool:
        """The line crosses the interior of a building symbol inside hex ``hid`` (shapely)."""
        pieces = self._bpieces.get(hid)
        if pieces is None:
            h = self.t.hex(hid)
            hp = hexgrid.hex_polygon(h)
            pieces = []
            for bid in self.t.map.buildings_at(h):
                piece = self.t.map.building_polygons[bid].intersection(hp)
                if not piece.is_empty and piece.area > 0:
                    shapely.prepare(piece)
                    pieces.append(piece)
            self._bpieces[hid] = pieces
        return any(shapely.relate_pattern(line, p, "T********") for p in pieces)

    def slots(self, a: str, b: str) -> tuple | None:
        """The line's intermediate slots as ``((hex, terrain_blocks, obstacle_would_block), ...)``
        per slot, or None when the terrain alone obscures it. Cached per ordered pair."""
        key = (a, b)
        if key in self._slots:
            return self._slots[key]
        res = self._compute(a, b)
        self._slots[key] = res
        return res

    def _compute(self, a: str, b: str) -> tuple | None:
        t = self.t
        ha, hb = t.hex(a), t.hex(b)
        la, lb = t.level(a), t.level(b)
        hi, lo = max(la, lb), min(la, lb)
        high_end = ha if la >= lb else hb
        low_end = hb if la >= lb else ha
        line = None
        groups: dict[tuple, list] = {}
        order: list[tuple] = []
        for lh in hexgrid.line_hexes(ha, hb, include_vertex_touches=False):
            h = lh.hex
            if h == ha or h == hb:
                continue
            hid = h.id
            lx = t.map.level(h)
            # r.los ground: a hex higher than both ends; at the higher end's level (ends differ) unless the crest
            ground = lx > hi or (la != lb and lx == hi and hexgrid.distance(h, high_end) > 1)
            if la == lb:
                would = lx >= hi
            else:
                would = lx >= hi or hexgrid.distance(h, low_end) == 1
            obstacle = False
            if would:
                if t.is_woods(hid):
                    obstacle = True
                elif t.map.is_building_hex(h):
                    if line is None:
                        line = LineString([hexgrid.centre(ha), hexgrid.centre(hb)])
                    obstacle = self._building_crossed(line, hid)
            entry = (hid, ground or obstacle, would)
            slot = (lh.t_in, lh.t_out) if lh.contact == "hexside" else (hid,)
            if slot not in groups:
                groups[slot] = []
                order.append(slot)
            groups[slot].append(entry)
        out = []
        for slot in order:
            members = tuple(groups[slot])
            if all(m[1] for m in members):
                return None  # the terrain obscures this slot
            out.append(members)
        return tuple(out)

    def terrain_los(self, a: str, b: str) -> bool:
        """LOS ignoring units."""
        return a == b or self.slots(a, b) is not None

    def los(self, a: str, b: str, occupied: frozenset[str] | set[str] = frozenset()) -> bool:
        """LOS from ``a`` to ``b`` with ground units in the hexes ``occupied`` (r.los)."""
        if a == b:
            return True
        s = self.slots(a, b)
        if s is None:
            return False
        if not occupied:
            return True
        for members in s:
            if all(tb or (would and hid in occupied) for hid, tb, would in members):
                return False
        return True
