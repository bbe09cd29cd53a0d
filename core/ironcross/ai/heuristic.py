"""The heuristic AI player: utility scoring over influence maps, for either side.

It plays to the scenario's victory conditions through ``view.objectives`` (derived from the
victory regions, :func:`core.ironcross.scenario_setup.scenario_objectives`) and
``view.outcome()``, never through scenario-specific code:

* **strategy** (:mod:`core.ironcross.ai.strategy`): every Player Turn the side that the victory conditions
  name the winner now holds, any other attacks; goals (hexes to occupy, enemy-held hexes to clear,
  hexes to keep) fall into clusters and units are allotted to them;
* **set-up**: defenders on and around their objectives, in cover (more AP dice), with fields of
  fire over the approaches, spread over the zone (stacking penalty) and every objective hex
  manned; IPs where the men are, mines on the approaches (AT mines on roads); attackers at the
  zone's side nearest their goals, in cover;
* **movement** (:mod:`core.ironcross.ai.movement`): the 8.0 order (AFVs first), reinforcements in either
  movement phase, each group to the reachable hex whose position (MP distance to its cluster by
  the time left, cover, fields of fire, assault and fire positions) is worth most after the
  expected losses from the enemy's opportunity and next fire along the path (exact dice
  probabilities), known mines and immobilisation; who leads weighed by PC chances;
* **fire** (Support, Defensive, Moving and opportunity fire): every legal attack is priced by
  its expected effect from the exact dice probabilities (``combat_tables.ap_result_probabilities``
  with the dice the engine rolls, ``PlayerView.ap_dice_against``), times the PC pass chance,
  weighing the targets' values and the goals, minus what the firers give up (moving after
  Support Fire, a later shot after opportunity fire, assaulting after Moving Fire); grenades,
  flamethrowers and mortars (first, 14.0) are priced the same way; no attack whose expected
  effect is nothing;
* **assault** when the strength ratio (assault ratings, PCs, numbers, defender morale, the stacks
  already marked) reaches what the target hex needs (less as the game runs out on a goal hex);
* **UP/DOWN**: DOWN where threatened, UP where it wants to move next.

Every choice is a maximum over the legal actions it is given, ties broken by a stable key; the
seeded generator only breaks exact ties, so the same seed gives the same game.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from core.ironcross.ai.evaluation import (
    ap_attack_value, assault_odds, at_kill_probability, flame_value, grenade_value, pc_pass, unit_value)
from core.ironcross.ai.influence import InfluenceMaps
from core.ironcross.ai.movement import MovementMixin
from core.ironcross.ai.settings import BehaviorSettings
from core.ironcross.ai.strategy import StrategyMixin
from core.ironcross.ai.tactics import TacticsMixin
from core.ironcross import combat_tables as ct
from core.ironcross.actions import Action, EndPhase, EndSetup, Pass, StopMove, action_to_json
from core.ironcross.state import Phase
from maps import hexgrid

__all__ = ["HeuristicPlayer"]

_FIRE_PHASES = (Phase.SUPPORT_FIRE, Phase.DEFENSIVE_FIRE, Phase.MOVING_FIRE)


@lru_cache(maxsize=100_000)  # actions are frozen dataclasses: the same action, the same key
def _key(a: Action) -> str:
    return repr(sorted(action_to_json(a).items()))


@lru_cache(maxsize=None)
def _hex(h: str):
    return hexgrid.parse_hex_id(h)


@lru_cache(maxsize=200_000)
def _d(a: str, b: str) -> int:
    return hexgrid.distance(_hex(a), _hex(b))


class HeuristicPlayer(StrategyMixin, MovementMixin, TacticsMixin):
    """Heuristic player for either side; ``seed`` makes it reproducible."""

    name = "heuristic"

    def __init__(self, seed: int = 0, settings: BehaviorSettings | None = None):
        #: how it plays (:class:`core.ironcross.ai.settings.BehaviorSettings`; default = the original values)
        self.settings = settings if settings is not None else BehaviorSettings()
        self._rng = random.Random(seed)
        self.maps = InfluenceMaps()
        self.posture: str | None = None
        self._enemy_dist: dict[str, int] | None = None
        self._costs: dict[tuple, float | None] = {}
        self._nbs: dict[str, list[str]] = {}
        self._dice: dict[tuple, int] = {}
        self._dc: dict = {}
        self._assign: dict[str, int] = {}  # unit id -> goal cluster (core.ironcross.ai.strategy)
        self._last_turn = False

    # ================================================================== entry point
    def choose(self, view, side: str, actions: Sequence[Action]) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        if len(actions) == 1:
            return actions[0]
        if not hasattr(view, "enemy_units"):  # a plain dict view: no judgement possible
            return self._fallback(actions)
        # never swallow a judgement bug: an exception here makes the game an error with its replay
        a = self._decide(view, list(actions))
        if a is None:
            return self._fallback(actions)
        if a not in actions:
            raise RuntimeError(f"the heuristic AI chose {a!r}, which is not among the {len(actions)} legal actions")
        return a

    def _fallback(self, actions: Sequence[Action]) -> Action:
        for cls in (EndPhase, Pass, StopMove, EndSetup):
            for a in actions:
                if isinstance(a, cls):
                    return a
        acts = sorted(actions, key=_key)
        return acts[self._rng.randrange(len(acts))]

    def _best(self, scored: list[tuple[float, Action]]) -> tuple[float, Action | None]:
        """The highest score; exact ties broken by the seeded generator over a stable order."""
        if not scored:
            return (float("-inf"), None)
        top = max(s for s, _ in scored)
        cands = sorted((a for s, a in scored if s >= top - 1e-9), key=_key)
        return (top, cands[0] if len(cands) == 1 else cands[self._rng.randrange(len(cands))])

    def _decide(self, view, actions: list[Action]) -> Action | None:
        m = self.maps
        m.init_game(view)
        m.refresh(view)
        self._dc = {"ips": view.ips}
        self._last_turn = view.turn >= view.game_length
        self._init_posture(view)
        ph = view.phase
        kinds = {a.kind for a in actions}
        if "take_casualty" in kinds:
            return self._casualty(view, actions)  # 17.23, also inside a 9.33 overrun
        if ph is Phase.SETUP:
            if "reveal_hidden" in kinds:
                return self._reveal_for_infiltration(view, actions)  # 24.32
            return self._setup(view, actions)
        if ph is Phase.MORALE:
            return self._mg_modes(view, actions)  # 21.41
        if "overrun_at_fire" in kinds:
            # 9.2 A: the special AT fire costs nothing (no fired mark, no ammo) and may stop the
            # overrun: always fire, unit by unit, before Pass
            return min((a for a in actions if a.kind == "overrun_at_fire"), key=_key)
        if view.window_hex() is not None:
            return self._opportunity(view, actions)
        if ph in _FIRE_PHASES:
            return self._fire(view, actions)
        if ph in (Phase.MOVEMENT, Phase.REACTION_MOVEMENT):
            if view.moving() is not None:
                return self._step(view, actions)
            if "designate_assault" in kinds:
                return self._designate(view, actions)
            return self._start_move(view, actions)
        if ph is Phase.ASSAULT:
            return self._assault(view, actions)
        if ph is Phase.FREE_STATE_CHANGE:
            return self._state_change(view, actions)
        return None

    # ================================================================== strategy
    def _init_posture(self, view) -> None:
        self._replan(view)  # posture and goals from the victory conditions, every Player Turn

    def _urgency(self, view) -> float:
        """Grows as the game runs out: objectives count more, danger less."""
        left = view.game_length - view.turn
        u = 1.0 + 1.5 * view.turn / max(1, view.game_length)
        return u + (1.0 if left <= 1 else 0.0)

    # ================================================================== set-up
    def _setup(self, view, actions: list[Action]) -> Action | None:
        item = view.setup_item()
        if item is not None and item[0] == "infiltration":
            return self._infiltration(view, actions, item[1])  # 24.3
        if item is not None and item[0] == "detachment":
            from core.ironcross.ai.detachment import choose_detachment

            return choose_detachment(self, view, actions)  # 24.1 scenario special option
        places = [a for a in actions if a.kind == "place"]
        if item is None or not places:
            return EndSetup()
        what, data = item
        m = self.maps
        if what == "unit":
            u = view.unit(data[0])
            if u is None:
                return None
            hexes = sorted({a.hex for a in places})
            own = view.own_units()
            men_at: dict[str, int] = {}
            squads_at: dict[str, set] = {}
            for o in own:
                men_at[o.hex] = men_at.get(o.hex, 0) + o.men + (3 if o.is_afv else 0)
                squads_at.setdefault(o.hex, set()).add(o.squad if not o.is_commander else "*")
            manned = {o.hex for o in own}
            defend = self.posture == "defend"
            cheap = []
            for h in hexes:
                d = m.objective_distance(h)
                s = -(1.3 if defend else 1.0) * min(d, 30)
                if u.is_afv:
                    s -= 3.0 if view.terrain.trees(h) >= 2 else 0.0
                    s -= 0.5 * men_at.get(h, 0)
                else:
                    s += (0.7 if defend else 0.4) * self._hex_dice(view, h, defend)
                    s -= 0.6 * men_at.get(h, 0)
                    if men_at.get(h, 0) + u.men > 4:
                        s -= 2.0
                    if u.is_commander:
                        s += 0.5 * min(men_at.get(h, 0), 3)
                    elif u.squad and u.squad in squads_at.get(h, set()) and men_at.get(h, 0) <= 2:
                        s += 0.8
                if defend and h in m.occupy and h not in manned and d == 0 and len(m.occupy) <= 40:
                    s += 6.0
                cheap.append((s, h))
            cheap.sort(key=lambda x: (-x[0], x[1]))
            best = []
            for s, h in cheap[:12]:
                if defend and (u.ap > 0 or u.at > 0):
                    w = 0.5 if (u.is_mg or u.is_atg) else 0.2
                    s += w * min(m.field_of_fire(h, reach=max(6, min(12, u.ap_range))), 8)
                best.append((s, h))
            best.sort(key=lambda x: (-x[0], x[1]))
            h = best[0][1]
            down = defend and not (u.is_afv or u.is_mg or u.is_atg)
            focus = self._focus(view, h)
            cands = [a for a in places if a.hex == h]
            pick = [a for a in cands if a.down == down] or cands
            if u.has_facing:
                good = [a for a in pick if a.facing and view.in_frontal_area(h, a.facing, focus)]
                pick = good or pick
            pick = self._hide_filter(view, u, h, pick)  # 24.21
            return sorted(pick, key=_key)[0]
        if what == "ip":
            own = view.own_units()
            men_at: dict[str, int] = {}
            for o in own:
                men_at[o.hex] = men_at.get(o.hex, 0) + max(1, o.men)
            scored = []
            for a in places:
                h = a.hex
                s = 1.0 * men_at.get(h, 0) + (3.0 if h in m.occupy and len(m.occupy) <= 40 else 0.0)
                s -= 0.3 * min(m.objective_distance(h), 20) + 0.4 * self._hex_dice(view, h, True)
                scored.append((s, a))
            return self._best(scored)[1]
        # mines: on the approaches, 1-3 hexes out from the objectives, never where own units stand
        at = what == "at_mines"
        own_near = set()
        for o in view.own_units():
            own_near.add(o.hex)
        # per hex the placement of the most factors (the first of them): (factors, placement)
        best_n: dict[str, tuple[int, Action]] = {}
        factors: dict[str, int] = {}  # "AP-mines:3" -> 3, parsed once a decision
        for a in places:
            n = factors.get(a.unit)
            if n is None:
                n = factors[a.unit] = int(a.unit.split(":")[1])
            cur = best_n.get(a.hex)
            if cur is None or cur[0] < n:
                best_n[a.hex] = (n, a)
        roads = self.__dict__.setdefault("_road_hexes", {})  # hex -> on a road (the map's, for the game)
        scored = []
        for h, (_n, a) in best_n.items():
            d = m.objective_distance(h)
            s = -abs(d - 2) - (5.0 if h in own_near else 0.0)
            s -= 0.05 * (self._enemy_dist or {}).get(h, 20)
            if at:
                road = roads.get(h)
                if road is None:
                    road = roads[h] = bool(view.hexmap.is_road(hexgrid.parse_hex_id(h)))
                if road:
                    s += 2.0
            scored.append((s, a))
        return self._best(scored)[1]

    def _focus(self, view, h: str) -> str:
        """Where a unit in ``h`` should face: the nearest enemy, else the nearest enemy approach."""
        en = view.enemy_units()
        if en:
            return min(en, key=lambda e: (_d(h, e.hex), e.hex)).hex
        src = sorted(set(view.setup_zones(view.enemy)) | set(view.entry_hexes(view.enemy)))
        if src:
            return min(src, key=lambda x: (_d(h, x), x))
        occ = sorted(self.maps.occupy | self.maps.clear)
        return min(occ, key=lambda x: (_d(h, x), x)) if occ else h

    # ================================================================== movement
    def _hex_dice(self, view, h: str, down: bool) -> int:
        k = (h, down, view.ips.get(h, 0) if self._dc.get("ips") is None else self._dc["ips"].get(h, 0))
        v = self._dice.get(k)
        if v is None:
            v = self._dice[k] = view.hex_dice(h, down)
        return v

    # ================================================================== fire
    def _fire_cost(self, view, u, phase, opportunity: bool, grenade_target: str | None = None) -> float:
        if phase is Phase.MOVING_FIRE and u.assault_hex and grenade_target != u.assault_hex:
            return 50.0  # 17.14: firing cancels the assault
        if opportunity:
            return 0.12
        if phase is Phase.SUPPORT_FIRE:
            # 8.21: a unit that fires now does not move: a cost for those still on their way (on
            # the last Game Turn an attacker's every unit not on its goal hex)
            gm = self.maps.goal_mp(u.hex, u.is_afv, self._assign.get(u.id))
            if not (u.is_mg or u.is_cw) and gm > 2:
                return 0.45 if self.posture == "attack" else 0.2
            if self._last_turn and self.posture == "attack" and not (u.is_mg or u.is_cw) and gm > 0:
                return self.settings.end_game_push  # the last move of the game: a goal hex not reached decides it
            return 0.05
        return 0.02

    def _targets(self, view, target: str, moved: bool):
        out = []
        for t in view.enemy_at(target):
            out.append((t, view.ap_dice_against(t.id, moved)))
        return out

    def _objective_factor(self, h: str) -> float:
        """How much hitting the enemy in ``h`` counts: an enemy-held goal hex most (on the last Game
        Turn it decides the game), an enemy on or next to a goal hex more (on the last Game Turn by
        ``near_objective_target_factor_last_turn``: one move puts it on the hex)."""
        m = self.maps
        st = self.settings
        if h in m.attack:
            return st.objective_target_factor_last_turn if self._last_turn else st.objective_target_factor
        near = self._dc.get(("near_goal", h))
        if near is None:
            goals = m.goal | m.guard
            near = self._dc[("near_goal", h)] = h in goals or any(n in goals for n in self._nbs_of(h))
        if not near:
            return 1.0
        return st.near_objective_target_factor_last_turn if self._last_turn else st.near_objective_target_factor

    def _nbs_of(self, h: str) -> list[str]:
        nbs = self._nbs.get(h)
        if nbs is None:
            nbs = self._nbs[h] = self.maps.view.neighbours(h)
        return nbs

    def _price(self, view, a: Action, opportunity: bool) -> float | None:
        ph = view.phase
        reaction = ph is Phase.REACTION_MOVEMENT
        if a.kind == "fire":
            firers = [view.unit(x) for x in a.firers]
            if any(f is None for f in firers):
                return None
            cost = sum(self._fire_cost(view, f, ph, opportunity) for f in firers)
            moved = any(f.moved for f in firers)
            if a.mode == "AT":
                t = view.unit(a.target_unit)
                f = firers[0]
                if t is None:
                    return None
                rng = _d(f.hex, a.target)
                at = ct.attenuated(f.at, max(1, f.ap_range), rng) if f.is_atr else f.at
                n = 3 if (f.moved or f.changed_facing_only) else 2
                frontal = view.in_frontal_area(a.target, t.facing or 1, f.hex)
                armour = t.frontal if frontal else t.flank
                higher = view.los(f.hex, a.target, f.down).level_difference > 0
                mod = 1 if opportunity and (reaction or f.is_infantry or f.is_afv) else 0
                p = pc_pass(f.pr, mod)
                pk = at_kill_probability(at, n, armour, higher)
                if pk * p < 0.01:
                    return None  # 12.33: only all 1s: an attack whose effect is nothing
                return p * pk * unit_value(t) * max(1.0, self._objective_factor(a.target) * 0.8) - cost
            if a.intensive and view.turn < self.settings.intensive_fire_from_turn:
                return None  # fire discipline: no Intensive Fire (11.15) this early
            fp_full = view.ap_firepower(a.firers, a.target, a.intensive, opportunity)
            ps = []
            for f in firers:
                mod = 1 if opportunity and (reaction or f.is_infantry or f.is_afv) else 0
                ps.append(pc_pass(f.pr, mod))
            p_any = 1.0
            for p in ps:
                p_any *= (1 - p)
            p_any = 1 - p_any
            # expected firepower given at least one passes (losses of factors for failed PCs)
            frac = (sum(ps) / len(ps)) / max(p_any, 1e-6) if len(ps) > 1 else 1.0
            base = sum(ct.attenuated(f.ap, max(1, f.ap_range), _d(f.hex, a.target)) for f in firers)
            fp = int(round(fp_full - base * (1 - min(1.0, frac))))
            if fp_full <= 0:
                return None  # only all 1s could still hurt (11.44): an attack whose effect is nothing
            ev = p_any * ap_attack_value(fp, self._targets(view, a.target, moved))
            if ev < 0.02:
                return None
            self._dc.setdefault("raw_ev", {})[a] = ev  # for the poor-target filter (target priority)
            ev *= self._objective_factor(a.target)
            for x in a.intensive:  # 11.15: the MG may jam or break (Intensive Fire Effects table)
                ev -= self._intensive_cost(view, view.unit(x))
            return ev - cost
        if a.kind == "grenade":
            u = view.unit(a.thrower)
            if u is None:
                return None
            # 15.3: every unit of the hex counts as having fired; 15.9: grenades are counted
            others = [x for x in view.units_at(u.hex) if x.side == view.side and x.id != u.id and not x.fired
                      and x.ap > 0]
            left = view.grenades_left()
            keep = self.settings.grenade_reserve * max(0.0, 1.0 - left / (2.0 * self._turns_left(view)))
            cost = self._fire_cost(view, u, ph, False, a.target) + 0.06 * len(others) + keep
            ev = pc_pass(u.pr, 2) * grenade_value(view.enemy_at(a.target), view.terrain.is_building(a.target))
            if ev < 0.02:
                return None
            return ev * self._objective_factor(a.target) - cost
        if a.kind == "flame":
            u = view.unit(a.unit)
            if u is None:
                return None
            ev = pc_pass(u.pr) * flame_value(view.enemy_at(a.target), _d(u.hex, a.target))
            return ev * self._objective_factor(a.target) - self._fire_cost(view, u, ph, False)
        if a.kind == "mortar":
            u = view.unit(a.unit)
            if u is None:
                return None
            # 14.4: dice without trees; 14.3: the round hits on a modified die of 3 or less
            tg = [(t, view.terrain.ap_dice(a.target, target_down=t.down, firer_moved=False, afv_cover=False,
                                           ip_points=view.ips.get(a.target, 0), ignore_trees=True))
                  for t in view.enemy_at(a.target) if not t.is_afv]
            per = ap_attack_value(u.ap, tg)
            if per < 0.02:
                return None
            mod = (1 if a.spotter else 0) + (1 if a.rounds > 3 else 0) + (1 if _d(u.hex, a.target) < u.ap_range else 0)
            p_hit = max(0, min(6, 3 - mod)) / 6.0
            hits = 1.0 - (1.0 - p_hit) ** a.rounds  # at least one round on the hex
            more = max(0.0, p_hit * a.rounds - hits)  # further hits on units already hurt
            p = pc_pass(u.pr) * (pc_pass(view.unit(a.spotter).pr) if a.spotter and view.unit(a.spotter) else 1.0)
            own_near = sum(1 for o in view.own_units() if _d(o.hex, a.target) <= 2 and not o.is_afv)
            ev = p * per * (hits + 0.35 * more) - 0.03 * own_near * a.rounds * (1 - p_hit)  # scatter (14.3 b)
            return ev * self._objective_factor(a.target) - self._fire_cost(view, u, ph, False) - 0.01 * a.rounds
        return None

    def _intensive_cost(self, view, mg) -> float:
        """Expected loss of using MG Intensive Fire (11.15): 2d6 7 broken for the game (6/36), 5 or
        9 out for two Player Turns (8/36), 2-4 and 10-12 jammed for one (12/36), each Player Turn
        out worth a share of the MG's value; late in the game a broken MG costs little."""
        left = 2 * self._turns_left(view)  # Player Turns in which it could still fire
        per_turn = 0.08 * unit_value(mg)
        cost = per_turn * (6 / 36 * left + 8 / 36 * min(2, left) + 12 / 36 * min(1, left))
        return cost * self.settings.intensive_fire_cost

    def _fire(self, view, actions: list[Action]) -> Action | None:
        # 14.0: mortar fire comes before any other fire of the phase, or not at all
        morts = [(s, a) for a in actions if a.kind == "mortar" for s in [self._price(view, a, False)] if s is not None]
        s, a = self._best(morts)
        if a is not None and s >= 0.06:
            return a
        scored = []
        for a in actions:
            if a.kind in ("lane_fire", "spray_fire"):  # 21.2, 21.3
                s = self._price_mode(view, a, False)
                if s is not None:
                    scored.append((s, a))
            if a.kind in ("fire", "grenade", "flame"):
                s = self._price(view, a, False)
                if s is not None:
                    scored.append((s, a))
        scored = self._drop_poor_targets(scored)
        s, a = self._best(scored)
        if a is None or s < self.settings.fire_threshold:
            return EndPhase()
        return a

    def _drop_poor_targets(self, scored: list[tuple[float, Action]]) -> list[tuple[float, Action]]:
        """Target priority (``poor_target_ratio``): leave out the AP fire actions whose expected
        effect (before the objective weight and costs) is below that share of the best one the same
        firers have. Ratio 0 (the default) keeps all."""
        ratio = self.settings.poor_target_ratio
        if ratio <= 0.0:
            return scored
        raw = self._dc.get("raw_ev", {})
        best: dict[frozenset, float] = {}
        for _s, a in scored:
            if a.kind == "fire" and a in raw:
                k = frozenset(a.firers)
                best[k] = max(best.get(k, 0.0), raw[a])
        return [(s, a) for s, a in scored
                if not (a.kind == "fire" and a in raw and raw[a] < ratio * best[frozenset(a.firers)])]

    def _opportunity(self, view, actions: list[Action]) -> Action | None:
        scored = []
        for a in actions:
            if a.kind in ("lane_fire", "spray_fire"):  # 21.2, 21.3 opportunity fire
                s = self._price_mode(view, a, True)
                if s is not None:
                    scored.append((s, a))
            if a.kind == "fire":
                s = self._price(view, a, True)
                if s is not None:
                    scored.append((s, a))
        s, a = self._best(scored)
        # fire now when the expected effect beats keeping the units for later fire
        if a is None or s < self.settings.opportunity_fire_threshold:
            return Pass()
        return a

    # ================================================================== assault
    def _assault_need(self, view, target: str) -> float:
        """The strength ratio an assault on ``target`` needs (17.0): 1.3; 1.0 on a goal hex; lower
        as the game runs out on an enemy-held goal hex (losing it decides the game)."""
        st = self.settings
        f = self._objective_factor(target)
        if f <= 1.0:
            return st.assault_ratio
        left = self._turns_left(view)
        if target in self.maps.attack or f >= 1.3:
            return st.assault_ratio_last_turn if left <= 1 else 0.6 if left <= 2 else 1.0
        return 1.0

    def _designate(self, view, actions: list[Action]) -> Action | None:
        """17.0: Assault markers where the strength ratio (with the stacks already marked against
        the same hex, 17.31) reaches what the hex is worth (``_assault_need``), the best first: the
        defenders' value times the odds (at most 3), or, with ``assault_spread`` in the side's last
        Player Turn while attacking, times what the stack adds to the odds against an enemy-held
        goal hex."""
        marked: dict[str, list] = {}
        for u in view.own_units():
            if u.assault_hex:
                marked.setdefault(u.assault_hex, []).append(u)
        incoming = self._enemy_assaults_on_goals(view) if self.settings.counter_assault > 0 else {}
        last = self._last_player_turn(view)
        # the markers that reach their odds: (action, its units, the defenders, the odds with the
        # stacks already marked there, the defenders' worth)
        cands = []
        able: dict[str, set] = {}  # guard_last_move 2: target -> the units some marker could send there
        if self.settings.guard_last_move >= 2:
            for a in actions:
                if a.kind == "designate_assault":
                    able.setdefault(a.target, set()).update(a.units)
        for a in actions:
            if a.kind != "designate_assault":
                continue
            defenders = view.enemy_at(a.target)
            counter = not defenders and a.target in incoming
            if counter:
                defenders = incoming[a.target]  # who will stand there after their assault (17.0 a)
            if not defenders:
                continue
            att = [view.unit(x) for x in a.units]
            # after the last Player Turn's assaults no enemy moves: a held hex may be left then
            if not (counter and last and not view.is_phasing) and self._empties_objective(view, att, a.target, marked, able):
                continue
            odds = assault_odds(marked.get(a.target, []) + att, defenders)
            if odds < self._assault_need(view, a.target):
                continue
            cands.append((a, att, defenders, odds,
                          sum(unit_value(d) for d in defenders) * self._objective_factor(a.target)))
        # assault_spread: in the side's last Player Turn every enemy-held goal hex left decides the
        # game -- unless the side wins as things stand (posture "defend"): then no such hex decides
        # it, and a lone unit sent out of its stack against one only risks what holds the win
        spread = self.settings.assault_spread > 0 and self.posture == "attack" and self._turns_left(view) <= 1
        alone = self._only_assaulters(cands, marked) if spread and self.settings.assault_spread >= 2 else {}
        scored = []
        for a, att, defenders, odds, gain in cands:
            if spread and a.target in self.maps.attack:
                # what this stack adds to the stacks already marked against the hex (17.31)
                before = assault_odds(marked[a.target], defenders) if a.target in marked else 0.0
                # and what another such hex loses when this stack is the only one left to assault it
                ids = set(a.units)
                lost = sum(max((v for us, v in ways if us <= ids), default=0.0)
                           for t, (who, ways) in alone.items() if t != a.target and who <= ids)
                added = self._spread_worth(a.target, odds, gain) - self._spread_worth(a.target, before, gain)
                scored.append((added - lost + 0.01 * len(att), a))
                continue
            scored.append((gain * min(odds, 3.0) + 0.01 * len(att), a))
        s, a = self._best(scored)
        return a if a is not None else EndPhase()

    def _only_assaulters(self, cands: list[tuple], marked: dict) -> dict[str, tuple[set, list]]:
        """Enemy-held goal hexes no stack is marked against yet -> (the units that could still be
        marked against it, [(the units of such a marker, what it is worth, :meth:`_spread_worth`)])
        from the markers :meth:`_designate` found reaching their odds (17.0): what ``assault_spread``
        2 and 3 count as lost when a stack holding all of those units goes elsewhere."""
        out: dict[str, tuple[set, list]] = {}
        for a, _att, _defenders, odds, gain in cands:
            if a.target not in self.maps.attack or a.target in marked:
                continue
            who, ways = out.setdefault(a.target, (set(), []))
            who.update(a.units)
            ways.append((frozenset(a.units), self._spread_worth(a.target, odds, gain)))
        return out

    def _spread_worth(self, target: str, odds: float, gain: float) -> float:
        """What the stacks marked against the enemy-held goal hex ``target`` at strength ratio
        ``odds`` (:func:`assault_odds`) are worth to ``assault_spread`` in the side's last Player
        Turn: the defenders' worth ``gain`` times the odds (at most 3); with ``assault_spread`` 3 the
        hex's objective factor times the chance the hex is cleared, taken as odds / (1 + odds) --
        every such hex the same whoever holds it (24.8: one enemy unit left on any of them decides the
        game), and a second stack on a hex already likely to fall adds less than a first stack on
        one nobody assaults."""
        if self.settings.assault_spread >= 3:
            return self._objective_factor(target) * odds / (1.0 + odds)
        return gain * min(odds, 3.0)

    @staticmethod
    def _last_player_turn(view) -> bool:
        """Is this the game's last Player Turn (the last Game Turn, the second side phasing)?"""
        return view.turn >= view.game_length and view.phasing != view.first_side

    def _empties_objective(self, view, att: list, target: str, marked: dict | None = None,
                           able: dict | None = None) -> bool:
        """Would the assaulting units ``att`` weaken an objective hex this side holds? 17.0 a moves
        them into ``target``: a side that holds (posture ``defend``) never assaults out of a held
        objective hex (the balance replays: a sortie leaving one man behind lost the hex within two
        Player Turns in 11 of 19 games of Scenario 1); an attacker keeps at least two units there
        and at least as many as go. Either may when ``target`` is itself an enemy-held objective
        hex -- unless ``guard_last_move`` holds it: before the enemy's last Movement Phase the last
        own unit in a hex of a region to keep clear that he can still enter stays (24.8: one enemy
        unit walking in there decides the game as surely as one left in ``target``); with 2 only
        while units outside such hexes can be (or are) marked against ``target`` (``able``: target
        -> the units some marker could send there), so the only stack that can assault it still goes."""
        m = self.maps
        gl = self.settings.guard_last_move
        if gl > 0 and self._leaves_keep_hex_empty(view, att, marked):
            if gl < 2:
                return True
            keep = self._keep_last_move
            others = {u.id for u in (marked or {}).get(target, ())}
            for uid in sorted((able or {}).get(target, ())):
                u = view.unit(uid)
                if u is not None and u.hex not in keep:
                    others.add(uid)
            if others - {u.id for u in att if u is not None}:
                return True
        if target in m.attack:
            return False
        held = m.guard | m.goal
        leaving = {u.hex for u in att if u is not None and u.hex in held}
        if not leaving:
            return False
        if self.posture == "defend":
            return True
        going = self._assaulting_ids(att, marked)
        for h in leaving:
            here = [u for u in view.own_units() if u.hex == h and not u.is_afv]
            stay = sum(1 for u in here if u.id not in going)
            if stay < max(2, len(here) - stay):
                return True
        return False

    @staticmethod
    def _assaulting_ids(att: list, marked: dict | None) -> set[str]:
        """The ids of the units ``att`` and of every unit already marked to assault (``marked``:
        target -> units): those that leave their hexes in the Assault Phase (17.0 a)."""
        going = {u.id for u in att if u is not None}
        for us in (marked or {}).values():
            going |= {u.id for u in us}
        return going

    def _leaves_keep_hex_empty(self, view, att: list, marked: dict | None) -> bool:
        """Would the assaulting units ``att`` (with those already marked, ``marked``: target ->
        units) leave no own unit (an AFV counts: 8.23 keeps the enemy out of any hex we hold) in a
        hex of a region to keep clear that the enemy can still enter in its last Movement Phase
        (``_keep_last_move``, set by the goals of this Player Turn; empty in other turns)? Only in
        the side's own Player Turn: that Movement Phase of his is still to come."""
        keep = getattr(self, "_keep_last_move", None)
        if not keep or not view.is_phasing:
            return False  # in the enemy's Player Turn his Movement Phase is over (only markers come)
        leaving = {u.hex for u in att if u is not None and u.hex in keep}
        if not leaving:
            return False
        going = self._assaulting_ids(att, marked)
        return any(not any(u.hex == h and u.id not in going for u in view.own_units()) for h in sorted(leaving))

    def _assault(self, view, actions: list[Action]) -> Action | None:
        scored = []
        for a in actions:
            if a.kind != "designate_assault":
                continue
            defenders = view.enemy_at(a.target)
            att = [view.unit(x) for x in a.units]
            att = [u for u in att if u is not None and u.on_map and u.normal]
            if not defenders:
                m = self.maps
                if a.target in m.goal or a.target in m.guard or a.target in m.attack:
                    scored.append((0.5, a))  # 17.0: into an empty goal hex
                continue
            odds = assault_odds(att, defenders)
            if odds >= min(1.0, self._assault_need(view, a.target)):
                scored.append((odds * self._objective_factor(a.target), a))
        s, a = self._best(scored)
        return a if a is not None else EndPhase()

    @staticmethod
    def casualty_cost(u) -> float:
        """What removing own unit ``u`` for an assault hit costs (17.23): its value
        (:func:`unit_value`), its assault factor (it fires again next round), a CW's firepower,
        and a large premium on commanders (lost only when nothing else is left)."""
        c = unit_value(u) + 0.5 * u.assault
        if u.is_cw:
            c += 0.1 * u.ap
        if u.is_commander:
            c += 100.0
        return c

    def _casualty(self, view, actions: list[Action]) -> Action | None:
        """17.23: lose the least valuable unit first (:meth:`casualty_cost`)."""
        scored = []
        for a in actions:
            if a.kind != "take_casualty":
                continue
            u = view.unit(a.unit)
            if u is not None:
                scored.append((-self.casualty_cost(u), a))
        return self._best(scored)[1]

    # ================================================================== UP / DOWN
    def _state_change(self, view, actions: list[Action]) -> Action | None:
        own_next = view.phasing != view.side  # the next Player Turn is ours
        for a in sorted((a for a in actions if a.kind == "set_state"), key=_key):
            u = view.unit(a.units[0])
            if u is None or u.is_afv:
                continue
            if self.posture == "attack" and own_next and self.maps.objective_distance(u.hex) > 0:
                want = False  # UP to move
            else:
                want = self.maps.threat(u.hex, False) > 0.03 or self.posture == "defend" or \
                    self.maps.objective_distance(u.hex) == 0
                if u.is_mg or u.is_atg:
                    want = want and self.maps.threat(u.hex, False) > 0.15
            if a.down == want and u.down != want:
                return a
        return EndPhase()

