"""The heuristic AI's strategy: its posture and goals, from the victory conditions,
re-planned every Player Turn. A mixin of :class:`core.ironcross.ai.heuristic.HeuristicPlayer`.

* **Posture.** The scenario's victory conditions are evaluated on the position as this side sees
  it (``PlayerView.outcome``: own units, the enemy units it may see, hex control). A side the
  conditions name the winner now **holds** (posture ``"defend"``); any other side **attacks**
  (``"attack"``): a side that is behind, or level (a draw), must change the position. During the
  set-up the position is hypothetical: own units on the own objective hexes of the set-up zone,
  the enemy as placed so far (the side that sets up second sees the first).
* **Goals.** From ``view.objectives`` (derived from the victory regions, never from scenario
  code): the hexes of the small "occupy" regions (or of a large one the side has not entered),
  the enemy-held hexes of the "clear" regions (to attack; a lost objective hex becomes one), and,
  when a small "clear" region holds no enemy, its hexes (to keep the enemy out by being there).
  The influence maps measure hex and MP distances from these goals (``InfluenceMaps.set_goals``).
  Before the enemy's last Movement Phase only the hexes of a "clear" region an enemy unit can
  still enter are kept (:meth:`StrategyMixin._reachable_by_enemy`).
* **Allotment.** The goal hexes fall into clusters (hexes within two of each other); each needs
  a force: an enemy-held cluster twice the enemy units in it (and more; one held by enemy AFVs
  units with an AT factor, 17.13), a cluster to hold one unit per hex (more with enemies near).
  AT units go first to the clusters held by enemy AFVs (soonest there, until their kill chances
  add up to one per AFV), then units to the enemy-held clusters nearest first (MP distance), then
  to the clusters to hold, the remotest first, each taking its nearest units that can get there
  in time; the rest to the clusters still short, then to the nearest. A unit's cluster of last
  turn counts as nearer. Each unit then heads for its own cluster, so a side holding one objective
  still sends a force to retake another.
"""

from __future__ import annotations

import copy
import heapq

from core.ironcross.ai.evaluation import at_kill_probability
from core.ironcross.ai.influence import bfs_distance
from core.ironcross.state import Morale, Phase
from maps import hexgrid

__all__ = ["StrategyMixin", "SMALL_REGION"]

#: a region of at most this many hexes is a place to stand on; a larger one (e.g. "south of the
#: road") only says where the side must be or must not be
SMALL_REGION = 40


def _normal_allowance(view, u, reaction: bool = False) -> tuple[float, bool]:
    """(MP, one hex only) of a unit once NORMAL: the engine's Movement Point Allowance Chart
    (8.11-8.14, ``PlayerView.movement_allowance``) for a NORMAL copy of ``u``, in the Movement
    Phase or (``reaction``) the Reaction Movement Phase (a CW there: one hex, 0 MP)."""
    n = copy.copy(u)
    n.morale, n.support_fired = Morale.NORMAL, False
    mp, one = view.movement_allowance(n, reaction)
    return (float(mp), bool(one))


def _mp_per_turn(view, u) -> float:
    """A unit's Movement Points in a Movement Phase once NORMAL (:func:`_normal_allowance`; 0 for
    an immobilised AFV or a CW that never moves)."""
    return _normal_allowance(view, u)[0]


class StrategyMixin:
    """Posture and goals per Player Turn."""

    def _replan(self, view) -> None:
        """Recompute posture and goals when a new Player Turn (or the set-up) begins."""
        setup = view.phase is Phase.SETUP
        if getattr(self, "_objective_hexes", None) is None:
            self._objective_hexes = frozenset(h for o in view.objectives if len(o["hexes"]) <= SMALL_REGION
                                              for h in o["hexes"])
        # a new Player Turn, or enemy units entering or leaving the objectives (e.g. in the last
        # Player Turn: the enemy who walks in must be fired at and assaulted now)
        inside = frozenset(e.hex for e in view.enemy_units() if e.hex in self._objective_hexes)
        key = ("setup",) if setup else (view.player_turn, inside)
        if getattr(self, "_plan_key", None) == key:
            return
        self._plan_key = key
        if getattr(self, "_enemy_dist", None) is None:
            src = set(view.setup_zones(view.enemy)) | set(view.entry_hexes(view.enemy))
            self._enemy_dist = bfs_distance(view, src) if src else {}
        small = [o for o in view.objectives if len(o["hexes"]) <= SMALL_REGION]
        self._small_hexes = {h for o in small for h in o["hexes"]}
        self.outcome_now = self._outcome_now(view, setup)
        goal, attack, guard = self._goals(view)
        clusters, demand = self._clusters(view, goal, attack, guard)
        self.maps.set_goals(view, goal, attack, guard, clusters)
        # with nothing to win (no objectives) there is nothing to attack for; a win that rests on
        # the enemy staying out of a region it can still reach before the end is not yet a win
        self.threats = [] if setup else self._clear_threats(view)
        self.posture = "defend" if ((self.outcome_now == view.side and not self.threats)
                                    or not view.objectives) else "attack"
        self._assign = self._allocate(view, clusters, demand)

    def _outcome_now(self, view, setup: bool) -> str:
        """The result if the game ended now (during the set-up: with own units on the own
        objective hexes of the set-up zone)."""
        placed = None
        if setup:
            zone = set(view.setup_zones())
            want = sorted({h for o in view.objectives if o["goal"] == "occupy" for h in o["hexes"]} & zone)
            pending = sorted(u.id for u in view.own_units(on_map=False)
                             if u.hex is None and not u.eliminated and view.entry_of(u.id) is None)
            if want and pending:
                placed = {uid: want[i % len(want)] for i, uid in enumerate(pending)}
        return view.outcome(placed)[0]

    def _enemy_moves_left(self, view) -> int:
        """Movement Phases the enemy still has (its Player Turn of this Game Turn included when it
        is still to come)."""
        left = view.game_length - view.turn
        if view.is_phasing and view.phasing == view.first_side:
            left += 1
        elif not view.is_phasing and view.phase is not Phase.SETUP:
            left += 1  # the enemy is moving now (or its turn is under way)
        return max(0, left)

    def _clear_threats(self, view) -> list[str]:
        """Enemy unit ids that can walk into a region this side must keep clear of them (a
        "clear" objective) before the game ends: MP distance (over the terrain, ignoring units)
        within their movement allowance times the enemy's Movement Phases left."""
        moves = self._enemy_moves_left(view)
        regions = [frozenset(o["hexes"]) for o in view.objectives if o["goal"] == "clear"]
        if not moves or not regions:
            return []
        out = []
        for e in view.enemy_units():
            if e.hex is None or e.immobilized:
                continue
            per_turn = _mp_per_turn(view, e)
            if per_turn <= 0:
                continue
            for r in regions:
                if e.hex in r:
                    break  # already inside: the outcome says so
                if self.maps.region_mp(view, r, e.is_afv).get(e.hex, 60.0) <= per_turn * moves:
                    out.append(e.id)
                    break
        return sorted(out)

    def _reachable_by_enemy(self, view, hexes: set[str], own_hexes: set[str]) -> set[str]:
        """The hexes of ``hexes`` a visible enemy unit can enter in one Movement Phase: a Dijkstra
        from each over the engine's costs (8.5, UP, NORMAL: road rate) within its allowance once
        NORMAL (8.1), never into or through a hex our units hold (8.23) -- such a hex of ``hexes``
        counts when he could enter it were it empty (its holders keep it). ``own_hexes``: the
        hexes our units hold. Hex ids, a subset of ``hexes``.

        With the setting ``guard_full_reach`` the enemy's other ways in count too: his Reaction
        Movement still to come in our Player Turn (8.11-8.14: 3 MP for infantry, 5 for an AFV, 6
        for the BT-7, one hex for a CW) before his last Movement Phase, and, for infantry, an
        assault from the last hex reached into an adjacent one, empty or held (17.0: the
        assaulters enter a hex they clear)."""
        full = self.settings.guard_full_reach > 0
        reaction = full and view.is_phasing and view.phase in (Phase.MORALE, Phase.SUPPORT_FIRE, Phase.MOVEMENT)
        out: set[str] = set()
        done: set[tuple] = set()  # units of one hex, kind and allowance reach the same hexes: one search
        # hex -> ((neighbour, MP UP and NORMAL), ...) in hexside order, the prohibited left out: terrain
        # only, so kept for the game per move class
        adj_all = self.__dict__.setdefault("_enemy_adjacency", {})
        for e in sorted(view.enemy_units(), key=lambda x: x.id):
            mp = _mp_per_turn(view, e)
            if mp <= 0 or e.hex is None:
                continue
            kind = "afv" if e.is_afv else "infantry"
            react, one_hex = _normal_allowance(view, e, reaction=True) if reaction else (0.0, False)
            step = full and e.is_infantry
            if (e.hex, kind, mp, react, one_hex, step) in done:
                continue
            done.add((e.hex, kind, mp, react, one_hex, step))
            budget = mp + react
            adj = adj_all.setdefault(kind, {})
            best = {e.hex: 0.0}
            if one_hex:  # his reaction move: one hex whatever its cost (8.12)
                for n in view.neighbours(e.hex):
                    if n not in own_hexes and view.terrain.move_cost(e.hex, n, kind, False, True) is not None:
                        best[n] = 0.0
            pq = sorted((c, h) for h, c in best.items())
            while pq:
                c, h = heapq.heappop(pq)
                if c > best[h] + 1e-9:
                    continue
                if h in hexes:
                    out.add(h)
                steps = adj.get(h)
                if steps is None:
                    steps = adj[h] = tuple((n, k) for n in view.neighbours(h)
                                           if (k := view.terrain.move_cost(h, n, kind, False, True)) is not None)
                for n, k in steps:
                    if step and n in hexes:
                        out.add(n)  # an assault from h into n (17.0), empty or held
                    if c + k > budget + 1e-9 or c + k >= best.get(n, 1e9) - 1e-9:
                        continue
                    if n in own_hexes:
                        if n in hexes:
                            out.add(n)  # held: its holders keep it (the enemy walks in if they leave)
                        continue
                    best[n] = c + k
                    heapq.heappush(pq, (c + k, n))
        return out

    def _goals(self, view) -> tuple[set[str], set[str], set[str]]:
        """(hexes to occupy, enemy-held hexes to clear, own-held objective hexes to keep)."""
        enemy_hexes = {e.hex for e in view.enemy_units()}
        own_hexes = {u.hex for u in view.own_units()}
        control = view.control
        goal: set[str] = set()
        attack: set[str] = set()
        guard: set[str] = set()
        # the hexes of regions to keep clear that the enemy can still enter in its last Movement
        # Phase (empty or held by us): what guard_last_move keeps a unit in
        self._keep_last_move: set[str] = set()
        for o in view.objectives:
            region = set(o["hexes"])
            small = len(region) <= SMALL_REGION
            if o["goal"] == "clear":
                held = region & enemy_hexes
                attack |= held
                if small:
                    keep = region - held
                    if view.phase is not Phase.SETUP and self._enemy_moves_left(view) == 1:
                        # the enemy's last move: only the hexes an enemy unit can still enter
                        keep = self._reachable_by_enemy(view, keep, own_hexes)
                        self._keep_last_move |= keep
                    guard |= keep  # keep the enemy out by standing there (8.23)
            else:
                if o.get("control"):
                    # control (last to occupy): a hex this side controls is held until the enemy enters
                    region = {h for h in region if control.get(h) != view.side or h in own_hexes}
                if small:
                    goal |= region - enemy_hexes
                    attack |= region & enemy_hexes
                elif not region & own_hexes:
                    goal |= region - enemy_hexes
        guard |= goal & own_hexes
        return goal, attack, guard

    def _clusters(self, view, goal: set[str], attack: set[str], guard: set[str]
                  ) -> tuple[list[frozenset[str]], list[float]]:
        """Goal hexes grouped into clusters (within two hexes of each other; an enemy-held cluster
        apart from the others) and the force (in units, an AFV counts two) each needs."""
        def components(hexes: set[str]) -> list[set[str]]:
            left = set(hexes)
            out = []
            while left:
                h0 = min(left)
                comp, todo = {h0}, [h0]
                left.discard(h0)
                while todo:
                    h = todo.pop()
                    hh = hexgrid.parse_hex_id(h)
                    near = [x for x in left if hexgrid.distance(hh, hexgrid.parse_hex_id(x)) <= 2]
                    for x in near:
                        left.discard(x)
                        comp.add(x)
                        todo.append(x)
                out.append(comp)
            return sorted(out, key=lambda c: min(c))

        enemies = view.enemy_units()
        enemy_at: dict[str, int] = {}
        for e in enemies:
            enemy_at[e.hex] = enemy_at.get(e.hex, 0) + (2 if e.is_afv else 1)
        afv_at: dict[str, list[int]] = {}
        for e in enemies:
            if e.is_afv:
                afv_at.setdefault(e.hex, []).append(e.frontal)
        clusters: list[frozenset[str]] = []
        demand: list[float] = []
        at_need: list[tuple[float, int]] = []  # per cluster: (enemy AFVs, their least frontal armour)
        att = components(set(attack))
        st = self.settings
        for c in att:
            n = sum(enemy_at.get(h, 0) for h in c)
            clusters.append(frozenset(c))
            late = view.game_length - view.turn <= 1
            arm = [a for h in sorted(c) for a in afv_at.get(h, [])]
            k = len(arm)
            if k:
                # 17.13: a hex holding an enemy AFV may not be assaulted; only AT fire clears it
                at_need.append((float(k), min(arm)))
                n_inf = n - 2 * k
                demand.append(min(16.0, 2.0 * k + ((st.concentration_base + st.concentration_per_enemy * n_inf)
                                                   if n_inf > 0 else 1.0)))
                continue
            at_need.append((0.0, 0))
            demand.append(min(16.0, (st.end_game_concentration_base + st.end_game_concentration_per_enemy * n) if late
                              else (st.concentration_base + st.concentration_per_enemy * n)))
        for c in components((set(goal) | set(guard)) - set(attack)):
            near = far = 0
            for e in enemies:
                eh = hexgrid.parse_hex_id(e.hex)
                d = min(hexgrid.distance(eh, hexgrid.parse_hex_id(h)) for h in c)
                near += d <= 4
                far += d <= 8
            clusters.append(frozenset(c))
            # a hex to hold wants a unit on it; fewer while no enemy is within reach of it
            demand.append(min(12.0, float(len(c)) if far else min(2.0, float(len(c)))) + 0.5 * near)
        n_att = len(att)
        at_need += [(0.0, 0)] * (len(clusters) - len(at_need))
        if len(clusters) > 24:  # keep the biggest needs (a scattered region: the rest by distance)
            order = sorted(sorted(range(len(clusters)), key=lambda i: (-demand[i], min(clusters[i])))[:24])
            n_att = sum(1 for i in order if i < n_att)
            clusters = [clusters[i] for i in order]
            demand = [demand[i] for i in order]
            at_need = [at_need[i] for i in order]
        self._n_attack_clusters = n_att
        self._at_need = at_need
        return clusters, demand

    def _allocate(self, view, clusters: list[frozenset[str]], demand: list[float]) -> dict[str, int]:
        """unit id -> cluster index (see the module and docs/ai.md): AT units to the clusters held
        by enemy AFVs, the enemy-held clusters nearest first, the clusters to hold remotest first,
        each up to its demand; the rest to the clusters still short, then to the nearest."""
        if not clusters:
            return {}
        m = self.maps
        units = [u for u in view.own_units(on_map=False) if not u.eliminated and
                 (u.hex is not None or view.entry_of(u.id) is not None)]
        # distance in MP (the unit's own move costs, 8.5); measured by the strength gate, MP
        # allot better than Movement Phases (which send lone AFVs to far goals) -- except the AT
        # units sent against enemy AFVs and the time check on the clusters to hold
        dist: dict[str, list[float]] = {}
        seen: dict[tuple, list[float]] = {}
        for u in sorted(units, key=lambda x: x.id):
            where = (u.hex,) if u.hex is not None else tuple(sorted(view.entry_of(u.id).hexes))
            k = (where, u.is_afv)
            if k not in seen:
                seen[k] = m.goal_mp_nearest(where, u.is_afv, len(clusters))
            dist[u.id] = seen[k]
        weight = {u.id: (2.0 if u.is_afv else 1.0) for u in units}
        need = list(demand)
        assign: dict[str, int] = {}
        # keep last turn's allotment where its cluster goes on (the same hexes, or within 3 hexes)
        prev = getattr(self, "_assign", None) or {}
        prev_cl = getattr(self, "_prev_clusters", None) or []
        follow: dict[int, int] = {}
        # each cluster by its first twelve hexes in id order (parsed once)
        heads = [[hexgrid.parse_hex_id(h) for h in sorted(c)[:12]] for c in clusters]
        dist_ = hexgrid.distance
        for j, old in enumerate(prev_cl):
            best = None
            old_head = [hexgrid.parse_hex_id(h) for h in sorted(old)[:12]]
            for i, head in enumerate(heads):
                d = min([dist_(a, b) for a in old_head for b in head])
                if d <= 3 and (best is None or d < best[0]):
                    best = (d, i)
            if best is not None:
                follow[j] = best[1]
        # a unit's cluster of last turn counts as nearer (70 % of its MP, less 1): it goes on
        # there unless another unit is much nearer (a hard keep held far units where nearer ones
        # were free: Scenario 5's Russians on the far hills were left to units 12 MP away)
        sticky = {uid: follow[j] for uid, j in prev.items() if uid in dist and j in follow}
        self._prev_clusters = list(clusters)

        def dd(uid: str, i: int) -> float:
            d = dist[uid][i]
            return d * 0.7 - 1.0 if sticky.get(uid) == i and d < 60 else d
        # enemy-held clusters first (an enemy inside is a certain loss), then the hexes to hold
        n_att = getattr(self, "_n_attack_clusters", 0)
        at_need = list(getattr(self, "_at_need", None) or [(0.0, 0)] * len(clusters))
        kills = [k for k, _a in at_need]
        if any(kills):
            # clusters held by enemy AFVs (17.13: no assault, only AT fire clears them): the units
            # with an AT factor that get there soonest (Movement Phases, 8.1), until their chances
            # of a kill a shot (12.3) add up to one per enemy AFV
            pairs = []
            for u in units:
                rate = _mp_per_turn(view, u) if u.at > 0 else 0.0
                if rate <= 0:
                    continue
                for i in range(n_att):
                    if kills[i] > 0 and dist[u.id][i] < 60:
                        pk = at_kill_probability(u.at, 2, at_need[i][1], False)
                        if pk > 0.05:
                            pairs.append((dd(u.id, i) / rate, -pk, u.id, i, pk))
            for _t, _p, uid, i, pk in sorted(pairs):
                if uid in assign or kills[i] <= 0:
                    continue
                assign[uid] = i
                kills[i] -= pk
                need[i] -= weight[uid]
        # the turns a unit needs to a cluster: MP over the unit's allowance (8.1), against the
        # Game Turns left
        rate = {u.id: max(1.0, _mp_per_turn(view, u)) for u in units}
        left = max(1, view.game_length - view.turn + 1)

        def in_time(uid: str, i: int) -> bool:
            return dist[uid][i] / rate[uid] <= left + 0.5
        timed = self.settings.attack_in_time > 0

        def remote(i: int) -> float:
            """The mean MP to cluster ``i`` of the nearest units still free, as many as it needs."""
            ds = sorted(dist[uid][i] for uid in dist if uid not in assign)[:max(1, int(need[i]))]
            return sum(ds) / len(ds) if ds else 0.0
        if self.settings.attack_remote_first > 0:
            # every enemy-held cluster must be cleared (a victory of "no enemy on any of them"):
            # the remotest first takes its nearest units, before nearer clusters take them all
            for i in sorted(range(n_att), key=lambda i: (-remote(i), i)):
                cand = sorted((dd(uid, i), uid) for uid in dist if uid not in assign and dist[uid][i] < 60
                              and not (timed and not in_time(uid, i)))
                for d, uid in cand:
                    if need[i] <= 0:
                        break
                    assign[uid] = i
                    need[i] -= weight[uid]
        else:
            pairs = sorted((dd(uid, i), uid, i) for uid in dist for i in range(n_att))
            for d, uid, i in pairs:
                if uid in assign or need[i] <= 0 or d >= 60:
                    continue
                if timed and not in_time(uid, i):
                    continue  # it would arrive after the end: the need waits for a unit that can
                assign[uid] = i
                need[i] -= weight[uid]
        # the hexes to hold, the remotest first (least slack: a near cluster can still be manned
        # later, a far one not), each taking its nearest units that can get there in the turns
        # left
        for i in sorted(range(n_att, len(clusters)), key=lambda i: (-remote(i), i)):
            cand = sorted((dd(uid, i), uid) for uid in dist if uid not in assign and dist[uid][i] < 60
                          and in_time(uid, i))
            for d, uid in cand:
                if need[i] <= 0:
                    break
                assign[uid] = i
                need[i] -= weight[uid]
        for uid in sorted(dist):
            if uid in assign:
                continue
            ds = dist[uid]
            short = [i for i in range(len(clusters)) if need[i] > 0 and ds[i] < 60
                     and not (timed and i < n_att and not in_time(uid, i))]
            pick = min(short or range(len(clusters)), key=lambda i: (dd(uid, i), i))
            assign[uid] = pick
            need[pick] -= weight[uid]
        return assign
