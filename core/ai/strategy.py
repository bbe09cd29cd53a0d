"""The heuristic AI's strategy (issue 14): its posture and goals, from the victory conditions,
re-planned every Player Turn. A mixin of :class:`core.ai.heuristic.HeuristicPlayer`.

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
* **Allotment.** The goal hexes fall into clusters (hexes within two of each other); each needs
  a force: an enemy-held cluster twice the enemy units in it (and more), a cluster to hold one
  unit per hex (more with enemies near). Units are allotted nearest first (MP distance) until the
  demand is met, the rest to the clusters still short, then to the nearest; each unit then heads
  for its own cluster, so a side holding one objective still sends a force to retake another.
"""

from __future__ import annotations

from core.ai.influence import bfs_distance
from core.ironcross.state import Phase
from maps import hexgrid

__all__ = ["StrategyMixin", "SMALL_REGION"]

#: a region of at most this many hexes is a place to stand on; a larger one (e.g. "south of the
#: road") only says where the side must be or must not be
SMALL_REGION = 40


def _mp_per_turn(u) -> float:
    """A unit's Movement Points in a Movement Phase when NORMAL (8.11-8.14): AFVs their MA (10, a
    BT7 12), CWs their MA (0: never moves), a flamethrower 4, other infantry 6."""
    if u.is_afv:
        return float(u.ma or 10)
    if u.is_cw:
        return float(u.ma)
    if u.is_ft:
        return 4.0
    return 6.0


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
            per_turn = _mp_per_turn(e)
            if per_turn <= 0:
                continue
            for r in regions:
                if e.hex in r:
                    break  # already inside: the outcome says so
                if self.maps.region_mp(view, r, e.is_afv).get(e.hex, 60.0) <= per_turn * moves:
                    out.append(e.id)
                    break
        return sorted(out)

    def _goals(self, view) -> tuple[set[str], set[str], set[str]]:
        """(hexes to occupy, enemy-held hexes to clear, own-held objective hexes to keep)."""
        enemy_hexes = {e.hex for e in view.enemy_units()}
        own_hexes = {u.hex for u in view.own_units()}
        control = view.control
        goal: set[str] = set()
        attack: set[str] = set()
        guard: set[str] = set()
        for o in view.objectives:
            region = set(o["hexes"])
            small = len(region) <= SMALL_REGION
            if o["goal"] == "clear":
                held = region & enemy_hexes
                attack |= held
                if small:
                    guard |= region - held  # keep the enemy out by standing there (8.23)
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
        clusters: list[frozenset[str]] = []
        demand: list[float] = []
        att = components(set(attack))
        for c in att:
            n = sum(enemy_at.get(h, 0) for h in c)
            clusters.append(frozenset(c))
            late = view.game_length - view.turn <= 1
            demand.append(min(16.0, (6.0 + 3.0 * n) if late else (4.0 + 2.0 * n)))
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
        if len(clusters) > 24:  # keep the biggest needs (a scattered region: the rest by distance)
            order = sorted(sorted(range(len(clusters)), key=lambda i: (-demand[i], min(clusters[i])))[:24])
            n_att = sum(1 for i in order if i < n_att)
            clusters = [clusters[i] for i in order]
            demand = [demand[i] for i in order]
        self._n_attack_clusters = n_att
        return clusters, demand

    def _allocate(self, view, clusters: list[frozenset[str]], demand: list[float]) -> dict[str, int]:
        """unit id -> cluster index: nearest first until each cluster's demand is met, the rest to
        the clusters still short, then to the nearest (see the module)."""
        if not clusters:
            return {}
        m = self.maps
        units = [u for u in view.own_units(on_map=False) if not u.eliminated and
                 (u.hex is not None or view.entry_of(u.id) is not None)]
        # distance in MP (the unit's own move costs, 8.5); measured by the strength gate, MP
        # allot better than Movement Phases (which send lone AFVs to far goals)
        dist: dict[str, list[float]] = {}
        seen: dict[tuple, list[float]] = {}
        for u in sorted(units, key=lambda x: x.id):
            where = (u.hex,) if u.hex is not None else tuple(sorted(view.entry_of(u.id).hexes))
            k = (where, u.is_afv)
            if k not in seen:
                seen[k] = [min(m.goal_mp(h, u.is_afv, i) for h in where) for i in range(len(clusters))]
            dist[u.id] = seen[k]
        weight = {u.id: (2.0 if u.is_afv else 1.0) for u in units}
        need = list(demand)
        assign: dict[str, int] = {}
        # keep last turn's allotment where its cluster goes on (the same hexes, or within 3 hexes)
        prev = getattr(self, "_assign", None) or {}
        prev_cl = getattr(self, "_prev_clusters", None) or []
        follow: dict[int, int] = {}
        for j, old in enumerate(prev_cl):
            best = None
            for i, c in enumerate(clusters):
                d = min(hexgrid.distance(hexgrid.parse_hex_id(a), hexgrid.parse_hex_id(b))
                        for a in sorted(old)[:12] for b in sorted(c)[:12])
                if d <= 3 and (best is None or d < best[0]):
                    best = (d, i)
            if best is not None:
                follow[j] = best[1]
        keep = sorted((dist[uid][follow[j]], uid, follow[j]) for uid, j in prev.items()
                      if uid in dist and j in follow and dist[uid][follow[j]] < 60)
        for d, uid, i in keep:
            if need[i] > 0:  # up to the cluster's demand; the others are allotted afresh
                assign[uid] = i
                need[i] -= weight[uid]
        self._prev_clusters = list(clusters)
        # enemy-held clusters first (an enemy inside is a certain loss), then the hexes to hold
        n_att = getattr(self, "_n_attack_clusters", 0)
        for part in (range(n_att), range(n_att, len(clusters))):
            pairs = sorted((dist[uid][i], uid, i) for uid in dist for i in part)
            for d, uid, i in pairs:
                if uid in assign or need[i] <= 0 or d >= 60:
                    continue
                assign[uid] = i
                need[i] -= weight[uid]
        for uid in sorted(dist):
            if uid in assign:
                continue
            ds = dist[uid]
            short = [i for i in range(len(clusters)) if need[i] > 0 and ds[i] < 60]
            pick = min(short or range(len(clusters)), key=lambda i: (ds[i], i))
            assign[uid] = pick
            need[pick] -= weight[uid]
        return assign
