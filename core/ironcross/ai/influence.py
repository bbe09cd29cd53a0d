"""Influence maps for the heuristic AI: objective distance, cover, enemy threat and fields of fire.

Computed from a :class:`core.ironcross.view.PlayerView`. Objective distances are computed once
per game (the map does not change); threat and fields of fire lazily per hex and cached per phase
and enemy position (``InfluenceMaps.for_view``), so one decision costs a few dictionary lookups.
"""

from __future__ import annotations

import weakref
from collections import deque
from functools import lru_cache
from operator import itemgetter

from core.ironcross.ai.evaluation import _ap_probs, at_kill_probability, pc_pass
from core.ironcross import combat_tables as ct
from core.ironcross.state import Phase
from core.ironcross.view import near_line
from maps import hexgrid

__all__ = ["InfluenceMaps", "objective_targets", "bfs_distance"]


def bfs_distance(view, sources, limit: int = 60) -> dict[str, int]:
    """Hex distance (in hexes, over the playing area) from the nearest of ``sources``, for the
    hexes within ``limit``. Remembered per map object, sources and limit (the map never changes):
    do not change the dict. A small set of sources is composed from each hex's distances (the
    least, hex by hex; see :func:`_goal_field`), a large one searched at once."""
    cache = _MAP_CACHES.setdefault(view.hexmap, {})
    memo = cache.setdefault("bfs", {})
    key = (frozenset(sources), limit)
    hit = memo.get(key)
    if hit is not None:
        return hit
    if len(key[0]) <= _COMPOSE_MAX:
        dist = _least(view, cache, [_single_bfs(view, s, cache) for s in sorted(key[0])], lambda m: m <= limit)
    else:
        dist = _bfs_search(view, sources, limit)
    if len(memo) > 64:
        memo.clear()
    memo[key] = dist
    return dist


#: the hex distance of a hex no path reaches (:func:`_search_hexes`)
_FAR = 1 << 20


def _search_hexes(view, sources, cache: dict) -> list[int]:
    """Breadth-first search over the map from all ``sources``: per hex index (:func:`_hex_index`)
    the hex distance to the nearest, :data:`_FAR` where none is reached."""
    ids, index = _hex_index(view, cache)
    nbs = _neighbour_table(view, cache)
    dist = [_FAR] * len(ids)
    q: deque = deque()
    for s in sorted(sources):
        i = index[s]
        if dist[i] == _FAR:
            dist[i] = 0
            q.append(i)
    while q:
        h = q.popleft()
        d = dist[h] + 1
        for n in nbs[h]:
            if dist[n] == _FAR:
                dist[n] = d
                q.append(n)
    return dist


def _single_bfs(view, source: str, cache: dict):
    """:func:`_search_hexes` from ``source`` alone as an int32 array, kept per map."""
    import numpy as np

    memo = cache.setdefault(("single_bfs",), {})
    f = memo.get(source)
    if f is None:
        if len(memo) >= _SINGLE_MAX:
            memo.clear()
        f = memo[source] = np.array(_search_hexes(view, [source], cache), dtype=np.int32)
    return f


def _neighbour_table(view, cache: dict) -> list:
    """Per hex index: the indices of its neighbours on the map (``view.neighbours``), once per map."""
    t = cache.get("nb_ix")
    if t is None:
        ids, index = _hex_index(view, cache)
        t = cache["nb_ix"] = [tuple(index[n] for n in view.neighbours(h)) for h in ids]
    return t


def _bfs_search(view, sources, limit: int) -> dict[str, int]:
    """:func:`bfs_distance` by one breadth-first search from all ``sources``."""
    cache = _MAP_CACHES.setdefault(view.hexmap, {})
    ids, _index = _hex_index(view, cache)
    return {ids[i]: d for i, d in enumerate(_search_hexes(view, sources, cache)) if d <= limit}


def objective_targets(view) -> tuple[set[str], set[str]]:
    """(hexes to occupy, hexes to clear of enemy units) for the view's side; weights ignored."""
    occ: set[str] = set()
    clr: set[str] = set()
    for o in view.objectives:
        (occ if o["goal"] == "occupy" else clr).update(o["hexes"])
    return occ, clr


# ===================================================================== goals and fire risk
#: AP result weights for a NORMAL unit (as ``evaluation.result_value``): E, S, P
_W_E, _W_S, _W_P = 1.0, 0.45, 0.18


#: hexmap -> {("into_ix", kind): each hex's neighbours and the MP from each into it, "memo": goal
#: fields, ...}: shared by the AI players of a game, dropped with the map
_MAP_CACHES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def los(v, a: str, b: str, down: bool = False):
    """``v.los(a, b, down)`` for the AI's estimates, asking the view for fewer distinct lines: an
    UP firer's LOS is the same both ways (the segment and its hexes are; 10.32 compares the lower
    and the higher end) and a DOWN firer's differs only where the line meets Marsh (10.31 c).
    Returns (clear, level difference from ``a`` to ``b``, trees/AFVs/wrecks along the line)."""
    f = getattr(v, "los_estimate", None) or v.los  # the wrecks, not the AFVs that will move on
    if a <= b:
        r = f(a, b, False)
        lvl = r[1]
    else:
        r = f(b, a, False)
        lvl = -r[1]
    if down and r[3]:
        r = f(a, b, True)
        lvl = r[1]
    return _Los(r[0], lvl, r[2])


class _Los(tuple):
    __slots__ = ()

    def __new__(cls, clear, level_difference, trees):
        return tuple.__new__(cls, (clear, level_difference, trees))

    clear = property(itemgetter(0))
    level_difference = property(itemgetter(1))
    trees_afvs_wrecks = property(itemgetter(2))


#: what :meth:`InfluenceMaps._entity_losses` holds for a line :meth:`InfluenceMaps.sees_est` found
#: blocked (only ``clear`` is read of it)
_NO_LOS = _Los(False, 0, 0)


@lru_cache(maxsize=None)
def _hx(h: str):
    return hexgrid.parse_hex_id(h)


def _cube_xz(h) -> tuple[int, int]:
    """The cube x and z coordinates of hex ``h`` (:func:`maps.hexgrid.to_cube`): the distance of
    two hexes is the largest of |dx|, |dz| and |dx + dz|."""
    x, _y, z = hexgrid.to_cube(h)
    return (x, z)


@lru_cache(maxsize=4096)
def _loss(fp: int, dice: int) -> float:
    """Expected loss (unit values) of a NORMAL infantry unit attacked at final ``fp`` with ``dice``."""
    if fp <= 0:
        return 0.0
    pe, ps, pp = _ap_probs(fp, dice)
    return _W_E * pe + _W_S * ps + _W_P * pp


class _Entity:
    """An enemy fire entity: the infantry and MGs of one hex (they may combine, 11.13/11.14) or
    one other unit (AFVs, ATGs, ATRs, mortars, flamethrowers fire alone, 11.12)."""

    __slots__ = ("key", "hex", "units", "pool", "sig", "rmax", "sid", "faced", "down", "hh")

    def __init__(self, key, hex_id, units, pool):
        self.key, self.hex, self.units, self.pool = key, hex_id, units, pool
        self.sig = (hex_id,) + tuple((u.id, u.morale.value, u.fired, u.opp_fired, u.down, u.facing, u.crew, u.moved,
                                      u.mg_broken, u.mg_out_until) for u in units)
        self.rmax = 30
        self.hh = _hx(hex_id)


#: at most this many source hexes are composed from single-source fields (a larger set, such as
#: a set-up zone, is searched at once: it is asked for once a game)
_COMPOSE_MAX = 48
#: single-source fields kept per map and kind (1,647 hexes a sheet: 6.6 KB each)
_SINGLE_MAX = 4000


def _hex_index(view, cache: dict) -> tuple[tuple[str, ...], dict[str, int]]:
    """(hex ids of the map in column order, id -> index), once per map."""
    ix = cache.get("hex_index")
    if ix is None:
        ids = tuple(h.id for h in view.hexmap.all_hexes())
        ix = cache["hex_index"] = (ids, {h: i for i, h in enumerate(ids)})
    return ix


def _into_table(view, kind: str, cache: dict) -> list:
    """Per hex index: ((neighbour index, MP from the neighbour into the hex or None), ...) in
    hexside order (8.5 UP, NORMAL, with the road rate), built once per map and kind."""
    t = cache.get(("into_ix", kind))
    if t is None:
        ids, index = _hex_index(view, cache)
        terrain = view.terrain
        t = cache[("into_ix", kind)] = [
            tuple((index[n], terrain.move_cost(n, h, kind, False, True)) for n in view.neighbours(h))
            for h in ids]
    return t


def _search_mp(view, sources, kind: str, cache: dict) -> list[float]:
    """Reverse Dijkstra over the map from all ``sources``: per hex index (:func:`_hex_index`) the MP
    (UP, NORMAL; 8.5 with the road rate; ``kind`` "infantry" or "afv") to reach the nearest, inf
    where none can be reached."""
    import heapq

    ids, index = _hex_index(view, cache)
    into = _into_table(view, kind, cache)
    dist = [float("inf")] * len(ids)
    pq = []
    for s in sorted(sources):
        i = index[s]
        dist[i] = 0.0
        pq.append((0.0, i))
    heapq.heapify(pq)
    pop, push = heapq.heappop, heapq.heappush
    while pq:
        d, h = pop(pq)
        if d > dist[h] + 1e-9:
            continue
        for n, c in into[h]:
            if c is None:
                if d > 0:
                    continue
                c = 1.0  # next to a goal hex the unit cannot enter (a building for an AFV): close enough
            nd = d + c
            if nd < dist[n] - 1e-9:
                dist[n] = nd
                push(pq, (nd, n))
    return dist


def _single_field(view, source: str, kind: str, cache: dict):
    """:func:`_search_mp` from ``source`` alone as a float32 array (costs are multiples of 1/2 MP:
    exact in float32), kept per map and kind."""
    import numpy as np

    memo = cache.setdefault(("single", kind), {})
    f = memo.get(source)
    if f is None:
        if len(memo) >= _SINGLE_MAX:
            memo.clear()
        f = memo[source] = np.array(_search_mp(view, [source], kind, cache), dtype=np.float32)
    return f


def _least(view, cache: dict, arrays: list, keep) -> dict:
    """{hex id: value} of the least of ``arrays`` (per hex index), hex by hex, for the hexes where
    ``keep`` (of the least array) holds; Python numbers, in hex index order."""
    import numpy as np

    ids, _index = _hex_index(view, cache)
    m = arrays[0] if len(arrays) == 1 else np.minimum.reduce(arrays)
    ok = np.flatnonzero(keep(m))
    return dict(zip([ids[i] for i in ok.tolist()], m[ok].tolist()))


def _goal_field(view, sources, kind: str, cache: dict) -> dict[str, float]:
    """MP needed (UP, NORMAL; 8.5 with the road rate) to reach the nearest of ``sources`` from each
    hex (hexes that cannot reach one are left out); ``kind`` "infantry" or "afv". The goals change
    every Player Turn but come from a few hexes: the field of a small set is the least, hex by
    hex, of the fields of its hexes, each searched once per map (the map never changes); a large
    set is searched at once (:func:`_goal_field_search`). Both give the same MPs (the sums of
    1/2 MP steps are exact)."""
    if len(sources) > _COMPOSE_MAX:
        return _goal_field_search(view, sources, kind, cache)
    import numpy as np

    return _least(view, cache, [_single_field(view, s, kind, cache) for s in sorted(sources)], np.isfinite)


def _goal_field_search(view, sources, kind: str, cache: dict) -> dict[str, float]:
    """:func:`_goal_field` by one reverse Dijkstra from all ``sources``."""
    ids, _index = _hex_index(view, cache)
    inf = float("inf")
    return {ids[i]: d for i, d in enumerate(_search_mp(view, sources, kind, cache)) if d != inf}


class _GoalsAndRisk:
    """The strategic part of :class:`InfluenceMaps`: the per-turn goals (objective distance and MP
    fields) and the enemy fire risk along a move (opportunity fire, then the next fire phase)."""


    def set_goals(self, view, goal: set[str], attack: set[str], guard: set[str],
                  clusters: list[frozenset[str]] | None = None) -> None:
        """The hexes this side goes for this Game Turn (``goal`` to occupy, ``attack`` enemy-held
        hexes to clear, ``guard`` own-held objective hexes) and their ``clusters`` (groups of goal
        hexes units are allotted to): the objective distance and the MP fields (infantry, AFVs)
        are measured from their union, or from one cluster (``goal_mp(..., cluster=i)``)."""
        src = set(goal) | set(attack) | set(guard)
        self.goal, self.attack, self.guard = set(goal), set(attack), set(guard)
        self.clusters = list(clusters or [])
        key = (frozenset(src), tuple(self.clusters))
        if key == getattr(self, "_goal_key", None):
            return
        self._goal_key = key
        if not src:
            src = set(view.setup_zones(view.enemy)) | set(view.entry_hexes(view.enemy))
        if not hasattr(self, "_gcache"):
            # the map's move costs, shared by the players of a game (the map never changes)
            self._gcache = _MAP_CACHES.setdefault(view.hexmap, {})
        self._gview = view
        self._src = frozenset(src)
        memo = self._gcache.setdefault("memo", {})
        ok = ("bfs", self._src)
        if ok not in memo:
            memo[ok] = bfs_distance(view, src) if src else {}
        self.obj_dist = memo[ok]
        self._fields: dict[tuple, dict[str, float]] = {}

    def _field(self, cluster: int | None, afv: bool) -> dict[str, float]:
        k = (cluster, afv)
        f = self._fields.get(k)
        if f is None:
            src = self._src if cluster is None or cluster >= len(self.clusters) else frozenset(self.clusters[cluster])
            memo = self._gcache.setdefault("memo", {})
            mk = (src, afv)
            f = memo.get(mk)
            if f is None:
                if len(memo) > 400:  # the map never changes: fields are kept for the game, within bounds
                    memo.clear()
                f = memo[mk] = _goal_field(self._gview, src, "afv" if afv else "infantry", self._gcache) \
                    if src else {}
            self._fields[k] = f
        return f

    def region_mp(self, view, region: frozenset[str], afv: bool = False) -> dict[str, float]:
        """MP (infantry or AFV costs, ignoring units) from every hex to the nearest hex of
        ``region``; kept for the game like the goal fields (the map never changes)."""
        if not hasattr(self, "_gcache"):
            self._gcache = _MAP_CACHES.setdefault(view.hexmap, {})
        memo = self._gcache.setdefault("memo", {})
        mk = (region, afv)
        f = memo.get(mk)
        if f is None:
            if len(memo) > 400:
                memo.clear()
            f = memo[mk] = _goal_field(view, region, "afv" if afv else "infantry", self._gcache) if region else {}
        return f

    def goal_mp(self, h: str, afv: bool = False, cluster: int | None = None) -> float:
        """MP from ``h`` to the nearest goal hex (of ``cluster`` when given; infantry or AFV costs);
        60 when unreachable or before any goal is set."""
        if not hasattr(self, "_fields"):
            return float(self.objective_distance(h)) * 2.0
        return self._field(cluster, afv).get(h, 60.0)

    def goal_mp_nearest(self, hexes, afv: bool, clusters: int) -> list[float]:
        """For each cluster index below ``clusters``: the least :meth:`goal_mp` from the hexes of
        ``hexes`` (a unit's hex, or the hexes it may enter by), each field looked up once."""
        if not hasattr(self, "_fields"):
            return [min(self.goal_mp(h, afv, i) for h in hexes) for i in range(clusters)]
        out = []
        for i in range(clusters):
            get = self._field(i, afv).get
            out.append(min([get(h, 60.0) for h in hexes]))
        return out

    def _entities(self):
        key = self._key
        ek = self.__dict__.get("_ent_key")
        if ek is key or (ek is not None and ek == key):  # refresh keeps the key object while it holds
            return self._ents
        by_hex: dict[str, list] = {}
        ents = []
        for e in sorted(self.enemies, key=lambda x: x.id):
            if (e.is_infantry and not e.is_ft) or e.weapon == "MMG":
                by_hex.setdefault(e.hex, []).append(e)
            else:
                ents.append(_Entity(e.id, e.hex, [e], False))
        for h in sorted(by_hex):
            ents.append(_Entity("hex:" + h, h, by_hex[h], True))
        self._ents, self._ent_key = ents, key
        self._risk, self._red = {}, {}
        # an enemy fires once a Player Turn: at the moving stack it likes best or in its next fire
        # phase at any of our stacks it reaches, so its threat to one of them is shared
        # (1 / sqrt(stacks within 8 hexes))
        own = sorted({u.hex for u in self.view.own_units()})
        self._share = {}
        if self.__dict__.get("_elm_n", 0) > 300_000:
            self._elm, self._elm_n = {}, 0
            self._sids, self._pre, self._hexpre, self._occ_ids = {}, {}, {}, {}
        # the wrecks (10.31 b) once a number, for fire_risk's memo key
        occ_ids = self.__dict__.setdefault("_occ_ids", {})
        self._occ_n = occ_ids.setdefault(key[2], len(occ_ids))
        # each entity state once a number (the memos' keys below hash it, not the state)
        sids = self.__dict__.setdefault("_sids", {})
        rmaxes = self.__dict__.setdefault("_rmax", {})
        for ent in ents:
            ent.sid = sids.setdefault(ent.sig, len(sids))
            # (hex, facing) of the units whose frontal area may count (AFVs face hexside 1 unless told)
            ent.faced = tuple((e.hex, e.facing or 1) for e in ent.units if e.facing or e.is_afv)
            ent.down = any(e.down for e in ent.units)  # a DOWN firer's LOS (10.31 c)
            eh = _hx(ent.hex)
            n = sum(1 for h in own if hexgrid.distance(eh, _hx(h)) <= 8)
            share = self._share[ent.key] = 1.0 / max(1.0, n) ** 0.5
            rk = (ent.sig, share)
            r = rmaxes.get(rk)
            if r is None:
                if len(rmaxes) > 50_000:
                    rmaxes.clear()
                r = rmaxes[rk] = self._reach_of(ent, share)
            ent.rmax = r
        # what fire_risk reads of each entity, in the entities' order: (0 pooled or single firer,
        # 1 flamethrower, 2 mortar; the entity; its key, parsed hex, reach, share, state number,
        # the hex's two cube coordinates of hexgrid.distance)
        self._fire_rows = tuple((1 if not ent.pool and ent.units[0].is_ft else
                                 2 if not ent.pool and ent.units[0].is_mortar else 0,
                                 ent, ent.key, ent.hh, ent.rmax, self._share[ent.key], ent.sid)
                                + _cube_xz(ent.hh) for ent in ents)
        return ents

    def _reach_of(self, ent, share: float) -> int:
        """The farthest distance at which ``ent`` could still matter (its best firepower at two
        dice, no terrain: 0.02 of a unit's value or more); farther hexes are skipped without LOS."""
        if ent.pool is False and (ent.units[0].is_ft or ent.units[0].is_mortar):
            return 30
        last = 0
        for d in range(1, 31):
            tot = none = 0.0
            none = 1.0
            for e in ent.units:
                if e.ap <= 0 or e.is_ft or e.is_mortar:
                    continue
                f = ct.attenuated(e.ap, max(1, e.ap_range), d) * (2 if e.is_mg else 1)
                if f > 0:
                    p = pc_pass(e.pr)
                    tot += p * f
                    none *= 1.0 - p
            if tot <= 0:
                break
            p_any = 1.0 - none
            fp = int(round(tot / p_any))
            if fp > 1 and p_any * _loss(fp, 2) >= 0.02:
                last = d
        return last

    def _unit_fp(self, v, e, h: str, d: int, opp: bool, reaction_opp: bool) -> tuple[float, float]:
        """(AP factors after range (and the AFV cap, 13.2), MG intensive fire (11.15), PC pass
        chance) of enemy ``e`` at ``h`` in opportunity fire (``opp``) or a normal fire phase."""
        if not e.normal or e.fired or e.ap <= 0 or e.is_ft:
            return (0.0, 0.0)
        if opp:
            if e.opp_fired or e.is_mortar:
                return (0.0, 0.0)
            if reaction_opp:
                if not (e.is_atr or e.is_atg) or e.moved:
                    return (0.0, 0.0)  # 13.12
            elif not (e.is_infantry or e.is_afv or e.is_mg or e.is_atr or e.is_atg):
                return (0.0, 0.0)  # 13.11
            if e.is_afv:
                if d > 10 or not v.in_frontal_area(e.hex, e.facing or 1, h):
                    return (0.0, 0.0)  # 13.14, 13.2
            elif e.is_mg:
                if d > e.ap_range:
                    return (0.0, 0.0)  # 13.2
            elif e.is_infantry and d > 3:
                return (0.0, 0.0)  # 13.2
        elif e.is_mortar:
            return (0.0, 0.0)  # mortars: see _mortar_loss
        if e.facing and (opp or e.is_stug or (e.is_atg and e.crew < 3)) and not v.in_frontal_area(e.hex, e.facing, h):
            # 10.23 frontal area; in a later fire phase an MG (8.73) or an ATG with 3-4 crew (8.72)
            # turns and fires, a Stug does not (10.14)
            return (0.0, 0.0)
        ap = min(e.ap, 4) if (opp and e.is_afv) else e.ap  # 13.2: AFV opportunity AP at most 4
        f = ct.attenuated(ap, max(1, e.ap_range), d)
        if e.is_mg:
            f *= 2  # 11.15 intensive fire: the worst case
        if e.weapon == "MMG" and not e.full_crew:
            f //= 2  # 11.16 d
        mod = 1 if opp and (reaction_opp or e.is_infantry or e.is_afv) else 0  # 13.17
        return (float(f), pc_pass(e.pr, mod))

    def _entity_loss(self, v, ent, h: str, hh, dice: int, opp: bool, reaction_opp: bool) -> float:
        """Expected loss of a NORMAL infantry unit in ``h`` (``dice`` AP dice) from entity ``ent``
        in opportunity fire (``opp``) or a normal fire phase (see :meth:`_entity_losses`)."""
        return self._entity_losses(v, ent, h, hh, dice, ((opp, reaction_opp),))[0]

    def _entity_losses(self, v, ent, h: str, hh, dice: int, modes) -> tuple[float, ...]:
        """:meth:`_entity_loss` for each (``opp``, ``reaction_opp``) of ``modes``, sharing the
        distance, the frontal areas, the target hex's reduction and the LOS between them."""
        # the units' factors and PC chances (_unit_fp) depend on the target hex only through its
        # distance and the frontal areas it lies in (tests/core/test_ai.py checks that): they are
        # remembered per entity state, distance, kind of fire and frontal areas, and per entity
        # state, hex and kinds of fire (UP and DOWN targets ask for the same)
        hm = self.__dict__.setdefault("_hexpre", {})
        hk = (ent.sid, h, modes)
        hits = hm.get(hk)
        if hits is None:
            d = hexgrid.distance(ent.hh, hh)
            if d == 0 or d > 30:
                hits = hm[hk] = ()
            else:
                fronts = tuple([v.in_frontal_area(x, f, h) for x, f in ent.faced]) if ent.faced else ()
                pre = self.__dict__.setdefault("_pre", {})
                got = []
                for opp, reaction_opp in modes:
                    pk = (ent.sid, d, opp, reaction_opp, fronts)
                    hit = pre.get(pk)
                    if hit is None:
                        tot, ps = 0.0, []
                        for e in ent.units:
                            f, p = self._unit_fp(v, e, h, d, opp, reaction_opp)
                            if f > 0 and p > 0:
                                tot += p * f
                                ps.append(p)
                        if ps:
                            none = 1.0
                            for p in ps:
                                none *= 1.0 - p
                            p_any = 1.0 - none
                            hit = pre[pk] = (tot, p_any, int(round(tot / p_any)))
                        else:
                            hit = pre[pk] = (tot, None, 0)
                    got.append(hit)
                hits = hm[hk] = tuple(got)
        if not hits:
            return (0.0,) * len(modes)
        out = []
        red0 = lo = None
        for tot, p_any, fp0 in hits:  # fp0: the factors' whole-number total (as round(tot / p_any))
            if p_any is None:
                out.append(0.0)
                continue
            if red0 is None:
                red0 = self._hex_red(v, h)
            best = fp0 - red0
            if best <= 1 or p_any * _loss(best, dice) < 0.02:
                out.append(0.0)  # little to fear even with a clear line: no LOS needed
                continue
            if lo is None:
                lo = self.los_est(v, ent.hex, h, ent.down) if self.sees_est(v, ent.hex, h, ent.down) else _NO_LOS
            if not lo.clear:
                out.append(0.0)
                continue
            red = red0 + lo.trees_afvs_wrecks + (1 if lo.level_difference > 0 else 0)
            fp = fp0 - red
            out.append(p_any * _loss(fp, dice))
        return tuple(out)

    def _hex_red(self, v, h: str) -> int:
        """11.16 a: trees, AFVs and wrecks in the target hex."""
        r = self._red.get(h)
        if r is None:
            o = v.occupancy().get(hexgrid.parse_hex_id(h))
            r = self._red[h] = v.terrain.trees(h) + (o.afvs + o.wrecks if o is not None else 0)
        return r

    def fire_risk(self, h: str, down: bool = False) -> tuple[dict, dict]:
        """Enemy fire at a NORMAL infantry unit in ``h`` (UP or ``down``), as expected loss per unit
        value, per enemy fire entity: (opportunity fire if it enters ``h`` now (13.0: eligible units,
        13.2 ranges, 13.14 frontal areas, 13.17 PC modifiers), the next normal fire phase at it
        (Defensive Fire after our Movement Phase, the enemy's Moving Fire after our Reaction
        Movement)). Exact P/S/E probabilities of the engine's dice (11.3, 11.4) with MG intensive
        fire (11.15); combined factors of a hex's infantry and MGs weighed by their PCs. Flamethrowers
        (16.0) and mortars (14.0) count in the second."""
        self._entities()
        key = (h, down)
        r = self._risk.get(key)
        if r is not None:
            return r
        v = self.view
        hh = _hx(h)
        dice = v.hex_dice(h, down)
        reaction = v.phase is Phase.REACTION_MOVEMENT
        opp_d: dict = {}
        def_d: dict = {}
        occ = self._occ_n  # the wrecks (10.31 b), as a number
        # the entities' losses remembered for the game: per (hex, dice, phase, wrecks), by entity
        # state number (an int key in the hot loop below, no tuple built a row)
        elm = self.__dict__.get("_elm")
        if elm is None:
            elm = self._elm = {}
        sub_key = (h, dice, reaction, occ)
        sub = elm.get(sub_key)
        if sub is None:
            sub = elm[sub_key] = {}
        n0 = len(sub)
        modes = ((True, reaction), (False, False))  # opportunity fire, the next fire phase
        hx, hz = _cube_xz(hh)
        sub_get = sub.get
        for kind, ent, ek, eh, rmax, share, sid, ex, ez in self._fire_rows:
            if kind:
                if kind == 1:
                    x = self._ft_loss(v, ent.units[0], h, hh)
                else:
                    x = self._mortar_loss(v, ent.units[0], h, down)
                if x > 0:
                    def_d[ek] = x * share
                continue
            # hexgrid.distance(eh, hh), inline (the hottest loop of the AI's fire estimates)
            dx = ex - hx
            dz = ez - hz
            dy = dx + dz
            if dx < 0:
                dx = -dx
            if dy < 0:
                dy = -dy
            if dz < 0:
                dz = -dz
            d = dx if dx >= dy and dx >= dz else dy if dy >= dz else dz
            if d == 0 or d > rmax:
                continue
            # remembered for the game: AFVs moving later change few lines (10.31 b), wrecks do count
            xs = sub_get(sid)
            if xs is None:
                xs = sub[sid] = self._entity_losses(v, ent, h, hh, dice, modes)
            x0, x1 = xs
            if x0 > 0:
                opp_d[ek] = x0 * share
            if x1 > 0:
                def_d[ek] = x1 * share
        self._elm_n = self.__dict__.get("_elm_n", 0) + len(sub) - n0
        r = self._risk[key] = (opp_d, def_d)
        return r

    def _ft_loss(self, v, e, h: str, hh) -> float:
        if not e.normal or e.fired or e.down:
            return 0.0
        d = hexgrid.distance(_hx(e.hex), hh)
        if d == 0 or d > 2 or not self.sees_est(v, e.hex, h, False):
            return 0.0
        dist = ct.dice_total_distribution(2)
        lim = 8 if d == 1 else 6
        pe = sum(p for t, p in enumerate(dist) if t <= lim)
        return pc_pass(e.pr) * (_W_E * pe + _W_S * (1 - pe))  # 16.3

    def _mortar_loss(self, v, e, h: str, down: bool) -> float:
        if not e.normal or e.fired or v.terrain.is_building(e.hex):
            return 0.0
        if not self.sees_est(v, e.hex, h, e.down):
            return 0.0  # indirect fire (14.22) not counted
        dice = v.terrain.ap_dice(h, target_down=down, firer_moved=False, afv_cover=False,
                                 ip_points=v.ips.get(h, 0), ignore_trees=True)  # 14.4
        rounds = max(1, min(5, e.crew + 2 if e.crew < 3 else 5))
        hits = 1.0 - 0.55 ** rounds  # at least one round on the hex (14.3), roughly
        return pc_pass(e.pr) * hits * _loss(e.ap, dice)

    def at_risk(self, h: str, armour: int) -> tuple[dict, dict]:
        """AT fire at an AFV with frontal ``armour`` in ``h``, as P(destroyed) per enemy unit:
        (opportunity fire as it enters (13.11/13.12, 13.14, 13.2 ranges), the next normal fire
        phase); 12.2 two dice, 12.3 (level), 12.33 all 1s, the firer's PC (13.17)."""
        self._entities()
        key = ("at", h, armour)
        r = self._risk.get(key)
        if r is not None:
            return r
        v = self.view
        hh = _hx(h)
        reaction = v.phase is Phase.REACTION_MOVEMENT
        opp_d: dict = {}
        def_d: dict = {}
        for e in self.enemies:
            if e.at <= 0 or not e.normal or e.fired:
                continue
            if e.is_atr and not e.full_crew:
                continue  # 10.16
            d = hexgrid.distance(_hx(e.hex), hh)
            if d == 0:
                continue
            # 10.23: frontal area (a later fire phase: an ATG with 3-4 crew turns first, 8.72)
            in_front = not e.facing or v.in_frontal_area(e.hex, e.facing, h)
            front_ok = in_front or not (e.is_stug or e.is_atg)
            at = ct.attenuated(e.at, max(1, e.ap_range), d) if e.is_atr else e.at
            if at <= 0:
                continue
            if not self.sees_est(v, e.hex, h, e.down):
                continue
            higher = v.terrain.level(h) > v.terrain.level(e.hex)
            pk = at_kill_probability(at, 2, armour, higher)
            if pk <= 0:
                continue
            if front_ok or (e.is_atg and e.crew >= 3):
                def_d[e.id] = pc_pass(e.pr) * pk
            opp_ok = not e.opp_fired and front_ok
            if reaction:
                opp_ok = opp_ok and (e.is_atr or e.is_atg) and not e.moved
            elif e.is_afv:
                opp_ok = opp_ok and v.in_frontal_area(e.hex, e.facing or 1, h)
            if opp_ok:
                mod = 1 if (reaction or e.is_afv) else 0
                opp_d[e.id] = pc_pass(e.pr, mod) * pk
        r = self._risk[key] = (opp_d, def_d)
        return r


class InfluenceMaps(_GoalsAndRisk):
    """Per-side, per-game store of maps; ``refresh(view)`` invalidates what the position changed."""

    def __init__(self):
        self.obj_dist: dict[str, int] | None = None
        self.occupy: set[str] = set()
        self.clear: set[str] = set()
        self.small_occupy: list[set[str]] = []
        # this Game Turn's goals (set_goals): hexes to occupy, enemy-held hexes to clear, own-held to keep
        self.goal: set[str] = set()
        self.attack: set[str] = set()
        self.guard: set[str] = set()
        self._key = None
        self._threat: dict[tuple, float] = {}
        self._fof: dict[str, float] = {}
        self.enemies: list = []
        self.enemies_all: list = []
        self.view = None
        # los_est's answers for the wrecks now, and (answers, ids of the changed hexes) for the wrecks before
        self._losm: dict[tuple, _Los] = {}
        self._los_parent: tuple[dict, tuple] | None = None
        self._los_memo_ok = False
        self._terrain_blocks = None  # the game's terrain LOS test (sees_est), with the memo
        self._tblocked: set[tuple] = set()  # (a, b, down) the terrain alone blocks (sees_est), for the game

    # ------------------------------------------------------------------ per game
    def init_game(self, view) -> None:
        if self.obj_dist is not None:
            return
        self.occupy, self.clear = objective_targets(view)
        self.small_occupy = [set(o["hexes"]) for o in view.objectives if o["goal"] == "occupy" and len(o["hexes"]) <= 40]
        src = self.occupy | self.clear
        if not src:
            src = set(view.setup_zones(view.enemy)) | set(view.entry_hexes(view.enemy))
        self.obj_dist = bfs_distance(view, src) if src else {}
        self.region_size = len(src)

    # ------------------------------------------------------------------ per position
    def refresh(self, view) -> None:
        self.view = view
        enemies = view.enemy_units()
        last = self.__dict__.get("_last_enemies")
        wrecks = tuple(sorted(view.wrecks.items()))
        if last is not None and self._key is not None and len(last) == len(enemies) and \
                self._key[0] == view.seed_key and self._key[2] == wrecks and all(a is b for a, b in zip(last, enemies)):
            return  # the view hands out the same copies of unchanged units: the same key
        self._last_enemies = enemies
        key = (view.seed_key, tuple(sorted((u.id, u.hex, u.morale.value, u.fired or u.opp_fired, u.down)
                                           for u in enemies)),
               wrecks)
        if key != self._key:
            if self._key is None or self._key[2] != wrecks or not self._los_memo_ok:
                self._new_los_memo(view, self._key[2] if self._key is not None else None, wrecks)
            self._key = key
            self._threat = {}
            self._fof = {}
            self.enemies = [u for u in enemies if (u.ap > 0 or u.at > 0 or u.is_ft)]
            self.enemies_all = sorted(enemies, key=lambda x: x.id)

    def _new_los_memo(self, view, before: tuple | None, now: tuple) -> None:
        """A new :meth:`los_est` memo for the wrecks ``now`` ((hex, wrecks) pairs, as the key);
        the answers for the wrecks ``before`` stay its parent with the hexes whose wreck count
        changed. Only for a view whose estimate reads the map and the wrecks alone
        (``PlayerView.los_estimate``); otherwise nothing is remembered."""
        self._los_memo_ok = getattr(view, "los_estimate", None) is not None
        test = getattr(view, "terrain_blocks_test", None) if self._los_memo_ok else None
        self._terrain_blocks = test() if test is not None else None
        old = self._losm
        self._losm = {}
        if not self._los_memo_ok or before is None or not old or len(old) > 300_000:
            self._los_parent = None
            return
        b, n = dict(before), dict(now)
        changed = tuple(h for h in sorted(set(b) | set(n)) if b.get(h, 0) != n.get(h, 0))
        self._los_parent = (old, changed)

    def los_est(self, v, a: str, b: str, down: bool = False) -> "_Los":
        """:func:`los` ``(v, a, b, down)``, remembered while the wrecks stay as at the last
        :meth:`refresh`: the AI's estimate reads only the map and the wrecks
        (``PlayerView.los_estimate``, 10.31 b). When a wreck appears or goes, a line that no hex
        of a changed wreck count lies near (at most one hex off its straight path, where the
        line could meet it or run along it) keeps its answer. Returns (clear, level difference
        from ``a`` to ``b``, trees/AFVs/wrecks along the line)."""
        if not self._los_memo_ok:
            return los(v, a, b, down)
        k = (a, b, down)
        m = self._losm
        r = m.get(k)
        if r is None:
            par = self._los_parent
            if par is not None:
                r = par[0].get(k)
                if r is not None and near_line(a, b, par[1]):
                    r = None  # a changed wreck near the line: traced again
            if r is None:
                r = los(v, a, b, down)
            if len(m) > 300_000:
                m.clear()
                self._los_parent = None
            m[k] = r
        return r

    def sees_est(self, v, a: str, b: str, down: bool = False) -> bool:
        """``los_est(v, a, b, down).clear``, without tracing a line the terrain alone blocks
        (``PlayerView.terrain_blocks_test``: AFVs and wrecks only add to the 10.31 b count, so such a
        line is blocked whatever stands on it); the same answer. As :func:`los`, an UP line is
        the same both ways and a DOWN firer's is his own only where the line meets Marsh, so both
        terrain lines must block."""
        k = (a, b, down)
        r = self._losm.get(k)
        if r is not None:
            return r[0]
        tb = self._terrain_blocks
        if tb is not None:
            blocked = self._tblocked
            if k in blocked:
                return False
            if (tb(a, b, False) if a <= b else tb(b, a, False)) and (not down or tb(a, b, True)):
                if len(blocked) > 300_000:
                    blocked.clear()
                blocked.add(k)
                return False
        return self.los_est(v, a, b, down)[0]

    def objective_distance(self, h: str) -> int:
        return self.obj_dist.get(h, 40) if self.obj_dist else 0

    def cover(self, h: str, down: bool) -> int:
        """AP dice against infantry in ``h`` (more dice: better cover)."""
        return self.view.hex_dice(h, down)

    def threat(self, h: str, down: bool = False, afv: bool = False) -> float:
        """Expected loss (in unit values ~1) for one unit ending in ``h``: the enemy units that
        can see it and reach it, each firing alone at it with its attenuated factor."""
        key = (h, down, afv)
        t = self._threat.get(key)
        if t is not None:
            return t
        v = self.view
        hh = _hx(h)
        dice = (4 if down else 2) if afv else v.hex_dice(h, down)
        trees = v.terrain.trees(h)
        total = 0.0
        for e in self.enemies:
            if e.is_ft or e.is_mortar:
                continue
            d = hexgrid.distance(_hx(e.hex), hh)
            if d == 0 or d > 16:
                continue
            if afv:
                if e.at <= 0:
                    continue
            f = ct.attenuated(e.ap, max(1, e.ap_range), d) if not afv else e.at
            if f <= 0 or (not afv and f - trees <= 0):
                continue
            if not self.sees_est(v, e.hex, h, e.down):
                continue
            lo = self.los_est(v, e.hex, h, e.down)
            if afv:
                total += 0.25 if f >= 9 else 0.1
                continue
            fp = f - trees - lo.trees_afvs_wrecks - (1 if lo.level_difference > 0 else 0)
            if fp <= 0:
                continue
            pe, ps, pp = _ap_probs(fp, dice)
            total += pe + 0.45 * ps + 0.15 * pp
        self._threat[key] = total
        return total

    def field_of_fire(self, h: str, down: bool = False, reach: int = 8) -> float:
        """How many enemy units (or, before contact, enemy approach hexes) ``h`` sees within ``reach``."""
        f = self._fof.get(h)
        if f is not None:
            return f
        v = self.view
        targets = [e.hex for e in self.enemies]
        if not targets:
            targets = self._approach(v)
        # the count for these targets and wrecks (LOS, 10.31 b) is remembered for the game
        mk = (h, down, reach, tuple(targets), self._key[2] if self._key is not None else None)
        memo = self.__dict__.setdefault("_fof_counts", {})
        n = memo.get(mk)
        if n is None:
            hh = _hx(h)
            n = 0.0
            for t in targets:
                d = hexgrid.distance(hh, _hx(t))
                if 0 < d <= reach and self.sees_est(v, h, t, down):
                    n += 1.0
            if len(memo) > 200_000:
                memo.clear()
            memo[mk] = n
        self._fof[h] = n
        return n

    def _approach(self, v) -> list[str]:
        """Hexes the enemy must cross near the objectives: a ring of radius 3-5 around them."""
        a = getattr(self, "_appr", None)
        if a is None:
            ring = sorted(h for h, d in (self.obj_dist or {}).items() if d in (3, 5))
            a = ring[:: max(1, len(ring) // 24)]
            self._appr = a
        return a
