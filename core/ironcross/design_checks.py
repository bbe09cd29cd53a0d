"""Design checks: warnings about a valid scenario that plays, but not as its designer likely meant.

``ironcross validate`` refuses a scenario with **errors**
(:func:`scenarios.scenario_file.check_scenario`); these are **warnings**, apart from the errors: they never make ``validate`` fail (unless
``--strict``), the editor's Validation dock lists them in their own section. Each is a
:class:`DesignWarning` with a JSON path into the scenario file (the place the editor selects
when one is clicked) and a one-line message. The checks ("Design checks" in docs/scenario-format.md):

* ``reach`` -- a region a side **must take** that its units cannot reach by the end of the game.
  The regions a side must take come from the victory model: for each outcome a side wins, the
  regions where the condition needs that side's units (``at_least``, ``sole_occupant``,
  ``controls``, a negated ``none_in``; ``all_of`` needs every part, ``any_of`` only one -- a
  region of an ``any_of`` is warned about only when no alternative can be met; ``not`` turns the
  requirement over), and the victory-point award regions of the scoring side. For each unit the
  fewest Game Turns it needs to get there come from the engine's own movement rules
  (:class:`core.ironcross.game.Game`: the allowances of 8.11-8.14 for the unit's type and the
  roster's CW movement allowance, the terrain costs of the Movement and Combat Effects Chart with
  the road rate and the uphill cost, 8.5, through ``HexTerrain.move_cost``/``entry_cost``),
  **ignoring the enemy** (no fire, no stacking with others, no mines, no immobilisation): its
  Movement Phase every Game Turn, its Reaction Movement Phase in the opponent's Player Turn, and
  -- for infantry -- the one hex an assault into an empty hex moves it (17.0, 17.11) in each
  Assault Phase (the engine lets a unit under a movement restriction assault); from anywhere in
  its set-up zone at the start, or from any entry option of its group from its entry turn and
  phase on (24.1), or by the entry of a detachment that may take it (24.1 special option), not
  before its group's movement restriction lets it move; off-map squads and
  commanders of a side that may infiltrate (24.3) also from within two hexes of the
  infiltration zone (24.34). This is a lower bound (the best case), so a warning
  means the region truly cannot be taken in time. ``at_least N`` needs N units (of the kinds
  counted) there; ``controls`` needs every hex of the region reached (not those the side
  controls from the start, ``initial_control``); the others any hex.
* ``no_units`` -- a side whose orders of battle hold no unit.
* ``north`` -- the north indicator stands outside the playing area (a map section the scenario
  does not use): the directions it gives are right, but the players look for it on the map in
  play (the editor's new scenario puts it on the first map; unticking that map leaves it there).
* ``entry_edge`` -- an entry (a group's or a detachment's) whose map edge names a map section the
  scenario does not use, or whose hexes are not on the edge of the playing area (units would
  appear inside the map).
* ``oob_unused`` -- something of the orders of battle a game reads but never uses. What a game
  cannot use at all is an **error** already (``scenarios.scenario_file.oob_problems``: a unit
  entry outside a group, IPs/mines without a set-up zone, ammo for nobody, "with" naming nobody,
  restrictions or entries after the last turn); the warnings are what can be played but stays
  unused: hidden hexes (24.2)
  beyond the side's non-AFV set-up units (a hidden hex holds at least one unit, AFVs are never
  hidden, 24.21), infiltration (24.3) with no squad off the map, or not allowed but given a zone,
  a movement restriction that ends before the group could move anyway (turn 1, or not after its
  entry turn), grenades (15.2) for a side with no unit that may throw them, an empty group whose
  zone or entry nothing uses, "choose before the game" with only one option. Ammo numbers are
  always used (22.2: every unit that carries one spends it when it fires), under the advanced
  rules; under the basic rules no ammo but grenades depletes (22.0) -- a game option, not a
  property of the scenario.

Entry points: :func:`design_warnings` (a scenario model on a map, with the engine set-up when one
could be built) and :func:`scenario_file_warnings` (a scenario file, as ``ironcross validate
--warnings`` reads it).
"""

from __future__ import annotations

import heapq
import os
from dataclasses import dataclass
from typing import Any, Iterator

from core.ironcross.detachment import pick_kind
from core.ironcross.setup import GameSetup
from core.ironcross.state import Phase, Unit, UnitKind
from maps import hexgrid
from maps.content_cache import ContentCache, content_key
from maps.document_file import json_path
from scenarios.model import GrenadesEntry, IPEntry, MinesEntry, Scenario, SquadEntry, UNIT_ENTRY_TYPES
from scenarios.regions import MapEdgeRegion, NamedRegion, RegionContext, RegionError
from scenarios.victory import AllOf, AnyOf, AtLeast, Controls, NoneIn, Not, SoleOccupant

__all__ = ["DesignWarning", "CHECKS", "design_warnings", "scenario_file_warnings", "reach_turns", "reach_costs"]

#: the kinds of design check, in the order they are reported
CHECKS = ("no_units", "north", "reach", "entry_edge", "oob_unused")

_VICTORY_KIND = {UnitKind.INFANTRY: "infantry", UnitKind.COMMANDER: "commander", UnitKind.CW: "crew_weapon",
                 UnitKind.AFV: "afv"}
_PHASE = {"movement": Phase.MOVEMENT, "reaction_movement": Phase.REACTION_MOVEMENT}
_NEVER = None


@dataclass(frozen=True)
class DesignWarning:
    """One design warning: ``path`` a JSON path into the scenario (``$.victory.outcomes[0].condition.region``),
    ``check`` one of :data:`CHECKS`, ``message`` the problem in one line; ``hexes`` the hexes it
    is about (for the editor to show), possibly empty."""

    path: str
    check: str
    message: str
    hexes: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _side_word(side: str) -> str:
    return side.capitalize()


# =========================================================================== reach (the engine's movement)

@dataclass
class _Mover:
    """Units that move alike: same allowances, costs, start hexes, entries and restriction."""

    units: list[str]
    group: str
    start: frozenset[str]
    entries: tuple[tuple[frozenset[str], int, Phase], ...]
    first_move: int
    unit: Unit


class _Reach:
    """Earliest Game Turn each unit of a side can be in each hex, by the engine's movement rules,
    ignoring the enemy (see the module docstring). One :class:`Game` (never played) lends its
    allowances (8.1), step and entry costs (8.5) and assault targets (17.0)."""

    def __init__(self, scenario: Scenario, setup: GameSetup, ctx: RegionContext, costs: dict | None = None):
        from core.ironcross.game import Game

        self.scenario, self.setup, self.ctx = scenario, setup, ctx
        self.game = Game(setup, 0)
        #: (AFV?, from hex, to hex) -> MP (None: prohibited); ("entry", AFV?, hex) -> MP. Depends on
        #: the map and the chart only, so a caller may keep it between scenario edits.
        self.costs: dict = costs if costs is not None else {}
        self.area = frozenset(h.id for h in ctx.area)
        self._arrivals: dict[int, dict[str, int]] = {}
        self._complete: set[int] = set()   # movers whose every reachable hex is known
        self._movers: dict[str, list[_Mover]] = {}
        self._assault: dict[tuple[str, str], bool] = {}

    # ------------------------------------------------------------------ who starts where
    def movers(self, side: str) -> list[_Mover]:
        if side in self._movers:
            return self._movers[side]
        sc, st, g = self.scenario, self.setup, self.game
        spec = sc.side(side)
        zones: dict[str, set[str]] = {}
        for d in st.deployments:
            if d.side == side:
                zones.setdefault(d.group, set()).update(d.zone)
        group_entries: dict[str, tuple] = {}
        for grp in spec.groups:
            if grp.entry is None:
                continue
            opts = []
            for o in grp.entry.options:
                try:
                    hexes = frozenset(h.id for h in o.region.resolve(self.ctx)) & self.area
                except RegionError:
                    continue   # an error of its own
                opts.append((hexes, o.turn, _PHASE.get(o.phase, Phase.MOVEMENT)))
            group_entries[grp.name] = tuple(opts)
        # 24.3: an infiltrating squad and commander are placed within two hexes of the Infiltration Hex
        infil = st.infiltration.get(side) or frozenset()
        infil_ring = self._within(infil, 2) if infil else frozenset()
        # 24.1 special options: a unit a detachment may take may also enter by its entry
        det_entries: dict[str, list] = {}
        for d in st.detachments:
            if d.side != side:
                continue
            try:
                sd = next(x for x in spec.detachments if x.name == d.name and x.from_group == d.group)
            except StopIteration:
                continue
            opts = []
            for o in sd.entry.options:
                try:
                    hexes = frozenset(h.id for h in o.region.resolve(self.ctx)) & self.area
                except RegionError:
                    continue   # an error of its own
                opts.append((hexes, o.turn, _PHASE.get(o.phase, Phase.MOVEMENT)))
            for uid in d.units:
                if g._limit_for(d, *pick_kind(g.state.units[uid]), {}) is not None:
                    det_entries.setdefault(uid, []).extend(opts)
        entering: dict[str, str] = {}
        for e in st.entries:
            if e.side == side:
                for uid in e.units:
                    entering[uid] = e.group
        by_key: dict[tuple, _Mover] = {}
        for uid, u in st.units.items():
            if u.side != side:
                continue
            grp = entering.get(uid)
            if grp is None:
                grp = next((d.group for d in st.deployments if uid in d.units), "")
                start = frozenset(zones.get(grp, ()))
                entries: tuple = ()
            else:
                entries = group_entries.get(grp, ())
                start = infil_ring if (infil_ring and u.kind in (UnitKind.INFANTRY, UnitKind.COMMANDER)) \
                    else frozenset()
            gu = g.state.units[uid]
            entries = entries + tuple(det_entries.get(uid, ()))
            key = (gu.is_afv, gu.is_infantry, g._allowance(gu, False), g._allowance(gu, True), start, entries,
                   st.no_move_before.get(uid, 1), grp)
            m = by_key.get(key)
            if m is None:
                m = by_key[key] = _Mover([], grp, start, entries, st.no_move_before.get(uid, 1), gu)
            m.units.append(uid)
        self._movers[side] = list(by_key.values())
        return self._movers[side]

    def _within(self, hexes: frozenset[str], n: int) -> frozenset[str]:
        out = set(hexes)
        ring = set(hexes)
        for _ in range(n):
            ring = {x for h in ring for x in self.game._nbrs(h)} - out
            out |= ring
        return frozenset(out & self.area)

    # ------------------------------------------------------------------ costs (the engine's)
    def _cost(self, u: Unit, frm: str, to: str) -> float | None:
        """8.5: the cheaper of moving UP (with the road rate, 8.52) and DOWN; None if prohibited."""
        k = (u.is_afv, frm, to)
        c = self.costs.get(k, -1)
        if c == -1:
            up = self.game._cost_as(u, False, frm, to)
            down = self.game._cost_as(u, True, frm, to)
            c = self.costs[k] = min((x for x in (up, down) if x is not None), default=None)
        return c

    def _entry_cost(self, u: Unit, to: str) -> float | None:
        k = ("entry", u.is_afv, to)
        c = self.costs.get(k, -1)
        if c == -1:
            kind = "afv" if u.is_afv else "infantry"
            costs = [self.game.terrain.entry_cost(to, kind, d) for d in (False, True)]
            c = self.costs[k] = min((x for x in costs if x is not None), default=None)
        return c

    def _may_assault_into(self, side: str, frm: str, to: str) -> bool:
        k = (frm, to)
        v = self._assault.get(k)
        if v is None:   # 17.0: an empty hex may be assaulted (no unit of either side on this map)
            v = self._assault[k] = self.game._assault_target_problem(frm, to, side) is None
        return v

    # ------------------------------------------------------------------ earliest turns
    def arrivals(self, side: str, m: _Mover, targets: frozenset[str]) -> dict[str, int]:
        """hex -> the earliest Game Turn by whose end the units of ``m`` can be there (0: at
        set-up). Computed until every hex of ``targets`` is reached or nothing more can be."""
        key = id(m)
        done = self._arrivals.get(key)
        if done is not None and (targets <= done.keys() or key in self._complete):
            return done
        u = m.unit
        first = self.scenario.moves_first == side
        phases = (Phase.MOVEMENT, Phase.REACTION_MOVEMENT) if first else (Phase.REACTION_MOVEMENT, Phase.MOVEMENT)
        reached: dict[str, int] = {h: 0 for h in m.start}
        frontier = set(reached)
        last_entry = max((t for _h, t, _p in m.entries), default=0)
        complete = False
        t = 0
        while True:
            t += 1
            grew = False
            for ph in phases:
                reaction = ph is Phase.REACTION_MOVEMENT
                new: set[str] = set()
                if t >= m.first_move:   # 24.1 restriction: no move (nor entry) before that turn
                    mp, one = self.game._allowance(u, reaction)
                    entry = {}
                    for hexes, turn, eph in m.entries:
                        if eph is ph and t >= turn:   # 24.1: on the turn listed or any later turn
                            for h in hexes:
                                c = self._entry_cost(u, h)
                                if c is not None and (one or c <= mp + 1e-9) and c < entry.get(h, 1e9):
                                    entry[h] = 0.0 if one else c
                    if mp > 0 or one or entry:
                        new = self._expand(u, reached, frontier, mp, one, entry)
                for h in new:
                    reached[h] = t
                frontier |= new
                if u.is_infantry:   # 17.0/17.11: an assault into an empty adjacent hex moves infantry one hex
                    hop = {n for h in frontier for n in self.game._nbrs(h)
                           if n not in reached and self._may_assault_into(side, h, n)}
                    for h in hop:
                        reached[h] = t
                    frontier |= hop
                    new |= hop
                if new:
                    grew = True
                    frontier = {h for h in frontier if any(n not in reached for n in self.game._nbrs(h))}
            if targets <= reached.keys():
                break
            if not grew and t >= max(last_entry, m.first_move):
                complete = True
                break
        if complete:
            self._complete.add(key)
        self._arrivals[key] = reached
        return reached

    def _expand(self, u: Unit, reached: dict[str, int], frontier: set[str], mp: float, one: bool,
                entry: dict[str, float]) -> set[str]:
        """Hexes newly reachable in one movement phase from any reached hex (its frontier) or from
        off the map through ``entry`` (hex -> MP spent entering it)."""
        nbrs = self.game._nbrs
        if one:   # 8.11/8.12/8.14: one hex, regardless of terrain costs (not into prohibited terrain)
            out = {n for h in frontier for n in nbrs(h) if n not in reached and self._cost(u, h, n) is not None}
            return out | {h for h in entry if h not in reached}
        best: dict[str, float] = {h: 0.0 for h in frontier}
        pq = [(0.0, h) for h in frontier]
        for h, c in entry.items():
            if h not in reached and c < best.get(h, 1e9):
                best[h] = c
                pq.append((c, h))
        heapq.heapify(pq)
        while pq:
            c, h = heapq.heappop(pq)
            if c > best[h] + 1e-9:
                continue
            for n in nbrs(h):
                if n in reached:
                    continue
                k = self._cost(u, h, n)
                if k is None:
                    continue
                nc = c + k
                if nc <= mp + 1e-9 and nc < best.get(n, 1e9) - 1e-9:
                    best[n] = nc
                    heapq.heappush(pq, (nc, n))
        return {h for h in best if h not in reached}

    # ------------------------------------------------------------------ per unit
    def unit_turns(self, side: str, hexes: frozenset[str],
                   kinds: list[str] | None = None) -> list[tuple[int | None, str, str]]:
        """(earliest Game Turn or None for never, unit id, group) of every unit of ``side`` (of
        the victory ``kinds`` when given) into any of ``hexes``, soonest first."""
        out = []
        for m in self.movers(side):
            if kinds is not None and _VICTORY_KIND[m.unit.kind] not in kinds:
                continue
            arr = self.arrivals(side, m, hexes)
            ts = [arr[h] for h in hexes if h in arr]
            best = min(ts) if ts else _NEVER
            out.extend((best, uid, m.group) for uid in m.units)
        return sorted(out, key=lambda x: (x[0] is None, x[0] or 0, x[1]))

    def hex_turns(self, side: str, hexes: frozenset[str]) -> dict[str, tuple[int | None, str | None, str]]:
        """hex -> (earliest Game Turn any unit of ``side`` can be there or None, that unit, its group)."""
        out: dict[str, tuple[int | None, str | None, str]] = {h: (None, None, "") for h in hexes}
        for m in self.movers(side):
            arr = self.arrivals(side, m, hexes)
            for h in hexes:
                t = arr.get(h)
                if t is not None and (out[h][0] is None or t < out[h][0]):
                    out[h] = (t, m.units[0], m.group)
        return out


#: The movement costs of the reach checks per map and chart content (:func:`reach_costs`): a few
#: entries, each a dict the checks fill as they go (a few hundred KB for the shipped mapsheet).
_REACH_COSTS = ContentCache(4)


def reach_costs(hexmap, chart) -> dict:
    """The dict the reach checks remember movement costs in (the ``costs`` of
    :func:`design_warnings`) for ``hexmap`` played with ``chart``, shared by every scenario on a
    map and chart of the same content in this process: the costs are 8.5's per hex pair and
    the entry costs, read from the map's hexes, roads, buildings and the chart's rows alone, so a
    scenario opened again (or another scenario on the same map) starts with them known. The key
    is the content (:func:`maps.content_cache.content_key`) of the map and of the chart: an
    edited map or chart gets a fresh dict. A map that is a view of another (not a plain
    :class:`maps.hexmap.HexMap`) or a chart that is no model gets a fresh dict every time."""
    from maps.hexmap import HexMap

    mkey = content_key(hexmap.doc) if type(hexmap) is HexMap else None
    ckey = content_key(chart)
    if mkey is None or ckey is None:
        return {}
    key = (mkey, ckey)
    costs = _REACH_COSTS.get(key)
    if costs is None:
        costs = {}
        _REACH_COSTS.put(key, costs)
    return costs


def reach_turns(scenario: Scenario, setup: GameSetup, ctx: RegionContext, side: str,
                hexes) -> list[tuple[int | None, str, str]]:
    """The earliest Game Turn (None: never) each unit of ``side`` can be in any of ``hexes``
    (hex ids) by the engine's movement rules, ignoring the enemy; ``(turn, unit id, group)``
    soonest first. 0 means the unit can set up there. See the module docstring for the model."""
    return _Reach(scenario, setup, ctx).unit_turns(side, frozenset(hexes))


# --------------------------------------------------------------------------- what a side must take

@dataclass
class _Need:
    """A side must have units in ``region`` (resolved ``hexes``): ``count`` units of ``kinds``
    (``every_hex`` for control of every hex); ``what`` says so in words."""

    loc: tuple
    side: str
    hexes: frozenset[str]
    count: int
    kinds: list[str] | None
    every_hex: bool
    what: str
    why: str


def _need_of(c, loc: tuple, winner: str, positive: bool, resolve, why: str) -> _Need | None:
    """What a leaf condition ``c`` needs of the winner's units under ``positive`` (False inside an
    odd number of ``not``), or None when it needs none of them anywhere."""
    if isinstance(c, (AtLeast, SoleOccupant, Controls)):
        wants = positive and c.side == winner
    elif isinstance(c, NoneIn):
        wants = not positive and c.side == winner   # "not (no German in R)": Germans in R
    else:   # pragma: no cover - composite conditions are walked by _blocked
        return None
    hexes = resolve(c.region) if wants else None
    if not hexes:
        return None   # no requirement, or a region that does not resolve (an error of its own)
    desc = c.region.describe()
    loc = (*loc, "region")
    if isinstance(c, AtLeast):
        kinds = list(c.units.kinds) if c.units.kinds else None
        return _Need(loc, winner, hexes, c.count, kinds, False,
                     f"have at least {c.count} {c.units.describe()} in {desc}", why)
    if isinstance(c, Controls):
        return _Need(loc, winner, hexes, 1, None, True, f"control every hex of {desc}", why)
    if isinstance(c, SoleOccupant):
        what = (f"be sole occupant of {c.min_buildings} building(s) of {desc}" if c.scope == "each_building"
                else f"be sole occupant of {desc}")
        return _Need(loc, winner, hexes, 1, None, False, what, why)
    return _Need(loc, winner, hexes, 1, None, False, f"have units in {desc}", why)


def _blocked(c, loc: tuple, winner: str, positive: bool, resolve, judge, why: str) -> list | None:
    """None when condition ``c`` (for ``winner``'s outcome) can be met as far as reach goes; else
    the (need, (message, hexes)) of the regions out of reach that prevent it: ``all_of`` fails
    when any part fails (its failing parts are named), ``any_of`` only when every part fails (all
    are named); ``not`` swaps the two (De Morgan)."""
    if isinstance(c, Not):
        return _blocked(c.of, (*loc, "of"), winner, not positive, resolve, judge, why)
    if isinstance(c, (AllOf, AnyOf)):
        parts = [_blocked(x, (*loc, "of", i), winner, positive, resolve, judge, why) for i, x in enumerate(c.of)]
        if isinstance(c, AllOf) == positive:   # every part is needed
            bad = [p for p in parts if p is not None]
            return [x for p in bad for x in p] if bad else None
        if any(p is None for p in parts):   # one part is enough
            return None
        return [x for p in parts for x in p]
    n = _need_of(c, loc, winner, positive, resolve, why)
    if n is None:
        return None
    verdict = judge(n)
    return None if verdict is None else [(n, verdict)]


# =========================================================================== the checks

def _walk_region(region, named: dict, loc: tuple, seen: frozenset = frozenset()) -> Iterator[tuple[tuple, Any]]:
    """Every node of a region tree (following named regions once) with its location."""
    yield loc, region
    if isinstance(region, NamedRegion):
        target = named.get(region.name)
        if target is not None and region.name not in seen:
            yield from _walk_region(target, named, ("regions", region.name), seen | {region.name})
        return
    for name in type(region).model_fields:
        v = getattr(region, name)
        if hasattr(v, "kind") and hasattr(v, "resolve"):
            yield from _walk_region(v, named, (*loc, name), seen)
        elif isinstance(v, list):
            for i, x in enumerate(v):
                if hasattr(x, "kind") and hasattr(x, "resolve"):
                    yield from _walk_region(x, named, (*loc, name, i), seen)


def _entry_options(sc: Scenario) -> Iterator[tuple[tuple, str, Any]]:
    """(location of the option, who enters, option) for every group's and detachment's entry."""
    for side in ("german", "russian"):
        s = sc.side(side)
        for gi, g in enumerate(s.groups):
            if g.entry is not None:
                for oi, o in enumerate(g.entry.options):
                    yield (side, "groups", gi, "entry", "options", oi), f"{_side_word(side)} group {g.name!r}", o
        for di, d in enumerate(s.detachments):
            for oi, o in enumerate(d.entry.options):
                yield (side, "detachments", di, "entry", "options", oi), f"{_side_word(side)} detachment {d.name!r}", o


def _entry_edge_warnings(sc: Scenario, ctx: RegionContext) -> list[DesignWarning]:
    out: list[DesignWarning] = []
    used = set(sc.map.sections)
    try:
        area = frozenset(h.id for h in ctx.area)
    except RegionError:
        return out   # an error of its own
    area_hexes = frozenset(ctx.area)  # Hex objects: a neighbour off the id range (row -1) is simply not in it
    edge = frozenset(h.id for h in area_hexes if any(n not in area_hexes for n in hexgrid.neighbours(h)))
    for loc, who, o in _entry_options(sc):
        for nloc, node in _walk_region(o.region, sc.regions, (*loc, "region")):
            if isinstance(node, MapEdgeRegion) and node.sections:
                outside = [s for s in node.sections if s not in used]
                if outside:
                    out.append(DesignWarning(json_path(nloc), "entry_edge", (
                        f"{who} enters on turn {o.turn} by {node.describe()}, but the scenario does not use "
                        f"{' and '.join(outside)} (its map sections: {', '.join(sc.map.sections)}, 24.1 MAP): the "
                        "edge is taken of the sections in play only, or nowhere")))
        try:
            hexes = frozenset(h.id for h in o.region.resolve(ctx))
        except RegionError:
            continue   # an error of its own
        inside = sorted(hexes - edge)
        if inside:
            shown = ", ".join(inside[:6]) + (f" and {len(inside) - 6} more" if len(inside) > 6 else "")
            out.append(DesignWarning(json_path((*loc, "region")), "entry_edge", (
                f"{who} enters on turn {o.turn} by {o.region.describe()}, but {len(inside)} of its hexes are not on "
                f"the edge of the playing area ({', '.join(sc.map.sections)}): {shown}; entering units would "
                "appear inside the map"), tuple(inside)))
    return out


def _no_unit_warnings(sc: Scenario, setup: GameSetup | None) -> list[DesignWarning]:
    out = []
    for side in ("german", "russian"):
        n = sum(1 for u in setup.units.values() if u.side == side) if setup is not None else len(sc.side(side).units())
        if n == 0:
            out.append(DesignWarning(json_path((side, "groups")), "no_units", (
                f"the {_side_word(side)} side has no units: no group lists a squad, commander, crew weapon or AFV "
                "(24.1), so it can neither take nor hold anything")))
    return out


def _north_warnings(sc: Scenario, ctx: RegionContext) -> list[DesignWarning]:
    """The north indicator outside the playing area (its sections): one warning, else none."""
    try:
        area = ctx.area
        where = hexgrid.parse_hex_id(sc.north.hex)
    except (RegionError, ValueError):
        return []   # unknown sections or a bad hex id are errors, reported as such
    if where in area:
        return []
    used = ", ".join(sc.map.sections) or "every section"
    return [DesignWarning(json_path(("north", "hex")), "north", (
        f"the north indicator stands in {sc.north.hex}, outside the playing area ({used}): the players "
        "look for it on the map in play; move it there (the editor's North tool, N)"), (sc.north.hex,))]


def _oob_warnings(sc: Scenario, setup: GameSetup | None) -> list[DesignWarning]:
    out: list[DesignWarning] = []
    for side in ("german", "russian"):
        s = sc.side(side)
        S = _side_word(side)
        side_allot = any(isinstance(e, (IPEntry, MinesEntry)) for e in s.oob)
        for gi, g in enumerate(s.groups):
            loc = (side, "groups", gi)
            units = [e for e in g.oob if isinstance(e, UNIT_ENTRY_TYPES)]
            if not units:
                if g.entry is not None:
                    out.append(DesignWarning(json_path(loc), "oob_unused", (
                        f"read but not used: {S} group {g.name!r} enters the map but lists no units, so its entry "
                        "brings nobody in")))
                elif not any(isinstance(e, (IPEntry, MinesEntry)) for e in g.oob) and not side_allot:
                    out.append(DesignWarning(json_path(loc), "oob_unused", (
                        f"read but not used: {S} group {g.name!r} lists no units, IPs or mines, so nothing is set up "
                        "in its zone")))
            for ri, r in enumerate(g.restrictions):
                first_entry = min((o.turn for o in g.entry.options), default=1) if g.entry is not None else 1
                if r.until_turn <= 1 or (g.entry is not None and r.until_turn <= first_entry):
                    why = ("the units may move from Game Turn 1 anyway" if r.until_turn <= 1 else
                           f"the group enters on Game Turn {first_entry} at the earliest, and entering is its move")
                    out.append(DesignWarning(json_path((*loc, "restrictions", ri)), "oob_unused", (
                        f"read but not used: {S} group {g.name!r} may not move until Player Turn {r.until_turn}, but "
                        f"{why}: the restriction changes nothing")))
            if g.entry is not None and g.entry.choose_before_game and len(g.entry.options) == 1:
                out.append(DesignWarning(json_path((*loc, "entry", "choose_before_game")), "oob_unused", (
                    f"read but not used: {S} group {g.name!r} is to choose its entry before the game, but it has "
                    "one entry option only")))
        # 24.2 hidden hexes: chosen at set-up, each holding at least one set-up unit, never an AFV (24.21)
        if s.hidden_hexes:
            if setup is not None:
                ids = {uid for d in setup.deployments if d.side == side for uid in d.units}
                k = sum(1 for uid in ids if not setup.units[uid].is_afv)
            else:   # without the engine's units only "none at all" is certain
                some = any(e.kind != "afv" for g in s.groups if g.setup is not None
                           for e in g.oob if isinstance(e, UNIT_ENTRY_TYPES))
                k = s.hidden_hexes if some else 0
            if k < s.hidden_hexes:
                what = ("no non-AFV unit of the side sets up on the map" if k == 0 else
                        f"only {k} non-AFV unit(s) of the side set up on the map: at most {k} can be used")
                out.append(DesignWarning(json_path((side, "hidden_hexes")), "oob_unused", (
                    f"read but not used: {S} has {s.hidden_hexes} hidden hexes (24.2), but {what} (24.21: a hidden hex "
                    "is chosen at set-up and holds set-up units; AFVs are never hidden)")))
        # 24.3 infiltration
        inf = s.infiltration
        if inf is not None:
            if not inf.allowed and inf.zone is not None:
                out.append(DesignWarning(json_path((side, "infiltration", "zone")), "oob_unused", (
                    f"read but not used: {S} infiltration is not allowed, so its zone is never used (24.3)")))
            elif inf.allowed:
                squads = [e for g in s.groups if g.entry is not None for e in g.oob if isinstance(e, SquadEntry)]
                if not squads:
                    out.append(DesignWarning(json_path((side, "infiltration")), "oob_unused", (
                        f"read but not used: {S} may infiltrate (24.3), but no squad of the side enters the map: "
                        "there is no squad off the map to infiltrate (24.31)")))
        # 15.2 grenades: thrown by infantry (commanders included), never flamethrowers
        gren = [(side, "groups", gi, "oob", ei) for gi, g in enumerate(s.groups)
                for ei, e in enumerate(g.oob) if isinstance(e, GrenadesEntry)]
        gren += [(side, "oob", ei) for ei, e in enumerate(s.oob) if isinstance(e, GrenadesEntry)]
        if s.grenades > 0:
            if setup is not None:
                throwers = sum(1 for u in setup.units.values() if u.side == side and u.is_infantry and not u.is_ft)
            else:
                throwers = sum(1 for e in s.units() if e.kind in ("squad", "commander"))
            if throwers == 0:
                out.append(DesignWarning(json_path(gren[0]), "oob_unused", (
                    f"read but not used: {S} has {s.grenades} grenades, but no unit of the side may throw them "
                    "(15.2: infantry and commanders, not flamethrowers)")))
    return out


def _reach_warnings(sc: Scenario, setup: GameSetup, ctx: RegionContext, costs: dict | None) -> list[DesignWarning]:
    out: list[DesignWarning] = []
    cache: dict[int, frozenset[str] | None] = {}

    def resolve(region) -> frozenset[str] | None:
        k = id(region)
        if k not in cache:
            try:
                cache[k] = frozenset(h.id for h in region.resolve(ctx))
            except RegionError:
                cache[k] = None   # an error of its own
        return cache[k]

    has_units = {side: any(u.side == side for u in setup.units.values()) for side in ("german", "russian")}
    reach = _Reach(sc, setup, ctx, costs)
    judge = lambda n: _judge(reach, n, sc.turns)  # noqa: E731
    found: list = []
    for i, o in enumerate(sc.victory.outcomes):
        if o.result not in ("german", "russian") or not has_units[o.result]:
            continue   # a side with no units is warned about once (no_units)
        why = f"outcome {i + 1}: {_side_word(o.result)} wins"
        found += _blocked(o.condition, ("victory", "outcomes", i, "condition"), o.result, True, resolve, judge,
                          why) or []
    vp = sc.victory.points
    if vp is not None and has_units[vp.side]:
        for i, a in enumerate(vp.awards):
            hexes = resolve(a.region)
            if hexes:
                n = _Need(("victory", "points", "awards", i, "region"), vp.side, hexes, 1, None, False,
                          f"score victory points in {a.region.describe()}", f"{_side_word(vp.side)} victory points")
                verdict = judge(n)
                if verdict is not None:
                    found.append((n, verdict))
    for n, (msg, hexes) in found:
        out.append(DesignWarning(json_path(n.loc), "reach", msg, hexes))
    return out


def _unit_label(setup: GameSetup, uid: str, group: str) -> str:
    u = setup.units[uid]
    return f"{u.name or uid} [{uid}] of {group!r}" if group else f"{u.name or uid} [{uid}]"


def _judge(reach: _Reach, n: _Need, T: int) -> tuple[str, tuple[str, ...]] | None:
    """None when ``n`` can be met by the end of Game Turn ``T``, else (message, hexes)."""
    S = _side_word(n.side)
    tail = " (movement allowances over the terrain from the set-up zones and entries, ignoring the enemy)"
    head = f"{S} must {n.what} ({n.why}), but "
    if n.every_hex:
        # hexes the side controls from the start (the scenario's initial control) need no visit
        held = frozenset(h for h, s in reach.setup.initial_control.items() if s == n.side)
        per = reach.hex_turns(n.side, n.hexes - held) if n.hexes - held else {}
        late = sorted((h for h, (t, _u, _g) in per.items() if t is None or t > T),
                      key=lambda h: (per[h][0] is None, per[h][0] or 0, h))
        if not late:
            return None
        h = late[-1]
        t, uid, grp = per[h]
        shown = ", ".join(late[:6]) + (f" and {len(late) - 6} more" if len(late) > 6 else "")
        if t is None:
            detail = f"no {S} unit can ever enter hex {h}"
        else:
            detail = (f"the first {S} unit that can be in hex {h}, {_unit_label(reach.setup, uid, grp)}, gets there on "
                      f"Game Turn {t} at the earliest, {t - T} turn(s) after the game ends")
        return (head + f"{len(late)} of its hexes cannot be reached by the end of Game Turn {T} ({shown}): {detail}"
                + tail, tuple(late))
    turns = reach.unit_turns(n.side, n.hexes, n.kinds)
    ok = [x for x in turns if x[0] is not None and x[0] <= T]
    if len(ok) >= n.count:
        return None
    rest = [x for x in turns if x not in ok]
    units = "unit" if n.kinds is None else "/".join(n.kinds) + " unit"
    if not ok:
        first = f"no {S} {units} can be there by the end of Game Turn {T}"
    else:
        first = f"only {len(ok)} {S} {units}(s) of the {n.count} needed can be there by the end of Game Turn {T}"
    if rest and rest[0][0] is not None:
        t, uid, grp = rest[0]
        nxt = (f"the nearest {'other ' if ok else ''}one, {_unit_label(reach.setup, uid, grp)}, gets there on Game "
               f"Turn {t} at the earliest, {t - T} turn(s) after the game ends")
    elif rest:
        nxt = (f"no {'other ' if ok else ''}{S} {units} can ever get there (the terrain is prohibited to it, or it "
               "never moves)")
    else:
        nxt = f"the side has no {'other ' if ok else ''}{units}"
    return head + first + "; " + nxt + tail, tuple(sorted(n.hexes))


# =========================================================================== entry points

def design_warnings(scenario: Scenario, hexmap, setup: GameSetup | None, *,
                    costs: dict | None = None) -> list[DesignWarning]:
    """Every design warning of ``scenario`` on ``hexmap`` (see the module docstring), in the order
    of :data:`CHECKS`.

    ``setup``: the engine's :class:`GameSetup` of the scenario
    (:func:`core.ironcross.scenario_setup.build_setup`); ``None`` when it cannot be built (the
    scenario has errors): then the checks that need the engine (reach) are skipped and the others
    read the model alone. Regions that do not resolve are skipped (they are errors).
    ``costs``: a dict the movement costs are remembered in (they depend on the map and its chart
    only: :func:`reach_costs` gives the one shared by every scenario on a map and chart of
    the same content, which the editor uses); default a new one."""
    from scenarios.scenario_file import scenario_context

    ctx = scenario_context(scenario, hexmap)
    out = _no_unit_warnings(scenario, setup)
    out += _north_warnings(scenario, ctx)
    if setup is not None:
        out += _reach_warnings(scenario, setup, ctx, costs)
    out += _entry_edge_warnings(scenario, ctx)
    out += _oob_warnings(scenario, setup)
    return out


def scenario_file_warnings(path: str | os.PathLike[str]) -> list[DesignWarning]:
    """The design warnings of a scenario file that validates (its map, roster and engine set-up
    as ``ironcross validate`` and the games load them). Raises
    :class:`maps.document_file.DocumentError` for an invalid file or one the engine cannot set
    up (an error, not a warning)."""
    from core.ironcross.setup import SetupError
    from maps.document_file import DocumentError, Problem
    from scenarios.scenario_file import load_scenario, load_scenario_map, load_scenario_roster
    from core.ironcross.scenario_setup import build_setup

    sc = load_scenario(path)
    hexmap = load_scenario_map(sc, path)
    roster = load_scenario_roster(sc, path)
    try:
        setup = build_setup(sc, hexmap, seed=0, roster=roster)
    except (SetupError, KeyError) as e:
        raise DocumentError(str(path), [Problem("$", f"the engine cannot set the scenario up: {e}")]) from None
    return design_warnings(sc, hexmap, setup)

