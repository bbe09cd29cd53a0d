"""Players of Red Flags and Iron Crosses: ``random`` and ``heuristic``.

A player has ``name`` and ``choose(view, side, actions) -> action``; ``view`` is the side's
:class:`core.redflags.view.PlayerView`. Both are seeded, so a replay reproduces their choices.

The heuristic scores every legal action and takes the best (ties broken by its seeded generator):

- **fire** at the target with the best expected effect: expected hits from the dice and hit
  numbers (r.hits, r.armour) valued by what they remove (figures, crew, vehicles) and by the
  morale checks they force, every unit of the hex counted for artillery and bombs, minus the return
  fire it invites (none when it enfilades the target or the target cannot see it);
- **move** to improve the unit's position: toward (attacker) or onto and around (defender) the
  objective hexes, into cover, out of reach of the enemy's weapons, and into a better firing
  position than the one it has; guns stay put, the commander stays with his strongest unit, the
  observer finds a hex that sees the enemy;
- **aircraft** fly toward the most valuable enemy hex and bomb or strafe when the bombed or strafed
  hex holds enough of the enemy; **artillery** fires at the best target it sees or that a spotter
  sees; **anti-aircraft guns** shoot at aircraft in range;
- troops debus, guns unlimber, wire is removed when that lets an attacker move on; units spread into
  a second hex to hold a second objective;
- the set-up puts the defender on and around the objectives with fields of fire, and the attacker
  as far forward and in as much cover as its zone allows, spread out.
"""

from __future__ import annotations

import functools
import random
from typing import Sequence

from core.behaviour_settings import canonical_spec, canonical_text, spec_player
from core.redflags.actions import (AirStep, Bomb, Contract, Debus, Embus, EndActivation, Extend, Fire, Limber, Move,
                                   Place, RemoveWire, Strafe, Unlimber)
from core.redflags.ai_settings import RedFlagsSettings
from core.redflags.state import COMBAT_KINDS
from core.redflags.view import PlayerView, UnitInfo

__all__ = ["RandomPlayer", "HeuristicPlayer", "PLAYERS", "make_player", "unit_value", "canonical_settings",
           "SETTINGS_PLAYERS"]


class RandomPlayer:
    """Uniformly random over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int):
        self._rng = random.Random(seed)

    def choose(self, view, side: str, actions: Sequence):
        if not actions:
            raise ValueError("no legal action to choose from")
        return actions[self._rng.randrange(len(actions))]


_AFV_VALUE = {"light": 5.0, "medium": 9.0, "heavy": 13.0}


def unit_value(u: UnitInfo) -> float:
    """What the heuristic thinks a unit is worth now (figures ~1 each)."""
    if not u.in_play:
        return 0.0
    if u.armoured:
        return _AFV_VALUE.get(u.afv_class or "light", 5.0) * max(u.vehicles, 0)
    k = u.kind
    if k == "artillery":
        return 3.0 * u.strength
    if k == "transport":
        return 2.0
    if k == "commander":
        return 4.0
    if k == "observer":
        return 3.0
    if k == "aircraft":
        return 6.0
    return len(u.figures) + (3.0 if u.support and u.strength > len(u.figures) else 0.0)


def _hit_distribution(groups: list[tuple[int, float]], cap: int = 8) -> list[float]:
    """P(exactly k hits) for k = 0..cap (cap collects the rest) for dice groups (n, p)."""
    dist = [1.0] + [0.0] * cap
    for n, p in groups:
        for _ in range(n):
            new = [0.0] * (cap + 1)
            for k, q in enumerate(dist):
                if q:
                    new[k] += q * (1 - p)
                    new[min(cap, k + 1)] += q * p
            dist = new
    return dist


class HeuristicPlayer:
    """A real opponent for the random player (see the module docstring)."""

    name = "heuristic"

    def __init__(self, seed: int, settings: RedFlagsSettings | None = None):
        self._rng = random.Random(seed)
        self._v: PlayerView | None = None
        self._cache: dict = {}
        #: how it plays (:class:`core.redflags.ai_settings.RedFlagsSettings`; docs/ai.md has the defaults)
        self.settings = settings if settings is not None else RedFlagsSettings()

    # ------------------------------------------------------------------ the choice
    def choose(self, view: PlayerView, side: str, actions: Sequence):
        if not actions:
            raise ValueError("no legal action to choose from")
        self._v = view
        self.side = side
        self._cache = {}
        self.attacker = view.initial_control is not None and view.initial_control != side
        units = view.units()
        self.enemies = [u for u in units.values() if u.side != side and u.on_map and not u.carried_by]
        self.friends = [u for u in units.values() if u.side == side and u.on_map]
        best, best_score = [], None
        for a in actions:
            s = self.score(a)
            if best_score is None or s > best_score + 1e-9:
                best, best_score = [a], s
            elif abs(s - best_score) <= 1e-9:
                best.append(a)
        return best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]

    def score(self, a) -> float:
        v = self._v
        if isinstance(a, EndActivation):
            return 0.0
        if isinstance(a, Place):
            return self.place_score(v.unit(a.unit), a.hex)
        if isinstance(a, Fire):
            return self.fire_score(v.unit(a.unit), v.unit(a.target), a.hex, a.charges)
        if isinstance(a, Move):
            u = v.unit(a.unit)
            return self.move_score(u, a.to, a.with_commander)
        if isinstance(a, AirStep):
            return self.air_step_score(v.unit(a.unit), a.turn)
        if isinstance(a, (Bomb, Strafe)):
            return self.air_attack_score(v.unit(a.unit), isinstance(a, Bomb))
        if isinstance(a, Unlimber):
            return 3.0
        if isinstance(a, Limber):
            return -1.0
        if isinstance(a, Debus):
            return 2.5
        if isinstance(a, Embus):
            return -1.0
        if isinstance(a, RemoveWire):
            return 1.5 if self.attacker else 0.2
        if isinstance(a, Extend):
            return self.extend_score(v.unit(a.unit), a.hex)
        if isinstance(a, Contract):
            return self.contract_score(v.unit(a.unit), a.hex)
        return -1.0

    # ------------------------------------------------------------------ expected effects
    def damage_value(self, victim: UnitInfo, groups: list[tuple[int, float]]) -> float:
        """Expected value removed from ``victim`` by dice groups (n, p), morale checks included."""
        if not groups:
            return 0.0
        dist = _hit_distribution(groups)
        p_any = 1.0 - dist[0]
        val = unit_value(victim)
        if val <= 0:
            return 0.0
        if victim.armoured:
            need = max(1, (1 if victim.afv_class == "light" else 2) - victim.damage)
            kill = sum(dist[need:])
            per = _AFV_VALUE.get(victim.afv_class or "light", 5.0)
            return kill * per + (p_any - kill) * 0.2 * per
        if victim.kind in ("transport", "aircraft", "commander", "observer"):
            return p_any * val
        strength = max(1, victim.strength)
        per_hit = val / strength
        exp_hits = sum(min(k, strength) * q for k, q in enumerate(dist))
        direct = exp_hits * per_hit
        # morale: a check after any hit; a failure shakes (loses its next activation) or breaks it
        p_fail = 0.5 if victim.quality == "average" else (0.33 if victim.quality == "above_average" else 0.67)
        if victim.status == "shaken":
            morale = p_any * p_fail * max(0.0, val - direct)
        else:
            morale = p_any * p_fail * 0.25 * val
        return direct + morale

    def _chances(self, firer: UnitInfo, target: UnitInfo, h: str, d: int, charges: bool = False,
                 victim: UnitInfo | None = None) -> list[tuple[int, float]]:
        key = ("hc", firer.uid, target.uid, h, d, charges, victim.uid if victim else None)
        r = self._cache.get(key)
        if r is None:
            r = self._v.hit_chances(firer.uid, target.uid, h, d, charges, victim.uid if victim else None)
            self._cache[key] = r
        return r

    def _dist(self, hexes, h: str) -> int:
        return min(self._v.distance(x, h) for x in hexes)

    def fire_ev(self, f: UnitInfo, t: UnitInfo, h: str, charges: bool = False, src_hexes=None) -> float:
        """Expected value of ``f``'s fire at ``t`` in ``h`` (all enemies of the hex for artillery)."""
        v = self._v
        src_hexes = src_hexes or f.hexes
        d = self._dist(src_hexes, h)
        ev = self.damage_value(t, self._chances(f, t, h, d, charges))
        artillery = any(v.weapons()[w].artillery for w, _n in v.attack_dice(f.uid, t.uid, h, d, charges)) \
            if t.kind != "aircraft" else False
        if artillery:
            for o in v.units_in(h):
                if o.uid == t.uid:
                    continue
                w = self.damage_value(o, self._chances(f, t, h, d, charges, victim=o))
                ev += w if o.side != self.side else -2 * w
        return ev

    def fire_score(self, f: UnitInfo, t: UnitInfo, h: str, charges: bool) -> float:
        v = self._v
        ev = self.fire_ev(f, t, h, charges)
        if ev <= 0:
            return -0.5
        src = min(f.hexes, key=lambda x: v.distance(x, h))
        back = 0.0
        if True:
            ret = None if (t.kind == "aircraft" or v.enfilades(t.uid, src)) else v.can_return(t.uid, f.uid, src)
            if ret is not None:
                back = self.damage_value(f, self._chances(t, f, src, ret[1]))
                first = 0.5
                if t.dug_in and not f.dug_in:
                    first = 1.0
                elif f.dug_in and not t.dug_in:
                    first = 0.0
                elif f.kind == "recon" and t.kind != "recon":
                    first = 1.0
                back *= 0.5 + 0.5 * first
        cost = 0.0
        st = self.settings
        if charges:
            cost = st.charge_cost * max(1, f.charges)  # the charges are gone for good
        return ev - st.return_fire_caution * back - cost + 0.05

    def best_fire_from(self, u: UnitInfo, hexes) -> float:
        """The best fire value ``u`` would have from ``hexes`` at the enemies on the map now."""
        v = self._v
        if u.kind in ("transport", "observer", "commander", "aircraft") or u.limbered:
            return 0.0
        key = ("bf", u.uid, tuple(hexes))
        r = self._cache.get(key)
        if r is not None:
            return r
        best = 0.0
        indirect = v.fires_indirect(u.uid)
        for e in self.enemies:
            if e.kind == "aircraft":
                continue
            reach = self._reach(u, e.target_class)
            if not reach:
                continue
            for eh in e.hexes:
                d = self._dist(hexes, eh)
                if d > reach:
                    continue
                if not any(v.los(x, eh) for x in hexes) and not (indirect and v.spotted(u.uid, eh)):
                    continue
                best = max(best, self.damage_value(e, self._chances(u, e, eh, d)))
        self._cache[key] = best
        return best

    def _reach(self, u: UnitInfo, tc: str) -> int:
        key = ("reach", u.uid, tc)
        r = self._cache.get(key)
        if r is None:
            r = self._cache[key] = self._v.weapon_reach(u.uid, tc)
        return r

    def threat(self, u: UnitInfo, h: str) -> float:
        """Expected value the enemy could take from ``u`` standing in ``h`` (half weight each)."""
        key = ("th", u.uid, h)
        r = self._cache.get(key)
        if r is not None:
            return r
        v = self._v
        total = 0.0
        for e in self.enemies:
            if e.kind == "aircraft" or e.status != "ok":
                continue
            reach = self._reach(e, u.target_class)
            if not reach:
                continue
            d = self._dist(e.hexes, h)
            if d > reach:
                continue
            if not any(v.terrain_los(x, h) for x in e.hexes) and not v.fires_indirect(e.uid):
                continue
            total += 0.5 * self.damage_value(u, self._chances(e, u, h, d))
        self._cache[key] = total
        return total

    # ------------------------------------------------------------------ positions
    def posture_setting(self, name: str) -> float:
        """The setting ``name`` (``aggression``, ``cover``, ``fire_position``, ``self_preservation``,
        ``crowd_cost`` or ``setup_crowd_cost``) as this side plays it: the attacker's value, times
        ``defend_<name>`` for the defender (the side holding the objectives at the start), whose
        position calls for other weights (docs/ai.md)."""
        st = self.settings
        x = getattr(st, name)
        return x if self.attacker else x * getattr(st, "defend_" + name)

    def objective_term(self, u: UnitInfo, h: str) -> float:
        v = self._v
        objs = v.objectives
        if not objs or u.kind not in COMBAT_KINDS:
            return 0.0
        ctrl = v.control
        st = self.settings
        val = 0.0
        if h in objs:
            val += st.hold_objective * (3.0 if ctrl.get(h) != self.side else (2.5 if self.attacker else 3.0))
            if self.attacker:
                val += st.hold_objective * 0.5
        wanted = [o for o in objs if ctrl.get(o) != self.side] or list(objs)
        d = min(v.distance(h, o) for o in wanted)
        if self.attacker:
            # the clock: the closer the last turn, the more an attacker pays to stand off
            late = v.turn / max(1, v.game_length)
            val -= (0.6 + 1.2 * late * late) * d * st.aggression
        else:
            val -= 0.35 * d * self.posture_setting("aggression")
        return val

    def posval(self, u: UnitInfo, h: str, staying: bool) -> float:
        v = self._v
        t = v.terrain
        val = self.objective_term(u, h)
        if u.kind == "artillery":
            val = 0.4 * sum(1 for o in v.objectives if v.distance(h, o) <= self._reach(u, "personnel"))
        st = self.settings
        if u.target_class == "personnel" or u.kind == "artillery":
            if t.cover(h):
                val += self.posture_setting("cover")
            if staying and u.dug_in:
                val += st.dug_in_stay
        if u.kind == "commander":
            mates = [f for f in self.friends if h in f.hexes and f.kind in COMBAT_KINDS and f.uid != u.uid]
            val = 2.0 + 0.1 * max(f.strength for f in mates) if mates else 0.0
        if u.kind == "observer":
            seen = sum(1 for e in self.enemies for eh in e.hexes[:1] if v.los(h, eh))
            val = 0.3 * min(seen, 6)
        if u.kind == "transport":
            val = 0.0
        val -= self.posture_setting("self_preservation") * self.threat(u, h)
        if h in v.mines:
            val -= 2.0
        if h in v.wire and not u.armoured:
            val -= 0.8 if self.attacker else 0.0
        return val

    def move_score(self, u: UnitInfo, to: str, with_commander: bool) -> float:
        v = self._v
        here = u.hexes
        now = self.posval(u, here[0], True)
        later = self.posval(u, to, False)
        gain = later - now
        if not u.fired:
            fire_now = self.best_fire_from(u, here)
            fire_then = self.best_fire_from(u, (to,))
            gain += self.posture_setting("fire_position") * max(0.0, fire_then - fire_now)
        if with_commander:
            gain += 0.2
        if u.kind == "artillery":
            gain -= 1.0
        # do not crowd a hex (artillery hits take effect on every unit in it)
        crowd = sum(1 for f in self.friends if to in f.hexes and f.uid != u.uid and f.kind != "commander")
        gain -= self.posture_setting("crowd_cost") * crowd
        return gain - 0.05

    def extend_score(self, u: UnitInfo, h: str) -> float:
        v = self._v
        if u.kind not in COMBAT_KINDS:
            return -1.0
        if h in v.objectives and v.control.get(h) != self.side:
            return 1.0
        if h in v.objectives and not v.units_in(h):
            return 0.6
        return -1.0

    def contract_score(self, u: UnitInfo, h: str) -> float:
        v = self._v
        other = [x for x in u.hexes if x != h][0]
        if other in v.objectives and not (h in v.objectives):
            return -1.0
        if self.attacker and not any(x in v.objectives for x in u.hexes):
            return 0.5
        return -0.5

    # ------------------------------------------------------------------ aircraft
    def _target_hexes(self, bomb: bool) -> list[tuple[str, float]]:
        """Enemy hexes with their value to an air attack."""
        v = self._v
        out: dict[str, float] = {}
        for e in self.enemies:
            if e.kind == "aircraft":
                continue
            if not bomb and e.target_class != "personnel":
                continue
            for h in e.hexes:
                out[h] = out.get(h, 0.0) + unit_value(e)
        return sorted(out.items(), key=lambda x: (-x[1], x[0]))

    def _air_value(self, u: UnitInfo, h: str | None, bomb: bool) -> float:
        v = self._v
        if h is None:
            return 0.0
        w = "bombs" if bomb else "strafing"
        val = 0.0
        for o in v.units_in(h):
            if o.target_class not in v.weapons()[w].targets:
                continue
            hn = v.hit_number_against(w, o.uid, h)
            if hn is None:
                continue
            d = self.damage_value(o, [(v.weapons()[w].dice, (7 - hn) / 6)])
            val += d if o.side != self.side else -2 * d
        return val

    def _attack_ev_at(self, u: UnitInfo, h: str, heading: int, bomb: bool) -> float:
        """Expected value of bombing or strafing from over ``h`` flying ``heading``."""
        key = ("airev", u.uid, h, heading, bomb)
        r = self._cache.get(key)
        if r is not None:
            return r
        v = self._v
        if bomb:
            pattern = [(0,)] if u.role == "dive_bomber" else [(0,), (-1,), (1,), (0, 0), (0, -1), (0, 1)]
            r = sum(self._air_value(u, v.in_front(h, heading, t), True) for t in pattern) / len(pattern)
        else:
            r = self._air_value(u, v.in_front(h, heading, (0, 0)), False)
        self._cache[key] = r
        return r

    def _air_plan(self, u: UnitInfo) -> tuple[float, object]:
        """The best attack this activation: (its value, the first action toward it: "attack" or a
        turn for AirStep), searching every flight path left in this activation."""
        key = ("plan", u.uid)
        r = self._cache.get(key)
        if r is not None:
            return r
        v = self._v
        bomb = u.bombs > 0
        can_attack = (bomb or (u.role == "fighter" and u.strafes > 0))
        every = v.turn_every(u.uid)
        best: list = [0.0, None]
        targets = self._target_hexes(bomb)
        goal = targets[0][0] if targets else None

        def walk(h: str, heading: int, straight: int, steps: int, first) -> None:
            if can_attack:
                ev = self._attack_ev_at(u, h, heading, bomb)
                if ev > best[0] + 1e-9:
                    best[0], best[1] = ev, first if first is not None else "attack"
            if steps >= u.speed:
                if goal is not None and best[1] is None and first is not None:
                    aim = v.in_front(h, heading, (0,))
                    closeness = -0.01 * v.distance(aim, goal) if aim else -1.0
                    if best[0] <= 0 and (len(best) < 3 or closeness > best[2]):
                        best[:] = [0.0, None, closeness, first]
                return
            for t in (0, -1, 1):
                if t and straight < every:
                    continue
                hd = (heading - 1 + t) % 6 + 1 if t else heading
                nxt = v.in_front(h, hd, (0,))
                if nxt is None or not v.terrain.in_area(nxt):
                    continue
                walk(nxt, hd, 1 if t else straight + 1, steps + 1, first if first is not None else t)

        walk(u.hexes[0], u.heading, u.straight, u.steps, None)
        if best[1] is None and len(best) == 4:
            res = (0.0, best[3])
        else:
            res = (best[0], best[1])
        self._cache[key] = res
        return res

    def air_attack_score(self, u: UnitInfo, bomb: bool) -> float:
        value, first = self._air_plan(u)
        if first == "attack" and value > self.settings.air_attack_threshold:
            return 1.0 + value
        return -0.5

    def air_step_score(self, u: UnitInfo, turn: int) -> float:
        value, first = self._air_plan(u)
        if first == turn:
            return 0.5 + value
        return 0.05 if turn == 0 else 0.0

    # ------------------------------------------------------------------ set-up
    def place_score(self, u: UnitInfo, h: str) -> float:
        v = self._v
        val = self.posval(u, h, True)
        crowd = sum(1 for f in self.friends if h in f.hexes and f.kind != "commander")
        val -= self.posture_setting("setup_crowd_cost") * crowd
        if not self.attacker:
            if u.kind in COMBAT_KINDS and u.kind != "artillery":
                val += 0.1 * self._field_of_fire(u, h)
            if u.kind == "artillery":
                val += 0.2 * self._field_of_fire(u, h)
            if u.kind == "transport":
                val += 0.5 * min(v.distance(h, o) for o in v.objectives)  # keep the tow back
        else:
            if u.kind == "artillery":
                val -= 0.2 * sum(1 for e in self.enemies if v.distance(h, e.hexes[0]) <= 4)
            if u.kind == "transport" and u.towing is None:
                val = -0.2 * len([e for e in self.enemies if v.distance(h, e.hexes[0]) <= 8])
        if u.kind == "commander":
            mates = [f for f in self.friends if h in f.hexes and f.kind in COMBAT_KINDS]
            val = (3.0 + 0.1 * max(f.strength for f in mates)) if mates else -1.0
            val -= self.posture_setting("self_preservation") * self.threat(u, h)
        if u.kind == "observer":
            zone = sorted(v.zone("german" if self.side == "russian" else "russian"))
            val = 0.1 * sum(1 for z in zone[::4] if v.terrain_los(h, z)) - \
                self.posture_setting("self_preservation") * self.threat(u, h)
        return val

    def _field_of_fire(self, u: UnitInfo, h: str) -> float:
        v = self._v
        enemy_zone = sorted(v.zone("german" if self.side == "russian" else "russian"))
        reach = max(self._reach(u, "personnel"), self._reach(u, "vehicle"))
        if not reach:
            return 0.0
        key = ("fof", reach, h)
        r = self._cache.get(key)
        if r is None:
            sample = enemy_zone[::3]
            r = sum(1 for z in sample if v.distance(h, z) <= reach + 2 and v.terrain_los(h, z))
            self._cache[key] = r
        return r


#: name -> factory(seed)
PLAYERS = {"random": RandomPlayer, "heuristic": HeuristicPlayer}

#: name -> one-line description (``RuleSystem.players``)
DESCRIPTIONS = {
    "random": "uniformly random over the legal actions (seeded)",
    "heuristic": "scores every action: fire at the best expected effect (minus return fire), move toward/onto "
                 "the objectives into cover and out of reach, aircraft and artillery at the most valuable enemy hex",
}


#: the players whose behaviour takes settings (``--ai german=heuristic:aggression=0.7``) -> their model
SETTINGS_MODELS = {"heuristic": RedFlagsSettings}
#: the same players -> the settings' canonical text of a ``k=v,...``/``@FILE`` text (raises ValueError)
SETTINGS_PLAYERS = {name: functools.partial(canonical_text, m) for name, m in SETTINGS_MODELS.items()}


def canonical_settings(spec: str) -> str:
    """The player spec with its settings validated and written out (``"heuristic:@s.json"`` ->
    ``"heuristic:aggression=0.7"``; :func:`core.behaviour_settings.canonical_spec`). Raises
    ValueError naming an unknown setting, a value out of range, an unreadable file, or a player
    that takes no settings."""
    return canonical_spec(spec, SETTINGS_PLAYERS)


def make_player(spec: str, seed: int):
    """The player of ``spec`` seeded ``seed``: ``NAME[:k=v,...]`` whose settings go to the
    heuristic (:class:`core.redflags.ai_settings.RedFlagsSettings`). Raises KeyError naming the
    known players, ValueError (:class:`core.behaviour_settings.SettingsError`) for settings a
    player does not take or a bad setting."""
    return spec_player(spec, seed, PLAYERS, SETTINGS_MODELS, lambda base: KeyError(
        f"unknown Red Flags player {base!r}; known: {', '.join(sorted(PLAYERS))}"))
